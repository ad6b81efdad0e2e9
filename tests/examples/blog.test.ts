/**
 * The example blog over real HTTP, as a browser and as an API client use it:
 * pages with their layout, the JSON and XML of every resource, and forms
 * that PUT and DELETE through `_method`. Every test runs on both engines over HTTP, and through the WebSocket tunnel.
 */
import * as assert from 'uvu/assert';
import { RUNS, blogSuite, cookieAfter, locationId, locationPath } from './support.ts';

for (const run of RUNS) {
  const it = blogSuite('blog: pages and formats', run);

  it('the root is the post list, in the application layout with its stylesheet and navigation', async ({ blog }) => {
    const res = await blog.get('/', { Accept: 'text/html' });
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const page = await res.text();
    assert.match(page, /^<!DOCTYPE html>/);
    assert.match(page, '<title>Posts · Signalbox Blog</title>');
    assert.match(page, '<link rel="stylesheet" href="/stylesheets/blog.css">');
    for (const link of ['/posts', '/posts/new', '/account', '/admin', '/login']) assert.match(page, `href="${link}"`);
    assert.match(page, '<form action="/posts/search" method="get" class="search">');
    // Newest first, drafts marked.
    assert.ok(page.indexOf('A draft about request machines') < page.indexOf('Welcome to Signalbox'));
    assert.match(page, '<span class="badge">draft</span>');
    assert.is(blog.app.engine, run.engine);
    assert.is(blog.requests[0].controller, 'posts');
    assert.is(blog.requests[0].action, 'index');
  });

  it('the stylesheet the layout links is served from public/', async ({ blog }) => {
    const res = await blog.get('/stylesheets/blog.css');
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.match(await res.text(), 'body {');
    assert.is(blog.requests.length, 0, 'served before routing');
  });

  it('a post page shows the post, its comments, a comment form and links to its JSON and XML', async ({ blog }) => {
    const page = await (await blog.get('/posts/1')).text();
    assert.match(page, '<h1>Welcome to Signalbox</h1>');
    assert.match(page, '<p class="meta">Written 3 March 2025, 14:05 UTC</p>');
    assert.match(page, '<h2>2 comments</h2>');
    assert.match(page, '<strong>Ada</strong> wrote:');
    assert.match(page, '<a href="/posts/1/comments/1">Permalink</a>');
    assert.match(page, '<form action="/posts/1/comments" method="post" class="record"><input type="hidden" name="authenticity_token"');
    assert.match(page, '<a href="/posts/1.json">JSON</a> · <a href="/posts/1.xml">XML</a>');
  });

  it('delete links are one-button forms that POST with _method=delete; edit forms POST with _method=put', async ({ blog }) => {
    const show = await (await blog.get('/posts/3')).text();
    assert.match(show, /<form action="\/posts\/3" method="post" class="button_to" onsubmit="return confirm\(&quot;Delete this post and its comments\?&quot;\);"><input type="hidden" name="_method" value="delete"><input type="hidden" name="authenticity_token" value="[^"]*"><button type="submit">Delete<\/button><\/form>/);
    assert.match(show, /<form action="\/posts\/3\/publish" method="post" class="button_to"><input type="hidden" name="_method" value="put">/);
    const edit = await (await blog.get('/posts/3/edit')).text();
    assert.match(edit, /<form action="\/posts\/3" method="post" class="record"><input type="hidden" name="_method" value="put"><input type="hidden" name="authenticity_token"/);
    assert.match(edit, '<input type="text" name="post[title]" id="post_title" value="A draft about request machines" size="60">');
    assert.match(edit, '<input type="checkbox" name="post[published]" id="post_published" value="1"><input type="hidden" name="post[published]" value="0">');
    const account = await (await blog.get('/account/edit')).text();
    assert.match(account, /<form action="\/account" method="post" class="record"><input type="hidden" name="_method" value="put">/);
  });

  it('every resource answers JSON: lists, records, nested records, the singleton, the admin', async ({ blog }) => {
    const cases: [string, (body: any) => void][] = [
      ['/posts.json', (b) => assert.equal(b.map((p: { id: number }) => p.id), [3, 2, 1])],
      ['/posts/1.json', (b) => assert.equal(b, { id: 1, title: 'Welcome to Signalbox', body: blog.store.posts.find(1).body, published: true, created_at: '2025-03-03T14:05:00.000Z' })],
      ['/posts/1/comments.json', (b) => assert.equal(b.map((c: { author: string }) => c.author), ['Ada', 'Grace'])],
      ['/posts/2/comments/3.json', (b) => assert.equal(b, { id: 3, post_id: 2, author: 'Linus', body: 'rake routes, but in TypeScript.' })],
      ['/posts/new.json', (b) => assert.equal(b, { id: null, title: '', body: '', published: false, created_at: null })],
      ['/account.json', (b) => assert.equal(b, { id: 1, name: 'Blog Owner', email: 'owner@example.com' })],
      ['/admin/posts.json', (b) => assert.is(b.length, 3)],
      ['/admin/posts/3.json', (b) => assert.is(b.published, false)],
      ['/posts/search.json?q=ROUTING', (b) => assert.equal(b.map((p: { id: number }) => p.id), [2])],
    ];
    for (const [path, check] of cases) {
      const res = await blog.get(path);
      assert.is(res.status, 200, path);
      assert.is(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
      check(await res.json());
    }
  });

  it('every resource answers XML, in Rails to_xml shape', async ({ blog }) => {
    const list = await blog.get('/posts.xml');
    assert.is(list.headers.get('content-type'), 'application/xml; charset=utf-8');
    const posts = await list.text();
    assert.match(posts, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<posts type="array">\n  <post>\n    <id type="integer">3<\/id>/);
    assert.is(posts.match(/<post>/g)?.length, 3);
    const one = await (await blog.get('/posts/1.xml')).text();
    assert.match(one, '<post>\n  <id type="integer">1</id>\n  <title>Welcome to Signalbox</title>');
    assert.match(one, '<published type="boolean">true</published>');
    assert.match(one, '<created-at type="datetime">2025-03-03T14:05:00.000Z</created-at>');
    assert.match(await (await blog.get('/posts/1/comments.xml')).text(), /<comments type="array">\n  <comment>\n    <id type="integer">1<\/id>\n    <post-id type="integer">1<\/post-id>/);
    assert.match(await (await blog.get('/account.xml')).text(), '<account>\n  <id type="integer">1</id>\n  <name>Blog Owner</name>');
    // An empty list is still named after what it lists.
    assert.match(await (await blog.get('/posts/search.xml?q=nothing-matches')).text(), '<posts type="array">\n</posts>');
  });

  it('without an extension the Accept header chooses the representation', async ({ blog }) => {
    const json = await blog.get('/posts/1', { Accept: 'application/json' });
    assert.is(json.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.is((await json.json()).id, 1);
    const xml = await blog.get('/posts/1', { Accept: 'application/xml' });
    assert.is(xml.headers.get('content-type'), 'application/xml; charset=utf-8');
    const html = await blog.get('/posts/1', { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
    assert.is(html.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  it('search finds posts by title and body, and says when nothing matches', async ({ blog }) => {
    const hit = await (await blog.get('/posts/search?q=state+machine')).text();
    assert.match(hit, '1 post match “state machine”:');
    assert.match(hit, '<a href="/posts/3">A draft about request machines</a>');
    assert.match(hit, '<a href="/posts/search.json?q=state+machine">JSON</a>');
    assert.match(await (await blog.get('/posts/search?q=zebra')).text(), 'No posts match “zebra”.');
    assert.match(await (await blog.get('/posts/search')).text(), 'Type a word to find posts');
  });

  it('user input is escaped everywhere it is shown', async ({ blog }) => {
    const res = await blog.submit('/posts', { 'post[title]': '<script>alert("t")</script>', 'post[body]': 'a & b <b>bold</b>' });
    const id = locationId(res);
    for (const path of [`/posts/${id}`, '/posts', `/posts/${id}/edit`, '/admin/posts']) {
      const page = await (await blog.get(path)).text();
      assert.not.match(page, '<script>', path);
      assert.not.match(page, '<b>bold', path);
      assert.match(page, '&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;', path);
    }
  });

  it.run();

  const forms = blogSuite('blog: forms and API writes', run);

  forms('creating a post with the form redirects to it; the new post is stored and shown', async ({ blog }) => {
    const res = await blog.submit('/posts', { authenticity_token: '', 'post[title]': 'Hello', 'post[body]': 'First words', 'post[published]': '1', commit: 'Create post' });
    assert.is(res.status, 302);
    const id = locationId(res);
    assert.is(res.headers.get('location'), `${blog.url}/posts/${id}`);
    assert.match(await res.text(), `You are being <a href="${blog.url}/posts/${id}">redirected</a>.`);
    const post = blog.store.posts.find(id);
    assert.equal([post.title, post.body, post.published], ['Hello', 'First words', true]);
    assert.match(await (await blog.get(locationPath(res))).text(), '<h1>Hello</h1>');
  });

  forms('the flash notice travels with the session cookie across the redirect, and is shown once', async ({ blog }) => {
    const res = await blog.submit('/posts/1', { _method: 'put', 'post[title]': 'Retitled' });
    assert.is(res.status, 302);
    const cookie = res.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^_blog_session=[^;]+--[0-9a-f]{40}; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = cookie.split(';')[0];
    const shown = await blog.get('/posts/1', { Cookie: session });
    assert.match(await shown.text(), '<p class="flash notice">Post was successfully updated.</p>');
    const after = await (await blog.get('/posts/1', { Cookie: cookieAfter(shown, session) })).text();
    assert.not.match(after, 'class="flash', 'swept after one request');
    const stranger = await (await blog.get('/posts/1')).text();
    assert.not.match(stranger, 'class="flash', 'no cookie, no flash');
  });

  forms('the published check box: checked sends "1" before the hidden "0", unchecked only "0"', async ({ blog }) => {
    const checked = await blog.fetch('/posts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'post[title]=T&post[body]=B&post[published]=1&post[published]=0',
    });
    assert.is(blog.store.posts.find(locationId(checked)).published, true);
    const unchecked = await blog.submit('/posts', { 'post[title]': 'T', 'post[body]': 'B', 'post[published]': '0' });
    assert.is(blog.store.posts.find(locationId(unchecked)).published, false);
  });

  forms('PUT through POST + _method updates a post; DELETE through _method removes it and its comments', async ({ blog }) => {
    const put = await blog.submit('/posts/1', { _method: 'put', 'post[title]': 'Renamed', 'post[body]': 'New body' });
    assert.is(put.status, 302);
    assert.is(locationPath(put), '/posts/1');
    assert.is(blog.store.posts.find(1).title, 'Renamed');
    const log = blog.requests.at(-1)!;
    assert.equal([log.method, log.controller, log.action], ['POST', 'posts', 'update'], 'a POST routed as PUT');

    const del = await blog.submit('/posts/1', { _method: 'delete' });
    assert.is(del.status, 302);
    assert.is(locationPath(del), '/posts');
    assert.is(blog.requests.at(-1)!.action, 'destroy');
    assert.is((await blog.get('/posts/1')).status, 404);
    assert.is(blog.store.comments.count((c) => c.post_id === 1), 0);
  });

  forms('publishing a draft is a PUT member action', async ({ blog }) => {
    const res = await blog.submit('/posts/3/publish', { _method: 'put' });
    assert.is(res.status, 302);
    assert.is(locationPath(res), '/posts/3');
    assert.is(blog.store.posts.find(3).published, true);
    const api = await blog.fetch('/posts/2/publish.json', { method: 'PUT' });
    assert.is(api.status, 200);
    assert.is((await api.json()).published, true);
  });

  forms('JSON: create answers 201 with Location and the record; update 200 with it; destroy 204', async ({ blog }) => {
    const created = await blog.json('POST', '/posts.json', { post: { title: 'From the API', body: 'JSON body', published: true } });
    assert.is(created.status, 201);
    const body = await created.json();
    assert.is(created.headers.get('location'), `${blog.url}/posts/${body.id}`);
    assert.equal([body.title, body.published], ['From the API', true]);

    const updated = await blog.json('PUT', `/posts/${body.id}.json`, { post: { title: 'Changed' } });
    assert.is(updated.status, 200);
    assert.is((await updated.json()).title, 'Changed');
    assert.is(blog.store.posts.find(body.id).body, 'JSON body', 'attributes not sent are kept');

    const destroyed = await blog.fetch(`/posts/${body.id}.json`, { method: 'DELETE' });
    assert.is(destroyed.status, 204);
    assert.is(await destroyed.text(), '');
    assert.is(blog.store.posts.count((p) => p.id === body.id), 0);
  });

  forms('XML: create reads an XML body and answers 201 with Location and the record', async ({ blog }) => {
    const res = await blog.xml('POST', '/posts.xml', '<post><title>From XML</title><body>Angle brackets</body><published type="boolean">true</published></post>');
    assert.is(res.status, 201);
    assert.is(res.headers.get('content-type'), 'application/xml; charset=utf-8');
    const xml = await res.text();
    assert.match(xml, '<title>From XML</title>');
    assert.is(locationPath(res), `/posts/${blog.store.posts.all().at(-1)!.id}`);
    assert.is(blog.store.posts.all().at(-1)!.published, true);
    const put = await blog.xml('PUT', '/posts/1.xml', '<post><title>XML title</title></post>');
    assert.is(put.status, 200);
    assert.match(await put.text(), '<title>XML title</title>');
    assert.is((await blog.fetch('/posts/1.xml', { method: 'DELETE' })).status, 204);
  });

  forms('comments are created, edited and deleted under their post only', async ({ blog }) => {
    const created = await blog.submit('/posts/2/comments', { 'comment[author]': 'Eve', 'comment[body]': 'Nice one' });
    assert.is(created.status, 302);
    const comment = blog.store.comments.all().at(-1)!;
    assert.equal([comment.post_id, comment.author], [2, 'Eve']);
    assert.is(locationPath(created), `/posts/2#comment-${comment.id}`);

    const edited = await blog.submit(`/posts/2/comments/${comment.id}`, { _method: 'put', 'comment[body]': 'Very nice' });
    assert.is(edited.status, 302);
    assert.is(blog.store.comments.find(comment.id).body, 'Very nice');

    // Comment 1 belongs to post 1: through post 2 it does not exist, whatever the method.
    assert.is((await blog.get('/posts/2/comments/1')).status, 404);
    assert.is((await blog.submit('/posts/2/comments/1', { _method: 'delete' })).status, 404);
    assert.is((await blog.json('PUT', '/posts/2/comments/1.json', { comment: { body: 'hijack' } })).status, 404);
    assert.is(blog.store.comments.find(1).body, 'Clicked through it all. The forms even work without JavaScript.');

    const deleted = await blog.submit(`/posts/2/comments/${comment.id}`, { _method: 'delete' });
    assert.is(deleted.status, 302);
    assert.is(locationPath(deleted), '/posts/2');
    assert.is(blog.store.comments.count((c) => c.id === comment.id), 0);

    const api = await blog.json('POST', '/posts/1/comments.json', { comment: { author: 'Bot', body: 'Beep' } });
    assert.is(api.status, 201);
    const made = await api.json();
    assert.is(api.headers.get('location'), `${blog.url}/posts/1/comments/${made.id}`);
    assert.is(made.post_id, 1);
  });

  forms('the singleton account: show, update, delete, then sign up again', async ({ blog }) => {
    assert.match(await (await blog.get('/account')).text(), '<dd>owner@example.com</dd>');
    const updated = await blog.submit('/account', { _method: 'put', 'account[name]': 'New Name', 'account[email]': 'new@example.com' });
    assert.is(updated.status, 302);
    assert.is(locationPath(updated), '/account');
    assert.is(blog.store.account!.email, 'new@example.com');

    const second = await blog.submit('/account', { 'account[name]': 'Other', 'account[email]': 'other@example.com' });
    assert.is(second.status, 422);
    assert.match(await second.text(), '<li>Account already exists</li>');

    const deleted = await blog.submit('/account', { _method: 'delete' });
    assert.is(deleted.status, 302);
    assert.is(locationPath(deleted), '/');
    assert.is(blog.store.account, null);

    // No account: browsers are sent to the sign-up form, API clients get a 404 in their format.
    const missing = await blog.get('/account');
    assert.is(missing.status, 302);
    assert.is(locationPath(missing), '/account/new');
    const json = await blog.get('/account.json');
    assert.is(json.status, 404);
    assert.equal(await json.json(), { error: "Couldn't find Account" });

    const created = await blog.submit('/account', { 'account[name]': 'Again', 'account[email]': 'again@example.com' });
    assert.is(created.status, 302);
    assert.is(locationPath(created), '/account');
    assert.is(blog.store.account!.name, 'Again');
  });

  forms('the admin area: its own layout, every post with drafts, and deleting through _method', async ({ blog }) => {
    const dashboard = await (await blog.get('/admin')).text();
    assert.match(dashboard, '<title>Dashboard · Admin · Signalbox Blog</title>');
    assert.match(dashboard, '<body class="admin">');
    assert.match(dashboard, '<li><strong>3</strong> <a href="/admin/posts">posts</a> (1 draft)</li>');
    const index = await (await blog.get('/admin/posts')).text();
    assert.match(index, /<tr id="admin-post-3">\s*<td><a href="\/admin\/posts\/3">A draft about request machines<\/a><\/td>\s*<td>draft<\/td>\s*<td>0<\/td>/);
    assert.match(index, /<form action="\/admin\/posts\/1" method="post" class="button_to"[^>]*><input type="hidden" name="_method" value="delete">/);
    const res = await blog.submit('/admin/posts/1', { _method: 'delete' });
    assert.is(res.status, 302);
    assert.is(locationPath(res), '/admin/posts');
    assert.is(blog.store.posts.count(), 2);
    assert.equal([blog.requests.at(-1)!.controller, blog.requests.at(-1)!.action], ['admin/posts', 'destroy']);
  });

  forms('the login page is a placeholder, and logout is a DELETE through _method', async ({ blog }) => {
    const login = await (await blog.get('/login')).text();
    assert.match(login, 'Signing in is not built yet');
    const res = await blog.submit('/logout', { _method: 'delete' });
    assert.is(res.status, 302);
    assert.is(locationPath(res), '/');
  });

  forms.run();
}
