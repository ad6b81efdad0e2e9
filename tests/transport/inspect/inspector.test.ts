/**
 * The inspector on a real server: off unless asked for outside development
 * (and then its paths are the app's, not a hidden endpoint), the page and
 * its assets from the project itself, only for local or configured hosts,
 * and the trace channel: same-origin only, the app traced exactly while a
 * page is connected, each request's sanitised events pushed to every page,
 * HTTP and tunnelled alike, the same whichever engine runs them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exportedGraphs, toJson, type App, type TraceListener } from '../../../machines/index.ts';
import { serve, tunnel, type WireTraceEvent } from '../../../transport/index.ts';
import { withServer } from '../support.ts';
import { EchoController, get, handshake, inspectedApp, Viewer } from './support.ts';

const test = suite('the inspector');

test('off in the test and production environments: its paths are ordinary requests to the app', async () => {
  for (const environment of ['test', 'production'] as const) {
    const app = inspectedApp({ environment, session: false });
    await withServer(app, {}, async (server) => {
      assert.is(server.inspector, null, environment);
      const page = await get(server, '/__inspect');
      assert.is(page.status, 200);
      assert.is(page.body, 'the app: /__inspect', `${environment}: answered by the app`);
      assert.is((await get(server, '/__inspect/machines.json')).body, 'the app: /__inspect/machines.json');
      assert.is((await get(server, '/__inspect/elk.bundled.js')).body, 'the app: /__inspect/elk.bundled.js');
      assert.is(await handshake(server, '/__inspect/trace'), 404, 'no trace channel');
      assert.is(server.server.listenerCount('upgrade'), 1, 'the tunnel\'s router only');
    });
  }
  await withServer(inspectedApp({ environment: 'test' }), { tunnel: false }, async (server) => {
    assert.is(server.server.listenerCount('upgrade'), 0, 'no WebSocket endpoint at all');
    assert.is(await handshake(server, '/__inspect/trace'), 200, 'an upgrade is then an ordinary request to the app');
  });
});

test('on by default in development; inspect: false turns it off there, inspect: true on anywhere', async () => {
  await withServer(inspectedApp({ environment: 'development' }), {}, async (server) => {
    assert.ok(server.inspector);
    assert.is(server.inspector!.path, '/__inspect');
    assert.is(server.inspector!.tracePath, '/__inspect/trace');
    assert.match((await get(server, '/__inspect')).body, /<title>Signalbox inspector<\/title>/);
  });
  await withServer(inspectedApp({ environment: 'development' }), { inspect: false }, async (server) => {
    assert.is(server.inspector, null);
    assert.is((await get(server, '/__inspect')).body, 'the app: /__inspect');
  });
  await withServer(inspectedApp({ environment: 'production', session: false }), { inspect: true }, async (server) => {
    assert.match((await get(server, '/__inspect')).body, /Signalbox inspector/);
  });
});

test('the path is configurable; the old one is then the app\'s', async () => {
  await withServer(inspectedApp(), { inspect: { path: '/_debug/machines' } }, async (server) => {
    assert.is(server.inspector!.tracePath, '/_debug/machines/trace');
    const page = await get(server, '/_debug/machines');
    assert.match(page.body, /<base href="\/_debug\/machines\/">/);
    assert.is((await get(server, '/__inspect')).body, 'the app: /__inspect');
    const viewer = await Viewer.open(server, '/_debug/machines/trace');
    assert.is(viewer.hello.type, 'hello');
    await viewer.close();
  });
  for (const path of ['debug', '/x/', '/x?y', '/a b', '/', '/"><script>', '//x']) {
    await serve(inspectedApp(), { port: 0, inspect: { path } }).then(
      (s) => s.close().then(() => assert.unreachable(`accepted ${path}`)),
      (e: Error) => assert.match(e.message, /inspector path/, path),
    );
  }
});

test('the page and its assets come from the project, with a strict content policy', async () => {
  await withServer(inspectedApp(), { inspect: true }, async (server) => {
    const page = await get(server, '/__inspect');
    assert.is(page.status, 200);
    assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'; script-src 'self'/);
    assert.is(page.headers['x-content-type-options'], 'nosniff');
    assert.match(page.body, /<base href="\/__inspect\/">/);
    assert.not.match(page.body, /https?:\/\//, 'nothing from elsewhere');
    for (const [name, type] of [['main.js', 'text/javascript'], ['diagram.js', 'text/javascript'], ['traces.js', 'text/javascript'], ['channel.js', 'text/javascript'], ['inspector.css', 'text/css']]) {
      const asset = await get(server, `/__inspect/${name}`);
      assert.is(asset.status, 200, name);
      assert.ok(String(asset.headers['content-type']).startsWith(type), name);
      assert.not.match(asset.body, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/, `${name} loads nothing from elsewhere`);
    }
    const elk = await get(server, '/__inspect/elk.bundled.js');
    assert.is(elk.body, readFileSync(createRequire(import.meta.url).resolve('elkjs/lib/elk.bundled.js'), 'utf8'), 'elkjs from node_modules');
    const machines = await get(server, '/__inspect/machines.json');
    assert.is(machines.headers['content-type'], 'application/json; charset=utf-8');
    assert.is(machines.body, toJson(exportedGraphs()), 'the same document as `signalbox machines --format json`');
    assert.is((await get(server, '/__inspect/')).status, 200, 'with a trailing slash too');
    assert.is((await get(server, '/__inspect/../package.json')).status, 404);
    assert.is((await get(server, '/__inspect/page/index.html')).status, 404, 'names from a table, not files');
    assert.is((await get(server, '/__inspect/constructor')).status, 404);
    const post = await get(server, '/__inspect', { method: 'POST' });
    assert.is(post.status, 405);
    assert.is(post.headers.allow, 'GET, HEAD');
    const head = await get(server, '/__inspect/machines.json', { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(head.body, '');
    assert.is(Number(head.headers['content-length']), Buffer.byteLength(machines.body));
    assert.is((await get(server, '/__inspect?x=1')).status, 200, 'a query string is not part of the path');
    assert.is((await get(server, '/__inspection')).body, 'the app: /__inspection', 'a longer name is not the inspector\'s');
  });
});

test('only IP addresses, localhost and config.hosts may see it (no DNS rebinding)', async () => {
  await withServer(inspectedApp({ config: { hosts: ['blog.test'] } }), { inspect: true }, async (server) => {
    const port = server.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'app.localhost', '[::1]:3000', '10.0.0.7', 'blog.test', 'LOCALHOST.']) {
      assert.is((await get(server, '/__inspect', { headers: { Host: host } })).status, 200, host);
    }
    for (const host of ['evil.example', `evil.example:${port}`, 'localhost.evil.example', '127.0.0.1.nip.io']) {
      const refused = await get(server, '/__inspect', { headers: { Host: host } });
      assert.is(refused.status, 403, host);
      assert.match(refused.body, /Blocked host/);
      assert.is(await handshake(server, '/__inspect/trace', { Host: host }), 403, `${host} (trace channel)`);
    }
  });
});

test('the trace channel takes same-origin pages and non-browser clients only', async () => {
  await withServer(inspectedApp(), { inspect: true }, async (server) => {
    assert.is(await handshake(server, '/__inspect/trace', {}), 101, 'no Origin: not a browser');
    assert.is(await handshake(server, '/__inspect/trace', { Origin: `http://127.0.0.1:${server.port}` }), 101);
    assert.is(await handshake(server, '/__inspect/trace', { Origin: 'http://evil.example' }), 403);
    assert.is(await handshake(server, '/__inspect/trace', { Origin: 'null' }), 403);
    assert.is(await handshake(server, '/__inspect/trace?x=1', {}), 101);
    assert.is(await handshake(server, '/__inspect/trace', { Upgrade: 'h2c' }), 400, 'not a WebSocket handshake');
  });
});

/** `app` with its trace subscriptions counted. */
function counted(app: App): { app: App; subscribed: () => number; unsubscribed: () => number } {
  let on = 0;
  let off = 0;
  const wrapped = Object.freeze({
    ...app,
    handle: app.handle,
    trace(listener: TraceListener) {
      on++;
      const stop = app.trace(listener);
      return () => {
        off++;
        stop();
      };
    },
  });
  return { app: wrapped, subscribed: () => on, unsubscribed: () => off };
}

