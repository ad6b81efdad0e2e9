/**
 * Running a template and its layout: layout lookup order, asynchronous and
 * non-string templates, and what a template that throws or returns nothing becomes.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultErrorPage } from '../../../core/pipeline/default-pages.ts';
import { Controller, RecordNotFound, html, memoryViews, type Template, type View } from '../../../core/index.ts';
import { renderView } from '../../../core/views/render.ts';
import { viewClass } from '../../../core/controller/render.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('renderView runs a template inside its layout');

function viewing(templates: Record<string, Template>, controllerPath = 'pages', local = true) {
  class PagesController extends Controller {
    go(): void {}
  }
  return appWith({ [controllerPath]: PagesController }, { views: memoryViews(templates), config: { consider_all_requests_local: local } });
}

test('templates may be asynchronous and may return SafeStrings or other values', async () => {
  let res = await call(viewing({ 'pages/go.html': async () => 'later' }), 'GET /pages/go');
  assert.is(res.body, 'later');
  res = await call(viewing({ 'pages/go.html': (() => 42) as unknown as Template }), 'GET /pages/go');
  assert.is(res.body, '42');
  // A thenable that is not a Promise (a lazily evaluated value from another library) is awaited too.
  const thenable = { then: (resolve: (value: string) => void) => setTimeout(() => resolve('from a thenable'), 1) };
  res = await call(viewing({ 'pages/go.html': (() => thenable) as unknown as Template }), 'GET /pages/go');
  assert.is(res.body, 'from a thenable');
});

test('the layout is layouts/<controller name> first (without its module), then layouts/application', async () => {
  const templates: Record<string, Template> = {
    'admin/pages/go.html': () => 'page',
    'layouts/pages.html': (v) => `[pages ${v.yield()}]`,
    'layouts/application.html': (v) => `[app ${v.yield()}]`,
  };
  assert.is((await call(viewing(templates, 'admin/pages'), 'GET /admin/pages/go')).body, '[pages page]');
  const { 'layouts/pages.html': _pages, ...appOnly } = templates;
  assert.is((await call(viewing(appOnly, 'admin/pages'), 'GET /admin/pages/go')).body, '[app page]');
});

test('layouts are looked up in the template format: an xml page gets no html layout', async () => {
  const res = await call(viewing({
    'pages/go.xml': () => '<x/>',
    'layouts/application.html': (v) => `<html>${v.yield()}</html>`,
  }), 'GET /pages/go/1.xml');
  assert.is(res.body, '<x/>');
});

test('a template that throws is a TemplateError (500) naming the template, with the cause shown locally', async () => {
  const res = await call(viewing({ 'pages/go.html': () => { throw new TypeError('v.post is undefined'); } }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, '<h1>TemplateError in PagesController#go</h1>');
  assert.match(res.body, 'v.post is undefined (in template pages/go.html)');
  assert.match(res.body, 'Caused by TypeError');
});

test('a route helper no route defines, in a template or an action, is named on the local error page with the helper meant', async () => {
  class NotesController extends Controller {
    show(): void {}
    edit(): void {
      this.redirect_to((this.routes as unknown as Record<string, (id: string) => string>).edit_notes_path!(String(this.params.id)));
    }
  }
  const app = appWith({ notes: NotesController }, {
    views: memoryViews({ 'notes/show.html': (v) => html`<a href="${(v as unknown as Record<string, (id: number) => string>).archive_path!(1)}">Archive</a>` }),
    config: { consider_all_requests_local: true },
    draw: (map) => {
      map.resources('notes');
    },
  });
  const acted = await call(app, 'GET /notes/1/edit', { remoteAddress: '127.0.0.1' });
  assert.is(acted.status, 500);
  assert.match(acted.body, 'No route defines <code>edit_notes_path</code>. Did you mean <code>edit_note_path</code>?');
  const shown = await call(app, 'GET /notes/1', { remoteAddress: '127.0.0.1' });
  assert.is(shown.status, 500);
  assert.match(shown.body, '<h1>TemplateError in NotesController#show</h1>');
  assert.match(shown.body, 'No route defines <code>archive_path</code>.');
  assert.not.match(shown.body, 'Did you mean', 'no helper is near enough to name');
  // Only names that read as route helpers are looked up.
  const other = await call(viewing({ 'pages/go.html': (v) => String((v as unknown as Record<string, () => string>).shout!()) }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(other.status, 500);
  assert.not.match(other.body, 'No route defines');
});

test('a helper called detached from its view says how to call it', async () => {
  const res = await call(viewing({ 'pages/go.html': (v) => { const { link_to } = v; return String(link_to('Home', '/')); } }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'link_to() was called without its view: call it on the view, as v.link_to(…)');
  // Helpers that need no render work either way.
  const plain = await call(viewing({ 'pages/go.html': (v) => { const { h, pluralize } = v; return `${h('<b>')} ${pluralize(2, 'post')}`; } }), 'GET /pages/go');
  assert.is(plain.body, '&lt;b&gt; 2 posts');
});

test('a template, layout or partial that returns nothing is a TemplateError asking for its return, not a page reading "undefined"', async () => {
  const nothing = (() => { /* a block body without its return */ }) as unknown as Template;
  for (const [templates, where] of [
    [{ 'pages/go.html': nothing }, 'pages/go.html'],
    [{ 'pages/go.html': async () => undefined as unknown as string }, 'pages/go.html'],
    [{ 'pages/go.html': () => 'ok', 'layouts/application.html': (() => null) as unknown as Template }, 'layout for pages/go.html'],
    [{ 'pages/go.html': ((v) => html`<ul>${v.render({ partial: 'row' })}</ul>`) as Template, 'pages/_row.html': nothing }, 'pages/_row'],
  ] as const) {
    const res = await call(viewing(templates as Record<string, Template>), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
    assert.is(res.status, 500, where);
    assert.match(res.body, '<h1>TemplateError in PagesController#go</h1>');
    assert.match(res.body, /the template returned (undefined|null), not its markup \(does a block body lack its return\?\)/);
    assert.match(res.body, `(in template ${where})`);
  }
  // An empty page is a page: only undefined and null are refused.
  assert.is((await call(viewing({ 'pages/go.html': () => '' }), 'GET /pages/go')).status, 200);
});

