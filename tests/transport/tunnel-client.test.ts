/**
 * The tunnel client against a real `serve()` on 127.0.0.1: fetch-like
 * responses, error frames as rejections, the cookie jar, upgrade headers,
 * timeouts, and what happens when the socket goes away (in-flight requests
 * rejected, reconnection with backoff, giving up). A small TCP relay in
 * front of the server lets a test cut the connection or refuse new ones.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import { ArgumentError, Controller } from '../../core/index.ts';
import type { App } from '../../machines/index.ts';
import { serve, tunnel, TunnelError, type Tunnel, type TunnelClientOptions } from '../../transport/index.ts';
import { AdminController } from './support.ts';
import { appWith, tempDir, withServer } from '../support/harness.ts';
import { eventually } from '../support/patience.ts';
import { serverProcess } from './support-process.ts';

const test = suite('the tunnel client sends fetch-like requests over one WebSocket');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class EchoController extends Controller {
  show(): void {
    const body = this.request.body;
    this.render({
      json: {
        method: this.request.method, params: this.params, headers: this.request.headers,
        body: typeof body === 'string' ? body : Buffer.from(body).toString('latin1'),
      },
    });
  }
  async slow(): Promise<void> {
    await sleep(Number(this.params.ms ?? 100));
    this.render({ text: `slow ${String(this.params.id ?? '')}` });
  }
  login(): void {
    this.cookies.set('user', String(this.params.id ?? 'alice'));
    this.cookies.set('theme', { value: 'dark', max_age: 3600 });
    this.render({ text: 'signed in' });
  }
  logout(): void {
    this.cookies.delete('user');
    this.render({ text: 'signed out' });
  }
  whoami(): void {
    this.render({ text: this.cookies.get('user') ?? 'nobody' });
  }
  crumbs(): void {
    // `n` cookies named <prefix>0, <prefix>1, ..., and with `big`, one more whose value is that long.
    for (let i = 0; i < Number(this.params.n ?? 0); i++) this.cookies.set(`${String(this.params.prefix ?? 'c')}${i}`, 'v');
    if (this.params.big !== undefined) this.response.cookies.push(`big=${'b'.repeat(Number(this.params.big))}; Path=/`);
    this.render({ text: 'crumbs' });
  }
}


const echoApp = () => appWith({ echo: EchoController, admin: AdminController });


/** Runs `body` with a client, and closes the client afterwards whatever happens. */
async function withClient(url: string, options: TunnelClientOptions, body: (t: Tunnel) => Promise<void>): Promise<void> {
  const t = await tunnel(url, options);
  try {
    await body(t);
  } finally {
    await t.close();
  }
}

const urlOf = (port: number, path = '/_tunnel') => `ws://127.0.0.1:${port}${path}`;

async function rejection(promise: Promise<unknown>): Promise<TunnelError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, TunnelError);
    return error as TunnelError;
  }
  throw new Error('expected a rejection');
}

/**
 * A TCP relay in front of the server: `cut()` drops every connection, and
 * while `refusing` it accepts connections only to drop them. It records when
 * each connection arrived.
 */
class Relay {
  readonly arrivals: number[] = [];
  refusing = false;
  /** Connections still to refuse before accepting again (as a server that is down, then back). */
  refuseNext = 0;
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  port = 0;

  constructor(target: number) {
    this.#server = createServer((client) => {
      this.arrivals.push(performance.now());
      client.on('error', () => {});
      if (this.refusing || this.refuseNext > 0) {
        this.refuseNext = Math.max(0, this.refuseNext - 1);
        client.destroy();
        return;
      }
      const upstream = connect(target, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
      this.#sockets.add(client).add(upstream);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  cut(): void {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((r) => this.#server.close(() => r()));
  }
}

test('a request resolves to a fetch-like response', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      assert.is(t.state, 'open');
      const res = await t.request({ path: '/echo/show?x=1', headers: { 'X-Extra': 'yes' } });
      assert.is(res.status, 200);
      assert.is(res.ok, true);
      assert.is(res.statusText, '');
      assert.type(res.id, 'number');
      assert.is(res.headers.get('content-type'), 'application/json; charset=utf-8', 'any case');
      assert.is(res.headers.get('CONTENT-TYPE'), 'application/json; charset=utf-8');
      assert.is(res.headers.get('x-missing'), null);
      assert.is(res.headers.raw['Content-Type'], 'application/json; charset=utf-8');
      const json = (await res.json()) as { method: string; params: Record<string, string>; headers: Record<string, string> };
      assert.is(json.method, 'get', 'GET by default');
      assert.is(json.params.x, '1');
      assert.is(json.headers['x-extra'], 'yes');
      assert.instance(res.body, Uint8Array);
      assert.is(new TextDecoder().decode(res.body), await res.text());
      assert.is(new TextDecoder().decode(await res.arrayBuffer()), await res.text());
      const missing = await t.request({ path: '/nothing/here' });
      assert.is(missing.status, 404);
      assert.is(missing.ok, false);
    });
  });
});

test('a lower-case method is upper-cased; a Uint8Array body travels as base64 and arrives byte for byte', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const bytes = new Uint8Array([0, 1, 127, 128, 255]);
      const res = await t.request({ method: 'put', path: '/echo/show', headers: { 'Content-Type': 'application/octet-stream' }, body: bytes });
      const json = (await res.json()) as { method: string; body: string };
      assert.is(json.method, 'put');
      assert.equal([...Buffer.from(json.body, 'latin1')], [...bytes]);
      const text = await t.request({ method: 'POST', path: '/echo/show', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'title=caf%C3%A9' });
      assert.is(((await text.json()) as { params: { title: string } }).params.title, 'café');
    });
  });
});

