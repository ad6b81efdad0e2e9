/**
 * What a render costs beyond its template: templates, layouts and partials
 * are looked up once (a missing layout too), helpers are the same functions
 * on every render, a synchronous template has rendered by the time
 * `render()` returns, and the session is loaded only when a template or the
 * action reads it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, memoryViews, type SessionStore, type Template, type View, type ViewResolver } from '../../../core/index.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('a render looks templates up once and builds nothing per render');

/** A resolver over `templates` that records every name it is asked for. */
function counting(templates: Record<string, Template>): ViewResolver & { asked: string[] } {
  const inner = memoryViews(templates);
  const asked: string[] = [];
  return {
    asked,
    root: inner.root,
    describe: (name) => inner.describe(name),
    find(names) {
      asked.push(...names);
      return inner.find(names);
    },
  };
}

function pagesApp(views: ViewResolver, klass?: typeof Controller, options: Parameters<typeof appWith>[1] = {}) {
  class PagesController extends Controller {
    go(): void {}
    other(): void {}
  }
  return appWith({ pages: klass ?? PagesController }, { views, draw: (map) => { map.resources('posts'); map.connect(':controller/:action/:id'); map.connect(':controller/:action/:id.:format'); }, ...options });
}

test('a page and its layout are looked up on the first render only, and so is finding no layout', async () => {
  const views = counting({ 'pages/go.html': () => 'page', 'pages/other.html': () => 'other', 'layouts/application.html': (v) => `[${v.yield()}]` });
  const app = pagesApp(views);
  assert.is((await call(app, 'GET /pages/go')).body, '[page]');
  assert.equal(views.asked, ['pages/go.html', 'layouts/pages.html', 'layouts/application.html']);
  assert.is((await call(app, 'GET /pages/go')).body, '[page]');
  assert.is((await call(app, 'GET /pages/go')).body, '[page]');
  assert.is(views.asked.length, 3, 'no lookup on later renders');

  const bare = counting({ 'pages/go.html': () => 'page' });
  const noLayout = pagesApp(bare);
  for (let i = 0; i < 3; i++) assert.is((await call(noLayout, 'GET /pages/go')).body, 'page');
  assert.equal(bare.asked, ['pages/go.html', 'layouts/pages.html', 'layouts/application.html'], 'that there is no layout is remembered too');

  // Another action, or the same action in another format, is another page.
  await call(app, 'GET /pages/other');
  assert.equal(views.asked.slice(3), ['pages/other.html', 'layouts/pages.html', 'layouts/application.html']);
});

test('a missing template is looked up again each time, and answers as missing each time', async () => {
  const views = counting({});
  const app = pagesApp(views);
  for (let i = 0; i < 2; i++) assert.is((await call(app, 'GET /pages/go')).status, 500);
  assert.equal(views.asked, ['pages/go.html', 'pages/go.html']);
});

test('a partial is looked up once per name and format, then rendered from what was found', async () => {
  const views = counting({
    'pages/go.html': (v) => `${v.render({ partial: 'row', collection: [1, 2] })}|${v.render({ partial: 'row', object: 9 })}`,
    'pages/_row.html': (v: View<{ row: number; row_counter?: number }>) => `<${v.row}:${v.row_counter ?? '-'}>`,
  });
  const app = pagesApp(views);
  for (let i = 0; i < 2; i++) assert.is((await call(app, 'GET /pages/go')).body, '<1:0><2:1>|<9:->');
  assert.is(views.asked.filter((n) => n === 'pages/_row.html').length, 1);
});

test('helpers are the same functions on every render, and still read their own render', async () => {
  const seen: unknown[] = [];
  const views = memoryViews({
    'pages/go.html': (v) => {
      seen.push(v.link_to, v.url_for, v.render);
      return v.link_to(v.params.id, v.post_path(Number(v.params.id)));
    },
  });
  const app = pagesApp(views);
  assert.is((await call(app, 'GET /pages/go/1')).body, '<a href="/posts/1">1</a>');
  assert.is((await call(app, 'GET /pages/go/2')).body, '<a href="/posts/2">2</a>');
  assert.is(seen[0], seen[3]);
  assert.is(seen[1], seen[4]);
  assert.is(seen[2], seen[5]);
});

test('controller methods read from a template are bound to the controller of that render', async () => {
  class PagesController extends Controller {
    who(): string {
      return String(this.params.id);
    }
    go(): void {}
  }
  const app = pagesApp(memoryViews({ 'pages/go.html': (v: View<{ who(): string }>) => { const who = v.who; return who(); } }), PagesController);
  assert.is((await call(app, 'GET /pages/go/1')).body, '1');
  assert.is((await call(app, 'GET /pages/go/2')).body, '2');
});

test('a synchronous template has rendered when render() returns; an asynchronous one when the action is done', async () => {
  const bodies: unknown[] = [];
  class PagesController extends Controller {
    go(): void {
      this.render();
      bodies.push(this.response.body);
    }
    other(): void {
      this.render();
      bodies.push(this.response.body);
    }
  }
  const views = memoryViews({
    'pages/go.html': () => 'now',
    'pages/other.html': async () => 'later',
    'layouts/application.html': (v) => `[${v.yield()}]`,
  });
  const app = pagesApp(views, PagesController);
  assert.is((await call(app, 'GET /pages/go')).body, '[now]');
  assert.is((await call(app, 'GET /pages/other')).body, '[later]');
  assert.is(bodies[0], '[now]');
  assert.is.not(bodies[1], '[later]');
});

/** A session store that counts its loads, keeping the session in memory under one key. */
function countingStore(): SessionStore & { loads: number; commits: number } {
  const store = {
    loads: 0,
    commits: 0,
    data: {} as Record<string, unknown>,
    load() {
      store.loads++;
      return structuredClone(store.data);
    },
    commit(_req: unknown, _res: unknown, data: Record<string, unknown>, state: { changed: boolean }) {
      store.commits++;
      if (state.changed) store.data = structuredClone(data);
    },
  };
  return store;
}

test('a page that reads neither the session nor the flash never loads the session', async () => {
  const sessions = countingStore();
  const app = pagesApp(memoryViews({
    'pages/go.html': (v) => v.link_to('Posts', v.posts_path()),
    'pages/other.html': (v) => `notice: ${String(v.flash.get('notice'))}`,
    'layouts/application.html': (v) => `<main>${v.yield()}</main>`,
  }), undefined, { session_store: sessions });
  assert.is((await call(app, 'GET /pages/go')).body, '<main><a href="/posts">Posts</a></main>');
  assert.is(sessions.loads, 0);
  assert.is((await call(app, 'GET /pages/other')).body, '<main>notice: undefined</main>');
  assert.is(sessions.loads, 1, 'a template that reads the flash loads it');
});

test('a flash set by the action and shown by the page still reaches the cookie store', async () => {
  class PagesController extends Controller {
    go(): void {
      this.flash.set('notice', 'Saved');
      this.render();
    }
    other(): void {}
  }
  const app = pagesApp(memoryViews({
    'pages/go.html': (v) => `now: ${String(v.flash.get('notice'))}`,
    'pages/other.html': (v) => `next: ${String(v.flash.get('notice'))}`,
  }), PagesController, { session: { key: '_t', secret: 'a-test-secret-of-thirty-characters-or-more' } });
  const first = await call(app, 'GET /pages/go');
  const cookie = first.header('set-cookie');
  assert.ok(cookie?.startsWith('_t='), 'the changed session is written');
  const next = await call(app, 'GET /pages/other', { headers: { cookie: cookie!.split(';')[0]! } });
  assert.is(next.body, 'next: Saved');
});

test.run();
