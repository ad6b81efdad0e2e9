/**
 * `respond_to`: the first declared representation the client accepts, in
 * both the object and the block form, with custom and alias types, `all`,
 * `*\/*`, the format parameter, and 406 when nothing fits.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, createMimeRegistry, memoryViews, type Format, type RespondBlock, type RespondHandlers } from '../../../core/index.ts';
import { appWith, call, get, withServer } from '../../support/harness.ts';

const test = suite('respond_to chooses the first declared format the client accepts');

const VIEWS = memoryViews({
  'pages/go.html': () => '<p>html page</p>',
  'pages/go.xml': () => '<xml-page/>',
  'pages/go.mobile': () => 'mobile page',
  'layouts/application.html': (v) => `<main>${v.yield()}</main>`,
});

function negotiating(handlers: (c: Controller) => RespondHandlers | RespondBlock, configure?: (mime: ReturnType<typeof createMimeRegistry>) => void) {
  const mime = createMimeRegistry();
  configure?.(mime);
  class PagesController extends Controller {
    go(): void {
      this.respond_to(handlers(this));
    }
  }
  return appWith({ pages: PagesController }, { views: VIEWS, mime, config: { consider_all_requests_local: true } });
}

/** Handlers that answer their own name as text. */
const texts = (c: Controller, ...names: string[]): RespondHandlers =>
  Object.fromEntries(names.map((n) => [n, () => c.render({ text: n })]));

test('the object form answers the representation the Accept header asks for', async () => {
  const app = negotiating((c) => texts(c, 'html', 'json', 'xml'));
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'application/json' } })).body, 'json');
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'application/xml' } })).body, 'xml');
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'text/html' } })).body, 'html');
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'application/json;q=0.5, application/xml' } })).body, 'xml', 'q-values order the list');
});

test('the response takes the chosen type as its Content-Type', async () => {
  const res = await call(negotiating((c) => texts(c, 'html', 'json')), 'GET /pages/go', { headers: { accept: 'application/json' } });
  assert.is(res.header('content-type'), 'application/json; charset=utf-8');
});

test('true renders the action template in the chosen format', async () => {
  const app = negotiating(() => ({ html: true, xml: true }));
  let res = await call(app, 'GET /pages/go', { headers: { accept: 'text/html' } });
  assert.is(res.body, '<main><p>html page</p></main>');
  res = await call(app, 'GET /pages/go', { headers: { accept: 'application/xml' } });
  assert.is(res.body, '<xml-page/>');
  assert.is(res.header('content-type'), 'application/xml; charset=utf-8');
});

test('*/* and a missing Accept header take the first declared format', async () => {
  const app = negotiating((c) => texts(c, 'json', 'html'));
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: '*/*' } })).body, 'json');
  assert.is((await call(app, 'GET /pages/go')).body, 'json');
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'image/png, */*;q=0.1' } })).body, 'json');
});

test('with no Accept header, the request Content-Type is preferred', async () => {
  const app = negotiating((c) => texts(c, 'html', 'xml'));
  const res = await call(app, 'POST /pages/go', { headers: { 'content-type': 'application/xml' }, body: '<a>1</a>' });
  assert.is(res.body, 'xml');
});

test('the format parameter (query or .:format) beats the Accept header', async () => {
  const app = negotiating((c) => texts(c, 'html', 'json'));
  assert.is((await call(app, 'GET /pages/go?format=json', { headers: { accept: 'text/html' } })).body, 'json');
  assert.is((await call(app, 'GET /pages/go/1.json', { headers: { accept: 'text/html' } })).body, 'json');
  const unknown = await call(app, 'GET /pages/go?format=nonsense', { headers: { accept: 'application/json' } });
  assert.is(unknown.status, 406, 'a format no type is registered for is refused before the action runs');
});

test('nothing acceptable is 406 Not Acceptable with an empty body', async () => {
  const app = negotiating((c) => texts(c, 'html', 'json'));
  let res = await call(app, 'GET /pages/go', { headers: { accept: 'image/png' } });
  assert.is(res.status, 406);
  assert.is(res.body, '');
  res = await call(app, 'GET /pages/go?format=xml');
  assert.is(res.status, 406);
  res = await call(negotiating(() => ({})), 'GET /pages/go');
  assert.is(res.status, 406, 'declaring nothing accepts nothing');
});

test('all catches any type that nothing else declared does', async () => {
  const app = negotiating((c) => texts(c, 'html', 'all'));
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'image/png' } })).body, 'all');
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'text/html' } })).body, 'html');
});