test('a text answer reads the same through text(), json(), body and arrayBuffer(), non-ASCII included', async () => {
  const app = echoApp();
  const bodies: Record<string, { type: string; body: string | Uint8Array }> = {
    '/ascii': { type: 'application/json', body: '{"a":1}' },
    '/accents': { type: 'application/json; charset=utf-8', body: '{"title":"café — “quoted” ✓ 😀","n":[1,2]}' },
    '/bytes': { type: 'text/plain; charset=utf-8', body: new TextEncoder().encode('naïve bytes — ✓ 😀') },
    '/empty': { type: 'text/plain', body: '' },
  };
  const fake: App = { ...app, handle: async (m) => ({ status: 200, headers: { 'Content-Type': bodies[m.url].type }, body: bodies[m.url].body }) };
  await withServer(fake, {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      for (const [path, { body }] of Object.entries(bodies)) {
        const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
        const bytes = new TextEncoder().encode(text);
        const res = await t.request({ path });
        assert.is(await res.text(), text, path);
        assert.is(await res.text(), text, `${path}: read twice`);
        if (path !== '/bytes' && path !== '/empty') assert.equal(await res.json(), JSON.parse(text), path);
        assert.instance(res.body, Uint8Array);
        assert.equal([...res.body], [...bytes], `${path}: body is the UTF-8 bytes`);
        assert.is(res.body, res.body, `${path}: made once`);
        assert.equal([...new Uint8Array(await res.arrayBuffer())], [...bytes], path);
        assert.is(await res.text(), text, `${path}: text() after body`);
      }
    });
  });
});

test('a base64 answer reads as its bytes, and text() and json() decode them as UTF-8', async () => {
  const app = echoApp();
  const json = '{"name":"Zoë ✓"}';
  const fake: App = { ...app, handle: async () => ({ status: 200, headers: { 'Content-Type': 'application/octet-stream' }, body: new TextEncoder().encode(json) }) };
  await withServer(fake, {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const res = await t.request({ path: '/data' });
      assert.equal([...res.body], [...new TextEncoder().encode(json)]);
      assert.is(await res.text(), json);
      assert.equal(await res.json(), { name: 'Zoë ✓' });
    });
  });
});

test('headers.get finds a header by any spelling, and getSetCookie reads Set-Cookie however the app spelled it', async () => {
  const app = echoApp();
  const fake: App = { ...app, handle: async () => ({ status: 200, headers: { 'content-TYPE': 'text/plain', 'SET-COOKIE': ['a=1', 'b=2'], 'X-Two': ['x', 'y'] }, body: 'ok' }) };
  await withServer(fake, {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const res = await t.request({ path: '/' });
      assert.is(res.headers.get('Content-Type'), 'text/plain');
      assert.is(res.headers.get('content-type'), 'text/plain');
      assert.is(res.headers.get('x-two'), 'x, y');
      assert.is(res.headers.get('x-tw'), null);
      assert.equal(res.headers.getSetCookie(), ['a=1', 'b=2']);
      assert.equal(Object.fromEntries(t.cookies), { a: '1', b: '2' }, 'the jar read them too');
    });
  });
});

test('request headers: a plain object is sent as given, an empty one sends none, the jar adds Cookie unless a request sets any spelling of it', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const seen = async (headers?: Record<string, string>) =>
        ((await (await t.request({ path: '/echo/show', ...(headers !== undefined ? { headers } : {}) })).json()) as { headers: Record<string, string> }).headers;
      assert.is((await seen({}))['x-extra'], undefined);
      assert.is((await seen({ 'X-Extra': 'a' }))['x-extra'], 'a');
      const inherited = Object.create({ 'X-Inherited': 'no' }) as Record<string, string>;
      inherited['X-Own'] = 'yes';
      const fromProto = await seen(inherited);
      assert.is(fromProto['x-own'], 'yes');
      assert.is(fromProto['x-inherited'], undefined, 'only own keys travel');
      await t.request({ path: '/echo/login/bob' });
      assert.match((await seen())['cookie'] ?? '', /user=bob/);
      assert.is((await seen({ COOKIE: 'user=zed' }))['cookie'], 'user=zed');
    });
  });
});

test('a binary answer comes back as its exact bytes', async () => {
  const app = echoApp();
  const fake: App = { ...app, handle: async () => ({ status: 200, headers: { 'Content-Type': 'image/png' }, body: new Uint8Array([137, 80, 78, 71, 0, 255]) }) };
  await withServer(fake, {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const res = await t.request({ path: '/logo.png' });
      assert.equal([...res.body], [137, 80, 78, 71, 0, 255]);
      assert.equal([...new Uint8Array(await res.arrayBuffer())], [137, 80, 78, 71, 0, 255]);
    });
  });
});

test('1,000 concurrent requests each resolve to their own answer', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const answers = await Promise.all(Array.from({ length: 1000 }, (_, i) => t.request({ path: `/echo/slow/${i}?ms=${(i * 7) % 11}` })));
      for (let i = 0; i < 1000; i++) assert.is(await answers[i].text(), `slow ${i}`);
      assert.is(new Set(answers.map((a) => a.id)).size, 1000);
    });
  });
});

test('an error frame rejects its request with the code, status and message; the tunnel goes on', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const unknown = await rejection(t.request({ method: 'CONNECT', path: '/echo/show' }));
      assert.is(unknown.code, 'unknown_method');
      assert.is(unknown.status, 501);
      assert.match(unknown.message, /CONNECT/);
      const bad = await rejection(t.request({ path: 'http://evil.example/x' }));
      assert.is(bad.code, 'bad_frame');
      assert.is(bad.status, 400);
      assert.is((await t.request({ path: '/echo/show' })).status, 200);
    });
  });
});

test('an oversized request is rejected frame_too_large, matched by its id', async () => {
  await withServer(echoApp(), { tunnel: { maxFrameBytes: 2048 } }, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const error = await rejection(t.request({ method: 'POST', path: '/echo/show', body: 'x'.repeat(5000) }));
      assert.is(error.code, 'frame_too_large');
      assert.is(error.status, 413);
    });
  });
});

