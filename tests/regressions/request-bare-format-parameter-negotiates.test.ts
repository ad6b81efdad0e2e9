/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

class PostsController extends Controller {
  index(): void {
    this.respond_to({ html: () => this.render({ text: 'html list' }), json: () => this.render({ json: ['a'] }) });
  }
}

/**
 * the dispatch stage's unknown-format guard (core/pipeline/dispatch.ts): a
 * query naming `format` without a value (`/posts?format&page=2`, a link
 * built by hand) gives the parameter null, which the guard read as a
 * format named "null" and answered 406 Not Acceptable. Rails reads a nil
 * format as none, and negotiates from the Accept header, as it does for
 * `?format=`.
 */
test('a format parameter without a value leaves the format to the Accept header', async () => {
  const app = appWith({ posts: PostsController }, { draw: (map) => map.resources('posts') });
  const html = await call(app, 'GET /posts?format&page=2', { headers: { accept: 'text/html' } });
  assert.is(html.status, 200);
  assert.is(html.body, 'html list');
  const json = await call(app, 'GET /posts?format', { headers: { accept: 'application/json' } });
  assert.is(json.status, 200);
  assert.is(json.body, '["a"]');
  // A value no format is registered for is still refused.
  assert.is((await call(app, 'GET /posts?format=nope')).status, 406);
});

test.run();
