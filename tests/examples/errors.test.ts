/**
 * The example blog's HTTP semantics and error paths over real HTTP: HEAD,
 * ETag revalidation, and 404, 405, 406, 422 and 500 (with the pages of
 * public/, and nothing internal in a 500). Every test runs on both engines over HTTP, and through the WebSocket tunnel.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { RUNS, blogSuite } from './support.ts';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '../../examples/blog/public');
const page = (name: string) => readFileSync(join(PUBLIC, name), 'utf8');

for (const run of RUNS) {
  const it = blogSuite('blog: HEAD and ETags', run);

  it('HEAD answers like GET (status, type, length, ETag) without a body', async ({ blog }) => {
    // Pages with forms carry the session's token: a browser sends its session cookie back.
    const { cookie } = await blog.session();
    for (const path of ['/posts', '/posts/1', '/posts/1.json', '/posts/2/comments.xml', '/account', '/admin']) {
      const get = await blog.get(path, { Cookie: cookie });
      const getBody = Buffer.from(await get.arrayBuffer());
      const head = await blog.fetch(path, { method: 'HEAD', headers: { Cookie: cookie } });
      assert.is(head.status, 200, path);
      assert.is(head.headers.get('content-type'), get.headers.get('content-type'), path);
      assert.is(head.headers.get('content-length'), String(getBody.byteLength), path);
      assert.is(head.headers.get('etag'), get.headers.get('etag'), path);
      assert.is((await head.arrayBuffer()).byteLength, 0, path);
    }
    assert.is(blog.requests.at(-1)!.method, 'HEAD');
  });

  it('HEAD of a static file and of an error page has the same length as GET, and no body', async ({ blog }) => {
    for (const [path, status] of [['/stylesheets/blog.css', 200], ['/no/such/page', 404]] as const) {
      const get = await blog.get(path);
      const length = (await get.arrayBuffer()).byteLength;
      const head = await blog.fetch(path, { method: 'HEAD' });
      assert.is(head.status, status, path);
      assert.is(head.headers.get('content-length'), String(length), path);
      assert.is((await head.arrayBuffer()).byteLength, 0, path);
    }
  });

  it('a page carries an ETag; If-None-Match with it answers 304 with no body', async ({ blog }) => {
    const { cookie } = await blog.session();
    for (const path of ['/posts/1', '/posts.json', '/posts/1/comments/1.xml', '/posts']) {
      const first = await blog.get(path, { Cookie: cookie });
      const etag = first.headers.get('etag');
      assert.ok(etag && /^"[0-9a-f]{32}"$/.test(etag), `${path}: ${etag}`);
      assert.is(first.headers.get('cache-control'), 'private, max-age=0, must-revalidate');
      const again = await blog.get(path, { Cookie: cookie, 'If-None-Match': etag! });
      assert.is(again.status, 304, path);
      assert.is(again.headers.get('etag'), etag, path);
      assert.is(await again.text(), '', path);
      assert.is(again.headers.get('content-length'), null, `${path}: a 304 has no length`);
      const other = await blog.get(path, { Cookie: cookie, 'If-None-Match': '"something-else"' });
      assert.is(other.status, 200, path);
    }
  });

  it('a page with forms differs per session (its token), so each session revalidates its own copy', async ({ blog }) => {
    const a = await blog.session();
    const b = await blog.session();
    assert.is.not(a.token, b.token);
    const etagA = (await blog.get('/posts/1', { Cookie: a.cookie })).headers.get('etag')!;
    assert.is((await blog.get('/posts/1', { Cookie: b.cookie, 'If-None-Match': etagA })).status, 200);
    // A page without forms is the same for everyone.
    const list = (await blog.get('/posts')).headers.get('etag')!;
    assert.is((await blog.get('/posts', { Cookie: b.cookie, 'If-None-Match': list })).status, 304);
  });

  it('after an update the old ETag no longer matches', async ({ blog }) => {
    const { cookie } = await blog.session();
    const etag = (await blog.get('/posts/2', { Cookie: cookie })).headers.get('etag')!;
    await blog.submit('/posts/2', { _method: 'put', 'post[title]': 'Changed title' }, { Cookie: cookie });
    const res = await blog.get('/posts/2', { Cookie: cookie, 'If-None-Match': etag });
    assert.is(res.status, 200);
    assert.is.not(res.headers.get('etag'), etag);
  });

  it('redirects, creations and errors carry no ETag', async ({ blog }) => {
    const redirect = await blog.submit('/posts/3/publish', { _method: 'put' });
    const created = await blog.json('POST', '/posts.json', { post: { title: 'T', body: 'B' } });
    const missing = await blog.get('/posts/99');
    for (const res of [redirect, created, missing]) assert.is(res.headers.get('etag'), null, String(res.status));
  });

  it.run();

  const errors = blogSuite('blog: error paths', run);

  errors('404: an unknown path gets public/404.html', async ({ blog }) => {
    for (const path of ['/nope', '/posts/1/nope', '/admin/posts/1/edit', '/account/1']) {
      const res = await blog.get(path, { Accept: 'text/html' });
      assert.is(res.status, 404, path);
      assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
      assert.is(await res.text(), page('404.html'), path);
    }
  });

  errors('404: an unknown record is the 404 page for browsers, an error in their format for API clients', async ({ blog }) => {
    for (const path of ['/posts/999', '/posts/999/edit', '/posts/999/comments', '/posts/1/comments/999', '/admin/posts/999', '/posts/abc']) {
      const res = await blog.get(path, { Accept: 'text/html' });
      assert.is(res.status, 404, path);
      assert.is(await res.text(), page('404.html'), path);
    }
    const json = await blog.get('/posts/999.json');
    assert.is(json.status, 404);
    assert.is(json.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(await json.json(), { error: "Couldn't find Post with ID=999" });
    const xml = await blog.get('/posts/1/comments/999.xml');
    assert.is(xml.status, 404);
    assert.match(await xml.text(), '<errors type="array">\n  <error>Couldn&#39;t find Comment with ID=999</error>\n</errors>');
    assert.is((await blog.submit('/posts/999', { _method: 'delete' })).status, 404);
    assert.is((await blog.fetch('/posts/999.json', { method: 'DELETE' })).status, 404);
  });

  errors('405: a known path with the wrong method lists the allowed ones', async ({ blog }) => {
    const cases: [string, string, string][] = [
      ['POST', '/posts/1', 'GET, PUT, DELETE'],
      ['DELETE', '/posts', 'GET, POST'],
      ['PUT', '/posts/1/comments', 'GET, POST'],
      ['GET', '/posts/1/publish', 'PUT'],
      ['POST', '/login', 'GET'],
      ['GET', '/logout', 'DELETE'],
      ['PUT', '/admin/posts/1', 'GET, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await blog.fetch(path, { method });
      assert.is(res.status, 405, `${method} ${path}`);
      assert.is(res.headers.get('allow'), allow, `${method} ${path}`);
    }
    // `_method` is routed like the real method.
    const simulated = await blog.submit('/posts', { _method: 'delete' });
    assert.is(simulated.status, 405);
    assert.is(simulated.headers.get('allow'), 'GET, POST');
  });

  errors('406: a respond_to action asked for a type it does not offer', async ({ blog }) => {
    for (const path of ['/posts', '/posts/1', '/posts/1/comments', '/account', '/admin/posts']) {
      const res = await blog.get(path, { Accept: 'image/png' });
      assert.is(res.status, 406, path);
      assert.is(await res.text(), '', path);
    }
    // An extension the app does not offer for that resource.
    assert.is((await blog.get('/posts/1.js')).status, 406);
  });

  errors('422: an invalid post over JSON and XML answers the messages', async ({ blog }) => {
    const json = await blog.json('POST', '/posts.json', { post: { title: '', body: '' } });
    assert.is(json.status, 422);
    assert.equal(await json.json(), { errors: ["Title can't be blank", "Body can't be blank"] });
    assert.is(json.headers.get('location'), null);
    const long = await blog.json('PUT', '/posts/1.json', { post: { title: 'x'.repeat(121) } });
    assert.is(long.status, 422);
    assert.equal(await long.json(), { errors: ['Title is too long (maximum is 120 characters)'] });
    assert.is(blog.store.posts.find(1).title, 'Welcome to Signalbox', 'the stored post is unchanged');
    const xml = await blog.xml('POST', '/posts/1/comments.xml', '<comment><author></author><body>hi</body></comment>');
    assert.is(xml.status, 422);
    assert.match(await xml.text(), '<errors type="array">\n  <error>Author can&#39;t be blank</error>\n</errors>');
    assert.is(blog.store.posts.count(), 3);
    assert.is(blog.store.comments.count(), 3);
  });

  errors('422: an invalid HTML form comes back with the messages and what was typed', async ({ blog }) => {
    const res = await blog.submit('/posts', { 'post[title]': '', 'post[body]': 'Kept <body>' });
    assert.is(res.status, 422);
    assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const form = await res.text();
    assert.match(form, '<title>New post · Signalbox Blog</title>');
    assert.match(form, "<h2>1 error prohibited this post from being saved</h2>");
    assert.match(form, "<li>Title can&#39;t be blank</li>");
    assert.match(form, '<textarea name="post[body]" id="post_body" rows="10" cols="60">Kept &lt;body&gt;</textarea>');
    assert.match(form, '<form action="/posts" method="post" class="record">');

    const edit = await blog.submit('/posts/2', { _method: 'put', 'post[title]': 'Still here', 'post[body]': ' ' });
    assert.is(edit.status, 422);
    const editForm = await edit.text();
    assert.match(editForm, '<input type="text" name="post[title]" id="post_title" value="Still here" size="60">');
    assert.match(editForm, /<form action="\/posts\/2" method="post" class="record"><input type="hidden" name="_method" value="put">/);
    assert.is(blog.store.posts.find(2).title, 'Routing in five minutes', 'the stored post is unchanged');

    const comment = await blog.submit('/posts/1/comments', { 'comment[author]': 'Nobody', 'comment[body]': '' });
    assert.is(comment.status, 422);
    assert.match(await comment.text(), "<li>Body can&#39;t be blank</li>");
  });

  errors('500: an ordinary exception shows public/500.html and nothing of the error', async ({ blog }) => {
    const res = await blog.get('/admin/crash', { Accept: 'text/html' });
    assert.is(res.status, 500);
    assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const body = await res.text();
    assert.is(body, page('500.html'));
    assert.not.match(body, 'Deliberate');
    assert.not.match(body, /\bat \S+ \(/);
    assert.not.match(body, 'dashboard');
    const logged = blog.lines.find((l) => l.msg === 'request errored') as { err?: { message?: string } } | undefined;
    assert.match(logged?.err?.message ?? '', 'Deliberate crash', 'the error is logged for the operator');
    assert.is((await blog.get('/admin/crash.json')).status, 404, 'the crash route has no format');
  });

  errors('501: a method HTTP does not define here', async ({ blog }) => {
    const res = await blog.fetch('/posts', { method: 'BREW' });
    assert.is(res.status, 501);
  });

  errors.run();

  const production = blogSuite('blog: production 500', run, { environment: 'production' });

  production('in production a local visitor also gets public/500.html, not diagnostics', async ({ blog }) => {
    const res = await blog.get('/admin/crash');
    assert.is(res.status, 500);
    assert.is(await res.text(), page('500.html'));
  });

  production.run();
}