test('the app is traced exactly while a page is connected', async () => {
  const { app, subscribed, unsubscribed } = counted(inspectedApp());
  await withServer(app, { inspect: true }, async (server) => {
    const inspector = server.inspector!;
    await get(server, '/echo/show');
    assert.is(subscribed(), 0, 'nobody watching: no listener at all');
    assert.is(inspector.tracing, false);
    const a = await Viewer.open(server);
    assert.equal([subscribed(), inspector.tracing, inspector.viewers], [1, true, 1]);
    const b = await Viewer.open(server);
    assert.equal([subscribed(), inspector.viewers], [1, 2], 'one listener for every page');
    await a.close();
    await b.until(() => inspector.viewers === 1);
    assert.equal([unsubscribed(), inspector.tracing], [0, true]);
    b.ws.terminate();
    await b.closed;
    await b.until(() => inspector.viewers === 0);
    assert.equal([unsubscribed(), inspector.tracing], [1, false], 'the last page gone: the listener is removed');
    const c = await Viewer.open(server);
    assert.is(subscribed(), 2);
    await c.close();
  });
});

const strip = (events: WireTraceEvent[]) => events.map((e) => {
  const { t: _t, id: _id, ...rest } = e as WireTraceEvent & { ms?: number };
  if ('ms' in rest) delete (rest as { ms?: number }).ms;
  return rest;
});

