/**
 * `render`: every kind of body (text, json with JSONP, xml, html, js,
 * nothing, action and template), and the options that go with it (status,
 * location, content_type, layout, format), driven through `app.handle`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, Controller, html, memoryViews, type Template, type View } from '../../../core/index.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appWith, call, tempDir, type ControllerClass } from '../../support/harness.ts';

/** One controller whose `go` action runs `body`; with templates when given. */
function renderer(body: (c: Controller) => void, templates?: Record<string, Template>, extra: Partial<Parameters<typeof appWith>[1]> = {}) {
  class PagesController extends Controller {
    go(): void {
      body(this);
    }
  }
  return appWith({ pages: PagesController }, { ...(templates ? { views: memoryViews(templates) } : {}), ...extra });
}

class Post {
  constructor(readonly id: number, readonly title = 'Hello') {}
}

const test = suite('render fills the response: bodies, status, location, content type and templates');

test('text is sent as given, as text/html unless told otherwise', async () => {
  const res = await call(renderer((c) => c.render({ text: 'plain <b>words</b>' })), 'GET /pages/go');
  assert.is(res.status, 200);
  assert.is(res.body, 'plain <b>words</b>');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
});

test('null or undefined text is an empty 200 body, as Rails 2.1 renders nil text (unlike nothing)', async () => {
  for (const text of [null, undefined]) {
    const res = await call(renderer((c) => c.render({ text })), 'GET /pages/go');
    assert.is(res.status, 200);
    assert.is(res.body, '');
    assert.is(res.header('content-type'), 'text/html; charset=utf-8');
  }
});

test('an empty text is an empty body, and an empty body gets no ETag', async () => {
  const res = await call(renderer((c) => c.render({ text: '' })), 'GET /pages/go');
  assert.is(res.body, '');
  assert.is(res.header('etag'), undefined);
  assert.is(res.header('content-length'), '0');
});

test('json serialises values as application/json; a string is taken as ready-made JSON', async () => {
  let res = await call(renderer((c) => c.render({ json: { id: 1, tags: ['a'] } })), 'GET /pages/go');
  assert.is(res.body, '{"id":1,"tags":["a"]}');
  assert.is(res.header('content-type'), 'application/json; charset=utf-8');
  res = await call(renderer((c) => c.render({ json: '{"raw":true}' })), 'GET /pages/go');
  assert.is(res.body, '{"raw":true}');
  res = await call(renderer((c) => c.render({ json: undefined })), 'GET /pages/go');
  assert.is(res.body, 'null', 'undefined has no JSON text of its own');
});

test('json with a callback is JSONP: the call wraps the JSON, and the type stays application/json as in Rails 2.1', async () => {
  const res = await call(renderer((c) => c.render({ json: { id: 1 }, callback: 'jQuery.handle_1$' })), 'GET /pages/go');
  assert.is(res.body, 'jQuery.handle_1$({"id":1})');
  assert.is(res.header('content-type'), 'application/json; charset=utf-8');
  const typed = await call(renderer((c) => c.render({ json: { id: 1 }, callback: 'cb', content_type: 'text/javascript' })), 'GET /pages/go');
  assert.is(typed.header('content-type'), 'text/javascript; charset=utf-8');
});

test('a blank JSONP callback wraps nothing', async () => {
  for (const callback of ['', null, undefined]) {
    const res = await call(renderer((c) => c.render({ json: { id: 1 }, callback })), 'GET /pages/go');
    assert.is(res.body, '{"id":1}');
  }
});

test('a JSONP callback that is not a plain name is a 400, so it cannot inject script', async () => {
  for (const callback of ['alert(1)//', 'a b', '1abc', 'x;y', 'a..b', 'a.', '<script>', 'x'.repeat(200)]) {
    const res = await call(renderer((c) => c.render({ json: {}, callback })), 'GET /pages/go');
    assert.is(res.status, 400, callback);
    assert.not.match(res.body, 'alert');
    assert.not.match(res.body, '<script>');
  }
});

