/**
 * Finding templates: modules in a views directory (loaded together on first
 * use, names that could leave the directory refused, reloaded on change
 * when asked to) and templates held in memory.
 */
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, directoryViews, memoryViews, TemplateError, type Template } from '../../../core/index.ts';
import { appWith, call, tempDir } from '../../support/harness.ts';

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
  const template = (await first) as Template<object>;
  assert.is(template({ title: 'Hi' }), '<h1>Hi</h1>');
  const second = views.find(['posts/show.html']);
  assert.is(second, template, 'a cached hit is the template itself');
});

test('.ts, .js and .mjs modules are all templates', async () => {
  const views = directoryViews(dir.path);
  assert.is(((await views.find(['posts/index.html'])) as Template<object>)({}), 'index from js');
  assert.is(((await views.find(['posts/feed.xml'])) as Template<object>)({}), '<feed/>');
});

test('the first name found wins; a missing name (cached as missing) falls through to the next', async () => {
  const views = directoryViews(dir.path);
  const found = (await views.find(['posts/missing.html', 'posts/index.html'])) as Template<object>;
  assert.is(found({}), 'index from js');
  assert.is(await views.find(['posts/missing.html']), null);
  assert.is(views.find(['posts/missing.html']), null, 'a known miss answers at once');
  assert.is(await views.find(['posts/missing.html', 'posts/also-missing.html']), null);
  await views.find(['posts/show.html']);
  assert.is((views.find(['posts/missing.html', 'posts/show.html']) as Template<object>)({ title: 't' }), '<h1>t</h1>', 'all cached: no promise at all');
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

test('describe names the files a template could be, under the resolved root', () => {
  const views = directoryViews(join(dir.path, 'posts', '..'));
  assert.is(views.root, dir.path);
  assert.is(views.describe('posts/show.html'), `${join(dir.path, 'posts', 'show.html')}.{ts,js,mjs}`);
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
  assert.match(missing.body, `Missing template ${join(dir.path, 'posts', 'show.json')}.{ts,js,mjs}`);
});

test('a module that fails to load fails only the lookups of its own name', async () => {
  const views = directoryViews(dir.path);
  let thrown: unknown = null;
  await (views.find(['posts/broken.html']) as Promise<unknown>).catch((e: unknown) => { thrown = e; });
  assert.instance(thrown, TypeError);
  assert.is((views.find(['posts/index.html']) as Template<object>)({}), 'index from js');
  assert.throws(() => views.find(['posts/broken.html']), /must export a template function/);
});

test('a template module that fails to load is a TemplateError naming its file, on the development page and for every other lookup', async () => {
  const root = join(tmp.path, 'failing');
  mkdirSync(join(root, 'posts'), { recursive: true });
  const file = join(root, 'posts', 'show.html.js');
  writeFileSync(file, 'const settings = undefined;\nexport const size = settings.size;\nexport default () => "show";\n');
  writeFileSync(join(root, 'posts', 'index.html.js'), 'export default () => "index";\n');
  const views = directoryViews(root);
  let thrown: unknown = null;
  await (views.find(['posts/show.html']) as Promise<unknown>).catch((e: unknown) => { thrown = e; });
  assert.instance(thrown, TemplateError);
  assert.match((thrown as Error).message, file);
  assert.instance((thrown as Error).cause, TypeError, 'what the module threw is kept as the cause');
  assert.is((views.find(['posts/index.html']) as Template<object>)({}), 'index');

  class PostsController extends Controller {
    show(): void {}
  }
  const app = appWith({ posts: PostsController }, { views: root, config: { consider_all_requests_local: true } });
  const page = await call(app, 'GET /posts/show', { remoteAddress: '127.0.0.1' });
  assert.is(page.status, 500);
  assert.match(page.body, 'TemplateError in PostsController#show');
  assert.match(page.body, file);
});

test('without reload a resolver has no refresh, and an edited file keeps its first template', async () => {
  const root = join(tmp.path, 'cached');
  mkdirSync(join(root, 'pages'), { recursive: true });
  writeFileSync(join(root, 'pages', 'home.html.js'), 'export default () => "first";\n');
  const views = directoryViews(root);
  assert.is(views.refresh, undefined);
  assert.is(((await views.find(['pages/home.html'])) as Template<object>)({}), 'first');
  writeFileSync(join(root, 'pages', 'home.html.js'), 'export default () => "second, longer";\n');
  assert.is((views.find(['pages/home.html']) as Template<object>)({}), 'first');
});

/** Writes a template file and moves its modification time on, as a later save would. */
function save(file: string, source: string, secondsLater: number): void {
  writeFileSync(file, source);
  const when = new Date(Date.now() + secondsLater * 1000);
  utimesSync(file, when, when);
}

for (const ext of ['.js', '.ts']) {
  test(`with reload, refresh imports a changed ${ext} template again, adds new files and drops deleted ones`, async () => {
    const root = join(tmp.path, `reloading${ext.replace('.', '-')}`);
    mkdirSync(join(root, 'pages'), { recursive: true });
    // A partial in the same directory, imported by path: the copy a loader without queries needs must resolve it too.
    writeFileSync(join(root, 'pages', 'label.js'), 'export const label = "saved";\n');
    save(join(root, 'pages', `home.html${ext}`), 'import { label } from "./label.js";\nexport default () => `one ${label}`;\n', 0);
    const views = directoryViews(root, { reload: true });
    assert.is(await views.refresh!(), false, 'the first load is no change');
    assert.is((views.find(['pages/home.html']) as Template<object>)({}), 'one saved');
    assert.is(await views.refresh!(), false, 'nothing changed since');
    save(join(root, 'pages', `home.html${ext}`), 'import { label } from "./label.js";\nexport default () => `two ${label}`;\n', 5);
    save(join(root, 'pages', `about.html${ext}`), 'export default () => "about";\n', 5);
    assert.is(await views.refresh!(), true, 'a changed and a new template');
    assert.is((views.find(['pages/home.html']) as Template<object>)({}), 'two saved');
    assert.is((views.find(['pages/about.html']) as Template<object>)({}), 'about');
    rmSync(join(root, 'pages', `about.html${ext}`));
    assert.is(await views.refresh!(), true, 'a template gone');
    assert.is(views.find(['pages/about.html']), null);
    save(join(root, 'pages', `home.html${ext}`), 'export default () => "three";\n', 10);
    await views.refresh!();
    assert.is((views.find(['pages/home.html']) as Template<object>)({}), 'three');
    assert.equal(readdirSync(join(root, 'pages')).filter((f) => f.startsWith('.')), [], 'no copy is left behind');
  });
}

test('with reload, a template that failed to load is loaded again once its file is fixed', async () => {
  const root = join(tmp.path, 'fixing');
  mkdirSync(join(root, 'pages'), { recursive: true });
  save(join(root, 'pages', 'home.html.js'), 'export default () => { return "unclosed;\n', 0);
  const views = directoryViews(root, { reload: true });
  await views.refresh!();
  assert.throws(() => views.find(['pages/home.html']), SyntaxError);
  save(join(root, 'pages', 'home.html.js'), 'export default () => "fixed";\n', 5);
  await views.refresh!();
  assert.is((views.find(['pages/home.html']) as Template<object>)({}), 'fixed');
});

test('an app in development renders an edited template on the next request; in production it keeps the first', async () => {
  const root = join(tmp.path, 'app-views');
  mkdirSync(join(root, 'posts'), { recursive: true });
  class PostsController extends Controller {
    show(): void {}
  }
  const served = new Map<string, string>();
  for (const environment of ['development', 'production'] as const) {
    save(join(root, 'posts', 'show.html.js'), 'export default () => "before";\n', 0);
    const app = appWith({ posts: PostsController }, { views: root, environment, session: false, config: { hosts: [] } });
    assert.is(app.config.cache_template_loading, environment === 'production');
    assert.is((await call(app, 'GET /posts/show')).body, 'before');
    save(join(root, 'posts', 'show.html.js'), 'export default () => "after an edit";\n', 5);
    served.set(environment, (await call(app, 'GET /posts/show')).body);
  }
  assert.is(served.get('development'), 'after an edit');
  assert.is(served.get('production'), 'before');
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
