/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

/**
 * the authenticity token's check (core/session/token.ts): the token may come
 * in the form field or in the X-CSRF-Token header, but when the field was
 * present at all, the header was never looked at. A script that sends the
 * page's token in the header while posting a form whose `authenticity_token`
 * field is empty or stale (a page kept from before the session changed) was
 * refused 422 though it proved itself. Either place now proves the request;
 * neither holding the session's token is still a 422.
 */
test('the X-CSRF-Token header proves a request whose form field is empty or stale', async () => {
  class PostsController extends Controller {
    static {
      this.protect_from_forgery();
    }
    new(): void { this.render({ text: this.form_authenticity_token() }); }
    create(): void { this.render({ text: 'created' }); }
  }
  const app = appWith({ posts: PostsController }, { draw: (map) => map.resources('posts'), config: { allow_forgery_protection: true } });
  const page = await call(app, 'GET /posts/new');
  const cookie = page.header('set-cookie')!.split(';')[0];
  const token = page.body;
  const post = (field: string, header: string | null) => call(app, 'POST /posts', {
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...(header === null ? {} : { 'x-csrf-token': header }) },
    body: `authenticity_token=${encodeURIComponent(field)}&title=x`,
  });
  assert.is((await post('', token)).status, 200, 'an empty field, the token in the header');
  assert.is((await post('stale-token', token)).body, 'created', 'a stale field, the token in the header');
  assert.is((await post(token, 'stale-token')).status, 200, 'the token in the field, a stale header');
  assert.is((await post('stale-token', 'other-stale-token')).status, 422, 'neither');
  assert.is((await post('', null)).status, 422, 'an empty field and no header');
});

test.run();
