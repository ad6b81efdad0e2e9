/**
 * A regression test: the comment above each test says what used to happen,
 * and the test keeps it from coming back.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, createApp, draw, serve, type CreateAppOptions } from '../../index.ts';
import { tunnel } from '../../transport/tunnel-client.ts';

const test = suite('options given as undefined');

class PostsController extends Controller {
  index(): void {
    this.render({ json: { params: this.params } });
  }
}

const routes = draw((map) => map.connect(':controller/:action'));
const post = { method: 'POST', url: '/posts/index', headers: { host: 'example.com', 'content-type': 'application/json' }, body: '{"title":"Hi"}' };

/**
 * machines/app.ts `createApp`: `config` was spread over the defaults, so a key given as undefined
 * (`config: { forgeryExemptTypes: process.env.X ? [...] : undefined }`) replaced its default with
 * undefined: createApp accepted it, and every request then failed with a TypeError (500). The other
 * options, and the type of `config`, already read undefined as "not given".
 */
test('a config key given as undefined keeps its default', async () => {
  const given: CreateAppOptions['config'] = {
    hosts: ['example.com'], forgeryExemptTypes: undefined, limits: undefined, default_charset: undefined,
    perform_caching: undefined, cacheHeader: undefined, trustProxy: undefined,
  };
  const app = createApp({ routes, controllers: { posts: PostsController }, environment: 'production', logger: false, session: false, config: given });
  const plain = createApp({ routes, controllers: { posts: PostsController }, environment: 'production', logger: false, session: false, config: { hosts: ['example.com'] } });
  assert.equal(app.config, plain.config);
  const res = await app.handle(post);
  assert.is(res.status, 200);
  assert.is(res.headers['Content-Type'], 'application/json; charset=utf-8');
});

/**
 * transport/http.ts `serve`: the tunnel's options were spread over those `serve()` passes on, so
 * `tunnel: { maxHeaders: undefined }` replaced serve's own `maxHeaders` with the tunnel's default (100)
 * for the upgrade request.
 */
test('a tunnel option given as undefined keeps the value serve() gives it', async () => {
  const app = createApp({ routes, controllers: { posts: PostsController }, environment: 'test', logger: false });
  const server = await serve(app, { port: 0, host: '127.0.0.1', maxHeaders: 20, tunnel: { maxHeaders: undefined } });
  const url = `${server.url.replace('http', 'ws')}/_tunnel`;
  try {
    const few = await tunnel(url, { reconnect: false });
    assert.is((await few.request({ path: '/posts/index' })).status, 200);
    few.close();
    const headers = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x-header-${i}`, '1']));
    const refused = await tunnel(url, { reconnect: false, headers }).then((many) => { many.close(); return 'opened'; }, (error: unknown) => String(error));
    assert.match(refused, '431', "an upgrade with more header lines than serve()'s maxHeaders is refused");
  } finally {
    await server.close();
  }
});

test.run();
