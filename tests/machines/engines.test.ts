/**
 * Both engines are the same machine: for a request down every path of the
 * request machine, the compiled table and real XState actors enter the same
 * states, take the same transitions, and answer the same response. The
 * requests together must reach every state and every transition, so a new
 * state without a request that reaches it fails here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, draw, type RequestMessage, type ResponseMessage } from '../../core/index.ts';
import { createApp, machineTable, requestMachine, type Engine } from '../../machines/index.ts';
import { scratchDir } from '../support/temp.ts';

class PostsController extends Controller {
  static {
    this.protect_from_forgery({ only: ['create'] });
    this.caches_page('cached');
  }
  index(): void {
    this.respond_to({ html: () => this.render({ text: 'posts' }), json: () => this.render({ json: [] }) });
  }
  show(): void {
    this.render({ json: { id: this.params.id } });
  }
  create(): void {
    this.head('created');
  }
  cached(): void {
    this.render({ text: 'cached page' });
  }
  boom(): void {
    throw new Error('boom');
  }
}

const routes = draw((map) => {
  map.resources('posts');
  map.named('boom', 'boom', { controller: 'posts', action: 'boom' });
  map.named('cached', 'cached', { controller: 'posts', action: 'cached' });
}, { controllers: ['posts'] });

const dir = scratchDir('engines');
mkdirSync(join(dir, 'public'));
writeFileSync(join(dir, 'public', 'robots.txt'), 'User-agent: *\n');

function app(engine: Engine) {
  return createApp({
    routes, controllers: { posts: PostsController }, engine, environment: 'test', config: { allow_forgery_protection: true },
    // Pages apart from the public files: a page one app wrote is not a file another app's index finds.
    publicDir: join(dir, 'public'), page_cache_directory: join(dir, `pages-${engine}`),
  });
}

const ETAG = '"' + 'x'.repeat(32) + '"';
const REQUESTS: { why: string; message: RequestMessage; last: string; warm?: boolean }[] = [
  { why: 'a public file', message: { method: 'GET', url: '/robots.txt', headers: { host: 'test.host' } }, last: 'servingPublic' },
  { why: 'a cached page', message: { method: 'GET', url: '/cached', headers: { host: 'test.host' } }, last: 'servingPublic', warm: true },
  { why: 'a path whose escapes do not decode', message: { method: 'GET', url: '/posts%E0', headers: { host: 'test.host' } }, last: 'rescuing' },
  { why: 'a rendered 200', message: { method: 'GET', url: '/posts', headers: { host: 'test.host' } }, last: 'rendering' },
  { why: 'HEAD, read as GET', message: { method: 'HEAD', url: '/posts/1', headers: { host: 'test.host' } }, last: 'rendering' },
  { why: 'a conditional GET answered 304', message: { method: 'GET', url: '/posts/1', headers: { host: 'test.host', 'if-none-match': ETAG } }, last: 'notModified' },
  { why: 'a routing error', message: { method: 'GET', url: '/nope', headers: { host: 'test.host' } }, last: 'routingError' },
  { why: 'a method the path does not allow', message: { method: 'DELETE', url: '/posts', headers: { host: 'test.host', 'content-type': 'application/json' } }, last: 'methodNotAllowed' },
  { why: 'a tokenless form to a path no route takes', message: { method: 'DELETE', url: '/posts', headers: { host: 'test.host' } }, last: 'forgeryRejected' },
  { why: 'an unknown method', message: { method: 'BREW', url: '/posts', headers: { host: 'test.host' } }, last: 'unknownMethod' },
  { why: 'nothing acceptable', message: { method: 'GET', url: '/posts', headers: { host: 'test.host', accept: 'image/png' } }, last: 'notAcceptable' },
  { why: 'a forgery rejection', message: { method: 'POST', url: '/posts', headers: { host: 'test.host', 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }, last: 'forgeryRejected' },
  { why: 'an unrescued exception', message: { method: 'GET', url: '/boom', headers: { host: 'test.host' } }, last: 'rescuing' },
  { why: 'a request that does not parse', message: { method: 'GET', url: '/posts?a=%zz', headers: { host: 'test.host' } }, last: 'rescuing' },
];

type Step = { kind: string; state?: string; from?: string; to?: string; event?: string; guard?: string | null };

async function traced(engine: Engine, message: RequestMessage, warm = false): Promise<{ events: Step[]; response: ResponseMessage }> {
  const a = app(engine);
  const events: Step[] = [];
  a.trace((e) => {
    if (e.kind === 'state' || e.kind === 'transition') {
      const { t: _t, id: _id, ...rest } = e;
      events.push(rest);
    }
  });
  // A cached page is answered from the page cache once a first request has written it.
  if (warm) {
    await a.handle(message);
    events.length = 0;
  }
  // The 304 case needs the real ETag: ask once without it.
  let msg = message;
  if (message.headers['if-none-match'] === ETAG) {
    const first = await a.handle({ ...message, headers: { host: 'test.host' } });
    msg = { ...message, headers: { ...message.headers, 'if-none-match': String(first.headers.ETag) } };
    events.length = 0;
  }
  const response = await a.handle(msg);
  return { events, response };
}

const withoutRuntime = (r: ResponseMessage) => ({ ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'X-Runtime')) });

const test = suite('engines');
const visitedStates = new Set<string>();
const visitedEdges = new Set<string>();

for (const { why, message, last, warm } of REQUESTS) {
  test(`both engines walk the same path for ${why}`, async () => {
    const compiled = await traced('compiled', message, warm);
    const xstate = await traced('xstate', message, warm);
    assert.equal(compiled.events, xstate.events, 'same states and transitions, in order');
    assert.equal(withoutRuntime(compiled.response), withoutRuntime(xstate.response), 'same response');
    const states = compiled.events.filter((e) => e.kind === 'state').map((e) => e.state!);
    assert.is(states[0], 'servingPublic');
    assert.is(states[states.length - 1], 'done');
    assert.is(states[states.length - 3], last, `${why} ends through ${last}`);
    for (const s of states) visitedStates.add(s);
    for (const e of compiled.events) if (e.kind === 'transition') visitedEdges.add(`${e.from}->${e.to}`);
  });
}

test('the requests reach every state and every transition of the machine', () => {
  const table = machineTable(requestMachine);
  const edges = new Set(table.transitions.map((t) => `${t.source}->${t.targets[0]}`));
  assert.equal([...visitedStates].sort(), table.states.map((s) => s.key).sort(), 'every state');
  assert.equal([...visitedEdges].sort(), [...edges].sort(), 'every transition');
});

test.run();
