/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, get, withServer } from '../support/harness.ts';

class PostsController extends Controller {
  index(): void { this.render({ json: { page: this.params.page ?? null, path: this.request.path } }); }
  show(): void { this.render({ json: { id: this.params.id, path: this.request.path } }); }
}

/**
 * a request target with a fragment (core/pipeline/run.ts): Node's own
 * `http.request({ path })` sends a URL it is given whole, `#top` included,
 * and the fragment became part of the path and of the last parameter:
 * `/posts/1#comments` showed post "1#comments", `/posts?page=2#top` asked
 * for page "2#top". Rails' servers set the fragment aside.
 */
test('a fragment sent on the request line reaches neither the path nor the parameters', async () => {
  const app = appWith({ posts: PostsController }, { draw: (map) => map.resources('posts') });
  await withServer(app, {}, async (server) => {
    const shown = await get(server, '/posts/1#comments');
    assert.is(shown.status, 200);
    assert.equal(JSON.parse(shown.body), { id: '1', path: '/posts/1' });
    const listed = await get(server, '/posts?page=2#top');
    assert.equal(JSON.parse(listed.body), { page: '2', path: '/posts' });
    // An escaped # is data, as ever.
    const escaped = await get(server, '/posts/a%23b');
    assert.equal(JSON.parse(escaped.body), { id: 'a#b', path: '/posts/a%23b' });
  });
});

test('the trace of a request with a fragment names its path without it', async () => {
  const app = appWith({ posts: PostsController }, { draw: (map) => map.resources('posts') });
  const paths: string[] = [];
  const stop = app.trace((event) => {
    if (event.kind === 'request') paths.push(event.path);
  });
  try {
    await app.handle({ method: 'GET', url: '/posts/1#comments', headers: { host: 'test.host' } });
  } finally {
    stop();
  }
  assert.equal(paths, ['/posts/1']);
});

test.run();
