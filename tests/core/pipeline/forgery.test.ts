/**
 * Request forgery protection, end to end: the forgery stage decides whether
 * a request needs a token (by its routed method and Content-Type), and a
 * controller's `protect_from_forgery` demands the session's token, in the
 * form parameter or the X-CSRF-Token header, or answers 422.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, memorySessionStore, type ForgeryOptions } from '../../../core/index.ts';
import { exemptContentType } from '../../../core/pipeline/forgery.ts';
import { appWith, call, form, tempDir, type AppOptions, type Reply } from '../../support/harness.ts';

const test = suite('protect_from_forgery refuses state-changing requests without the session token');

let pub = { path: '', remove: () => {} };
test.before(() => {
  pub = tempDir('forgery-public');
  writeFileSync(join(pub.path, '422.html'), '<h1>The change you wanted was rejected</h1>');
});
test.after(() => pub.remove());

function protectedApp(forgery: ForgeryOptions = {}, options: AppOptions = {}) {
  class PostsController extends Controller {
    static {
      this.protect_from_forgery(forgery);
    }
    new(): void {
      this.render({ text: this.form_authenticity_token() });
    }
    index(): void { this.render({ text: 'index' }); }
    create(): void { this.render({ text: 'created' }); }
    update(): void { this.render({ text: 'updated' }); }
    destroy(): void { this.render({ text: 'destroyed' }); }
    api(): void { this.render({ text: 'api' }); }
  }
  return appWith({ posts: PostsController }, {
    draw: (map) => {
      map.resources('posts', { collection: { api: 'post' } });
    },
    publicDir: pub.path,
    ...options,
    config: { allow_forgery_protection: true, ...options.config },
  });
}

/** Visits the form page: the token it shows and the session cookie that goes with it. */
async function visitForm(app: ReturnType<typeof protectedApp>): Promise<{ token: string; cookie: string }> {
  const page = await call(app, 'GET /posts/new');
  return { token: page.body, cookie: page.header('set-cookie')!.split(';')[0] };
}

const formWith = (fields: Record<string, string>, cookie?: string) => {
  const f = form(fields);
  return { ...f, headers: { ...f.headers, ...(cookie ? { cookie } : {}) } };
};

const rejected = (res: Reply, why?: string) => {
  assert.is(res.status, 422, why);
  assert.is(res.body, '<h1>The change you wanted was rejected</h1>');
};

test('a POST without a token is 422 with public/422.html; GET and HEAD never need one', async () => {
  const app = protectedApp();
  rejected(await call(app, 'POST /posts', form({ title: 'x' })));
  rejected(await call(app, 'POST /posts'));
  assert.is((await call(app, 'GET /posts')).body, 'index');
  assert.is((await call(app, 'HEAD /posts')).status, 200);
});

test('the token a form page shows, sent back with its session, passes', async () => {
  const app = protectedApp();
  const { token, cookie } = await visitForm(app);
  assert.ok(token.length >= 32);
  assert.is((await call(app, 'POST /posts', formWith({ authenticity_token: token }, cookie))).body, 'created');
});

test('the token may come in the X-CSRF-Token header instead', async () => {
  const app = protectedApp();
  const { token, cookie } = await visitForm(app);
  assert.is((await call(app, 'POST /posts', { headers: { 'x-csrf-token': token, cookie, 'content-type': 'text/plain' }, body: 'x' })).body, 'created');
});

