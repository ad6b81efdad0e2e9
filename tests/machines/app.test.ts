/**
 * `createApp` and `app.handle`, the entry to the pipeline (machines/app.ts):
 * both engines answer alike, trace listeners see each request and cannot
 * break it, a failure of the machine itself is still a 500, every request
 * logs one line, bad options are refused, and a message that is not a
 * RequestMessage answers 400.
 */
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultErrorPage } from '../../core/pipeline/default-pages.ts';
import { ArgumentError, Controller, draw, memorySessionStore, type RequestMessage, type ResponseMessage } from '../../core/index.ts';
import { createApp, type Engine, type TraceEvent } from '../../machines/index.ts';
import { appWith, call, messageFor, tempDir } from '../support/harness.ts';

const test = suite('createApp builds an app whose handle runs the request machine');

class PostsController extends Controller {
  static {
    this.protect_from_forgery({ only: ['create'] });
    this.rescue_from(RangeError, function (this: Controller) { this.head('bad_request'); });
  }
  index(): void {
    this.respond_to({ html: () => this.render({ text: 'list' }), json: () => this.render({ json: [{ id: 1 }] }) });
  }
  show(): void { this.render({ json: { id: this.params.id } }); }
  create(): void { this.head('created', { location: '/posts/9' }); }
  update(): void { throw new RangeError('rescued'); }
  destroy(): void { throw new Error('unrescued'); }
  broken(): void {
    // A body that is neither text nor bytes breaks the render stage itself, outside any action.
    this.head('ok');
    this.response.body = null as unknown as string;
  }
}

const routes = () => draw((map) => {
  map.resources('posts', { member: { broken: 'get' } });
}, { controllers: ['posts'] });

let pub = { path: '', remove: () => {} };
test.before(() => {
  pub = tempDir('app-public');
  writeFileSync(join(pub.path, '500.html'), '<h1>500 page</h1>');
});
test.after(() => pub.remove());

const appFor = (engine: Engine, extra: Partial<Parameters<typeof createApp>[0]> = {}) =>
  createApp({ routes: routes(), controllers: { posts: PostsController }, engine, environment: 'test', logger: false, publicDir: pub.path, config: { allow_forgery_protection: true }, ...extra });

const withoutRuntime = (r: ResponseMessage) => ({ ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'X-Runtime')) });

const SAME_REQUESTS: [string, Parameters<typeof messageFor>[1]?][] = [
  ['GET /posts'],
  ['GET /posts.json'],
  ['GET /posts', { headers: { accept: 'image/png' } }],
  ['HEAD /posts/5'],
  ['GET /posts/5', { headers: { 'if-none-match': '*' } }],
  ['POST /posts'],
  ['POST /posts', { headers: { 'content-type': 'application/json' }, body: '{}' }],
  ['PUT /posts/1'],
  ['DELETE /posts/1'],
  ['DELETE /posts'],
  ['BREW /posts'],
  ['GET /nowhere'],
  ['GET /posts?a=%zz'],
  ['GET /posts/1/broken'],
];

test("engine 'compiled' (the default) and 'xstate' answer every kind of request identically", async () => {
  assert.is(appFor(undefined as unknown as Engine).engine, 'compiled');
  const compiled = appFor('compiled');
  const xstate = appFor('xstate');
  assert.is(xstate.engine, 'xstate');
  for (const [line, options] of SAME_REQUESTS) {
    const a = await compiled.handle(messageFor(line, options));
    const b = await xstate.handle(messageFor(line, options));
    assert.equal(withoutRuntime(b), withoutRuntime(a), line);
  }
});

test('trace listeners see request, state, transition and done events for each request, with one id', async () => {
  for (const engine of ['compiled', 'xstate'] as const) {
    const app = appFor(engine);
    const events: TraceEvent[] = [];
    app.trace((e) => events.push(e));
    await app.handle(messageFor('GET /posts/5?x=1'));
    const request = events[0];
    assert.is(request.kind, 'request', engine);
    assert.equal({ ...request, t: 0, id: '' }, { kind: 'request', id: '', machine: 'request', method: 'GET', path: '/posts/5', transport: 'http', t: 0 });
    const states = events.filter((e) => e.kind === 'state').map((e) => (e as { state: string }).state);
    assert.equal(states, ['servingPublic', 'parsing', 'negotiating', 'checkingForgery', 'recognizing', 'dispatching', 'rendering', 'responding', 'done'], engine);
    assert.ok(events.some((e) => e.kind === 'transition' && e.from === 'recognizing' && e.to === 'dispatching' && e.guard === 'routeFound'), engine);
    const done = events[events.length - 1];
    assert.is(done.kind, 'done');
    assert.is((done as { status: number }).status, 200);
    assert.ok(events.every((e) => e.id === request.id), 'one id per request');
  }
});