test('cookies set by responses are kept, sent with later requests, and dropped when deleted', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      assert.is(await (await t.request({ path: '/echo/whoami' })).text(), 'nobody');
      const login = await t.request({ path: '/echo/login/bob' });
      assert.equal(login.headers.getSetCookie().length, 2);
      assert.equal([...t.cookies], [['user', 'bob'], ['theme', 'dark']]);
      assert.is(await (await t.request({ path: '/echo/whoami' })).text(), 'bob');
      assert.is(await (await t.request({ path: '/echo/whoami', headers: { cookie: 'user=carol' } })).text(), 'carol', 'a request\'s own Cookie wins');
      await t.request({ path: '/echo/logout' });
      assert.equal([...t.cookies], [['theme', 'dark']], 'an expired cookie is deleted');
      assert.is(await (await t.request({ path: '/echo/whoami' })).text(), 'nobody');
    });
  });
});

test('the cookie jar is bounded as a browser\'s: 180 cookies, the one made first forgotten first, none over 4096 characters', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      assert.is((await t.request({ path: '/echo/crumbs?n=150&prefix=a' })).status, 200);
      assert.is(t.cookies.size, 150);
      // Set again, a0 keeps its place (its creation time, as RFC 6265 has it) and its new value.
      assert.is((await t.request({ path: '/echo/crumbs?n=1&prefix=a' })).status, 200);
      assert.equal([...t.cookies.keys()].slice(0, 2), ['a0', 'a1']);
      assert.is((await t.request({ path: '/echo/crumbs?n=89&prefix=b' })).status, 200);
      assert.is(t.cookies.size, 180);
      assert.not.ok(t.cookies.has('a0'), 'made first, forgotten first');
      assert.not.ok(t.cookies.has('a58'));
      assert.ok(t.cookies.has('a59'));
      assert.ok(t.cookies.has('b88'));
      assert.is((await t.request({ path: '/echo/crumbs?big=4093' })).status, 200);
      assert.is(t.cookies.get('big')?.length, 4093, 'a cookie of 4096 characters, name and value, is kept');
      assert.is((await t.request({ path: '/echo/crumbs?big=5000' })).status, 200);
      assert.is(t.cookies.get('big')?.length, 4093, 'a longer one is not');
      assert.is(t.cookies.size, 180);
      const seen = (await (await t.request({ path: '/echo/show/1' })).json()) as { headers: Record<string, string> };
      assert.is(seen.headers.cookie.split('; ').length, 180, 'every kept cookie goes out, and no more');
    });
  });
});

test('with cookies: false the client keeps no cookies and sends only the headers it is given', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), { cookies: false }, async (t) => {
      const login = await t.request({ path: '/echo/login/bob' });
      assert.equal(login.headers.getSetCookie().length, 2, 'the response still shows what was set');
      assert.equal([...t.cookies], []);
      assert.is(await (await t.request({ path: '/echo/whoami' })).text(), 'nobody');
      assert.is(await (await t.request({ path: '/echo/whoami', headers: { cookie: 'user=carol' } })).text(), 'carol');
    });
  });
});

test('Set-Cookie lines are parsed by the cookie package: Max-Age=0 and a past Expires delete, unsendable values are skipped', async () => {
  const app = echoApp();
  const lines: Record<string, string[]> = {
    '/set': ['a=1; Path=/', 'b=2', 'c=3; Max-Age=60', 'q="quoted"', 'bad=x y', 'x y=1', 'semi=a\\b'],
    '/expire': ['a=; Max-Age=0', 'b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'c=4; Max-Age=-1'],
  };
  const fake: App = { ...app, handle: async (m) => ({ status: 200, headers: { 'Set-Cookie': lines[m.url] ?? [] }, body: String(m.headers.cookie ?? '') }) };
  await withServer(fake, {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      await t.request({ path: '/set' });
      assert.equal(Object.fromEntries(t.cookies), { a: '1', b: '2', c: '3', q: '"quoted"' });
      assert.is(await (await t.request({ path: '/echo' })).text(), 'a=1; b=2; c=3; q="quoted"');
      await t.request({ path: '/expire' });
      assert.equal(Object.fromEntries(t.cookies), { q: '"quoted"' });
      assert.is(await (await t.request({ path: '/echo' })).text(), 'q="quoted"');
    });
  });
});

test('cookies answers removed stay removed from the upgrade\'s cookies; the jar remembers the last 180 removals', async () => {
  const app = echoApp();
  const expire = Array.from({ length: 200 }, (_, i) => `c${i}=; Max-Age=0`);
  const fake: App = { ...app, handle: async (m) => ({ status: 200, headers: { 'Set-Cookie': m.url === '/expire' ? expire : [] }, body: String(m.headers.cookie ?? '') }) };
  await withServer(fake, {}, async (server) => {
    await withClient(urlOf(server.port), { headers: { Cookie: 'keep=1; c0=x; c150=x; c199=x' } }, async (t) => {
      assert.is(await (await t.request({ path: '/echo' })).text(), 'keep=1; c0=x; c150=x; c199=x');
      await t.request({ path: '/expire' });
      assert.equal(Object.fromEntries(t.cookies), { keep: '1' });
      // c0 was among the twenty removals made first, forgotten past 180: the upgrade's c0 shows again.
      assert.is(await (await t.request({ path: '/echo' })).text(), 'c0=x; keep=1');
      t.cookies.delete('c0');
      assert.is(await (await t.request({ path: '/echo' })).text(), 'keep=1', 'deleted by hand, removed too');
      t.cookies.set('c0', 'y');
      t.cookies.clear();
      assert.is(await (await t.request({ path: '/echo' })).text(), '', 'cleared: every cookie removed');
    });
  });
});