test('a wrong token, another session token, an empty one or an array of tokens is refused', async () => {
  const app = protectedApp();
  const mine = await visitForm(app);
  const theirs = await visitForm(app);
  rejected(await call(app, 'POST /posts', formWith({ authenticity_token: `${mine.token}x` }, mine.cookie)));
  rejected(await call(app, 'POST /posts', formWith({ authenticity_token: theirs.token }, mine.cookie)));
  rejected(await call(app, 'POST /posts', formWith({ authenticity_token: '' }, mine.cookie)));
  rejected(await call(app, 'POST /posts', { headers: { cookie: mine.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `authenticity_token[]=${encodeURIComponent(mine.token)}` }));
  rejected(await call(app, 'POST /posts', formWith({ authenticity_token: mine.token })), 'a token without its session');
});

test('PUT and DELETE, sent or simulated with _method, need the token too', async () => {
  const app = protectedApp();
  rejected(await call(app, 'PUT /posts/1'));
  rejected(await call(app, 'DELETE /posts/1'));
  rejected(await call(app, 'POST /posts/1', form({ _method: 'put' })));
  rejected(await call(app, 'POST /posts/1?_method=delete'));
  const { token, cookie } = await visitForm(app);
  assert.is((await call(app, 'POST /posts/1', formWith({ _method: 'delete', authenticity_token: token }, cookie))).body, 'destroyed');
});

test('a POST simulating GET reaches only a GET action, which is not checked', async () => {
  const res = await call(protectedApp(), 'POST /posts', form({ _method: 'get' }));
  assert.is(res.body, 'index');
});

test('JSON and XML bodies are exempt by default (a cross-site form cannot send them); other types are not', async () => {
  const app = protectedApp();
  for (const type of ['application/json', 'application/json; charset=utf-8', 'APPLICATION/XML']) {
    assert.is((await call(app, 'POST /posts', { headers: { 'content-type': type }, body: type.includes('json') ? '{}' : '<a/>' })).body, 'created', type);
  }
  for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/json-patch+json', 'text/xml']) {
    assert.is((await call(app, 'POST /posts', { headers: { 'content-type': type }, body: '' })).status, 422, type);
  }
});

test('config.forgeryExemptTypes replaces the exempt list', async () => {
  const app = protectedApp({}, { config: { forgeryExemptTypes: ['application/vnd.api+json'] } });
  assert.is((await call(app, 'POST /posts', { headers: { 'content-type': 'application/vnd.api+json' }, body: '{}' })).body, 'created');
  assert.is((await call(app, 'POST /posts', { headers: { 'content-type': 'application/json' }, body: '{}' })).status, 422);
});

test('only and except limit protection to some actions', async () => {
  const only = protectedApp({ only: ['update'] });
  assert.is((await call(only, 'POST /posts')).body, 'created');
  rejected(await call(only, 'PUT /posts/1'));
  const except = protectedApp({ except: ['api'] });
  assert.is((await call(except, 'POST /posts/api')).body, 'api');
  rejected(await call(except, 'POST /posts'));
});

test("skip_before_filter('verify_authenticity_token') lifts the check a parent installed, for some actions or all", async () => {
  class Protected extends Controller {
    static { this.protect_from_forgery(); }
    create(): void { this.render({ text: 'created' }); }
    api(): void { this.render({ text: 'api' }); }
  }
  class Webhooks extends Protected {
    static { this.skip_before_filter('verify_authenticity_token', { only: ['api'] }); }
  }
  class Open extends Protected {
    static { this.skip_before_filter('verify_authenticity_token'); }
  }
  const draw = (map: Parameters<NonNullable<AppOptions['draw']>>[0]) => map.connect(':controller/:action');
  const app = appWith({ protected: Protected, webhooks: Webhooks, open: Open }, { draw, publicDir: pub.path, config: { allow_forgery_protection: true } });
  assert.is((await call(app, 'POST /webhooks/api')).body, 'api', 'skipped for the listed action');
  rejected(await call(app, 'POST /webhooks/create'));
  assert.is((await call(app, 'POST /open/create')).body, 'created', 'skipped for every action');
  rejected(await call(app, 'POST /protected/api'), 'the parent keeps its check');
});

test('allow_forgery_protection: false (the test default) turns protection off for the app', async () => {
  const app = protectedApp({}, { config: { allow_forgery_protection: false } });
  assert.is((await call(app, 'POST /posts')).body, 'created');
  class Open extends Controller {
    static { this.protect_from_forgery(); }
    create(): void { this.render({ text: 'ok' }); }
  }
  assert.is((await call(appWith({ open: Open }), 'POST /open/create')).body, 'ok', 'environment test defaults to off');
});

