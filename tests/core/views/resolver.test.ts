/**
 * Finding templates: modules in a views directory (cached after the first
 * load, names that could leave the directory refused) and templates held
 * in memory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, directoryViews, memoryViews, type Template } from '../../../core/index.ts';
import { appWith, call, tempDir } from '../pipeline/support.ts';

const test = suite('view resolvers find templates by name');

let tmp = { path: '', remove: () => {} };
/** The views root, inside the temp dir so that a file can sit just outside it. */
const dir = { path: '' };

test.before(() => {
  tmp = tempDir('views');
  dir.path = join(tmp.path, 'views');
  mkdirSync(join(dir.path, 'posts'), { recursive: true });
  mkdirSync(join(dir.path, 'layouts'));
  writeFileSync(join(dir.path, 'posts', 'show.html.ts'), 'export default (v: { title: string }): string => `<h1>${v.title}</h1>`;\n');
  writeFileSync(join(dir.path, 'posts', 'index.html.js'), 'export default () => "index from js";\n');
  writeFileSync(join(dir.path, 'posts', 'feed.xml.mjs'), 'export default () => "<feed/>";\n');
  writeFileSync(join(dir.path, 'posts', 'broken.html.ts'), 'export const notDefault = 1;\n');
  writeFileSync(join(dir.path, 'layouts', 'application.html.ts'), 'export default (v: { yield(): string }) => `<body>${v.yield()}</body>`;\n');
  // Outside the views root: a name with `..` must never reach it.
  writeFileSync(join(tmp.path, 'secret.html.ts'), 'export default () => "secret";\n');
});

test.after(() => tmp.remove());

test('a directory template loads on first use (a promise), then answers synchronously from the cache', async () => {
  const views = directoryViews(dir.path);
  const first = views.find(['posts/show.html']);
  assert.instance(first, Promise);
  const template = (await first) as Template;
  assert.is(template({ title: 'Hi' }), '<h1>Hi</h1>');
  const second = views.find(['posts/show.html']);
  assert.is(second, template, 'a cached hit is the template itself');
});

test('.ts, .js and .mjs modules are all templates', async () => {
  const views = directoryViews(dir.path);
  assert.is(((await views.find(['posts/index.html'])) as Template)({}), 'index from js');
  assert.is(((await views.find(['posts/feed.xml'])) as Template)({}), '<feed/>');
});

test('the first name found wins; a missing name (cached as missing) falls through to the next', async () => {
  const views = directoryViews(dir.path);
  const found = (await views.find(['posts/missing.html', 'posts/index.html'])) as Template;
  assert.is(found({}), 'index from js');
  assert.is(await views.find(['posts/missing.html']), null);
  assert.is(views.find(['posts/missing.html']), null, 'a known miss answers at once');
  assert.is(await views.find(['posts/missing.html', 'posts/also-missing.html']), null);
  await views.find(['posts/show.html']);
  assert.is((views.find(['posts/missing.html', 'posts/show.html']) as Template)({ title: 't' }), '<h1>t</h1>', 'all cached: no promise at all');
});

test('names that could leave the directory, or are not plain names, are refused without touching the disk', () => {
  const views = directoryViews(dir.path);
  for (const name of ['../secret.html', 'posts/../posts/show.html', '/etc/passwd.html', 'posts\\show.html', 'posts/show', 'posts//show.html', 'posts/show.html\u0000', '']) {
    assert.is(views.find([name]), null, JSON.stringify(name));
  }
});

test('a module without a default template function is an error naming the file', async () => {
  const views = directoryViews(dir.path);
  try {
    await views.find(['posts/broken.html']);
    assert.unreachable('should have thrown');
  } catch (e) {
    assert.instance(e, TypeError);
    assert.match((e as Error).message, 'broken.html.ts must export a template function as default');
  }
});

test('describe names the file a template would be, under the resolved root', () => {
  const views = directoryViews(join(dir.path, 'posts', '..'));
  assert.is(views.root, dir.path);
  assert.is(views.describe('posts/show.html'), join(dir.path, 'posts', 'show.html.ts'));
});

test('createApp takes a views directory path and renders from it, layout included', async () => {
  class PostsController extends Controller {
    title = 'From disk';
    show(): void {}
  }
  const app = appWith({ posts: PostsController }, { views: dir.path });
  const res = await call(app, 'GET /posts/show');
  assert.is(res.body, '<body><h1>From disk</h1></body>');
  const missing = await call(appWith({ posts: PostsController }, { views: dir.path, config: { consider_all_requests_local: true } }), 'GET /posts/show/1.json', { remoteAddress: '127.0.0.1' });
  assert.match(missing.body, `Missing template ${join(dir.path, 'posts', 'show.json.ts')}`);
});

test('memory views answer their own names only (never inherited object properties)', () => {
  const template: Template = () => 'x';
  const views = memoryViews({ 'a/b.html': template });
  assert.is(views.find(['nope.html', 'a/b.html']), template);
  assert.is(views.find(['constructor', 'toString']), null);
  assert.is(views.root, '(memory)');
  assert.is(views.describe('a/c.html'), '(memory)/a/c.html');
});

test.run();