test('xml renders a value through toXml as application/xml; a string is sent as given', async () => {
  let res = await call(renderer((c) => c.render({ xml: new Post(7) })), 'GET /pages/go');
  assert.is(res.header('content-type'), 'application/xml; charset=utf-8');
  assert.match(res.body, '<post>');
  assert.match(res.body, '<id type="integer">7</id>');
  res = await call(renderer((c) => c.render({ xml: '<ok/>' })), 'GET /pages/go');
  assert.is(res.body, '<ok/>');
});

test('xml of the request parameters stays well-formed whatever keys the client sends', async () => {
  const res = await call(renderer((c) => c.render({ xml: { ...c.params } })), 'GET /pages/go?a%3E%3Cadmin%3Etrue%3C%2Fadmin%3E%3Cb=1&x+y=2');
  assert.is(res.status, 200);
  assert.not.match(res.body, '<admin>');
  assert.match(res.body, '<a__admin_true__admin__b>1</a__admin_true__admin__b>');
  assert.match(res.body, '<x_y>2</x_y>');
});

test('html and js are sent as given with their own types; null is empty', async () => {
  let res = await call(renderer((c) => c.render({ html: '<p>x</p>' })), 'GET /pages/go');
  assert.is(res.body, '<p>x</p>');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
  res = await call(renderer((c) => c.render({ js: 'alert("hi")' })), 'GET /pages/go');
  assert.is(res.body, 'alert("hi")');
  assert.is(res.header('content-type'), 'text/javascript; charset=utf-8');
  res = await call(renderer((c) => c.render({ html: null })), 'GET /pages/go');
  assert.is(res.body, '');
  res = await call(renderer((c) => c.render({ js: undefined })), 'GET /pages/go');
  assert.is(res.body, '');
});

test('nothing answers a single space, so every client sees a body', async () => {
  const res = await call(renderer((c) => c.render({ nothing: true })), 'GET /pages/go');
  assert.is(res.status, 200);
  assert.is(res.body, ' ');
});

test('status takes an integer, a symbol, or a line with a custom reason phrase', async () => {
  let res = await call(renderer((c) => c.render({ text: 'x', status: 201 })), 'GET /pages/go');
  assert.is(res.status, 201);
  assert.is(res.reason, 'Created');
  res = await call(renderer((c) => c.render({ text: 'x', status: 'unprocessable_entity' })), 'GET /pages/go');
  assert.is(res.status, 422);
  assert.is(res.reason, 'Unprocessable Entity');
  res = await call(renderer((c) => c.render({ text: 'x', status: '404 Moved' })), 'GET /pages/go');
  assert.is(res.status, 404);
  assert.is(res.reason, 'Moved');
});

test('an unknown status symbol is a programming error (500)', async () => {
  const res = await call(renderer((c) => c.render({ text: 'x', status: 'not_a_status' })), 'GET /pages/go');
  assert.is(res.status, 500);
});

test('a non-200 status gets no ETag and keeps no-cache', async () => {
  const res = await call(renderer((c) => c.render({ text: 'made', status: 'created' })), 'GET /pages/go');
  assert.is(res.header('etag'), undefined);
  assert.is(res.header('cache-control'), 'no-cache');
});

test('a string location is kept as given (a path stays a path), made header-safe', async () => {
  let res = await call(renderer((c) => c.render({ text: 'x', status: 'created', location: '/posts/1' })), 'GET /pages/go');
  assert.is(res.header('location'), '/posts/1');
  res = await call(renderer((c) => c.render({ text: 'x', location: 'http://other.example/a' })), 'GET /pages/go');
  assert.is(res.header('location'), 'http://other.example/a');
  res = await call(renderer((c) => c.render({ text: 'x', location: '/a\r\nSet-Cookie: evil=1' })), 'GET /pages/go');
  assert.is(res.header('location'), '/aSet-Cookie: evil=1');
  assert.is(res.header('set-cookie'), undefined);
});