test('the upgrade headers (Cookie, Authorization) and origin are sent in Node; the jar starts with the upgrade cookies', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const options = { headers: { Cookie: 'user=dave; lang=en', Authorization: 'Basic YWRtaW46c2VjcmV0' }, origin: `http://127.0.0.1:${server.port}` };
    await withClient(urlOf(server.port), options, async (t) => {
      assert.equal([...t.cookies], [['user', 'dave'], ['lang', 'en']]);
      assert.is(await (await t.request({ path: '/admin' })).text(), 'admin area');
      await t.request({ path: '/echo/login/erin' });
      const seen = (await (await t.request({ path: '/echo/show' })).json()) as { headers: Record<string, string> };
      assert.is(seen.headers.cookie, 'user=erin; lang=en; theme=dark');
    });
  });
});

test('a refused handshake rejects tunnel() with tunnel_unavailable and the status; so does a port nobody listens on', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const foreign = await rejection(tunnel(urlOf(server.port), { origin: 'https://evil.example' }));
    assert.is(foreign.code, 'tunnel_unavailable');
    assert.is(foreign.status, 403);
    const elsewhere = await rejection(tunnel(urlOf(server.port, '/nope')));
    assert.is(elsewhere.status, 404);
  });
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const refused = await rejection(tunnel(urlOf(port)));
  assert.is(refused.code, 'tunnel_unavailable');
  assert.is(refused.status, undefined);
});

/** The WebSocket classes this Node has: `ws` always, Node's built-in one from Node 22 on. */
function socketClasses(): [string, TunnelClientOptions['WebSocket']][] {
  const builtIn = (globalThis as { WebSocket?: TunnelClientOptions['WebSocket'] }).WebSocket;
  const classes: [string, TunnelClientOptions['WebSocket']][] = [['ws', WebSocket as unknown as TunnelClientOptions['WebSocket']]];
  if (builtIn !== undefined) classes.push(["Node's built-in WebSocket", builtIn]);
  return classes;
}

test('a refused handshake rejects tunnel() at once with whichever WebSocket class it uses', async () => {
  await withServer(echoApp(), {}, async (server) => {
    for (const [name, Socket] of socketClasses()) {
      const started = performance.now();
      const refused = await rejection(tunnel(urlOf(server.port, '/nope'), { WebSocket: Socket, timeoutMs: 20_000 }));
      assert.is(refused.code, 'tunnel_unavailable', name);
      assert.match(refused.message, `Cannot open ${urlOf(server.port, '/nope')}`, name);
      // Long before timeoutMs: the refusal itself ends the attempt.
      assert.ok(performance.now() - started < 5_000, `${name} took ${Math.round(performance.now() - started)} ms`);
    }
  });
});

test('a server that accepts the connection and never answers the upgrade: tunnel() rejects after timeoutMs', async () => {
  const held = new Set<Socket>();
  const silent = createServer((socket) => {
    socket.on('error', () => {});
    held.add(socket);
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  try {
    const port = (silent.address() as AddressInfo).port;
    for (const [name, Socket] of socketClasses()) {
      const error = await rejection(tunnel(urlOf(port), { WebSocket: Socket, timeoutMs: 100 }));
      assert.is(error.code, 'tunnel_unavailable', name);
      assert.is(error.message, `Cannot open ${urlOf(port)}: no handshake within 100 ms`, name);
    }
  } finally {
    for (const socket of held) socket.destroy();
    await new Promise((r) => silent.close(r));
  }
});

test('a request without an answer within timeoutMs is rejected tunnel_timeout; a late answer is ignored', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), { timeoutMs: 50 }, async (t) => {
      const late = await rejection(t.request({ path: '/echo/slow/1?ms=150' }));
      assert.is(late.code, 'tunnel_timeout');
      await sleep(150);
      assert.is(await (await t.request({ path: '/echo/slow/2?ms=1' })).text(), 'slow 2');
    });
  });
});

test('each request has its own timeoutMs, counted from when it was made: a later one outlives an earlier one', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), { timeoutMs: 150 }, async (t) => {
      const started = performance.now();
      const first = rejection(t.request({ path: '/echo/slow/1?ms=400' }));
      await sleep(100);
      const second = t.request({ path: '/echo/slow/2?ms=100' });
      const third = rejection(t.request({ path: '/echo/slow/3?ms=400' }));
      const error = await first;
      assert.is(error.code, 'tunnel_timeout');
      assert.is(error.message, 'No answer within 150 ms');
      assert.ok(performance.now() - started >= 145, 'not before its own deadline');
      assert.is(await (await second).text(), 'slow 2', 'answered after the first one timed out, before its own deadline');
      const late = await third;
      assert.is(late.code, 'tunnel_timeout');
      assert.ok(performance.now() - started >= 245, `the third times out at its own deadline, not the first's (${Math.round(performance.now() - started)} ms)`);
      assert.is(await (await t.request({ path: '/echo/slow/4?ms=1' })).text(), 'slow 4', 'the tunnel goes on');
    });
  });
});

test('a request waiting for a reconnect times out within timeoutMs too', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const relay = await new Relay(server.port).start();
    const t = await tunnel(urlOf(relay.port), { timeoutMs: 100, reconnect: { minMs: 1000, maxMs: 1000, retries: 1 } });
    try {
      assert.is(await (await t.request({ path: '/echo/slow/1?ms=1' })).text(), 'slow 1');
      relay.refusing = true;
      relay.cut();
      while (t.state !== 'reconnecting') await sleep(5);
      const started = performance.now();
      const waiting = await rejection(t.request({ path: '/echo/show' }));
      assert.is(waiting.code, 'tunnel_timeout');
      assert.ok(performance.now() - started < 900, 'within timeoutMs, not at the reconnect');
    } finally {
      await t.close();
      await relay.close();
    }
  });
});

