/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith } from '../support/harness.ts';

/**
 * A request with an empty Host (`Host:` with no value, which node:http and the
 * tunnel both pass on) reached the action, and the first URL it made with a
 * host (`redirect_to(this.routes.posts_url())`) threw MissingHost: a 500 for the
 * client's own bad input, after the action had already done its work. An
 * "http" URI with an empty host is invalid (RFC 9110 §4.2.1), so the request
 * is refused as it is read, before anything runs.
 */
test('a request whose Host is empty is refused 400 before its action runs', async () => {
  let destroyed = 0;
  class PostsController extends Controller {
    destroy(): void {
      destroyed++;
      this.redirect_to(this.routes.posts_url());
    }
  }
  const app = appWith({ posts: PostsController }, { draw: (map) => map.resources('posts') });
  for (const host of ['', ':8080']) {
    const response = await app.handle({ method: 'DELETE', url: '/posts/1', headers: { host } });
    assert.is(response.status, 400, JSON.stringify(host));
  }
  assert.is(destroyed, 0);
  const named = await app.handle({ method: 'DELETE', url: '/posts/1', headers: { host: 'test.host' } });
  assert.is(named.status, 302);
  assert.is(named.headers.Location, 'http://test.host/posts');
});

test.run();
