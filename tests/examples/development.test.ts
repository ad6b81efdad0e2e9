/**
 * The example blog as a developer runs it: in development an unknown path's
 * page explains the routing error (to a request from this machine), and an
 * edited template or partial shows on the next request without a restart;
 * in production the same path gets public/404.html.
 *
 * The edit is made to a copy of the blog beside it (same depth, so its
 * imports of the framework resolve alike), never to the example itself.
 */
import { cpSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BlogAppOptions } from '../../examples/blog/app.ts';
import type { App } from '../../machines/index.ts';
import { RUNS, blogSuite } from './support.ts';

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '../../examples');
const page = (name: string) => readFileSync(join(EXAMPLES, 'blog/public', name), 'utf8');

for (const run of RUNS) {
  const development = blogSuite('blog: development explains a routing error', run, { environment: 'development' });

  development('an unknown path\'s page says No route matches and names the path and method', async ({ blog }) => {
    const res = await blog.get('/no/such/page');
    assert.is(res.status, 404);
    const body = await res.text();
    assert.match(body, 'No route matches "/no/such/page" with {:method=&gt;:get}');
    assert.match(body, '<td>posts</td><td>GET</td><td><code>/posts</code></td>', 'and lists the routes');
  });

  development.run();

  const production = blogSuite('blog: production answers an unknown path with its public page', run, { environment: 'production' });

  production('the 404 is public/404.html, nothing more', async ({ blog }) => {
    const res = await blog.get('/no/such/page');
    assert.is(res.status, 404);
    assert.is(await res.text(), page('404.html'));
  });

  production.run();
}

const editing = suite('blog: in development an edited template shows on the next request');

const copy = join(EXAMPLES, `.blog-edit-${process.pid}`);
let app: App;

/** Rewrites a file of the copy, its modification time moved on as a later save would. */
function edit(file: string, from: string, to: string): void {
  const path = join(copy, file);
  const before = readFileSync(path, 'utf8');
  assert.ok(before.includes(from), `${file} has ${from}`);
  writeFileSync(path, before.replace(from, to));
  const later = new Date(Date.now() + 5_000);
  utimesSync(path, later, later);
}

async function get(path: string): Promise<string> {
  const res = await app.handle({ method: 'GET', url: path, headers: { host: 'localhost' } });
  assert.is(res.status, 200, path);
  return typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
}

editing.before(async () => {
  cpSync(join(EXAMPLES, 'blog'), copy, { recursive: true, filter: (src) => !src.startsWith(join(EXAMPLES, 'blog', 'tmp')) });
  const { createBlogApp } = (await import(pathToFileURL(join(copy, 'app.ts')).href)) as { createBlogApp: (o: BlogAppOptions) => App };
  app = createBlogApp({ environment: 'development', logger: false });
});

editing.after(() => rmSync(copy, { recursive: true, force: true }));

editing('a template and a partial, each edited between two requests', async () => {
  assert.match(await get('/posts'), '<h1>Posts</h1>');
  edit('views/posts/index.html.ts', '<h1>Posts</h1>', '<h1>Every post</h1>');
  assert.match(await get('/posts'), '<h1>Every post</h1>');
  edit('views/posts/_post.html.ts', '<li id="post-', '<li class="edited" id="post-');
  assert.match(await get('/posts'), '<li class="edited" id="post-1">');
  edit('views/layouts/_chrome.ts', 'Signalbox Blog</a>', 'Edited Blog</a>');
  assert.not.match(await get('/posts'), 'Edited Blog', 'a module a layout imports is code: it waits for a restart');
});

editing.run();