test('a record location becomes its full URL; a null location is ignored', async () => {
  const app = renderer((c) => c.render({ text: 'x', status: 'created', location: new Post(9) }), undefined, {
    draw: (map) => {
      map.resources('posts');
      map.connect(':controller/:action/:id');
    },
  });
  let res = await call(app, 'GET /pages/go');
  assert.is(res.header('location'), 'http://test.host/posts/9');
  res = await call(renderer((c) => c.render({ text: 'x', location: null })), 'GET /pages/go');
  assert.is(res.header('location'), undefined);
});

test('content_type replaces the type the body would have had', async () => {
  let res = await call(renderer((c) => c.render({ text: 'a,b', content_type: 'text/csv' })), 'GET /pages/go');
  assert.is(res.header('content-type'), 'text/csv; charset=utf-8');
  res = await call(renderer((c) => c.render({ json: [], content_type: 'application/vnd.api+json' })), 'GET /pages/go');
  assert.is(res.header('content-type'), 'application/vnd.api+json; charset=utf-8');
});

test('a charset set to null before rendering takes the default again, as in Rails; set after, it stays off', async () => {
  let res = await call(renderer((c) => {
    c.response.charset = null;
    c.render({ text: 'x' });
  }), 'GET /pages/go');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
  res = await call(renderer((c) => {
    c.render({ text: 'x' });
    c.response.charset = null;
  }), 'GET /pages/go');
  assert.is(res.header('content-type'), 'text/html');
});

test('an app default charset of null sends no charset', async () => {
  const res = await call(renderer((c) => c.render({ text: 'x' }), undefined, { config: { default_charset: null } }), 'GET /pages/go');
  assert.is(res.header('content-type'), 'text/html');
});

