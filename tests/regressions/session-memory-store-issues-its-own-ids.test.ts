/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, memorySessionStore } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

/**
 * core/session/store.ts `memorySessionStore().commit`: session
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

test.run();