test('without reconnect, requests in flight are rejected tunnel_closed when the socket drops, and the tunnel is closed', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const relay = await new Relay(server.port).start();
    const t = await tunnel(urlOf(relay.port), { reconnect: false });
    const events: string[] = [];
    t.on('disconnect', () => events.push('disconnect'));
    t.on('close', () => events.push('close'));
    const inFlight = [t.request({ path: '/echo/slow/1?ms=200' }), t.request({ path: '/echo/slow/2?ms=200' })];
    await sleep(30);
    relay.cut();
    for (const request of inFlight) assert.is((await rejection(request)).code, 'tunnel_closed');
    assert.is(t.state, 'closed');
    assert.equal(events, ['disconnect', 'close']);
    assert.is((await rejection(t.request({ path: '/echo/show' }))).code, 'tunnel_closed', 'at once');
    await t.close();
    await relay.close();
  });
});

test('after a drop the client reconnects with growing, jittered delays; requests made meanwhile wait for the new socket', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const relay = await new Relay(server.port).start();
    // A floor wide enough that a loaded machine's stall cannot make an early delay outgrow a later one.
    const minMs = 40;
    const t = await tunnel(urlOf(relay.port), { reconnect: { minMs, maxMs: 1000, retries: 10 } });
    try {
      const reconnected = new Promise<Record<string, unknown>>((r) => t.on('reconnect', r));
      const inFlight = t.request({ path: '/echo/slow/1?ms=300' });
      await sleep(20);
      relay.refusing = true;
      relay.cut();
      assert.is((await rejection(inFlight)).code, 'tunnel_closed', 'its answer can never come');
      const meanwhile = t.request({ path: '/echo/slow/2?ms=1' });
      assert.is(t.state, 'reconnecting');
      while (relay.arrivals.length < 4) await sleep(5);
      relay.refusing = false;
      const { attempt } = await reconnected;
      assert.ok((attempt as number) >= 4);
      assert.is(t.state, 'open');
      assert.is(await (await meanwhile).text(), 'slow 2');
      // Delay n lies between half and all of minMs × 2^(n-1).
      const gaps = relay.arrivals.slice(2, 5).map((at, i) => at - relay.arrivals[i + 1]);
      gaps.forEach((gap, i) => assert.ok(gap >= (minMs * 2 ** (i + 1)) / 2 - 5, `gap ${i + 2} is ${gap} ms`));
      assert.ok(gaps[2] > gaps[0], 'the delays grow');
    } finally {
      await t.close();
      await relay.close();
    }
  });
});

test('once retries are exhausted, waiting requests are rejected and the tunnel closes', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const relay = await new Relay(server.port).start();
    const t = await tunnel(urlOf(relay.port), { reconnect: { minMs: 5, maxMs: 20, retries: 3 } });
    const closed = new Promise<void>((r) => t.on('close', () => r()));
    relay.refusing = true;
    relay.cut();
    await sleep(5);
    const waiting = t.request({ path: '/echo/show' });
    const error = await rejection(waiting);
    assert.is(error.code, 'tunnel_closed');
    assert.match(error.message, /after 3 attempts/);
    await closed;
    assert.is(t.state, 'closed');
    assert.is(relay.arrivals.length, 1 + 3, 'the first connection, then three attempts');
    await t.close();
    await relay.close();
  });
});

test('when the server closes an idle socket, the next request reconnects', async () => {
  await withServer(echoApp(), { tunnel: { idleTimeoutMs: 50 } }, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      const disconnected = new Promise<Record<string, unknown>>((r) => t.on('disconnect', r));
      assert.is((await disconnected).code, 1000);
      assert.is(t.state, 'idle');
      await sleep(20);
      assert.is(server.tunnel!.connections, 0, 'no eager reconnect');
      assert.is(await (await t.request({ path: '/echo/slow/1?ms=1' })).text(), 'slow 1');
      assert.is(t.state, 'open');
    });
  });
});

test('when a draining server closes the socket, a request it did not read waits for the next socket; without reconnect it is rejected as not run', async () => {
  for (const reconnect of [{ minMs: 10, maxMs: 20, retries: 100 }, false] as const) {
    const server = await serve(echoApp(), { port: 0, host: '127.0.0.1' });
    let next: Awaited<ReturnType<typeof serve>> | null = null;
    const t = await tunnel(urlOf(server.port), { reconnect, timeoutMs: 20_000 });
    try {
      const read = t.request({ path: '/echo/slow/1?ms=200' });
      await sleep(50);
      const closing = server.tunnel!.close();
      // Sent once the drain began: the server answers the request it read, and reads no other.
      const unread = t.request({ path: '/echo/slow/2?ms=1' }).then((response) => response.text(), (error: TunnelError) => error);
      assert.is(await (await read).text(), 'slow 1');
      await closing;
      await server.close();
      if (reconnect === false) {
        const error = await unread;
        assert.instance(error, TunnelError);
        assert.is((error as TunnelError).code, 'tunnel_closed');
        assert.match((error as TunnelError).message, /^The socket closed \(1001 server shutting down\) before the server read it; it was not run$/);
        continue;
      }
      next = await serve(echoApp(), { port: server.port, host: '127.0.0.1' });
      assert.is(await unread, 'slow 2', 'sent again to the next server');
    } finally {
      await t.close();
      await server.close();
      await next?.close();
    }
  }
});

test('a request that reaches a busy server as its socket\'s idle timeout runs out is answered, on the next socket if that one closed', async () => {
  const server = await serverProcess({ tunnel: { idleTimeoutMs: 1_000 } });
  const t = await tunnel(urlOf(server.port), { reconnect: { minMs: 10, maxMs: 20, retries: 100 }, timeoutMs: 20_000 });
  try {
    assert.is(await (await t.request({ path: '/slow/show' })).text(), 'slept 0');
    // An HTTP request holds the server's event loop (a CPU-bound action, a long GC pause) past the socket's idle
    // timeout, and the tunnel's next request arrives meanwhile: it is in the socket before the idle timer runs.
    const release = join(tempDir('tunnel-hold').path, 'release');
    const held = fetch(`http://127.0.0.1:${server.port}/slow/show?hold=${encodeURIComponent(release)}`);
    assert.ok(await eventually(() => server.logs.some((l) => l.msg === 'holding the event loop')), 'the loop is held');
    await sleep(1_200);
    const late = t.request({ path: '/slow/show?ms=1' }).then((response) => response.text(), (error: TunnelError) => error.code);
    await sleep(100);
    writeFileSync(release, '');
    assert.is((await held).status, 200);
    assert.is(await late, 'slept 1');
  } finally {
    await t.close();
    server.child.kill('SIGKILL');
  }
});