test('the block form declares formats in order: format.html(), format.xml(fn)', async () => {
  const app = negotiating((c) => (format) => {
    format.html();
    format.xml(() => c.render({ text: 'xml block' }));
    format.html(() => c.render({ text: 'never: a format declared twice keeps its first handler' }));
  });
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'text/html' } })).body, '<main><p>html page</p></main>');
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'application/xml' } })).body, 'xml block');
});

test('format.any(...symbols, fn) answers any of them; format.any(fn) whatever the client wants first', async () => {
  const app = negotiating((c) => (format) => {
    format.html(() => c.render({ text: 'html' }));
    format.any('js', 'json', () => c.render({ text: `either (${c.request.format?.symbol})` }));
  });
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'application/json' } })).body, 'either (json)');
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'text/javascript' } })).body, 'either (js)');
  const anything = negotiating((c) => (format) => format.any(() => c.render({ text: `any ${c.response.content_type}` })));
  assert.is((await call(anything, 'GET /pages/go', { headers: { accept: 'application/atom+xml' } })).body, 'any application/atom+xml');
  const objectAny = negotiating((c) => ({ any: () => c.render({ text: `object any ${c.response.content_type}` }) }));
  assert.is((await call(objectAny, 'GET /pages/go', { headers: { accept: 'text/csv' } })).body, 'object any text/csv');
});

test('format.custom(type, fn) declares an unregistered MIME type', async () => {
  const app = negotiating((c) => (format) => {
    format.html(() => c.render({ text: 'html' }));
    format.custom('application/crazy-xml', () => c.render({ text: 'crazy' }));
  });
  const res = await call(app, 'GET /pages/go', { headers: { accept: 'application/crazy-xml' } });
  assert.is(res.body, 'crazy');
  assert.is(res.header('content-type'), 'application/crazy-xml; charset=utf-8');
});

test('types registered on the app MIME registry are formats, with their templates', async () => {
  const app = negotiating(() => ({ html: true, mobile: true }), (mime) => mime.register('text/x-mobile', 'mobile'));
  const res = await call(app, 'GET /pages/go', { headers: { accept: 'text/x-mobile' } });
  assert.is(res.body, 'mobile page');
  assert.is(res.header('content-type'), 'text/x-mobile; charset=utf-8');
  assert.is((await call(app, 'GET /pages/go?format=mobile')).body, 'mobile page');
});

test('an alias type answers for its own symbol, and for its string when its original is not declared', async () => {
  const configure = (mime: ReturnType<typeof createMimeRegistry>) => mime.register_alias('text/html', 'iphone');
  const both = negotiating((c) => texts(c, 'html', 'iphone'), configure);
  assert.is((await call(both, 'GET /pages/go?format=iphone')).body, 'iphone');
  assert.is((await call(both, 'GET /pages/go', { headers: { accept: 'text/html' } })).body, 'html', 'the very type first');
  const aliasOnly = negotiating((c) => texts(c, 'json', 'iphone'), configure);
  assert.is((await call(aliasOnly, 'GET /pages/go', { headers: { accept: 'text/html' } })).body, 'iphone', 'an equal type next');
});

test('an unknown format symbol is a programming error (500) naming it', async () => {
  const app = negotiating((c) => texts(c, 'html', 'nosuchformat'));
  const res = await call(app, 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'unknown format "nosuchformat"');
});

