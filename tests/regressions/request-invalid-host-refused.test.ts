/**
 * A regression test: the comment above each test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, get, withServer } from '../support/harness.ts';

/** An app whose destroy redirects to a URL made with the request's host, and how many times it ran. */
function postsApp() {
  const ran = { destroyed: 0 };
  class PostsController extends Controller {
    destroy(): void {
      ran.destroyed++;
      this.redirect_to(this.routes.posts_url());
    }
  }
  return { app: appWith({ posts: PostsController }, { draw: (map) => map.resources('posts') }), ran };
}

/**
 * A request with an empty Host (`Host:` with no value, which node:http and the
 * tunnel both pass on) reached the action, and the first URL it made with a
 * host (`redirect_to(this.routes.posts_url())`) threw MissingHost: a 500 for the
 * client's own bad input, after the action had already done its work. An
 * "http" URI with an empty host is invalid (RFC 9110 §4.2.1), so the request
 * is refused as it is read, before anything runs.
 */
test('a request whose Host is empty is refused 400 before its action runs', async () => {
  const { app, ran } = postsApp();
  for (const host of ['', ':8080']) {
    const response = await app.handle({ method: 'DELETE', url: '/posts/1', headers: { host } });
    assert.is(response.status, 400, JSON.stringify(host));
  }
  assert.is(ran.destroyed, 0);
  const named = await app.handle({ method: 'DELETE', url: '/posts/1', headers: { host: 'test.host' } });
  assert.is(named.status, 302);
  assert.is(named.headers.Location, 'http://test.host/posts');
});

/**
 * The parse stage's Host check (core/pipeline/parse.ts): node:http passes on
 * any Host value, and one that is no host name (`evil.example/x?`, `a b`,
 * `user@host`, `a:1:2`) was copied whole into every URL the app made with a
 * host: `DELETE /posts/1` with `Host: evil.example/x?` ran the action and
 * redirected to `http://evil.example/x?/posts`. A Host that is not
 * `host[:port]` is invalid (RFC 9112 §3.2 asks for a 400), so the request is
 * refused as it is read, before anything runs.
 */
test('a request whose Host is not a host name and port is refused 400 before its action runs', async () => {
  const { app, ran } = postsApp();
  await withServer(app, {}, async (server) => {
    for (const host of ['evil.example/x?', 'a b', 'user@example.com', 'example.com:80:90', '[::1', 'example.com\\x']) {
      const res = await get(server, '/posts/1', { method: 'DELETE', headers: { Host: host } });
      assert.is(res.status, 400, host);
      assert.match(res.body, 'is not a host name or address with an optional port', host);
    }
    assert.is(ran.destroyed, 0);
    for (const [host, location] of [
      ['example.com:8080', 'http://example.com:8080/posts'],
      ['[2001:db8::1]:8008', 'http://[2001:db8::1]:8008/posts'],
      ['192.168.1.200', 'http://192.168.1.200/posts'],
      ['my_host.internal.', 'http://my_host.internal./posts'],
    ]) {
      const res = await get(server, '/posts/1', { method: 'DELETE', headers: { Host: host } });
      assert.is(res.status, 302, host);
      assert.is(res.headers.location, location, host);
    }
    assert.is(ran.destroyed, 4);
  });
});

/**
 * A Host whose port is no TCP port (`127.0.0.1:99999`) passed the Host check
 * (RFC 3986's port is any digits) and reached the action, and every URL the app
 * made with it named a port no server has, one that WHATWG URL parsers (browsers,
 * `new URL`) refuse. It names no server this one could be, so it is refused 400.
 */
test('a request whose Host names a port over 65535 is refused 400 before its action runs; a port written with leading zeros is still that port', async () => {
  const { app, ran } = postsApp();
  await withServer(app, {}, async (server) => {
    for (const host of ['127.0.0.1:99999', 'example.com:65536', 'example.com:1000000000000000000000']) {
      const res = await get(server, '/posts/1', { method: 'DELETE', headers: { Host: host } });
      assert.is(res.status, 400, host);
    }
    assert.is(ran.destroyed, 0);
    const res = await get(server, '/posts/1', { method: 'DELETE', headers: { Host: 'example.com:065535' } });
    assert.is(res.status, 302);
    assert.is(res.headers.location, 'http://example.com:65535/posts');
  });
});

test.run();
