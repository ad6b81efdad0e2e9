/**
 * The `Controller` instance an action runs on: `head`, route helpers under
 * `this.routes`, `url_for`, services, cookies, what it knows about its
 * request, and nothing of the framework's own bookkeeping.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../../core/index.ts';
import { appWith, call, captureLogs, form } from '../../support/harness.ts';

const test = suite('a controller instance answers one request');

class Post {
  constructor(readonly id: number) {}
}

const postRoutes = {
  draw: (map: import('../../../core/index.ts').Mapper) => {
    map.resources('posts');
    map.namespace('admin', (admin) => admin.resources('posts'));
    map.connect(':controller/:action/:id');
  },
};

function acting(action: (c: Controller) => void, options: Parameters<typeof appWith>[1] = postRoutes) {
  class PagesController extends Controller {
    go(): void {
      action(this);
    }
  }
  return appWith({ pages: PagesController }, options);
}

test("one action shows a form on GET and takes it on POST, by request.post as Rails' request.post?", async () => {
  class AccountController extends Controller {
    login(): void {
      if (this.request.post) this.redirect_to('/home');
      else this.render({ text: `form (${this.request.request_method})` });
    }
  }
  const app = appWith({ account: AccountController });
  assert.is((await call(app, 'GET /account/login')).body, 'form (get)');
  assert.is((await call(app, 'POST /account/login', form({ name: 'ann' }))).status, 302);
  const put = await call(app, 'POST /account/login', form({ _method: 'put' }));
  assert.is(put.body, 'form (put)', 'a form simulating PUT is not a post');
});

test("headers are the response's, as a Rails 2.1 controller's headers: a Content-Type set there stays through a render", async () => {
  class FeedsController extends Controller {
    show(): void {
      this.headers['Content-Type'] = 'application/rss+xml; charset=utf-8';
      this.headers['X-Count'] = '5';
      this.render({ text: '<rss/>' });
    }
  }
  class ScriptsController extends Controller {
    show(): void {
      this.headers['Content-Type'] ??= 'text/javascript; charset=iso-8859-1';
      this.headers['Content-Type'] ??= 'text/plain';
      this.headers['X-Gone'] = 'soon';
      delete this.headers['x-gone'];
      this.render({ text: `${'X-Gone' in this.headers} ${this.headers['content-type']}` });
    }
  }
  const app = appWith({ feeds: FeedsController, scripts: ScriptsController });
  const res = await call(app, 'GET /feeds/show');
  assert.is(res.header('content-type'), 'application/rss+xml; charset=utf-8');
  assert.is(res.header('x-count'), '5');
  assert.is(res.body, '<rss/>');
  const js = await call(app, 'GET /scripts/show');
  assert.is(js.header('content-type'), 'text/javascript; charset=iso-8859-1', 'read back, as Rails\' ||= reads it');
  assert.is(js.body, 'false text/javascript; charset=iso-8859-1');
});

test('head(status, headers) answers a bare status; option keys become header names', async () => {
  const res = await call(acting((c) => c.head('created', { location: new Post(4), x_custom_header: 'yes', content_md5: 'abc', skipped: null })), 'GET /pages/go');
  assert.is(res.status, 201);
  assert.is(res.reason, 'Created');
  assert.is(res.body, '');
  assert.is(res.header('content-length'), '0');
  assert.is(res.header('location'), 'http://test.host/posts/4');
  assert.is(res.header('x-custom-header'), 'yes');
  assert.is(res.header('content-md5'), 'abc');
  assert.is(res.header('skipped'), undefined, 'null values add no header');
});

test('a Content-Type given to head or set_header is the response type, not overwritten by the default', async () => {
  let res = await call(acting((c) => c.head('ok', { content_type: 'application/json' })), 'GET /pages/go');
  assert.is(res.header('content-type'), 'application/json; charset=utf-8');
  res = await call(acting((c) => c.head('created', { 'Content-Type': 'text/plain; charset=iso-8859-1' })), 'GET /pages/go');
  assert.is(res.header('content-type'), 'text/plain; charset=iso-8859-1');
  res = await call(acting((c) => {
    c.response.set_header('content-type', 'text/csv; header=present');
    c.render({ text: 'a,b' });
  }), 'GET /pages/go');
  assert.is(res.header('content-type'), 'text/csv; header=present; charset=utf-8');
  assert.equal(Object.keys(res.headers).filter((h) => h.toLowerCase() === 'content-type'), ['Content-Type'], 'one header, one spelling');
  res = await call(acting((c) => {
    c.response.set_header('Content-Type', 'text/csv');
    c.render({ json: { a: 1 } });
  }), 'GET /pages/go');
  assert.is(res.header('content-type'), 'text/csv; charset=utf-8', 'a type set before render stays, as render only fills in a missing one');
});

test('head with a null or undefined location adds no Location, as render with one does', async () => {
  for (const location of [null, undefined]) {
    const res = await call(acting((c) => c.head('created', { location })), 'GET /pages/go');
    assert.is(res.status, 201);
    assert.is(res.header('location'), undefined);
  }
});

test('head({ status, ...headers }) takes everything in one object; the status defaults to 200', async () => {
  let res = await call(acting((c) => c.head({ status: 'forbidden', x_reason: 'locked' })), 'GET /pages/go');
  assert.is(res.status, 403);
  assert.is(res.header('x-reason'), 'locked');
  res = await call(acting((c) => c.head({ x_only: '1' })), 'GET /pages/go');
  assert.is(res.status, 200);
  assert.is(res.header('x-only'), '1');
  res = await call(acting((c) => c.head()), 'GET /pages/go');
  assert.is(res.status, 200);
  assert.is(res.reason, 'OK');
  res = await call(acting((c) => c.head(404)), 'GET /pages/go');
  assert.is(res.status, 404);
  res = await call(acting((c) => c.head('410 Gone Fishing', { location: '/kept/as/given' })), 'GET /pages/go');
  assert.is(res.reason, 'Gone Fishing');
  assert.is(res.header('location'), '/kept/as/given');
});

test('route helpers are this.routes\' methods, and private #fields keep working beside them', async () => {
  class PostsController extends Controller {
    #secret = 'hidden';
    show(): void {
      const { routes } = this;
      this.render({ text: [routes.post_path(5), routes.post_url(new Post(6)), routes.admin_posts_path(), routes.new_post_path(), this.#secret].join(' ') });
    }
  }
  const app = appWith({ posts: PostsController }, postRoutes);
  const res = await call(app, 'GET /posts/1');
  assert.is(res.body, '/posts/5 http://test.host/posts/6 /admin/posts /posts/new hidden');
});

test('route helpers are bound to each request (host and port), never shared between requests', async () => {
  class PostsController extends Controller {
    async show(): Promise<void> {
      // Interleave two requests: each must still see its own host.
      await new Promise((r) => setTimeout(r, this.params.id === '1' ? 10 : 0));
      this.render({ text: this.routes.post_url(1) });
    }
  }
  const app = appWith({ posts: PostsController }, postRoutes);
  const [a, b] = await Promise.all([
    call(app, 'GET /posts/1', { headers: { host: 'a.example' } }),
    call(app, 'GET /posts/2', { headers: { host: 'b.example:8080' } }),
  ]);
  assert.is(a.body, 'http://a.example/posts/1');
  assert.is(b.body, 'http://b.example:8080/posts/1');
});

test('route helpers are not the controller\'s own methods: its names are its own and Controller\'s', async () => {
  const res = await call(acting((c) => {
    const self = c as unknown as Record<string | symbol, unknown>;
    c.render({ text: `${'post_path' in c} ${typeof self.post_path} ${typeof self[Symbol.iterator]} ${typeof self.toString}` });
  }), 'GET /pages/go');
  assert.is(res.body, 'false undefined undefined function');
});

test('a controller carries no framework internals: its own properties are the request\'s Rails names and the application\'s', async () => {
  let own: string[] = [];
  let inherited: string[] = [];
  class PagesController extends Controller {
    note = 'mine';
    go(): void {
      own = Object.keys(this).sort();
      inherited = Object.getOwnPropertyNames(Controller.prototype).filter((name) => name.startsWith('_'));
      this.render({ text: JSON.stringify(this) });
    }
  }
  const res = await call(appWith({ pages: PagesController }), 'GET /pages/go');
  assert.equal(own, ['action_name', 'controller_path', 'note', 'params', 'request', 'response', 'services', 'views']);
  assert.equal(inherited, [], 'no _-prefixed method on Controller');
  assert.not.match(res.body, /performed|wiring|pending/);
});

test('a controller made outside a request says so when asked for request state', () => {
  class PagesController extends Controller {}
  assert.throws(() => new PagesController().render({ text: 'x' }), /PagesController is not answering a request/);
  assert.throws(() => new PagesController().performed, /not answering a request/);
});

test('url_for gives full URLs for hashes and records, and a path with only_path', async () => {
  const res = await call(acting((c) => c.render({
    text: [
      c.url_for({ controller: 'posts', action: 'show', id: 2 }),
      c.url_for({ controller: 'posts', action: 'show', id: 2, only_path: true }),
      c.url_for(new Post(3)),
      c.url_for({ action: 'go', id: 9, q: 'a b' }),
      c.url_for(),
    ].join(' '),
  })), 'GET /pages/go');
  assert.is(res.body, 'http://test.host/posts/2 /posts/2 http://test.host/posts/3 http://test.host/pages/go/9?q=a+b http://test.host/pages/go');
});

test('services given to createApp reach every action, frozen', async () => {
  const store = { posts: ['first'] };
  class PagesController extends Controller {
    go(): void {
      this.render({ text: `${(this.services.store as typeof store).posts[0]} ${Object.isFrozen(this.services)}` });
    }
  }
  const res = await call(appWith({ pages: PagesController }, { services: { store } }), 'GET /pages/go');
  assert.is(res.body, 'first true');
});

test('the controller knows its request, params, path, name and action', async () => {
  class PostsController extends Controller {
    index(): void {
      this.render({ json: [this.controller_path, this.controller_name, this.action_name, this.params.page, this.request.method, this.performed] });
    }
  }
  const app = appWith({ 'admin/posts': PostsController }, postRoutes);
  const res = await call(app, 'GET /admin/posts?page=2');
  assert.equal(JSON.parse(res.body), ['admin/posts', 'posts', 'index', '2', 'get', false]);
});

test('cookies.get reads the request cookies', async () => {
  const res = await call(acting((c) => c.render({ text: `${c.cookies.get('theme')} ${c.cookies.get('none')}` })), 'GET /pages/go', { headers: { cookie: 'theme=dark; lang=en' } });
  assert.is(res.body, 'dark undefined');
});

test('form_authenticity_token is a string forms can carry', async () => {
  const res = await call(acting((c) => c.render({ text: typeof c.form_authenticity_token() })), 'GET /pages/go');
  assert.is(res.body, 'string');
});

test('expires_in lets caches keep the answer for so many seconds, private unless public; expires_now asks them not to', async () => {
  const kept = await call(acting((c) => { c.expires_in(20 * 60); c.render({ text: 'cached a while' }); }), 'GET /pages/go');
  assert.is(kept.headers['Cache-Control'], 'max-age=1200, private', 'an ETag does not take it back');
  assert.ok(kept.headers.ETag);
  const shared = await call(acting((c) => { c.expires_in(3 * 3600, { public: true, 'max-stale': 60, 'must-revalidate': true, private: false }); c.head('ok'); }), 'GET /pages/go');
  assert.is(shared.headers['Cache-Control'], 'max-age=10800, public, max-stale=60, must-revalidate');
  const twice = await call(acting((c) => { c.expires_in(60); c.expires_in(120, { public: true }); c.head('ok'); }), 'GET /pages/go');
  assert.is(twice.headers['Cache-Control'], 'max-age=120, public', 'set again, a directive is replaced, not repeated');
  assert.is((await call(acting((c) => { c.expires_in(60); c.expires_now(); c.head('ok'); }), 'GET /pages/go')).headers['Cache-Control'], 'no-cache');
  for (const wrong of [(c: Controller) => c.expires_in(-1), (c: Controller) => c.expires_in(1.5), (c: Controller) => c.expires_in(60, { 'max-age, evil': 1 })]) {
    assert.is((await call(acting((c) => { wrong(c); c.head('ok'); }), 'GET /pages/go')).status, 500);
  }
});

test('logger is the app\'s, its lines carrying the request\'s reqId', async () => {
  const { logger, lines } = captureLogs();
  const app = appWith({ posts: class extends Controller { index(): void { this.logger.info({ order: 7 }, 'order placed'); this.head('ok'); } } }, { ...postRoutes, logger });
  await call(app, 'GET /posts');
  const placed = lines.find((l) => l.msg === 'order placed');
  assert.ok(placed, JSON.stringify(lines));
  assert.is(placed!.order, 7);
  assert.is(placed!.reqId, lines.find((l) => l.msg === 'request completed')!.reqId);
});

test('request.raw_post is the body as text, as it came', async () => {
  const seen: string[] = [];
  const app = acting((c) => { seen.push(c.request.raw_post); c.head('ok'); });
  await call(app, 'POST /pages/go', { body: '{"event":"paid","amount":"12€"}', headers: { 'content-type': 'application/json' } });
  await call(app, 'GET /pages/go');
  assert.equal(seen, ['{"event":"paid","amount":"12€"}', '']);
});

test.run();