test('a function or a promise interpolated into markup is a TemplateError saying what to write, not its source or "[object Promise]" on a 200', async () => {
  class Post {
    constructor(readonly id: number) {}
  }
  class PagesController extends Controller {
    go(): void {}
  }
  for (const [template, says] of [
    [(v) => html`<a href="${(v as unknown as { posts_path: unknown }).posts_path}">all</a>`, 'a function was interpolated into markup: call it (a helper written without its parentheses, as v.posts_path for v.posts_path()?)'],
    [(v) => html`<a href="${v.url_for}">x</a>`, 'a function (url_for) was interpolated into markup: call it, as url_for(…)'],
    [() => html`<p>${async () => 'x'}</p>`, 'a function was interpolated into markup: call it (a helper'],
    [() => html`<p>${Promise.resolve(new Post(1))}</p>`, 'a promise was interpolated into markup: await it'],
    [(v) => html`<nav>${v.cache('nav', async () => 'links')}</nav>`, 'a promise was interpolated into markup: await it'],
    [(v) => { v.content_for('title', Promise.resolve('T')); return 'page'; }, 'a promise was interpolated into markup: await it'],
  ] as [Template, string][]) {
    const app = appWith({ pages: PagesController }, {
      views: memoryViews({ 'pages/go.html': template }),
      draw: (map) => { map.resources('posts'); map.connect(':controller/:action'); },
      config: { consider_all_requests_local: true },
    });
    const res = await call(app, 'GET /pages/go', { remoteAddress: '127.0.0.1' });
    assert.is(res.status, 500, says);
    assert.match(res.body, '<h1>TemplateError in PagesController#go</h1>');
    assert.match(res.body, says);
    assert.not.match(res.body, '[object Promise]');
  }
  // Awaited, the same promise is its value.
  const res = await call(viewing({ 'pages/go.html': async (v) => html`<nav>${await v.cache('nav', async () => 'links')}</nav>` }), 'GET /pages/go');
  assert.is(res.body, '<nav>links</nav>');
});