test('tunnel() refuses options it does not know or cannot use before it opens a socket', async () => {
  for (const [options, says] of [
    [{ reconect: false }, 'Unknown tunnel() option "reconect" (did you mean reconnect?)'],
    [{ timeoutMs: '5000' }, 'tunnel() option timeoutMs must be a positive number of milliseconds, not "5000"'],
    [{ timeoutMs: -1 }, 'tunnel() option timeoutMs must be a positive number of milliseconds, not -1'],
    [{ cookies: 'no' }, 'tunnel() option cookies must be true or false, not "no"'],
    [{ headers: { Cookie: 5 } }, 'tunnel() option headers must be an object of strings'],
    [{ reconnect: { retries: Number.NaN } }, 'tunnel() option reconnect.retries must be a whole number, 0 or more, not NaN'],
    [{ reconnect: { max_ms: 10 } }, 'Unknown tunnel() reconnect option "max_ms" (did you mean maxMs?)'],
  ] as const) {
    // A port nobody listens on: an option that passed would fail differently, as tunnel_unavailable.
    const error = await tunnel('ws://127.0.0.1:1/_tunnel', options as unknown as TunnelClientOptions).then(() => null, (e: unknown) => e);
    assert.instance(error, ArgumentError);
    assert.is((error as Error).message, says);
  }
});

test('request() refuses an init it cannot send with bad_frame naming the field, and the tunnel goes on', async () => {
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), {}, async (t) => {
      for (const [init, says] of [
        [{ method: 'POST', path: '/echo/show/1', body: { a: 1 } }, /body must be a string or a Uint8Array, not object \(JSON\.stringify an object/],
        [{ path: '/echo/show/1', body: null }, /body must be a string or a Uint8Array, not null/],
        [{ url: '/echo/show/1' }, /path must be a string/],
        [{ path: '/echo/show/1', method: 1 }, /method must be a string, not number/],
        [{ path: '/echo/show/1', headers: 'x' }, /headers must be an object, not string/],
        [undefined, /takes \{ path, method\?, headers\?, body\? \}/],
      ] as const) {
        const error = await rejection(t.request(init as never));
        assert.is(error.code, 'bad_frame');
        assert.is(error.status, 400);
        assert.match(error.message, says);
      }
      assert.is((await t.request({ path: '/echo/show/1' })).status, 200);
    });
  });
});

test('a request whose frame cannot be written fails alone: the requests waiting for the socket with it are answered', async () => {
  await withServer(echoApp(), { tunnel: { idleTimeoutMs: 50 } }, async (server) => {
    await withClient(urlOf(server.port), { timeoutMs: 5000 }, async (t) => {
      await new Promise((r) => t.on('disconnect', r));
      // Made in one turn while the socket is closed: all three wait for the reconnect and are sent together.
      const before = t.request({ path: '/echo/show/1' });
      // A header value JSON cannot write (a BigInt) passes the shape check and fails as its frame is written.
      const broken = t.request({ path: '/echo/show/2', headers: { 'x-n': 5n as unknown as string } });
      const after = t.request({ path: '/echo/show/3' });
      const error = await rejection(broken);
      assert.is(error.code, 'bad_frame');
      assert.match(error.message, /BigInt/);
      assert.is((await before).status, 200);
      assert.is(((await (await after).json()) as { params: { id: string } }).params.id, '3');
    });
  });
});

test('close() rejects what is in flight, resolves once the socket is closed, and refuses later requests', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const t = await tunnel(urlOf(server.port));
    const inFlight = rejection(t.request({ path: '/echo/slow/1?ms=200' }));
    await sleep(10);
    await t.close();
    assert.is((await inFlight).code, 'tunnel_closed');
    assert.is(t.state, 'closed');
    assert.is((await rejection(t.request({ path: '/echo/show' }))).code, 'tunnel_closed');
    await t.close();
    await sleep(20);
    assert.is(server.tunnel!.connections, 0);
  });
});

/** A `ws` socket that counts the frames it sends and remembers the subprotocol it got. */
function countingSocket(offer: boolean): { Socket: TunnelClientOptions['WebSocket']; sent: string[]; protocols: string[] } {
  const sent: string[] = [];
  const protocols: string[] = [];
  class Counting extends WebSocket {
    constructor(url: string, given?: string | string[], options?: ConstructorParameters<typeof WebSocket>[2]) {
      // Offering nothing is what a client of the JSON text protocol does.
      super(url, offer ? given : [], options);
      this.once('open', () => protocols.push(this.protocol));
    }
    override send(data: never, ...rest: never[]): void {
      sent.push(String(data));
      (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
  }
  return { Socket: Counting as never, sent, protocols };
}

test('the client offers signalbox-tunnel.2: requests made in one turn leave as one frame, answers read as over JSON text', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const { Socket, sent, protocols } = countingSocket(true);
    await withClient(urlOf(server.port), { WebSocket: Socket }, async (t) => {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => t.request({ path: `/echo/slow/${i}?ms=1` })));
      assert.equal(await Promise.all(answers.map((a) => a.text())), Array.from({ length: 50 }, (_, i) => `slow ${i}`));
      assert.equal(protocols, ['signalbox-tunnel.2']);
      assert.is(sent.length, 1, 'fifty requests, one frame');
      assert.is((JSON.parse(sent[0]) as unknown[]).length, 50);
      const many = await Promise.all(Array.from({ length: 400 }, (_, i) => t.request({ path: `/echo/slow/${i}?ms=1` })));
      assert.is(many.length, 400);
      assert.ok(sent.length > 2, 'a large turn is cut into several frames');
      assert.ok(sent.every((frame) => frame.length <= 4096 + 2), 'each under the batch limit');
      const big = 'x'.repeat(10_000);
      const echoed = (await (await t.request({ method: 'POST', path: '/echo/show', headers: { 'Content-Type': 'text/plain' }, body: big })).json()) as { body: string };
      assert.is(echoed.body, big, 'a request larger than a batch goes alone');
      assert.ok(sent.at(-1)!.startsWith('{"id":'));
    });
  });
});

