/**
 * Bugs found writing the request-layer specifications (controller, views,
 * http, session, pipeline, transport), each now fixed. The comment above each
 * test names the file, the input, and what used to happen; the test keeps it
 * from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultErrorPage } from '../../core/pipeline/default-pages.ts';
import { Controller, memorySessionStore } from '../../core/index.ts';
import { appWith, call, form } from '../core/pipeline/support.ts';

/**
 * Bug 1 - the session's authenticity token (core/session/token.ts): with
 * `protect_from_forgery({ secret })` and a store that keeps sessions by id
 * (`memorySessionStore()`), a first-time visitor's form can never be
 * submitted. On the first GET there is no session id yet, so the form gets a
 * random token stored in the session; that write creates the session (and its
 * id). On the POST the session has an id, so the expected token is now
 * HMAC(secret, id) and the form's token no longer matches: 422 instead of 200.
 * Every later form works, which hides the bug from anyone testing logged in.
 */
test('a form rendered on the first visit can be submitted (protect_from_forgery with a secret, memory store)', async () => {
  class PostsController extends Controller {
    static {
      this.protect_from_forgery({ secret: 'forgery-secret-forgery-secret-123' });
    }
    new(): void { this.render({ text: this.form_authenticity_token() }); }
    create(): void { this.render({ text: 'created' }); }
  }
  const app = appWith({ posts: PostsController }, { draw: (map) => map.resources('posts'), session_store: memorySessionStore(), config: { allow_forgery_protection: true } });
  const page = await call(app, 'GET /posts/new');
  const cookie = page.header('set-cookie')!.split(';')[0];
  const submit = form({ authenticity_token: page.body });
  const res = await call(app, 'POST /posts', { ...submit, headers: { ...submit.headers, cookie } });
  assert.is(res.status, 200, 'the token the page gave must be accepted with the session it came with');
  assert.is(res.body, 'created');
});

/**
 * Bug 2 - core/session/store.ts `memorySessionStore().commit`: session
 * fixation. A well-formed `_session_id` cookie that names no stored session
 * is adopted: `commit` stores the new session under the id the client chose
 * and sends it back. An attacker who plants `_session_id=<known id>` in a
 * victim's browser (a sibling subdomain can) then shares the victim's session
 * once the victim logs in. Expected: an id the store never issued is replaced
 * by a fresh random one. Was: `Set-Cookie: _session_id=aaaa...a` and the
 * store holds the planted id.
 */
test('the memory store never adopts a session id it did not issue', async () => {
  class SessionsController extends Controller {
    create(): void {
      this.session.user_id = 42;
      this.render({ text: 'logged in' });
    }
  }
  const store = memorySessionStore();
  const app = appWith({ sessions: SessionsController }, { session_store: store });
  const planted = 'a'.repeat(32);
  const res = await call(app, 'POST /sessions/create', { headers: { cookie: `_session_id=${planted}` } });
  assert.not.ok(store.sessions.has(planted), 'the planted id must not name the new session');
  assert.not.match(res.header('set-cookie') ?? '', planted);
});

/**
 * Bug 3 - core/pipeline/failures.ts `isLocal`: diagnostics (error message
 * and backtrace) are shown to remote clients behind a trusted proxy. With
 * `consider_all_requests_local` (the development default) and
 * `trustProxy: true`, a request arriving through a proxy on 127.0.0.1 with
 * `X-Forwarded-For: 203.0.113.9` is a remote client (its `request.remote_ip`
 * is 203.0.113.9), yet `isLocal` looks only at the socket peer and shows it
 * the diagnostics page. Rails' `local_request?` requires both the peer and
 * `remote_ip` to be local, as core/request/env.ts `localRequest` already does.
 * Expected: the public 500 page. Was: `<h1>Error in ...` with the message and stack.
 */
test('a remote client behind a trusted local proxy never sees diagnostics', async () => {
  class PagesController extends Controller {
    go(): void {
      throw new Error('database password is hunter2');
    }
  }
  const app = appWith({ pages: PagesController }, { config: { consider_all_requests_local: true, trustProxy: true } });
  const res = await call(app, 'GET /pages/go', { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.is(res.status, 500);
  assert.not.match(res.body, 'hunter2');
  assert.is(res.body, defaultErrorPage(500));
});

/**
 * Bug 4 (minor) - core/controller/base.ts `_setStatus`: a status code with no
 * standard reason phrase gets its own number as a custom reason. For
 * `render({ status: 299 })` `interpretStatus` answers `'299'` (no space), so
 * `line.slice(line.indexOf(' ') + 1)` is the whole line and `reason` becomes
 * `'299'`; over HTTP the status line reads `HTTP/1.1 299 299`. Expected: no
 * custom reason (`reason` absent, as `Response.reason` documents: null for
 * the standard one). Was: `reason: '299'`.
 */
test('a status without a standard reason phrase gets no made-up reason', async () => {
  class PagesController extends Controller {
    go(): void {
      this.render({ text: 'x', status: 299 });
    }
  }
  const res = await call(appWith({ pages: PagesController }), 'GET /pages/go');
  assert.is(res.status, 299);
  assert.is(res.reason, undefined);
});

test.run();
