/**
 * The example blog with forgery protection on (production; the test
 * environment turns it off): forms are accepted with their page's token and
 * session cookie, refused with public/422.html without them, and API calls
 * with a JSON or XML body need no token. Every test runs on both engines over HTTP, and through the WebSocket tunnel.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { RUNS, blogSuite, cookieAfter, locationId, locationPath } from './support.ts';

const PAGE_422 = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../examples/blog/public/422.html'), 'utf8');

for (const run of RUNS) {
  const it = blogSuite('blog: forgery protection (production)', run, { environment: 'production' });

  it('every form page carries a token, the same one for the whole session', async ({ blog }) => {
    const { cookie, token } = await blog.session('/posts/new');
    assert.match(token, /^[A-Za-z0-9+/=]{20,}$/);
    for (const path of ['/posts/1', '/posts/1/edit', '/account/edit', '/admin/posts', '/login']) {
      const page = await (await blog.get(path, { Cookie: cookie })).text();
      const tokens = [...page.matchAll(/name="authenticity_token" value="([^"]*)"/g)].map((m) => m[1]);
      assert.ok(tokens.length > 0, path);
      assert.ok(tokens.every((t) => t === token), path);
    }
  });

  it('a form posted with its token and session cookie is accepted (POST, PUT and DELETE through _method)', async ({ blog }) => {
    const session = await blog.session();
    const token = session.token;
    let cookie = session.cookie;
    const created = await blog.submit('/posts', { authenticity_token: token, 'post[title]': 'Protected', 'post[body]': 'And accepted' }, { Cookie: cookie });
    assert.is(created.status, 302);
    cookie = cookieAfter(created, cookie);
    const id = locationId(created);
    const updated = await blog.submit(`/posts/${id}`, { authenticity_token: token, _method: 'put', 'post[title]': 'Renamed' }, { Cookie: cookie });
    assert.is(updated.status, 302);
    cookie = cookieAfter(updated, cookie);
    assert.is(blog.store.posts.find(id).title, 'Renamed');
    // The flash survives the redirect in production too.
    const shown = await blog.get(locationPath(updated), { Cookie: cookie });
    assert.match(await shown.text(), '<p class="flash notice">Post was successfully updated.</p>');
    cookie = cookieAfter(shown, cookie);
    const deleted = await blog.submit(`/posts/${id}`, { authenticity_token: token, _method: 'delete' }, { Cookie: cookie });
    assert.is(deleted.status, 302);
    assert.is(blog.store.posts.count((p) => p.id === id), 0);
  });

  it('a form without the right token is refused with public/422.html, and changes nothing', async ({ blog }) => {
    const mine = await blog.session();
    const theirs = await blog.session();
    const attempts: [string, Record<string, string>, Record<string, string>][] = [
      ['no token, no cookie', { 'post[title]': 'Forged', 'post[body]': 'x' }, {}],
      ['no token', { 'post[title]': 'Forged', 'post[body]': 'x' }, { Cookie: mine.cookie }],
      ['an empty token', { authenticity_token: '', 'post[title]': 'Forged', 'post[body]': 'x' }, { Cookie: mine.cookie }],
      ["another session's token", { authenticity_token: theirs.token, 'post[title]': 'Forged', 'post[body]': 'x' }, { Cookie: mine.cookie }],
      ['a token without its session', { authenticity_token: mine.token, 'post[title]': 'Forged', 'post[body]': 'x' }, {}],
    ];
    for (const [label, fields, headers] of attempts) {
      const res = await blog.submit('/posts', fields, headers);
      assert.is(res.status, 422, label);
      assert.is(await res.text(), PAGE_422, label);
    }
    for (const [path, method] of [['/posts/1', 'delete'], ['/account', 'delete'], ['/admin/posts/2', 'delete'], ['/logout', 'delete'], ['/posts/3/publish', 'put']]) {
      const res = await blog.submit(path, { _method: method }, { Cookie: mine.cookie });
      assert.is(res.status, 422, `${method} ${path}`);
    }
    assert.is(blog.store.posts.count(), 3);
    assert.ok(blog.store.account !== null);
    assert.is(blog.store.posts.find(3).published, false);
  });

  it('API calls with a JSON or XML body need no token', async ({ blog }) => {
    const json = await blog.json('POST', '/posts.json', { post: { title: 'Over JSON', body: 'No token needed' } });
    assert.is(json.status, 201);
    const xml = await blog.xml('PUT', '/posts/1.xml', '<post><title>Over XML</title></post>');
    assert.is(xml.status, 200);
    const destroyed = await blog.fetch('/posts/2.json', { method: 'DELETE', headers: { 'Content-Type': 'application/json' } });
    assert.is(destroyed.status, 204);
    // Without a body type, a DELETE is judged like a form.
    assert.is((await blog.fetch('/posts/3.json', { method: 'DELETE' })).status, 422);
  });

  it.run();
}
