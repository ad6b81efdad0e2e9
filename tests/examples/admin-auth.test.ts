/**
 * The example blog's admin area is behind HTTP Basic: no credentials, or
 * wrong ones, get 401 with a challenge naming the realm; the configured ones
 * get in. Every test runs on both engines over HTTP, and through the WebSocket tunnel.
 */
import * as assert from 'uvu/assert';
import { ADMIN, RUNS, blogSuite } from './support.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

for (const run of RUNS) {
  const it = blogSuite('blog: admin sign-in', run);

  it('without credentials the admin area answers 401 with a Basic challenge for its realm', async ({ blog }) => {
    for (const path of ['/admin', '/admin/posts', '/admin/posts/1.json']) {
      const res = await blog.get(path, { Authorization: '' });
      assert.is(res.status, 401, path);
      assert.is(res.headers.get('www-authenticate'), 'Basic realm="Blog admin"', path);
      assert.is(await res.text(), 'HTTP Basic: Access denied.\n', path);
    }
  });

  it('a wrong user or password, or a malformed header, is refused the same way', async ({ blog }) => {
    for (const authorization of [basic(ADMIN.user, 'wrong'), basic('someone', ADMIN.password), basic('', ''), 'Basic !!!', 'Bearer abc', basic(ADMIN.user, `${ADMIN.password}x`)]) {
      const res = await blog.get('/admin', { Authorization: authorization });
      assert.is(res.status, 401, authorization);
    }
    assert.is(blog.requests.at(-1)!.controller, 'admin/dashboard', 'the log still names what was asked for');
  });

  it('the configured credentials get in, from Authorization or the proxy-rewritten variant', async ({ blog }) => {
    assert.is((await blog.get('/admin', { Authorization: basic(ADMIN.user, ADMIN.password) })).status, 200);
    const rewritten = await blog.get('/admin/posts', { Authorization: '', 'Redirect-X-Http-Authorization': basic(ADMIN.user, ADMIN.password) });
    assert.is(rewritten.status, 200);
  });

  it('public pages never ask for credentials', async ({ blog }) => {
    const res = await blog.get('/posts', { Authorization: '' });
    assert.is(res.status, 200);
    assert.is(res.headers.get('www-authenticate'), null);
  });

  it.run();
}