test('a handler that is neither true nor a function, or no handlers at all, is an ArgumentError saying what respond_to takes', async () => {
  const cases: [() => RespondHandlers | RespondBlock, string][] = [
    [() => ({ html: 5 }) as never, 'respond_to: the handler for html is true (its template) or a function, not 5'],
    [() => (format) => format.json('yes' as never), 'respond_to: the handler for json is true (its template) or a function, not "yes"'],
    [() => null as never, 'respond_to takes a block ((format) =&gt; ...) or an object of handlers by format, not null'],
  ];
  for (const [handlers, message] of cases) {
    const res = await call(negotiating(handlers), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
    assert.is(res.status, 500);
    assert.match(res.body, 'ArgumentError');
    assert.match(res.body, message);
  }
});

test('an asynchronous handler is waited for: what it renders is the answer, over HTTP, and the server stays up', async () => {
  const later = () => new Promise((resolve) => setTimeout(resolve, 5));
  class PagesController extends Controller {
    go(): void {
      this.respond_to({
        html: async () => {
          await later();
          this.render({ text: 'loaded, then rendered' });
        },
        json: async () => {
          this.render({ json: { at: 'once' } });
          await later();
        },
      });
    }
    block(): void {
      this.respond_to((format) => {
        format.html(async () => {
          await later();
          this.render({ action: 'go' });
        });
      });
    }
    failing(): void {
      this.respond_to({
        html: async () => {
          await later();
          throw new RangeError('the record went away');
        },
      });
    }
  }
  const app = appWith({ pages: PagesController }, { views: memoryViews({ 'pages/go.html': () => 'the go template' }) });
  await withServer(app, {}, async (server) => {
    assert.equal([(await get(server, '/pages/go')).body, (await get(server, '/pages/go', { headers: { accept: 'application/json' } })).body], ['loaded, then rendered', '{"at":"once"}']);
    assert.is((await get(server, '/pages/block')).body, 'the go template', 'a template its handler renders after an await');
    assert.is((await get(server, '/pages/failing')).status, 500);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is((await get(server, '/pages/go')).status, 200, 'still serving');
  });
});

test('a respond_to block that returns a promise is an ArgumentError, not a crash of the process', async () => {
  class PagesController extends Controller {
    go(): void {
      this.respond_to((async (format: Format) => {
        format.html(() => this.render({ text: 'html' }));
        await null;
        format.custom('text/never', () => this.render({ text: 'too late' }));
        throw new Error('after the block returned');
      }) as unknown as RespondBlock);
    }
  }
  await withServer(appWith({ pages: PagesController }, { config: { consider_all_requests_local: true } }), {}, async (server) => {
    const res = await get(server, '/pages/go');
    assert.is(res.status, 500);
    assert.match(res.body, "respond_to's block declares its formats at once");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is((await get(server, '/pages/go')).status, 500, 'still serving');
  });
});

test('a format the action sets (request.format = ...) decides, over both the format parameter and the Accept header', async () => {
  const app = negotiating((c) => {
    c.request.format = 'xml';
    return texts(c, 'html', 'xml');
  });
  assert.is((await call(app, 'GET /pages/go', { headers: { accept: 'text/html' } })).body, 'xml');
  assert.is((await call(app, 'GET /pages/go?format=html')).body, 'xml');
  assert.is((await call(app, 'GET /pages/go/1.html')).body, 'xml');
});

test('a format set in a before filter decides respond_to and the template format', async () => {
  const mime = createMimeRegistry();
  class PagesController extends Controller {
    static {
      this.before_filter((c: Controller) => { c.request.format = 'xml'; });
    }
    go(): void {
      this.respond_to({ html: true, xml: true });
    }
    plain(): void {
      this.render({ action: 'go' });
    }
  }
  const app = appWith({ pages: PagesController }, { views: VIEWS, mime, config: { consider_all_requests_local: true } });
  let res = await call(app, 'GET /pages/go?format=html', { headers: { accept: 'text/html' } });
  assert.is(res.body, '<xml-page/>');
  assert.is(res.header('content-type'), 'application/xml; charset=utf-8');
  res = await call(app, 'GET /pages/plain', { headers: { accept: 'text/html' } });
  assert.is(res.body, '<xml-page/>', 'the template format follows it without respond_to too');
});

test('a registered alias can be forced: iphone answers its own block, sent as text/html', async () => {
  const app = negotiating((c) => {
    if (c.request.headers.accept === 'text/iphone') c.request.format = 'iphone';
    return texts(c, 'html', 'iphone');
  }, (mime) => mime.register_alias('text/html', 'iphone'));
  let res = await call(app, 'GET /pages/go', { headers: { accept: 'text/iphone' } });
  assert.is(res.body, 'iphone');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
  res = await call(app, 'GET /pages/go', { headers: { accept: 'text/html' } });
  assert.is(res.body, 'html');
});

test('a route that declares :format false names no format: the Accept header decides, over HTTP', async () => {
  class TagsController extends Controller {
    show(): void {
      this.respond_to((format) => {
        format.html(() => this.render({ text: `html ${JSON.stringify(this.params.name)} ${String(this.params.format)}` }));
        format.json(() => this.render({ text: `json ${JSON.stringify(this.params.name)}` }));
      });
    }
  }
  // Rails put false in params, and request.format read `params[:format] ? ... : accepts.first`.
  const app = appWith({ tags: TagsController }, { draw: (map) => map.named('tag', 'tags/:name', { controller: 'tags', action: 'show', format: false, name: /.*/ }) });
  await withServer(app, {}, async (server) => {
    assert.equal(await get(server, '/tags/a.b', { headers: { accept: 'text/html' } }).then((r) => [r.status, r.body]), [200, 'html "a.b" false']);
    assert.equal(await get(server, '/tags/a.json', { headers: { accept: 'application/json' } }).then((r) => [r.status, r.body]), [200, 'json "a.json"']);
  });
});

test.run();