test('a batch the server refuses as too large: its requests go again one by one, one still too large is rejected by itself, and later batches are shorter', async () => {
  await withServer(echoApp(), { tunnel: { maxFrameBytes: 2048 } }, async (server) => {
    const { Socket, sent } = countingSocket(true);
    await withClient(urlOf(server.port), { WebSocket: Socket, timeoutMs: 20_000 }, async (t) => {
      const started = performance.now();
      const turn = (n: number) => Array.from({ length: n }, (_, i) => t.request({ path: `/echo/slow/${i}?ms=1` }).then((r) => r.text(), (e: TunnelError) => e.code));
      const small = turn(30);
      const tooLarge = rejection(t.request({ method: 'POST', path: '/echo/show', headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(2000) }));
      assert.equal(await Promise.all(small), Array.from({ length: 30 }, (_, i) => `slow ${i}`), 'every request of the refused batch is answered');
      const error = await tooLarge;
      assert.is(error.code, 'frame_too_large', 'one too large even alone is refused, by its id');
      assert.is(error.status, 413);
      assert.ok(performance.now() - started < 10_000, 'long before timeoutMs');
      const refused = sent[0];
      assert.ok(refused.startsWith('[') && refused.length > 2048 && refused.length < 4096, 'the turn left as one batch, over the limit');
      assert.is(sent.length, 1 + 31, 'then each of its requests alone');
      assert.ok(sent.slice(1).every((frame) => frame.startsWith('{"id":')));
      sent.length = 0;
      assert.equal(await Promise.all(turn(60)), Array.from({ length: 60 }, (_, i) => `slow ${i}`));
      assert.is(sent.length, 2, 'batched again');
      assert.ok(sent.every((frame) => frame.length <= refused.length / 2 + 2), 'each at most half as long as the refused one');
    });
  });
});

test('a batch over the server\'s maxPayloadBytes closes the socket (1009): its requests are rejected tunnel_closed at once, and batches shrink until they fit', async () => {
  await withServer(echoApp(), { tunnel: { maxFrameBytes: 1024, maxPayloadBytes: 1024 } }, async (server) => {
    await withClient(urlOf(server.port), { reconnect: { minMs: 5, maxMs: 20 }, timeoutMs: 20_000 }, async (t) => {
      const codes: number[] = [];
      t.on('disconnect', (info) => codes.push(info.code as number));
      const started = performance.now();
      const turn = () => Promise.all(Array.from({ length: 60 }, (_, i) => t.request({ path: `/echo/slow/${i}?ms=1` }).then((r) => r.text(), (e: TunnelError) => e.code)));
      const first = await turn();
      assert.equal(new Set(first), new Set(['tunnel_closed']));
      assert.ok(performance.now() - started < 10_000, 'long before timeoutMs');
      let answered = false;
      for (let round = 0; round < 4 && !answered; round++) {
        const got = await turn();
        answered = got.every((text, i) => text === `slow ${i}`);
        if (!answered) assert.equal(new Set(got), new Set(['tunnel_closed']));
      }
      assert.ok(answered, 'within a few drops the batches fit');
      assert.ok(codes.length >= 1 && codes.every((code) => code === 1009), `closed with ${codes.join(', ')}`);
    });
  });
});

test('against a server that chooses no subprotocol, the client speaks JSON text frames, one request each', async () => {
  const app = echoApp();
  const bodies: Record<string, { type: string; body: string | Uint8Array }> = {
    '/text': { type: 'application/json', body: '{"title":"café — ✓"}' },
    '/png': { type: 'image/png', body: new Uint8Array([137, 80, 0, 255]) },
  };
  const fake: App = { ...app, handle: async (m) => (m.url in bodies ? { status: 200, headers: { 'Content-Type': bodies[m.url].type }, body: bodies[m.url].body } : app.handle(m)) };
  await withServer(fake, {}, async (server) => {
    const { Socket, sent, protocols } = countingSocket(false);
    await withClient(urlOf(server.port), { WebSocket: Socket }, async (t) => {
      const [text, png] = await Promise.all([t.request({ path: '/text' }), t.request({ path: '/png' })]);
      assert.equal(protocols, ['']);
      assert.is(sent.length, 2);
      assert.ok(sent.every((frame) => frame.startsWith('{"id":')));
      assert.equal(await text.json(), { title: 'café — ✓' });
      assert.equal([...text.body], [...new TextEncoder().encode('{"title":"café — ✓"}')]);
      assert.equal([...png.body], [137, 80, 0, 255]);
      const error = await rejection(t.request({ method: 'CONNECT', path: '/echo/show' }));
      assert.is(error.code, 'unknown_method');
    });
  });
});

/** A `ws` socket that records the subprotocols each handshake offered and the one the server chose. */
function offeringSocket(): { Socket: TunnelClientOptions['WebSocket']; offered: string[][]; chosen: string[] } {
  const offered: string[][] = [];
  const chosen: string[] = [];
  class Offering extends WebSocket {
    constructor(url: string, given?: string | string[], options?: ConstructorParameters<typeof WebSocket>[2]) {
      super(url, given, options);
      offered.push(given === undefined ? [] : [given].flat());
      this.once('open', () => chosen.push(this.protocol));
    }
  }
  return { Socket: Offering as never, offered, chosen };
}