test('a second render or redirect in one action is a DoubleRenderError', async () => {
  const local = { consider_all_requests_local: true };
  let res = await call(renderer((c) => {
    c.render({ text: 'one' });
    c.render({ text: 'two' });
  }, undefined, { config: local }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'DoubleRenderError');
  res = await call(renderer((c) => {
    c.redirect_to('/a');
    c.render({ text: 'two' });
  }, undefined, { config: local }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.match(res.body, 'DoubleRenderError');
  res = await call(renderer((c) => {
    c.head('ok');
    c.redirect_to('/b');
  }, undefined, { config: local }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.match(res.body, 'DoubleRenderError');
});

test('a render, redirect or head that fails does not count: rescue_from answers with the real error, on a clean response', async () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const failing: [string, (c: Controller) => void, string][] = [
    ['an unknown status', (c) => c.render({ text: 'x', status: 'no_such_status', location: '/elsewhere', content_type: 'text/plain' }), 'UnknownStatus'],
    ['a value JSON cannot hold', (c) => c.render({ json: cyclic, status: 201, location: '/elsewhere' }), 'TypeError'],
    ['a missing template', (c) => c.render({ action: 'absent', status: 201, location: '/elsewhere' }), 'MissingTemplate'],
    ['a redirect with an unknown status', (c) => c.redirect_to('/elsewhere', { status: 'no_such_status' }), 'UnknownStatus'],
    ['a head with an unknown status', (c) => c.head('no_such_status', { location: '/elsewhere' }), 'UnknownStatus'],
  ];
  for (const [what, action, error] of failing) {
    class PagesController extends Controller {
      static {
        this.rescue_from(Error, 'failed');
      }
      go(): void {
        action(this);
      }
      failed(e: Error): void {
        this.render({ text: `rescued ${e.constructor.name}` });
      }
    }
    const res = await call(appWith({ pages: PagesController }, { views: memoryViews({}) }), 'GET /pages/go');
    assert.is(res.body, `rescued ${error}`, what);
    assert.is(res.status, 200, what);
    assert.is(res.header('location'), undefined, what);
    assert.is(res.header('content-type'), 'text/html; charset=utf-8', what);
  }
});

test('an option render does not take is an ArgumentError naming it, not a missing template', async () => {
  const local = { config: { consider_all_requests_local: true } };
  for (const [options, message] of [
    [{ txt: 'hello' }, 'Unknown render option "txt" (did you mean text?)'],
    [{ update: true }, 'Unknown render option "update"'],
    [{ inline: '<%= 1 %>' }, 'Unknown render option "inline"'],
    [5, "render takes an options object or an action's name, not 5"],
    [['show'], "render takes an options object or an action's name, not an array"],
  ] as const) {
    const res = await call(renderer((c) => c.render(options as never), {}, local), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
    assert.is(res.status, 500);
    assert.match(res.body, 'ArgumentError');
    assert.match(res.body, message);
    assert.not.match(res.body, 'Template is missing');
  }
});

test('render(null) renders the action template, as Rails renders for nil', async () => {
  const res = await call(renderer((c) => c.render(null as never), { 'pages/go.html': () => 'the go page' }), 'GET /pages/go');
  assert.is(res.status, 200);
  assert.is(res.body, 'the go page');
});

const VIEWS: Record<string, Template> = {
  'pages/go.html': (v: View<{ title: string }>) => html`<p>${v.title}</p>`,
  'pages/other.html': () => 'other page',
  'pages/go.xml': (v: View<{ title: string }>) => `<title>${v.title}</title>`,
  'pages/go.js': () => 'alert(1)',
  'shared/note.html': (v: View<{ who: string }>) => html`note for ${v.who}`,
  'layouts/application.html': (v) => html`<main>${v.yield()}</main>`,
  'layouts/special.html': (v) => html`<special>${v.yield()}</special>`,
};

function titled(action: (c: Controller & { title?: string }) => void, extraViews: Record<string, Template> = {}, setup?: (k: ControllerClass) => void) {
  class PagesController extends Controller {
    title = '<Hello>';
    go(): void {
      action(this);
    }
  }
  setup?.(PagesController);
  return appWith({ pages: PagesController }, { views: memoryViews({ ...VIEWS, ...extraViews }) });
}

test('an action that renders nothing renders its own template, in the application layout', async () => {
  const res = await call(titled(() => {}), 'GET /pages/go');
  assert.is(res.status, 200);
  assert.is(res.body, '<main><p>&lt;Hello&gt;</p></main>', 'controller properties are the template assigns, escaped');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
});

test('render(name) and render({ action }) use another action template; template names any path', async () => {
  let res = await call(titled((c) => c.render('other')), 'GET /pages/go');
  assert.is(res.body, '<main>other page</main>');
  res = await call(titled((c) => c.render({ action: 'other', layout: false })), 'GET /pages/go');
  assert.is(res.body, 'other page');
  res = await call(titled((c) => c.render({ template: 'shared/note', locals: { who: 'Ann & Bob' }, layout: false })), 'GET /pages/go');
  assert.is(res.body, 'note for Ann &amp; Bob');
});

test('status and location apply to template renders too', async () => {
  const res = await call(titled((c) => c.render({ action: 'other', status: 'accepted', location: '/x' })), 'GET /pages/go');
  assert.is(res.status, 202);
  assert.is(res.header('location'), '/x');
});

test('layout names a layout, layout: false turns it off', async () => {
  let res = await call(titled((c) => c.render({ layout: 'special' })), 'GET /pages/go');
  assert.is(res.body, '<special><p>&lt;Hello&gt;</p></special>');
  res = await call(titled((c) => c.render({ layout: false })), 'GET /pages/go');
  assert.is(res.body, '<p>&lt;Hello&gt;</p>');
});

test('text takes a layout when asked for one, as Rails renders text with :layout => true or a layout name', async () => {
  let res = await call(titled((c) => c.render({ text: 'plain <b>words</b>' })), 'GET /pages/go');
  assert.is(res.body, 'plain <b>words</b>', 'no layout unless asked');
  res = await call(titled((c) => c.render({ text: 'plain <b>words</b>', layout: true })), 'GET /pages/go');
  assert.is(res.body, '<main>plain <b>words</b></main>');
  res = await call(titled((c) => c.render({ text: 'plain', layout: 'special', status: 404 })), 'GET /pages/go');
  assert.equal([res.status, res.body, res.header('content-type')], [404, '<special>plain</special>', 'text/html; charset=utf-8']);
  res = await call(titled((c) => c.render({ text: 'plain', layout: false })), 'GET /pages/go');
  assert.is(res.body, 'plain');
  res = await call(titled((c) => c.render({ text: 'plain', layout: 'no_such_layout' })), 'GET /pages/go');
  assert.is(res.body, 'plain', 'a layout that does not exist leaves the text alone, as for templates');
});

test('a controller layout (layouts/<controller>) beats the application layout', async () => {
  const res = await call(titled(() => {}, { 'layouts/pages.html': (v) => html`<pages>${v.yield()}</pages>` }), 'GET /pages/go');
  assert.is(res.body, '<pages><p>&lt;Hello&gt;</p></pages>');
});

test('static layout() picks the layout for every action, or none', async () => {
  let res = await call(titled(() => {}, {}, (k) => k.layout('special')), 'GET /pages/go');
  assert.is(res.body, '<special><p>&lt;Hello&gt;</p></special>');
  res = await call(titled(() => {}, {}, (k) => k.layout(false)), 'GET /pages/go');
  assert.is(res.body, '<p>&lt;Hello&gt;</p>');
});

test("layout's only and except leave the other actions without a layout, unless render names one", async () => {
  class PagesController extends Controller {
    title = '<Hello>';
    static {
      this.layout('special', { except: 'other' });
    }
    go(): void {}
    other(): void {}
    named(): void {
      this.render({ action: 'other', layout: 'special' });
    }
    usual(): void {
      this.render({ text: 'plain', layout: true });
    }
  }
  class OnlyController extends Controller {
    title = '<Hello>';
    static {
      this.layout('special', { only: ['go'] });
    }
    go(): void {
      this.render({ template: 'pages/go' });
    }
    other(): void {
      this.render({ template: 'pages/other' });
    }
  }
  const app = appWith({ pages: PagesController, only: OnlyController }, { views: memoryViews(VIEWS) });
  assert.is((await call(app, 'GET /pages/go')).body, '<special><p>&lt;Hello&gt;</p></special>');
  assert.is((await call(app, 'GET /pages/other')).body, 'other page', 'excepted: no layout at all, not even the application one');
  assert.is((await call(app, 'GET /pages/named')).body, '<special>other page</special>', 'a layout render names is used');
  assert.is((await call(app, 'GET /only/go')).body, '<special><p>&lt;Hello&gt;</p></special>');
  assert.is((await call(app, 'GET /only/other')).body, 'other page');
});

test('layout: true asks for the usual layout, which the conditions still decide', async () => {
  class PagesController extends Controller {
    static {
      this.layout('special', { only: 'go' });
    }
    go(): void {
      this.render({ text: 'plain', layout: true });
    }
    other(): void {
      this.render({ text: 'plain', layout: true });
    }
  }
  const app = appWith({ pages: PagesController }, { views: memoryViews(VIEWS) });
  assert.is((await call(app, 'GET /pages/go')).body, '<special>plain</special>');
  assert.is((await call(app, 'GET /pages/other')).body, 'plain');
});

test('a subclass that declares a layout keeps its parent\'s conditions, as Rails merged them', async () => {
  class ApplicationController extends Controller {
    static {
      this.layout('special', { except: 'other' });
    }
  }
  class PagesController extends ApplicationController {
    title = '<Hello>';
    static {
      this.layout('application');
    }
    go(): void {}
    other(): void {}
  }
  const app = appWith({ pages: PagesController }, { views: memoryViews(VIEWS) });
  assert.is((await call(app, 'GET /pages/go')).body, '<main><p>&lt;Hello&gt;</p></main>');
  assert.is((await call(app, 'GET /pages/other')).body, 'other page');
});

test('a layout function chooses per request, as layout proc { |c| ... } did; false or null is none', async () => {
  class PagesController extends Controller {
    title = '<Hello>';
    static {
      this.layout((c: PagesController) => c.choose_layout());
    }
    go(): void {}
    choose_layout(): string | null {
      if (this.request.xhr) return null;
      return this.params.plain === '1' ? 'application' : 'special';
    }
  }
  const app = appWith({ pages: PagesController }, { views: memoryViews(VIEWS) });
  assert.is((await call(app, 'GET /pages/go')).body, '<special><p>&lt;Hello&gt;</p></special>');
  assert.is((await call(app, 'GET /pages/go?plain=1')).body, '<main><p>&lt;Hello&gt;</p></main>');
  const xhr = await call(app, 'GET /pages/go', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  assert.is(xhr.body, '<p>&lt;Hello&gt;</p>');
});

test('a layout function that answers something other than a name is a 500 naming what it answered', async () => {
  class PagesController extends Controller {
    static {
      this.layout(() => 42 as unknown as string);
    }
    go(): void {}
  }
  const app = appWith({ pages: PagesController }, { views: memoryViews(VIEWS) });
  const res = await call(app, 'GET /pages/go');
  assert.is(res.status, 500);
});

test('layout refuses conditions it does not take, when the class is defined', () => {
  const declare = (conditions: unknown) => () => {
    class PagesController extends Controller {
      static {
        (this as unknown as { layout(n: string, c: unknown): void }).layout('special', conditions);
      }
    }
    return PagesController;
  };
  assert.throws(declare({ exept: 'go' }), (e: unknown) => e instanceof ArgumentError && /did you mean except/.test(e.message));
  assert.throws(declare({ only: [5] }), (e: unknown) => e instanceof ArgumentError && /only takes action names/.test(e.message));
  assert.throws(declare('go'), (e: unknown) => e instanceof ArgumentError);
});

test('the format option renders <name>.<format> with that type', async () => {
  const res = await call(titled((c) => c.render({ format: 'xml' })), 'GET /pages/go');
  assert.is(res.body, '<title><Hello></title>', 'a string template is not escaped: it is the template own text');
  assert.is(res.header('content-type'), 'application/xml; charset=utf-8');
});

test('the format comes from the .:format of the URL, or js when the client asks for JavaScript first', async () => {
  let res = await call(titled(() => {}), 'GET /pages/go/1.xml');
  assert.is(res.body, '<title><Hello></title>');
  assert.is(res.header('content-type'), 'application/xml; charset=utf-8');
  res = await call(titled(() => {}), 'GET /pages/go', { headers: { accept: 'text/javascript, text/html' } });
  assert.is(res.body, 'alert(1)');
  assert.is(res.header('content-type'), 'text/javascript; charset=utf-8');
});

test('a missing template is a MissingTemplate error naming the path searched', async () => {
  class PagesController extends Controller {
    go(): void {}
  }
  const app = appWith({ pages: PagesController }, { views: memoryViews({}), config: { consider_all_requests_local: true } });
  const res = await call(app, 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, '<h1>Template is missing in PagesController#go</h1>');
  assert.match(res.body, '<li><code>(memory)/pages/go.html</code></li>');
});

test('without any views, the error says there is no views directory', async () => {
  class PagesController extends Controller {
    go(): void {}
  }
  const app = appWith({ pages: PagesController }, { config: { consider_all_requests_local: true } });
  const res = await call(app, 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.match(res.body, '(no views directory)/pages/go.html');
});

test('a partial renders alone, without the layout: with an object, a collection and a spacer, locals, in the request\'s format', async () => {
  const templates: Record<string, Template> = {
    'layouts/application.html': (v) => html`<html>${v.yield()}</html>`,
    'pages/_post.html': ((v: View<{ post: Post; post_counter?: number; tag?: string }>) => html`<li>${v.post.title}${v.post_counter ?? ''}${v.tag ?? ''}</li>`) as Template,
    'pages/_sep.html': () => '|',
    'pages/_go.html': () => 'the action\'s own',
    'pages/_post.js': ((v: View<{ post: Post }>) => `add(${v.post.id})`) as Template,
    'shared/_notice.html': ((v: View<{ text: string }>) => html`<p>${v.text}</p>`) as Template,
  };
  const posts = [new Post(1, 'A'), new Post(2, 'B')];
  const one = await call(renderer((c) => c.render({ partial: 'post', object: posts[0], locals: { tag: '!' } }), templates), 'GET /pages/go');
  assert.is(one.status, 200);
  assert.is(one.body, '<li>A!</li>', 'no layout');
  assert.is(one.headers['Content-Type'], 'text/html; charset=utf-8');
  const many = await call(renderer((c) => c.render({ partial: 'post', collection: posts, spacer_template: 'sep', status: 'created' }), templates), 'GET /pages/go');
  assert.is(many.status, 201);
  assert.is(many.body, '<li>A0</li>|<li>B1</li>');
  assert.is((await call(renderer((c) => c.render({ partial: 'shared/notice', locals: { text: '<hi>' } }), templates), 'GET /pages/go')).body, '<p>&lt;hi&gt;</p>');
  assert.is((await call(renderer((c) => c.render({ partial: true }), templates), 'GET /pages/go')).body, 'the action\'s own');
  const js = await call(renderer((c) => c.render({ partial: 'post', object: posts[1] }), templates), 'GET /pages/go?format=js');
  assert.is(js.body, 'add(2)');
  assert.is(js.headers['Content-Type'], 'text/javascript; charset=utf-8');
  assert.is((await call(renderer((c) => c.render({ partial: 'post', collection: [] }), templates), 'GET /pages/go')).body, '');
});

test('a partial that does not exist is a MissingTemplate naming it', async () => {
  const res = await call(renderer((c) => c.render({ partial: 'nothing_here' }), {}, { config: { consider_all_requests_local: true } }), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'Missing template');
  assert.match(res.body, 'pages/_nothing_here.html');
});

test('a partial from a views directory renders on the first request, while the directory is still loading', async () => {
  const dir = tempDir('partial-alone');
  try {
    mkdirSync(join(dir.path, 'pages'));
    writeFileSync(join(dir.path, 'pages', '_row.html.js'), 'export default (v) => `<tr>${v.row}</tr>`;\n');
    const res = await call(renderer((c) => c.render({ partial: 'row', collection: ['a', 'b'] }), undefined, { views: dir.path }), 'GET /pages/go');
    assert.is(res.status, 200);
    assert.is(res.body, '<tr>a</tr><tr>b</tr>');
  } finally {
    dir.remove();
  }
});

test('a file renders as its text, typed by its extension, without a layout unless asked; a template module or a missing file is refused', async () => {
  const dir = tempDir('render-file');
  try {
    writeFileSync(join(dir.path, '404.html'), '<h1>Not here</h1>');
    writeFileSync(join(dir.path, 'feed.xml'), '<feed/>');
    writeFileSync(join(dir.path, 'page.html.js'), 'export default () => "x";');
    const templates: Record<string, Template> = { 'layouts/application.html': (v) => html`<main>${v.yield()}</main>` };
    const page = await call(renderer((c) => c.render({ file: join(dir.path, '404.html'), status: 404 }), templates), 'GET /pages/go');
    assert.is(page.status, 404);
    assert.is(page.body, '<h1>Not here</h1>', 'no layout');
    assert.is(page.headers['Content-Type'], 'text/html; charset=utf-8');
    const laid = await call(renderer((c) => c.render({ file: join(dir.path, '404.html'), layout: true }), templates), 'GET /pages/go');
    assert.is(laid.body, '<main><h1>Not here</h1></main>');
    assert.is((await call(renderer((c) => c.render({ file: join(dir.path, 'feed.xml') })), 'GET /pages/go')).headers['Content-Type'], 'application/xml; charset=utf-8');
    const local = { config: { consider_all_requests_local: true } };
    const missing = await call(renderer((c) => c.render({ file: join(dir.path, 'nope.html') }), undefined, local), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
    assert.is(missing.status, 500);
    assert.match(missing.body, 'Template is missing');
    assert.match(missing.body, join(dir.path, 'nope.html'));
    const module = await call(renderer((c) => c.render({ file: join(dir.path, 'page.html.js') }), undefined, local), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
    assert.is(module.status, 500);
    assert.match(module.body, 'a template module is rendered with render({ template');
  } finally {
    dir.remove();
  }
});

test.run();