test('a layout that throws is a TemplateError too', async () => {
  const res = await call(viewing({ 'pages/go.html': () => 'ok', 'layouts/application.html': () => { throw new Error('bad layout'); } }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'bad layout (in template layout for pages/go.html)');
});

test('a framework error thrown in a template keeps its own status', async () => {
  const res = await call(viewing({ 'pages/go.html': () => { throw new RecordNotFound(); } }), 'GET /pages/go');
  assert.is(res.status, 404);
});

test('a remote client sees the public 500 body, never the template message', async () => {
  const res = await call(viewing({ 'pages/go.html': () => { throw new Error('secret detail'); } }, 'pages', false), 'GET /pages/go');
  assert.is(res.status, 500);
  assert.is(res.body, defaultErrorPage(500));
});

const partials = suite('templates render partials with v.render({ partial })');

partials('a partial is <controller path>/_<name>, or <dir>/_<name> when named with a directory, in the format of the page', async () => {
  const templates: Record<string, Template> = {
    'admin/pages/go.html': (v) => html`<main>${v.render({ partial: 'intro' })}|${v.render({ partial: 'shared/footer' })}</main>`,
    'admin/pages/_intro.html': () => html`<p>intro</p>`,
    'shared/_footer.html': () => html`<footer>f</footer>`,
    'admin/pages/_intro.xml': () => html`<intro/>`,
  };
  assert.is((await call(viewing(templates, 'admin/pages'), 'GET /admin/pages/go')).body, '<main><p>intro</p>|<footer>f</footer></main>');
});

partials('locals and object reach the partial; the local named after the partial holds the object', async () => {
  class PagesController extends Controller {
    title = 'From the controller';
    go(): void {}
  }
  const templates: Record<string, Template> = {
    'pages/go.html': (v) => html`${v.render({ partial: 'card', object: { name: '<Ada>' }, locals: { tone: 'warm' } })}`,
    'pages/_card.html': (v: View<{ tone: string; card: { name: string }; title: string }>) => html`<div class="${v.tone}">${v.card.name} / ${v.title}</div>`,
  };
  const app = appWith({ pages: PagesController }, { views: memoryViews(templates) });
  assert.is((await call(app, 'GET /pages/go')).body, '<div class="warm">&lt;Ada&gt; / From the controller</div>', 'escaped as any template is, and the controller still shared');
});

partials('a collection renders the partial per item, with <name>_counter from 0 and an optional spacer; an empty one renders nothing', async () => {
  const templates: Record<string, Template> = {
    'pages/go.html': (v) => html`<ul>${v.render({ partial: 'item', collection: ['a', 'b', 'c'], spacer_template: 'rule' })}</ul>${v.render({ partial: 'item', collection: [] })}`,
    'pages/_item.html': (v: View<{ item: string; item_counter: number }>) => html`<li>${v.item_counter}:${v.item}</li>`,
    'pages/_rule.html': () => html`<hr>`,
  };
  assert.is((await call(viewing(templates), 'GET /pages/go')).body, '<ul><li>0:a</li><hr><li>1:b</li><hr><li>2:c</li></ul>');
});

partials('content_for in a partial reaches the layout', async () => {
  const templates: Record<string, Template> = {
    'pages/go.html': (v) => html`body${v.render({ partial: 'titled' })}`,
    'pages/_titled.html': (v) => html`${v.content_for('title', 'Set by a partial')}`,
    'layouts/application.html': (v) => html`<title>${v.yield('title')}</title>${v.yield()}`,
  };
  assert.is((await call(viewing(templates), 'GET /pages/go')).body, '<title>Set by a partial</title>body');
});

partials('a missing partial is MissingTemplate naming it; an asynchronous one is a TemplateError saying partials render synchronously', async () => {
  const missing = await call(viewing({ 'pages/go.html': (v) => html`${v.render({ partial: 'nope' })}` }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(missing.status, 500);
  assert.match(missing.body, '(memory)/pages/_nope.html');
  const later = await call(viewing({ 'pages/go.html': (v) => html`${v.render({ partial: 'later' })}`, 'pages/_later.html': async () => 'x' }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(later.status, 500);
  assert.match(later.body, 'a partial renders synchronously');
  const bad = await call(viewing({ 'pages/go.html': (v) => html`${v.render('form' as never)}` }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.match(bad.body, 'render in a template takes { partial: name');
});

partials.run();

test('renderView answers null when the template does not exist', async () => {
  const c = new Controller();
  assert.is(await renderView(memoryViews({}), viewClass(Controller), c, 'none/such.html', 'html', undefined, null), null);
});

test.run();