test('a server with batching off chooses no subprotocol: a ws client retries once offering none, and offers none again on reconnect', async () => {
  await withServer(echoApp(), { tunnel: { batching: false, idleTimeoutMs: 50 } }, async (server) => {
    const { Socket, offered, chosen } = offeringSocket();
    await withClient(urlOf(server.port), { WebSocket: Socket, timeoutMs: 5_000 }, async (t) => {
      assert.equal(offered, [['signalbox-tunnel.2'], []], 'refused once for offering it, then accepted offering nothing');
      assert.equal(chosen, ['']);
      const answers = await Promise.all([1, 2, 3].map((i) => t.request({ path: `/echo/slow/${i}?ms=1` })));
      assert.equal(await Promise.all(answers.map((a) => a.text())), ['slow 1', 'slow 2', 'slow 3']);
      const disconnected = new Promise<Record<string, unknown>>((r) => t.on('disconnect', r));
      assert.is((await disconnected).code, 1000, 'the idle timeout closes the socket');
      assert.is(await (await t.request({ path: '/echo/slow/4?ms=1' })).text(), 'slow 4');
      assert.equal(offered, [['signalbox-tunnel.2'], [], []], 'the reconnect offers nothing at once');
      assert.equal(chosen, ['', '']);
    });
  });
});

test('a server with batching off serves every WebSocket class the client may use, in JSON text frames', async () => {
  const app = echoApp();
  const fake: App = { ...app, handle: async (m) => (m.url === '/png' ? { status: 200, headers: { 'Content-Type': 'image/png' }, body: new Uint8Array([137, 80, 0, 255]) } : app.handle(m)) };
  await withServer(fake, { tunnel: { batching: false } }, async (server) => {
    for (const [name, Socket] of socketClasses()) {
      await withClient(urlOf(server.port), { WebSocket: Socket }, async (t) => {
        const [slow, png] = await Promise.all([t.request({ path: '/echo/slow/7?ms=1' }), t.request({ path: '/png' })]);
        assert.is(await slow.text(), 'slow 7', name);
        assert.equal([...png.body], [137, 80, 0, 255], name);
        assert.is((await rejection(t.request({ method: 'CONNECT', path: '/echo/show' }))).code, 'unknown_method', name);
      });
    }
  });
});

test('a server that is down for a while leaves a client that cannot tell why a handshake failed offering the batching protocol', async () => {
  const builtIn = (globalThis as { WebSocket?: new (url: string, protocols?: string | string[]) => { readonly protocol: string; addEventListener(type: string, listener: () => void): void } }).WebSocket;
  // Node's built-in WebSocket (22 and later) says nothing about why a handshake failed, as browsers do not.
  if (builtIn === undefined) return;
  const offered: string[][] = [];
  const chosen: string[] = [];
  class Recording extends builtIn {
    constructor(url: string, given?: string | string[]) {
      super(url, given);
      offered.push(given === undefined ? [] : [given].flat());
      this.addEventListener('open', () => chosen.push(this.protocol));
    }
  }
  await withServer(echoApp(), {}, async (server) => {
    const relay = await new Relay(server.port).start();
    const t = await tunnel(urlOf(relay.port), { WebSocket: Recording as never, reconnect: { minMs: 10, maxMs: 20, retries: 50 } });
    const nextReconnect = () => new Promise<void>((r) => { const off = t.on('reconnect', () => { off(); r(); }); });
    try {
      const reconnected = nextReconnect();
      // Down for three connections: a handshake offering the protocol and its second try fail, then one
      // offering it fails, and the second try, offering nothing, reaches the server, which is back.
      relay.refuseNext = 3;
      relay.cut();
      await reconnected;
      assert.equal(offered.slice(1), [['signalbox-tunnel.2'], [], ['signalbox-tunnel.2'], []]);
      assert.is(chosen.at(-1), '', 'this socket speaks JSON text frames');
      assert.is(await (await t.request({ path: '/echo/slow/1?ms=1' })).text(), 'slow 1');
      const again = nextReconnect();
      relay.cut();
      await again;
      assert.is(await (await t.request({ path: '/echo/slow/2?ms=1' })).text(), 'slow 2');
      assert.equal(offered.at(-1), ['signalbox-tunnel.2'], 'the next socket offers the protocol first again');
      assert.is(chosen.at(-1), 'signalbox-tunnel.2', 'and speaks it');
    } finally {
      await t.close();
      await relay.close();
    }
  });
});

test('a handshake refused for another reason is not retried', async () => {
  await withServer(echoApp(), { tunnel: { batching: false } }, async (server) => {
    const { Socket, offered } = offeringSocket();
    const refused = await rejection(tunnel(urlOf(server.port), { WebSocket: Socket, origin: 'https://evil.example' }));
    assert.is(refused.code, 'tunnel_unavailable');
    assert.is(refused.status, 403);
    assert.equal(offered, [['signalbox-tunnel.2']]);
  });
});

test('requests and answers work over whichever WebSocket class the client is given, binary records included', async () => {
  const app = echoApp();
  const fake: App = { ...app, handle: async (m) => (m.url === '/png' ? { status: 200, headers: { 'Content-Type': 'image/png' }, body: new Uint8Array([137, 80, 0, 255]) } : app.handle(m)) };
  await withServer(fake, {}, async (server) => {
    for (const [name, Socket] of socketClasses()) {
      await withClient(urlOf(server.port), { WebSocket: Socket }, async (t) => {
        const [slow, png] = await Promise.all([t.request({ path: '/echo/slow/7?ms=1' }), t.request({ path: '/png' })]);
        assert.is(await slow.text(), 'slow 7', name);
        assert.equal([...png.body], [137, 80, 0, 255], name);
      });
    }
  });
});

test('options.WebSocket chooses the WebSocket class', async () => {
  let made = 0;
  class Counted extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      made++;
    }
  }
  await withServer(echoApp(), {}, async (server) => {
    await withClient(urlOf(server.port), { WebSocket: Counted as never }, async (t) => {
      assert.is((await t.request({ path: '/echo/show' })).status, 200);
    });
  });
  assert.is(made, 1);
});

test.run();