test('each request gets its own trace id', async () => {
  const app = appFor('compiled');
  const ids = new Set<string>();
  app.trace((e) => ids.add(e.id));
  await Promise.all([app.handle(messageFor('GET /posts')), app.handle(messageFor('GET /posts/1'))]);
  assert.is(ids.size, 2);
});

test('unsubscribing stops the events; the request runs the same without listeners', async () => {
  const app = appFor('compiled');
  const events: TraceEvent[] = [];
  const stop = app.trace((e) => events.push(e));
  await app.handle(messageFor('GET /posts'));
  const seen = events.length;
  assert.ok(seen > 0);
  stop();
  const res = await app.handle(messageFor('GET /posts'));
  assert.is(res.status, 200);
  assert.is(events.length, seen);
});

test('a listener that throws does not break the request, nor the other listeners', async () => {
  for (const engine of ['compiled', 'xstate'] as const) {
    const app = appFor(engine);
    let others = 0;
    app.trace(() => { throw new Error('broken listener'); });
    app.trace(() => { others++; });
    const res = await app.handle(messageFor('GET /posts'));
    assert.is(res.status, 200, engine);
    assert.is(res.body, 'list');
    assert.ok(others > 5, engine);
  }
});

test('a failure of the machine itself (outside any action) is a 500 with public/500.html, logged', async () => {
  for (const engine of ['compiled', 'xstate'] as const) {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write(chunk, _e, done) { lines.push(JSON.parse(String(chunk))); done(); } });
    const app = appFor(engine, { logger: pino({ level: 'info' }, sink) });
    const res = await app.handle(messageFor('GET /posts/1/broken'));
    assert.is(res.status, 500, engine);
    assert.is(res.body, '<h1>500 page</h1>');
    assert.is(res.headers['Content-Type'], 'text/html; charset=utf-8');
    assert.ok(lines.some((l) => l.msg === 'request machine failed' && l.level === 50), engine);
    assert.ok(lines.some((l) => l.msg === 'request completed' && l.status === 500), engine);
  }
  const bare = createApp({ routes: routes(), controllers: { posts: PostsController }, environment: 'test', logger: false });
  assert.is((await bare.handle(messageFor('GET /posts/1/broken'))).body, defaultErrorPage(500), 'no public page: the default one');
});

test('every request logs "request completed" with its method, path, status, action and transport', async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write(chunk, _e, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const app = appFor('compiled', { logger: pino({ level: 'info' }, sink) });
  await app.handle({ ...messageFor('GET /posts/3?secret=x'), transport: 'ws' });
  await app.handle(messageFor('GET /nowhere'));
  const [shown, missing] = lines.filter((l) => l.msg === 'request completed');
  assert.equal({ ...shown, reqId: 'id', ms: 0, time: 0, pid: 0, hostname: '' }, {
    level: 30, time: 0, pid: 0, hostname: '', reqId: 'id', method: 'GET', path: '/posts/3', status: 200, ms: 0, controller: 'posts', action: 'show', transport: 'ws', msg: 'request completed',
  });
  assert.is(missing.status, 404);
  assert.is(missing.controller, null);
});

test('controllers may be given as a Map; services and config reach the app frozen', async () => {
  const app = createApp({ routes: routes(), controllers: new Map([['posts', PostsController]]), environment: 'test', logger: false, config: { default_charset: 'latin1' } });
  assert.is((await app.handle(messageFor('GET /posts'))).headers['Content-Type'], 'text/html; charset=latin1');
  assert.ok(Object.isFrozen(app));
  assert.ok(Object.isFrozen(app.config));
  assert.is(app.config.environment, 'test');
  assert.is(app.config.allow_forgery_protection, false, 'off in test');
  assert.is(app.config.consider_all_requests_local, false);
  assert.equal(app.config.forgeryExemptTypes, ['application/json', 'application/xml']);
  assert.is(app.publicDir, null);
  assert.ok(app.compiled.stateNames.includes('dispatching'));
});