test('a controller without protect_from_forgery accepts any POST', async () => {
  class Open extends Controller {
    create(): void { this.render({ text: 'ok' }); }
  }
  assert.is((await call(appWith({ open: Open }, { config: { allow_forgery_protection: true } }), 'POST /open/create')).body, 'ok');
});

test('a custom param name carries the token', async () => {
  const app = protectedApp({ param: 'csrf' });
  const { token, cookie } = await visitForm(app);
  rejected(await call(app, 'POST /posts', formWith({ authenticity_token: token }, cookie)));
  assert.is((await call(app, 'POST /posts', formWith({ csrf: token }, cookie))).body, 'created');
});

test('with a secret and a store that keeps ids, the token is an HMAC of the session id', async () => {
  const secret = 'forgery-secret-forgery-secret-123';
  const app = protectedApp({ secret }, { session_store: memorySessionStore() });
  // A session must exist first for it to have an id.
  const first = await visitForm(app);
  const again = await call(app, 'GET /posts/new', { headers: { cookie: first.cookie } });
  const id = first.cookie.split('=')[1];
  assert.is(again.body, createHmac('sha1', secret).update(id).digest('hex'));
  assert.is((await call(app, 'POST /posts', formWith({ authenticity_token: again.body }, first.cookie))).body, 'created');
});

test('a tokenless state-changing request no route takes is 422 too, so forgers cannot map routes by 404 and 405', async () => {
  const app = protectedApp();
  rejected(await call(app, 'DELETE /posts', form({})), 'a method the path does not take');
  rejected(await call(app, 'POST /nowhere', form({})), 'a path no route takes');
  const { token, cookie } = await visitForm(app);
  const withToken = await call(app, 'DELETE /posts', formWith({ authenticity_token: token }, cookie));
  assert.is(withToken.status, 405, 'with the session token the route table answers');
  assert.is((await call(app, 'POST /nowhere', formWith({ authenticity_token: token }, cookie))).status, 404);
  assert.is((await call(app, 'DELETE /posts', { headers: { 'content-type': 'application/json' }, body: '{}' })).status, 405, 'an exempt API body');
  assert.is((await call(app, 'GET /nowhere')).status, 404, 'reads never need a token');
});

test('a tokenless form reaching no action through the default route is 422, like an unrouted one', async () => {
  const app = protectedApp({}, { draw: (map) => { map.resources('posts'); map.connect(':controller/:action/:id'); } });
  rejected(await call(app, 'POST /posts/1', form({})), 'posts#1 is no action');
  const { token, cookie } = await visitForm(app);
  assert.is((await call(app, 'POST /posts/1', formWith({ authenticity_token: token }, cookie))).status, 404, 'with the token: the unknown action is 404');
});

test('an app where no controller protects against forgery keeps 404 and 405 for unrouted requests', async () => {
  class OpenController extends Controller {
    index(): void { this.render({ text: 'index' }); }
  }
  const app = appWith({ open: OpenController }, { draw: (map) => map.resources('open', { only: ['index'] }), config: { allow_forgery_protection: true } });
  assert.is((await call(app, 'DELETE /open', form({}))).status, 405);
  assert.is((await call(app, 'POST /nowhere', form({}))).status, 404);
});

test('exemptContentType matches the exact essence, case-insensitively, ignoring parameters', () => {
  assert.ok(exemptContentType('application/json; charset=utf-8', ['application/json']));
  assert.ok(exemptContentType(' Application/JSON ', ['application/json']));
  assert.not.ok(exemptContentType('application/jsonx', ['application/json']));
  assert.not.ok(exemptContentType(undefined, ['application/json']));
  assert.not.ok(exemptContentType('application/json', []));
});

test.run();