test('a page gets each request\'s events, HTTP and tunnelled alike, the same under both engines', async () => {
  const walks: Record<string, unknown> = {};
  for (const engine of ['compiled', 'xstate'] as const) {
    await withServer(inspectedApp({ engine }), { inspect: true }, async (server) => {
      const viewer = await Viewer.open(server);
      assert.equal({ ...viewer.hello, recent: [] }, { type: 'hello', protocol: 1, engine, machines: ['request'], recent: [] });
      await get(server, '/echo/show?token=QUERY-SECRET', { headers: { Cookie: 'session=COOKIE-SECRET', Authorization: 'Bearer AUTH-SECRET' } });
      const t = await tunnel(`ws://127.0.0.1:${server.port}/_tunnel`, { reconnect: false });
      assert.is((await t.request({ method: 'GET', path: '/nowhere/at/all/really' })).status, 404);
      await t.close();
      const [http, tunnelled] = await viewer.done(2);
      const text = JSON.stringify(viewer.frames);
      for (const secret of ['QUERY-SECRET', 'COOKIE-SECRET', 'AUTH-SECRET']) assert.not.ok(text.includes(secret), `${engine}: ${secret}`);
      const [request] = http;
      assert.equal({ ...request, id: '', t: 0 }, { kind: 'request', id: '', machine: 'request', method: 'GET', path: '/echo/show', transport: 'http', t: 0 });
      assert.ok(http.every((e) => e.id === request.id), 'one id per request');
      const states = (events: WireTraceEvent[]) => events.flatMap((e) => (e.kind === 'state' ? [e.state] : []));
      assert.equal(states(http), ['parsing', 'negotiating', 'checkingForgery', 'recognizing', 'dispatching', 'rendering', 'responding', 'done']);
      assert.equal(http.filter((e) => e.kind === 'transition').length, 7);
      const done = http[http.length - 1];
      assert.is(done.kind, 'done');
      assert.is((done as { status: number }).status, 200);
      assert.ok((done as { ms: number }).ms > 0);
      assert.ok(http.every((e, i) => i === 0 || e.t >= http[i - 1].t), 'in time order');
      assert.is((tunnelled[0] as { transport: string }).transport, 'tunnel');
      assert.equal(states(tunnelled).slice(-3), ['routingError', 'responding', 'done'], 'a 404 ends in routingError');
      walks[engine] = [strip(http), strip(tunnelled)];
      await viewer.close();
    });
  }
  assert.equal(walks.xstate, walks.compiled, 'the engines look the same on the wire');
});

test('requests begun before anyone watched are not sent; a page arriving later gets the recent ones', async () => {
  await withServer(inspectedApp(), { inspect: true }, async (server) => {
    let release!: () => void;
    EchoController.gate = new Promise<void>((r) => { release = r; });
    // In flight when the first page connects: its end alone would be half a trace.
    const held = get(server, '/echo/wait');
    await new Promise((r) => setTimeout(r, 50));
    const first = await Viewer.open(server);
    release();
    assert.is((await held).body, 'waited');
    await get(server, '/echo/show/1');
    await first.done(1);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal([...first.requests().values()].map((events) => (events[0] as { path?: string }).path), ['/echo/show/1']);
    const second = await Viewer.open(server);
    assert.equal(strip(second.hello.recent), strip(first.events), 'hello carries the recent requests');
    await Promise.all([first.close(), second.close()]);
  });
});

test('sixteen pages at most; server.close() closes them with 1001', async () => {
  const server = await serve(inspectedApp(), { port: 0, host: '127.0.0.1', inspect: true });
  const viewers = await Promise.all(Array.from({ length: 16 }, () => Viewer.open(server)));
  assert.is(await handshake(server, '/__inspect/trace'), 503);
  await server.close();
  for (const v of viewers) assert.is(await v.closed, 1001);
  assert.is(server.inspector!.viewers, 0);
});

test.run();
