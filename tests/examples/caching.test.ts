/**
 * The example blog's caches over real HTTP: the post list is page-cached
 * (`/` and `/posts`, each format), a post's page is action-cached, and every
 * change to a post (forms, API, admin) or to its comments expires what it
 * makes stale. What belongs to one visitor (the flash, the authenticity
 * token) never reaches another. Every test runs on both engines over HTTP,
 * and through the WebSocket tunnel.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { RUNS, blogSuite, cookieAfter, locationId } from './support.ts';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '../../examples/blog/public');
const publicFiles = () => readdirSync(PUBLIC, { recursive: true }).map(String).sort();
const BEFORE = publicFiles();

/** The value of every authenticity token field on a page. */
const tokensOf = (page: string) => [...page.matchAll(/name="authenticity_token" value="([^"]*)"/g)].map((m) => m[1]);

for (const run of RUNS) {
  const it = blogSuite('blog: caching', run);

  it('the post list is page-cached: the second request is a hit, the same page, logged as a hit of posts#index', async ({ blog }) => {
    for (const path of ['/posts', '/', '/posts.json', '/posts.xml']) {
      const miss = await blog.get(path);
      assert.equal([miss.status, miss.headers.get('x-cache')], [200, 'miss'], path);
      const body = await miss.text();
      const hit = await blog.get(path);
      assert.equal([hit.status, hit.headers.get('x-cache')], [200, 'hit'], path);
      assert.is(await hit.text(), body, path);
      assert.is(hit.headers.get('content-type'), miss.headers.get('content-type'), path);
      assert.is(hit.headers.get('etag'), miss.headers.get('etag'), path);
      const log = blog.requests.at(-1)!;
      assert.equal([log.controller, log.action, log.cache], ['posts', 'index', 'hit'], path);
    }
    assert.equal(publicFiles(), BEFORE, 'nothing written into examples/blog/public');
  });

  it('the list carries no authenticity token and no flash, so it is the same for everyone', async ({ blog }) => {
    const { cookie } = await blog.session();
    const page = await (await blog.get('/posts', { Cookie: cookie })).text();
    assert.equal(tokensOf(page), []);
    assert.not.match(page, 'class="flash');
    const stranger = await blog.get('/posts');
    assert.is(stranger.headers.get('x-cache'), 'hit');
    assert.is(await stranger.text(), page);
  });

  it("a post's page is action-cached, each format apart, and each visitor's forms carry their own session's token", async ({ blog }) => {
    const a = await blog.session();
    const b = await blog.session();
    const first = await blog.get('/posts/1', { Cookie: a.cookie });
    assert.is(first.headers.get('x-cache'), 'miss');
    const pageA = await first.text();
    assert.ok(tokensOf(pageA).every((t) => t === a.token));
    const forB = await blog.get('/posts/1', { Cookie: b.cookie });
    assert.is(forB.headers.get('x-cache'), 'hit');
    const pageB = await forB.text();
    assert.ok(tokensOf(pageB).length > 0 && tokensOf(pageB).every((t) => t === b.token), "b's own token, never a's");
    assert.is(pageB.replaceAll(b.token, a.token), pageA, 'otherwise the same page');
    assert.is((await blog.get('/posts/1.json')).headers.get('x-cache'), 'miss', 'JSON is cached apart');
    assert.is((await blog.get('/posts/1.json')).headers.get('x-cache'), 'hit');
    const head = await blog.fetch('/posts/1.json', { method: 'HEAD' });
    assert.equal([head.headers.get('x-cache'), await head.text()], ['hit', '']);
    const show = blog.requests.filter((r) => r.action === 'show').map((r) => r.cache);
    assert.equal(show, ['miss', 'hit', 'miss', 'hit', 'hit']);
  });

  it('creating, updating, publishing and deleting a post with forms expires the list and its page', async ({ blog }) => {
    await blog.get('/posts');
    await blog.get('/posts/3');
    const created = await blog.submit('/posts', { 'post[title]': 'Fresh from the form', 'post[body]': 'New' });
    const id = locationId(created);
    const list = await blog.get('/posts');
    assert.is(list.headers.get('x-cache'), 'miss');
    assert.match(await list.text(), 'Fresh from the form');
    assert.is((await blog.get('/')).headers.get('x-cache'), 'miss', 'the root is the list too');

    await blog.submit('/posts/3', { _method: 'put', 'post[title]': 'Retitled draft' });
    const page = await blog.get('/posts/3');
    assert.is(page.headers.get('x-cache'), 'miss');
    assert.match(await page.text(), '<h1>Retitled draft');
    assert.match(await (await blog.get('/posts')).text(), 'Retitled draft');

    await blog.get('/posts/3');
    await blog.submit('/posts/3/publish', { _method: 'put' });
    assert.not.match(await (await blog.get('/posts/3')).text(), 'badge">draft');

    await blog.get(`/posts/${id}`);
    await blog.get('/posts');
    await blog.submit(`/posts/${id}`, { _method: 'delete' });
    assert.is((await blog.get(`/posts/${id}`)).status, 404);
    assert.not.match(await (await blog.get('/posts')).text(), 'Fresh from the form');
  });

  it('API writes expire too: JSON create, update and destroy', async ({ blog }) => {
    await blog.get('/posts.json');
    await blog.get('/posts/2.json');
    const created = await blog.json('POST', '/posts.json', { post: { title: 'Over the API', body: 'B' } });
    const { id } = await created.json() as { id: number };
    assert.equal((await (await blog.get('/posts.json')).json() as { id: number }[]).map((p) => p.id), [id, 3, 2, 1]);
    await blog.json('PUT', '/posts/2.json', { post: { title: 'API title' } });
    assert.is((await (await blog.get('/posts/2.json')).json() as { title: string }).title, 'API title');
    await blog.fetch('/posts/2.json', { method: 'DELETE', headers: { 'Content-Type': 'application/json' } });
    assert.is((await blog.get('/posts/2.json')).status, 404);
    assert.equal((await (await blog.get('/posts.json')).json() as { id: number }[]).map((p) => p.id), [id, 3, 1]);
  });

  it("a comment expires its post's page (which lists comments) but not the list", async ({ blog }) => {
    await blog.get('/posts');
    await blog.get('/posts/2');
    assert.match(await (await blog.get('/posts/2')).text(), '<h2>1 comment</h2>');
    await blog.submit('/posts/2/comments', { 'comment[author]': 'Eve', 'comment[body]': 'Cached no more' });
    const page = await blog.get('/posts/2');
    assert.is(page.headers.get('x-cache'), 'miss');
    assert.match(await page.text(), '<h2>2 comments</h2>');
    assert.is((await blog.get('/posts')).headers.get('x-cache'), 'hit', 'the list shows no comments');
    const comment = blog.store.comments.all().at(-1)!;
    await blog.get('/posts/2');
    await blog.submit(`/posts/2/comments/${comment.id}`, { _method: 'put', 'comment[body]': 'Edited' });
    assert.match(await (await blog.get('/posts/2')).text(), 'Edited');
    await blog.get('/posts/2');
    await blog.submit(`/posts/2/comments/${comment.id}`, { _method: 'delete' });
    assert.match(await (await blog.get('/posts/2')).text(), '<h2>1 comment</h2>');
  });

  it('deleting a post in the admin area expires the list and its page', async ({ blog }) => {
    await blog.get('/posts');
    await blog.get('/posts/1');
    await blog.submit('/admin/posts/1', { _method: 'delete' });
    assert.is((await blog.get('/posts/1')).status, 404);
    const list = await blog.get('/posts');
    assert.is(list.headers.get('x-cache'), 'miss');
    assert.not.match(await list.text(), 'Welcome to Signalbox');
  });

  it('a message waiting in the flash is shown on a fresh render, never cached, never shown to anyone else', async ({ blog }) => {
    await blog.get('/posts/1');
    const updated = await blog.submit('/posts/1', { _method: 'put', 'post[title]': 'With a notice' });
    const cookie = cookieAfter(updated, '');
    const shown = await blog.get('/posts/1', { Cookie: cookie });
    assert.is(shown.headers.get('x-cache'), 'miss');
    assert.match(await shown.text(), '<p class="flash notice">Post was successfully updated.</p>');
    const stranger = await blog.get('/posts/1');
    assert.is(stranger.headers.get('x-cache'), 'miss', 'the page with the notice was not stored');
    assert.not.match(await stranger.text(), 'class="flash');
    assert.is((await blog.get('/posts/1')).headers.get('x-cache'), 'hit');

    const deleted = await blog.submit('/posts/3', { _method: 'delete' });
    const afterDelete = await blog.get('/posts', { Cookie: cookieAfter(deleted, '') });
    assert.match(await afterDelete.text(), '<p class="flash notice">Post was deleted.</p>');
    const listForOthers = await blog.get('/posts');
    assert.is(listForOthers.headers.get('x-cache'), 'miss', 'the list with the notice was not written');
    assert.not.match(await listForOthers.text(), 'class="flash');
    assert.is((await blog.get('/posts')).headers.get('x-cache'), 'hit');
  });

  it.run();

  const off = blogSuite('blog: caching turned off', run, { perform_caching: false });

  off('with perform_caching off every request renders, and no response says X-Cache', async ({ blog }) => {
    for (const path of ['/posts', '/posts', '/posts/1', '/posts/1']) {
      const res = await blog.get(path);
      assert.equal([res.status, res.headers.get('x-cache')], [200, null], path);
    }
    assert.is(blog.requests.length, 4);
  });

  off.run();
}
