/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, memorySessionStore } from '../../core/index.ts';
import { appWith, call, form } from '../support/harness.ts';

/**
 * the session's authenticity token (core/session/token.ts): with
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

test.run();