test('the environment defaults from NODE_ENV: production and test as named, development when unset or empty', () => {
  const saved = process.env.NODE_ENV;
  try {
    for (const [value, expected] of [['test', 'test'], ['development', 'development'], ['', 'development'], [undefined, 'development']] as const) {
      if (value === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = value;
      const app = createApp({ routes: routes(), controllers: {}, logger: false });
      assert.is(app.config.environment, expected, String(value));
    }
    process.env.NODE_ENV = 'production';
    assert.is(createApp({ routes: routes(), controllers: {}, logger: false, session: false }).config.environment, 'production');
  } finally {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  }
});

test('a NODE_ENV that names no environment is refused, not run as development (whose error pages show parameters and session)', () => {
  const saved = process.env.NODE_ENV;
  try {
    for (const [value, hint] of [['Production', ' (did you mean production?)'], ['prod', ''], ['staging', ''], ['tset', ' (did you mean test?)']] as const) {
      process.env.NODE_ENV = value;
      assert.throws(() => createApp({ routes: routes(), controllers: {}, logger: false }), (e: unknown) => e instanceof ArgumentError &&
        (e as Error).message === `NODE_ENV is "${value}", which names no environment${hint}: Signalbox runs as development, test or production. ` +
          'A staging server runs as production; createApp({ environment }) chooses one whatever NODE_ENV says', value);
    }
    process.env.NODE_ENV = 'staging';
    assert.is(createApp({ routes: routes(), controllers: {}, logger: false, environment: 'test' }).config.environment, 'test', 'the option decides whatever NODE_ENV says');
  } finally {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  }
});

test('createApp refuses options without a drawn route set', () => {
  const refused = (options: unknown) => assert.throws(() => createApp(options as Parameters<typeof createApp>[0]), (e: unknown) => e instanceof ArgumentError && (e as Error).message === 'createApp needs { routes } drawn with draw()');
  refused(undefined);
  refused({});
  refused({ routes: {}, controllers: {} });
  refused({ routes: [], controllers: {} });
});

test('createApp refuses a controller that is not a class extending Controller, naming it', () => {
  for (const [given, says] of [
    [{}, /controllers\["posts"\] must be a class extending Controller, not object/],
    [() => 1, /controllers\["posts"\] must be a class extending Controller, not the function/],
    [class PostsController {}, /not the function PostsController/],
    [null, /not null/],
  ] as const) {
    assert.throws(() => createApp({ routes: routes(), controllers: { posts: given as unknown as typeof Controller }, logger: false }), (e: unknown) => e instanceof ArgumentError && says.test((e as Error).message));
  }
  assert.throws(() => createApp({ routes: routes(), controllers: new Map([['admin/posts', 'PostsController' as unknown as typeof Controller]]), logger: false }), /controllers\["admin\/posts"\] must be a class extending Controller, not string/);
});

test('createApp refuses session and session_store together, and production without a session secret', () => {
  assert.throws(() => createApp({ routes: routes(), controllers: {}, logger: false, session: { key: 'k' }, session_store: memorySessionStore() }), (e: unknown) => e instanceof ArgumentError && /not both/.test((e as Error).message));
  assert.throws(() => createApp({ routes: routes(), controllers: {}, logger: false, environment: 'production' }), (e: unknown) => e instanceof ArgumentError && /Production needs a session secret/.test((e as Error).message));
});

test('config.relative_url_root mounts the generated links too, not only the paths read', async () => {
  class MountedController extends Controller {
    show(): void {
      this.render({ text: `${this.url_for({ action: 'show', id: 2, only_path: true })} ${this.url_for({ action: 'show', id: 3 })}` });
    }
    go(): void {
      this.redirect_to({ action: 'show', id: 4 });
    }
  }
  const routes = draw((map) => map.resources('mounted', { collection: { go: 'get' } }));
  const app = createApp({ routes, controllers: { mounted: MountedController }, environment: 'test', logger: false, config: { relative_url_root: '/blog/' } });
  const shown = await call(app, 'GET /blog/mounted/1');
  assert.is(shown.body, '/blog/mounted/2 http://test.host/blog/mounted/3');
  assert.is((await call(app, 'GET /blog/mounted/go')).header('location'), 'http://test.host/blog/mounted/4');
});

test('app.handle never rejects: a message with an unknown method resolves to 501', async () => {
  const app = appWith({ posts: PostsController }, { routes: routes() });
  const message: RequestMessage = { method: 'SEARCH', url: '/posts', headers: {} };
  assert.is((await app.handle(message)).status, 501);
  assert.is((await call(app, 'GET /posts')).status, 200);
});

test('a message that is not a RequestMessage (made by hand, without its url) resolves to 400, logged with what is wrong', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } });
  const app = createApp({ routes: routes(), controllers: { posts: PostsController }, logger: pino(sink), environment: 'development' });
  for (const [message, wrong] of [
    [{ method: 'GET', path: '/posts', headers: {} }, /url must be a string .*not undefined/],
    [{ method: 'GET', url: '/posts' }, /headers must be an object, not undefined/],
    [{ url: '/posts', headers: {} }, /method must be a string/],
    [null, /must be an object, not null/],
  ] as const) {
    const answer = await app.handle(message as unknown as RequestMessage);
    assert.is(answer.status, 400);
    assert.match(String(answer.body), wrong, 'development says what is wrong');
  }
  assert.is(lines.filter((l) => /app\.handle needs a RequestMessage/.test(l)).length, 4);
  assert.is((await app.handle({ method: 'GET', url: '/posts', headers: { host: 'localhost' } })).status, 200, 'the next request is served');
});

test('a header value of another type in a message made by hand is read as its text', async () => {
  class EchoController extends Controller {
    index(): void { this.render({ text: String(this.request.headers['x-count']) }); }
  }
  const app = appWith({ posts: EchoController }, { routes: routes() });
  const answer = await app.handle({ method: 'GET', url: '/posts', headers: { host: 'test.host', 'X-Count': 5 as unknown as string } });
  assert.is(answer.status, 200);
  assert.is(String(answer.body), '5');
});

test.run();
