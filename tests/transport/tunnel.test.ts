/**
 * The WebSocket request tunnel's server side, over real sockets on
 * 127.0.0.1: frames in, `app.handle`, frames out; every refused frame with
 * its code and the socket still usable after it; the upgrade's checks
 * (Origin, path, header count); and the limits a client cannot get past
 * (in-flight requests, frame size, idle time, dead peers, unread answers).
 * Raw `ws` clients write the frames, so malformed ones can be sent.
 */
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket, type ClientOptions } from 'ws';
import { Controller } from '../../core/index.ts';
import type { ResponseMessage } from '../../core/http/message.ts';
import type { App } from '../../machines/index.ts';
import { attachTunnel, serve, type RunningServer, type ServeOptions, type TunnelOptions } from '../../transport/index.ts';
import { AdminController } from './support.ts';
import { appWith, captureLogs, tempDir, upgradeRequest as handshake, withServer } from '../support/harness.ts';

const test = suite('the request tunnel runs frames through app.handle over one WebSocket');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let counted = 0;

class EchoController extends Controller {
  show(): void {
    const body = this.request.body;
    this.render({
      json: {
        method: this.request.method, path: this.request.path, params: this.params, headers: this.request.headers,
        body: typeof body === 'string' ? body : Buffer.from(body).toString('latin1'),
        transport: this.request.transport, remote: this.request.remoteAddress, host: this.request.host_with_port,
      },
    });
  }
  async slow(): Promise<void> {
    await sleep(Number(this.params.ms ?? 100));
    this.render({ text: `slow ${String(this.params.id ?? '')}` });
  }
  big(): void {
    this.render({ text: 'x'.repeat(Number(this.params.id)) });
  }
  count(): void {
    counted++;
    this.render({ text: String(counted) });
  }
}


const echoApp = (options: Parameters<typeof appWith>[1] = {}) => appWith({ echo: EchoController, admin: AdminController }, options);


const tunnelOptions = (options: TunnelOptions): ServeOptions => ({ tunnel: options });

type Frame = Record<string, any>;

/** A raw tunnel socket that keeps every frame it receives, to wait for the ones a test needs. */
class Raw {
  readonly frames: Frame[] = [];
  readonly ws: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
  #waiters: (() => void)[] = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer) => {
      this.frames.push(JSON.parse(data.toString('utf8')) as Frame);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
  }

  static open(server: RunningServer, options: ClientOptions & { path?: string } = {}): Promise<Raw> {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${options.path ?? '/_tunnel'}`, options);
    const raw = new Raw(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(raw));
      ws.once('error', reject);
    });
  }

  send(frame: Frame | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Waits until `done()` holds, checking whenever a frame arrives. */
  async until(done: () => boolean, timeout = 10_000): Promise<void> {
    const deadline = Date.now() + timeout;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`not done within ${timeout} ms; got ${JSON.stringify(this.frames).slice(0, 500)}`);
      await new Promise<void>((wake) => {
        this.#waiters.push(wake);
        setTimeout(wake, 20);
      });
    }
  }

  /** The first frame received (from `from` on) that `match` accepts. */
  async frame(match: (f: Frame) => boolean, timeout = 10_000, from = 0): Promise<Frame> {
    let found: Frame | undefined;
    await this.until(() => (found = this.frames.slice(from).find(match)) !== undefined, timeout);
    return found!;
  }

  /** How the socket closed, failing the test if it does not within `timeout`. */
  closedWithin(timeout = 2000): Promise<{ code: number; reason: string }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the socket did not close within ${timeout} ms`)), timeout);
    });
    return Promise.race([this.closed, late]).finally(() => clearTimeout(timer));
  }

  answer(id: unknown): Promise<Frame> {
    return this.frame((f) => f.id === id);
  }

  /** Sends a frame and waits for the frame answering its id. */
  async call(frame: Frame): Promise<Frame> {
    this.send(frame);
    return this.answer(frame.id);
  }

  /** The next frame after those already received. */
  next(): Promise<Frame> {
    return this.frame(() => true, 10_000, this.frames.length);
  }
}

function get(server: RunningServer, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port: server.port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject).end();
  });
}

async function stillUsable(raw: Raw, id: string): Promise<void> {
  const answer = await raw.call({ id, method: 'GET', path: `/echo/show?after=${encodeURIComponent(id)}` });
  assert.is(answer.status, 200, 'the socket answers the next request');
  assert.is(JSON.parse(answer.body).params.after, id);
}

test('a request frame runs through app.handle; the answer carries its id, status, headers and text body', async () => {
  await withServer(echoApp(), {}, async (server) => {
    assert.ok(server.tunnel);
    assert.is(server.tunnel!.path, '/_tunnel');
    const raw = await Raw.open(server);
    const answer = await raw.call({ id: 'a1', method: 'GET', path: '/echo/show?x=1', headers: { Accept: 'application/json', 'X-Extra': ['a', 'b'] } });
    assert.is(answer.status, 200);
    assert.is(answer.headers['Content-Type'], 'application/json; charset=utf-8');
    assert.ok(answer.headers.ETag, 'the same response as over HTTP');
    assert.type(answer.body, 'string');
    const seen = JSON.parse(answer.body);
    assert.is(seen.params.x, '1');
    assert.is(seen.transport, 'tunnel');
    assert.is(seen.remote, '127.0.0.1', 'the socket peer');
    assert.is(seen.host, `127.0.0.1:${server.port}`, 'Host from the upgrade request');
    assert.is(seen.headers.accept, 'application/json', 'names lower-cased');
    assert.is(seen.headers['x-extra'], 'a, b', 'a list of values is one header');
    assert.is(server.tunnel!.connections, 1);
    raw.ws.close();
    await raw.closedWithin();
  });
});

test('a text body and a base64 body reach the app as bytes; Content-Length and Transfer-Encoding in a frame mean nothing', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    const text = JSON.parse((await raw.call({
      id: 1, method: 'POST', path: '/echo/show',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '999', 'Transfer-Encoding': 'chunked' }, body: 'title=caf%C3%A9&n=2',
    })).body);
    assert.is(text.params.title, 'café');
    assert.is(text.headers['content-length'], undefined);
    assert.is(text.headers['transfer-encoding'], undefined);
    const bytes = Buffer.from([0, 1, 2, 255]);
    const binary = JSON.parse((await raw.call({ id: 2, method: 'PUT', path: '/echo/show', headers: { 'Content-Type': 'application/octet-stream' }, bodyBase64: bytes.toString('base64') })).body);
    assert.is(binary.method, 'put');
    assert.equal(Buffer.from(binary.body, 'latin1'), bytes);
  });
});

test('an answer goes as text when it is textual UTF-8, as base64 otherwise, with a custom reason phrase when the app set one', async () => {
  const app = echoApp();
  const bodies: Record<string, { type: string; body: Uint8Array | string; reason?: string }> = {
    '/bytes': { type: 'application/octet-stream', body: new Uint8Array([0, 159, 146, 150]) },
    '/utf8': { type: 'text/plain; charset=utf-8', body: new TextEncoder().encode('héllo ✓') },
    '/latin1': { type: 'text/plain', body: new Uint8Array([0x68, 0xe9]) },
    '/moved': { type: 'text/plain', body: 'gone', reason: 'Moved Elsewhere' },
  };
  const fake: App = {
    ...app,
    handle: async (message) => {
      const b = bodies[message.url];
      return { status: b.reason ? 404 : 200, headers: { 'Content-Type': b.type }, body: b.body, ...(b.reason ? { reason: b.reason } : {}) };
    },
  };
  await withServer(fake, {}, async (server) => {
    const raw = await Raw.open(server);
    const bytes = await raw.call({ id: 1, method: 'GET', path: '/bytes' });
    assert.is(bytes.body, undefined);
    assert.equal([...Buffer.from(bytes.bodyBase64, 'base64')], [0, 159, 146, 150]);
    assert.is((await raw.call({ id: 2, method: 'GET', path: '/utf8' })).body, 'héllo ✓');
    assert.is((await raw.call({ id: 3, method: 'GET', path: '/latin1' })).bodyBase64, Buffer.from([0x68, 0xe9]).toString('base64'), 'text that is not UTF-8 stays exact');
    const moved = await raw.call({ id: 4, method: 'GET', path: '/moved' });
    assert.is(moved.status, 404);
    assert.is(moved.reason, 'Moved Elsewhere');
  });
});

test('an answer frame is a text frame whose bytes are the JSON of { id, status, reason, headers, body }, in that order', async () => {
  const app = echoApp();
  const responses: Record<string, ResponseMessage> = {
    '/dash': { status: 200, headers: { 'Content-Type': 'application/json', ETag: '"e"' }, body: '{"t":"a \"quote\" — dash 😀\n"}' },
    '/moved': { status: 404, reason: 'Moved — gone', headers: { 'Content-Type': 'text/plain', 'Set-Cookie': ['a=1', 'b=2'] }, body: 'gone \u0001 \ud800' },
    '/png': { status: 200, headers: { 'Content-Type': 'image/png' }, body: new Uint8Array([137, 80, 78, 71]) },
  };
  const fake: App = { ...app, handle: async (message) => responses[message.url] };
  await withServer(fake, {}, async (server) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/_tunnel`);
    const received: { data: Buffer; isBinary: boolean }[] = [];
    ws.on('message', (data: Buffer, isBinary: boolean) => received.push({ data, isBinary }));
    await new Promise((r) => ws.once('open', r));
    const ids = ['dash-1', 2, 3.5];
    Object.keys(responses).forEach((path, i) => ws.send(JSON.stringify({ id: ids[i], method: 'GET', path })));
    while (received.length < 3) await sleep(5);
    const expected = [
      { id: 'dash-1', status: 200, headers: responses['/dash'].headers, body: responses['/dash'].body },
      { id: 2, status: 404, reason: 'Moved — gone', headers: responses['/moved'].headers, body: responses['/moved'].body },
      { id: 3.5, status: 200, headers: responses['/png'].headers, bodyBase64: 'iVBORw==' },
    ].map((frame) => JSON.stringify(frame));
    assert.equal(received.map((r) => r.isBinary), [false, false, false]);
    assert.equal(received.map((r) => r.data.toString('utf8')).sort(), [...expected].sort());
    ws.close();
  });
});

/** The records of one binary frame of the batching protocol: each head parsed, each body as bytes. */
function records(data: Buffer): { head: Frame; body: Buffer }[] {
  const out: { head: Frame; body: Buffer }[] = [];
  let at = 0;
  while (at < data.length) {
    const headLength = data.readUInt32BE(at);
    const bodyLength = data.readUInt32BE(at + 4);
    const head = JSON.parse(data.subarray(at + 8, at + 8 + headLength).toString('utf8')) as Frame;
    out.push({ head, body: data.subarray(at + 8 + headLength, at + 8 + headLength + bodyLength) });
    at += 8 + headLength + bodyLength;
  }
  assert.is(at, data.length, 'the records fill the frame exactly');
  return out;
}

/** A raw socket offering the batching protocol; it keeps every record it receives. */
async function batching(server: RunningServer): Promise<{ ws: WebSocket; got: { head: Frame; body: Buffer }[]; frames: { binary: boolean }[]; until: (n: number) => Promise<void> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/_tunnel`, ['signalbox-tunnel.2']);
  const got: { head: Frame; body: Buffer }[] = [];
  const frames: { binary: boolean }[] = [];
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    frames.push({ binary: isBinary });
    if (isBinary) got.push(...records(data));
  });
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  const until = async (n: number) => {
    const deadline = Date.now() + 10_000;
    while (got.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${got.length} of ${n} records`);
      await sleep(5);
    }
  };
  return { ws, got, frames, until };
}

test('a client offering signalbox-tunnel.2 may batch requests in a JSON array; each is answered as a binary record with its raw body', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const { ws, got, frames, until } = await batching(server);
    assert.is(ws.protocol, 'signalbox-tunnel.2', 'the server chose the protocol');
    ws.send(JSON.stringify([
      { id: 1, method: 'GET', path: '/echo/show?q=caf%C3%A9' },
      { id: 'two', method: 'POST', path: '/echo/show', headers: { 'Content-Type': 'text/plain' }, body: 'naïve — ✓' },
      { id: 3, method: 'GET', path: 'no-slash' },
      { id: 4, method: 'PATCH', path: '/echo/show' },
      'not an object',
      { id: 5, method: 'GET', path: '/echo/slow/5?ms=1' },
    ]));
    ws.send(JSON.stringify({ id: 6, method: 'GET', path: '/echo/slow/6?ms=1' }));
    await until(7);
    assert.ok(frames.every((f) => f.binary), 'answers and refusals come as binary frames');
    const by = new Map(got.map((r) => [JSON.stringify(r.head.id ?? null), r]));
    const first = by.get('1')!;
    assert.is(first.head.status, 200);
    assert.is(first.head.body, undefined, 'the head carries no body');
    assert.is(first.head.headers['Content-Type'], 'application/json; charset=utf-8');
    assert.is((JSON.parse(first.body.toString('utf8')) as { params: { q: string } }).params.q, 'café');
    assert.is(String(first.body.length), first.head.headers['Content-Length'], 'the body is the exact bytes');
    assert.is((JSON.parse(by.get('"two"')!.body.toString('utf8')) as { body: string }).body, Buffer.from('naïve — ✓').toString('latin1'));
    assert.is(by.get('3')!.head.error.code, 'bad_frame');
    assert.is(by.get('3')!.body.length, 0);
    assert.is(by.get('4')!.head.error.code, 'unknown_method');
    assert.is(by.get('null')!.head.error.code, 'bad_json', 'a member that is not an object is refused on its own');
    assert.is(by.get('5')!.body.toString(), 'slow 5');
    assert.is(by.get('6')!.body.toString(), 'slow 6', 'a single frame is still a request');
    ws.close();
  });
});

test('in the batching protocol a turn\'s answers leave as one binary frame, and past about 32 KiB in more frames of whole records', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const { ws, got, frames, until } = await batching(server);
    ws.send(JSON.stringify(Array.from({ length: 20 }, (_, id) => ({ id, method: 'GET', path: '/echo/big/1000' }))));
    await until(20);
    assert.is(frames.length, 1, 'twenty answers of a turn, about 24 KB, are one frame');
    ws.send(JSON.stringify(Array.from({ length: 20 }, (_, id) => ({ id: 20 + id, method: 'GET', path: '/echo/big/5000' }))));
    await until(40);
    assert.is(frames.length, 4, 'twenty answers of 5,000 bytes leave in three frames, not one nor twenty');
    assert.equal(got.map((r) => r.head.id), Array.from({ length: 40 }, (_, id) => id), 'in the order they were asked');
    assert.ok(got.every((r) => r.head.status === 200 && r.body.equals(Buffer.alloc(r.head.id < 20 ? 1000 : 5000, 'x'))), 'every record whole');
    ws.close();
  });
});

test('in a batch every request counts against maxInFlight, and a duplicate id is refused on its own', async () => {
  await withServer(echoApp(), tunnelOptions({ maxInFlight: 2 }), async (server) => {
    const { ws, got, until } = await batching(server);
    ws.send(JSON.stringify([1, 2, 3].map((id) => ({ id, method: 'GET', path: `/echo/slow/${id}?ms=50` })).concat([{ id: 1, method: 'GET', path: '/echo/show' }])));
    await until(4);
    const codes = Object.fromEntries(got.map((r) => [String(r.head.id), r.head.error?.code ?? r.head.status]));
    assert.equal(codes, { 1: 200, 2: 200, 3: 'too_many_requests' }, 'the later duplicate of 1 is named by the same id');
    assert.equal(got.filter((r) => r.head.id === 1).map((r) => r.head.error?.code ?? r.head.status).sort(), [200, 'duplicate_id'].sort());
    ws.close();
  });
});

test('a batch over maxFrameBytes is refused whole with frame_too_large; a client offering nothing gets JSON text and arrays are bad_json', async () => {
  await withServer(echoApp(), tunnelOptions({ maxFrameBytes: 2048 }), async (server) => {
    const { ws, got, until } = await batching(server);
    ws.send(JSON.stringify(Array.from({ length: 60 }, (_, id) => ({ id, method: 'GET', path: '/echo/show' }))));
    await until(1);
    assert.is(got[0].head.error.code, 'frame_too_large');
    assert.is(got[0].head.error.status, 413);
    ws.close();
    const raw = await Raw.open(server);
    assert.is(raw.ws.protocol, '');
    raw.send([{ id: 1, method: 'GET', path: '/echo/show' }] as unknown as Frame);
    assert.is((await raw.next()).error.code, 'bad_json');
    await stillUsable(raw, 'after');
  });
});

test('in the batching protocol a frame refused unread names its ordinal among the text frames the socket sent', async () => {
  await withServer(echoApp(), tunnelOptions({ maxFrameBytes: 2048 }), async (server) => {
    const { ws, got, until } = await batching(server);
    const batch = (from: number) => JSON.stringify(Array.from({ length: 60 }, (_, i) => ({ id: from + i, method: 'GET', path: '/echo/show' })));
    ws.send(JSON.stringify({ id: 'a', method: 'GET', path: '/echo/show' }));
    ws.send(Buffer.from('binary frames are not counted'));
    ws.send(batch(100));
    ws.send(JSON.stringify([{ id: 'b', method: 'GET', path: '/echo/show' }]));
    ws.send(JSON.stringify({ id: 'big', method: 'POST', path: '/echo/show', body: 'x'.repeat(3000) }));
    ws.send(batch(200));
    await until(6);
    const refused = got.filter((r) => r.head.error?.code === 'frame_too_large').map((r) => r.head);
    assert.equal(refused.map((h) => [h.id, h.frame]), [[undefined, 2], ['big', 4], [undefined, 5]]);
    assert.equal(got.filter((r) => r.head.status === 200).map((r) => r.head.id).sort(), ['a', 'b']);
    assert.is(got.find((r) => r.head.error?.code === 'binary_frame')!.head.frame, undefined);
    ws.close();
  });
  await withServer(echoApp(), tunnelOptions({ maxFrameBytes: 2048 }), async (server) => {
    const raw = await Raw.open(server);
    raw.send({ id: 1, method: 'POST', path: '/echo/show', body: 'x'.repeat(3000) });
    const refusal = await raw.next();
    assert.equal(Object.keys(refusal), ['id', 'error'], 'JSON text frames are not counted');
    await stillUsable(raw, 'after');
  });
});

test('files under the public directory are served before routing, as over HTTP; nothing outside it', async () => {
  const pub = tempDir('tunnel-public');
  try {
    writeFileSync(join(pub.path, 'robots.txt'), 'User-agent: *');
    writeFileSync(join(pub.path, 'logo.png'), Buffer.from([137, 80, 78, 71]));
    await withServer(echoApp({ publicDir: pub.path }), {}, async (server) => {
      const raw = await Raw.open(server);
      const robots = await raw.call({ id: 1, method: 'GET', path: '/robots.txt' });
      assert.is(robots.status, 200);
      assert.is(robots.body, 'User-agent: *');
      assert.match(robots.headers['Content-Type'], /^text\/plain/);
      assert.equal([...Buffer.from((await raw.call({ id: 2, method: 'GET', path: '/logo.png' })).bodyBase64, 'base64')], [137, 80, 78, 71]);
      const head = await raw.call({ id: 3, method: 'HEAD', path: '/robots.txt' });
      assert.is(head.body, '');
      assert.is(head.headers['Content-Length'], '13');
      assert.is((await raw.call({ id: 4, method: 'GET', path: '/..%2F..%2Fetc%2Fpasswd' })).status, 404);
      assert.is((await raw.call({ id: 5, method: 'POST', path: '/robots.txt' })).status, 404, 'only GET and HEAD');
    });
    await withServer(echoApp({ publicDir: pub.path }), { staticFiles: false }, async (server) => {
      assert.is((await (await Raw.open(server)).call({ id: 1, method: 'GET', path: '/robots.txt' })).status, 404);
    });
  } finally {
    pub.remove();
  }
});

test('a failure in the transport itself answers a plain 500 on that request only', async () => {
  const app = echoApp();
  const failing = {
    ...app,
    handle: (message: { url: string }) => {
      if (message.url === '/throws') throw new Error('handle threw');
      return Promise.reject(new Error('handle failed'));
    },
  } as App;
  await withServer(failing, {}, async (server) => {
    const raw = await Raw.open(server);
    for (const [id, path] of [[1, '/rejects'], [2, '/throws']] as const) {
      const answer = await raw.call({ id, method: 'GET', path });
      assert.is(answer.status, 500);
      assert.is(answer.body, 'Internal Server Error');
    }
    assert.is(raw.ws.readyState, WebSocket.OPEN);
  });
});

const DEEP = '['.repeat(200_000);

/** Every refusal: the frame, the error code and status, and the id when it can be read. */
const BAD_FRAMES: [name: string, frame: Frame | string, code: string, status: number, id?: unknown][] = [
  ['text that is not JSON', 'hello', 'bad_json', 400],
  ['JSON that is not an object', '[1,2]', 'bad_json', 400],
  ['JSON null', 'null', 'bad_json', 400],
  ['broken JSON whose id can still be read', '{"id":7,"method":"GET",', 'bad_json', 400, 7],
  ['200,000 nested brackets', DEEP, 'bad_json', 400],
  ['no id', { method: 'GET', path: '/' }, 'bad_frame', 400],
  ['an object id', { id: { a: 1 }, method: 'GET', path: '/' }, 'bad_frame', 400],
  ['a non-finite id', '{"id":1e999,"method":"GET","path":"/"}', 'bad_frame', 400],
  ['no method', { id: 1, path: '/' }, 'bad_frame', 400, 1],
  ['a method that is a list', { id: 2, method: ['GET'], path: '/' }, 'bad_frame', 400, 2],
  ['a method with CR LF and a header after it', { id: 3, method: 'get\r\nX-Injected: 1', path: '/' }, 'bad_frame', 400, 3],
  ['a method with a space', { id: 4, method: 'GET /', path: '/' }, 'bad_frame', 400, 4],
  ['CONNECT', { id: 5, method: 'CONNECT', path: '/' }, 'unknown_method', 501, 5],
  ['PATCH', { id: 6, method: 'PATCH', path: '/' }, 'unknown_method', 501, 6],
  ['a lower-case method (methods are case-sensitive, as on the wire)', { id: 7, method: 'get', path: '/' }, 'unknown_method', 501, 7],
  ['no path', { id: 8, method: 'GET' }, 'bad_frame', 400, 8],
  ['a path that is a number', { id: 9, method: 'GET', path: 9 }, 'bad_frame', 400, 9],
  ['an absolute URL', { id: 10, method: 'GET', path: 'http://evil.example/posts' }, 'bad_frame', 400, 10],
  ['a path without its slash', { id: 11, method: 'GET', path: 'posts' }, 'bad_frame', 400, 11],
  ['a path with CR LF', { id: 12, method: 'GET', path: '/posts\r\nHost: evil' }, 'bad_frame', 400, 12],
  ['a path with a space', { id: 13, method: 'GET', path: '/a b' }, 'bad_frame', 400, 13],
  ['a path with a NUL', { id: 14, method: 'GET', path: '/a\u0000' }, 'bad_frame', 400, 14],
  ['headers that are a list', { id: 15, method: 'GET', path: '/', headers: [['a', 'b']] }, 'bad_frame', 400, 15],
  ['headers that are a string', { id: 16, method: 'GET', path: '/', headers: 'a: b' }, 'bad_frame', 400, 16],
  ['a header value that is a number', { id: 17, method: 'GET', path: '/', headers: { 'X-N': 1 } }, 'bad_frame', 400, 17],
  ['a header value with CR LF', { id: 18, method: 'GET', path: '/', headers: { 'X-A': 'a\r\nX-B: b' } }, 'bad_frame', 400, 18],
  ['a header list holding a non-string', { id: 19, method: 'GET', path: '/', headers: { 'X-A': ['a', 1] } }, 'bad_frame', 400, 19],
  ['a body that is a number', { id: 20, method: 'POST', path: '/', body: 5 }, 'bad_frame', 400, 20],
  ['both body and bodyBase64', { id: 21, method: 'POST', path: '/', body: 'a', bodyBase64: 'YQ==' }, 'bad_frame', 400, 21],
  ['bodyBase64 that is not base64', { id: 22, method: 'POST', path: '/', bodyBase64: 'not base64!' }, 'bad_frame', 400, 22],
];

test('every malformed frame is answered with an error frame (code, status, id when readable) and the socket stays usable', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    for (const [name, frame, code, status, id] of BAD_FRAMES) {
      const from = raw.frames.length;
      const started = performance.now();
      raw.send(frame);
      const error = await raw.frame(() => true, 2000, from);
      assert.is(error.error?.code, code, name);
      assert.is(error.error.status, status, name);
      assert.type(error.error.message, 'string');
      assert.is(error.id, id, `${name}: id`);
      assert.ok(performance.now() - started < 1000, `${name}: answered promptly`);
      await stillUsable(raw, `after ${name}`);
    }
  });
});

test('a binary frame is refused with binary_frame; the socket stays usable', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    raw.ws.send(Buffer.from(JSON.stringify({ id: 1, method: 'GET', path: '/' })), { binary: true });
    const error = await raw.next();
    assert.equal(error.error, { code: 'binary_frame', status: 400, message: error.error.message });
    await stillUsable(raw, 'binary');
  });
});

test('a frame over maxFrameBytes is frame_too_large (413) with its id, unparsed; the socket stays usable', async () => {
  await withServer(echoApp(), tunnelOptions({ maxFrameBytes: 1024 }), async (server) => {
    const raw = await Raw.open(server);
    const error = await raw.call({ id: 'big', method: 'POST', path: '/echo/show', body: 'x'.repeat(2000) });
    assert.is(error.error.code, 'frame_too_large');
    assert.is(error.error.status, 413);
    const fits = await raw.call({ id: 'fits', method: 'POST', path: '/echo/show', body: 'x'.repeat(900) });
    assert.is(fits.status, 200);
  });
});

/** Upgrades a raw TCP socket by hand, so that frames can be written byte for byte. */
async function rawUpgrade(server: RunningServer): Promise<{ socket: Socket; received: () => Buffer; ended: Promise<void> }> {
  const socket = connect(server.port, '127.0.0.1');
  let data = Buffer.alloc(0);
  socket.on('data', (d: Buffer) => { data = Buffer.concat([data, d]); });
  const ended = new Promise<void>((r) => socket.on('close', () => r()));
  socket.write('GET /_tunnel HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
  while (!data.includes('\r\n\r\n')) await sleep(5);
  assert.match(data.toString('latin1'), /^HTTP\/1\.1 101 /);
  data = data.subarray(data.indexOf('\r\n\r\n') + 4);
  return { socket, received: () => data, ended };
}

test('a frame header claiming 2^63-1 bytes closes the socket with 1009 at once; the server goes on', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const { socket, received, ended } = await rawUpgrade(server);
    const started = performance.now();
    socket.write(Buffer.from('gf9//////////wAAAAA=', 'base64'));
    await ended;
    assert.ok(performance.now() - started < 1000);
    const close = received();
    assert.is(close[0], 0x88, 'a close frame');
    assert.is(close.readUInt16BE(2), 1009);
    assert.is(await get(server, '/echo/show'), 200);
    await stillUsable(await Raw.open(server), 'after 1009');
  });
});

test('a request id already in flight is duplicate_id; the id is free again once answered', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    raw.send({ id: 1, method: 'GET', path: '/echo/slow/first?ms=100' });
    const duplicate = await raw.call({ id: 1, method: 'GET', path: '/echo/show' });
    assert.is(duplicate.error.code, 'duplicate_id');
    assert.is(duplicate.error.status, 400);
    const first = await raw.frame((f) => f.id === 1 && f.status === 200);
    assert.is(first.body, 'slow first');
    const from = raw.frames.length;
    raw.send({ id: 1, method: 'GET', path: '/echo/slow/again?ms=1' });
    const again = await raw.frame((f) => f.id === 1, 2000, from);
    assert.is(again.body, 'slow again');
    assert.is((await raw.call({ id: '1', method: 'GET', path: '/echo/slow/text?ms=1' })).body, 'slow text', 'the string "1" is another id');
  });
});

test('beyond maxInFlight a request is too_many_requests (429); the others are answered', async () => {
  await withServer(echoApp(), tunnelOptions({ maxInFlight: 2 }), async (server) => {
    const raw = await Raw.open(server);
    raw.send({ id: 1, method: 'GET', path: '/echo/slow/1?ms=100' });
    raw.send({ id: 2, method: 'GET', path: '/echo/slow/2?ms=100' });
    const third = await raw.call({ id: 3, method: 'GET', path: '/echo/slow/3?ms=1' });
    assert.equal(third.error.code, 'too_many_requests');
    assert.is(third.error.status, 429);
    assert.is((await raw.answer(1)).body, 'slow 1');
    assert.is((await raw.answer(2)).body, 'slow 2');
    assert.is((await raw.call({ id: 4, method: 'GET', path: '/echo/slow/4?ms=1' })).body, 'slow 4', 'room again once answered');
  });
});

test('1,000 requests in flight on one socket are all answered, each with its own id', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    for (let i = 0; i < 1000; i++) raw.send({ id: i % 2 ? i : `r${i}`, method: 'GET', path: `/echo/slow/${i}?ms=${i % 7}` });
    await raw.until(() => raw.frames.length >= 1000, 5000);
    assert.is(raw.frames.length, 1000);
    const ids = new Set(raw.frames.map((f) => f.id));
    assert.is(ids.size, 1000);
    for (const f of raw.frames) {
      const n = typeof f.id === 'number' ? f.id : Number(String(f.id).slice(1));
      assert.is(f.status, 200);
      assert.is(f.body, `slow ${n}`, `answer for ${f.id}`);
    }
  });
});

test('answers arrive in completion order: a fast request overtakes a slow one', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    raw.send({ id: 'slow', method: 'GET', path: '/echo/slow/s?ms=150' });
    raw.send({ id: 'fast', method: 'GET', path: '/echo/slow/f?ms=1' });
    await raw.answer('slow');
    assert.equal(raw.frames.map((f) => f.id), ['fast', 'slow']);
  });
});

test('the heartbeat drops a peer that stops answering pings, and keeps one that answers', async () => {
  await withServer(echoApp(), tunnelOptions({ heartbeatMs: 40 }), async (server) => {
    const silent = await Raw.open(server, { autoPong: false });
    const alive = await Raw.open(server);
    const started = performance.now();
    const { code } = await silent.closedWithin();
    assert.is(code, 1006, 'terminated, not closed politely');
    assert.ok(performance.now() - started < 500);
    await sleep(100);
    assert.is(alive.ws.readyState, WebSocket.OPEN);
    await stillUsable(alive, 'heartbeat');
    assert.is(server.tunnel!.connections, 1);
  });
});

test('a socket idle for idleTimeoutMs is closed with 1000, but not while a request is in flight', async () => {
  await withServer(echoApp(), tunnelOptions({ idleTimeoutMs: 80 }), async (server) => {
    const idle = await Raw.open(server);
    const started = performance.now();
    assert.is((await idle.closedWithin()).code, 1000);
    assert.ok(performance.now() - started >= 70);

    const busy = await Raw.open(server);
    busy.send({ id: 1, method: 'GET', path: '/echo/slow/1?ms=200' });
    assert.is((await busy.answer(1)).body, 'slow 1', 'answered although longer than the idle timeout');
    const answered = performance.now();
    assert.is((await busy.closedWithin()).code, 1000);
    assert.ok(performance.now() - answered >= 70, 'the idle clock restarts at the last answer');
  });
});

test('back-pressure: while a client leaves its answers unread, the server stops reading its requests', async () => {
  counted = 0;
  await withServer(echoApp(), tunnelOptions({ backpressureBytes: 1024 }), async (server) => {
    const raw = await Raw.open(server);
    const socket = (raw.ws as unknown as { _socket: Socket })._socket;
    // The client stops reading: the kernel buffers fill, then the server's own send buffer.
    socket.pause();
    for (let i = 0; i < 16; i++) raw.send({ id: `big${i}`, method: 'GET', path: `/echo/big/${1024 * 1024}` });
    await sleep(150);
    raw.send({ id: 'count', method: 'GET', path: '/echo/count' });
    await sleep(150);
    assert.is(counted, 0, 'the request after the unread answers was not read');
    socket.resume();
    const count = await raw.answer('count');
    assert.is(count.body, '1', 'read once the answers drained');
    assert.is(raw.frames.filter((f) => String(f.id).startsWith('big') && f.body.length === 1024 * 1024).length, 16);
  });
});

test('a client that disconnects with requests in flight leaves the server healthy', async () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await withServer(echoApp(), {}, async (server) => {
      const raw = await Raw.open(server);
      for (let i = 0; i < 50; i++) raw.send({ id: i, method: 'GET', path: `/echo/slow/${i}?ms=${20 + i}` });
      await sleep(10);
      raw.ws.terminate();
      await raw.closedWithin();
      await sleep(120);
      assert.is(server.tunnel!.connections, 0);
      assert.is(await get(server, '/echo/show'), 200);
      const fresh = await Raw.open(server);
      await stillUsable(fresh, 'fresh');
      const again = await fresh.call({ id: 0, method: 'GET', path: '/echo/slow/0?ms=1' });
      assert.is(again.body, 'slow 0', 'ids are per socket');
    });
    await sleep(10);
    assert.equal(rejections, []);
  } finally {
    process.off('unhandledRejection', onRejection);
  }
});

const UPGRADE_COOKIE = { Cookie: 'a=1; b=2', Authorization: 'Basic YWRtaW46c2VjcmV0' };

test('a foreign Origin is refused with 403 before any WebSocket exists; the own origin and no Origin are accepted', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const host = `127.0.0.1:${server.port}`;
    const foreign = await handshake(server, '/_tunnel', { Host: host, Origin: 'https://evil.example', ...UPGRADE_COOKIE });
    assert.is(foreign.status, 403);
    assert.is(foreign.body, 'Origin not allowed');
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: 'null' })).status, 403, 'an opaque origin');
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: `https://${host}` })).status, 403, 'another scheme is another origin');
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: `http://${host}` })).status, 101);
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: `HTTP://${host.toUpperCase()}` })).status, 101, 'compared as origins, not strings');
    assert.is((await handshake(server, '/_tunnel', { Host: host })).status, 101, 'no Origin: not a browser');
    await sleep(20);
    assert.is(server.tunnel!.connections, 0, 'the test sockets are gone');
  });
});

test('a refused handshake is logged with its reason; a foreign Origin\'s line names it and the option that admits it', async () => {
  const { logger, lines } = captureLogs('info');
  await withServer(echoApp({ logger }), {}, async (server) => {
    const host = `127.0.0.1:${server.port}`;
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: 'http://localhost:5173' })).status, 403);
  });
  const refused = lines.filter((line) => line.msg === 'tunnel upgrade refused');
  assert.is(refused.length, 1);
  assert.is(refused[0]!.status, 403);
  assert.is(refused[0]!.reason, 'Origin not allowed');
  assert.is(refused[0]!.origin, 'http://localhost:5173');
  assert.match(String(refused[0]!.hint), 'serve(app, { tunnel: { origins: ["http://localhost:5173"] } })');
});

test('with origins listed, exactly those are accepted', async () => {
  await withServer(echoApp(), tunnelOptions({ origins: ['https://app.example', 'http://localhost:8080'] }), async (server) => {
    const host = `127.0.0.1:${server.port}`;
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: 'https://app.example' })).status, 101);
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: 'http://localhost:8080' })).status, 101);
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: 'https://app.example.evil' })).status, 403);
    assert.is((await handshake(server, '/_tunnel', { Host: host, Origin: `http://${host}` })).status, 403, 'the own origin only when listed');
  });
  assert.throws(() => attachTunnel(null as never, echoApp(), { origins: ['app.example'] }), /Not an origin/);
});

test('an upgrade elsewhere is 404, a non-WebSocket upgrade is 400, too many header lines are 431; each socket is closed', async () => {
  await withServer(echoApp(), { maxHeaders: 10 }, async (server) => {
    assert.is((await handshake(server, '/elsewhere', {})).status, 404);
    assert.is((await handshake(server, '/_tunnel/x', {})).status, 404);
    assert.is((await handshake(server, '/_tunnel?token=1', {})).status, 101, 'a query string is not part of the path');
    assert.is((await handshake(server, '/_tunnel', { Upgrade: 'h2c' })).status, 400);
    const many: Record<string, string> = {};
    for (let i = 0; i < 20; i++) many[`X-H${i}`] = 'x';
    assert.is((await handshake(server, '/_tunnel', many)).status, 431);
    assert.is(await get(server, '/echo/show'), 200);
  });
});

test('an upgrade naming its host twice is 400 and opens no socket', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const out = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET /_tunnel HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nHost: evil.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`));
      let text = '';
      socket.on('data', (d) => { text += d.toString('latin1'); });
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    assert.match(out, /^HTTP\/1\.1 400 /);
    assert.is(server.tunnel!.connections, 0);
    assert.is(await get(server, '/echo/show'), 200);
  });
});

test('2,000 header lines before the upgrade headers are refused without a crash', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const chars = "!#$%&'*+-.0123456789abcdefghijklmnopqrstuvwxyz^_`|~";
    let lines = '';
    for (let i = 0; i < 2000; i++) lines += `${chars[i % chars.length]}${chars[Math.floor(i / chars.length) % chars.length]}: x\r\n`;
    const out = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET /_tunnel HTTP/1.1\r\nHost: x\r\n${lines}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`));
      let text = '';
      socket.on('data', (d) => { text += d.toString('latin1'); });
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    assert.match(out, /^HTTP\/1\.1 (431|400) /);
    assert.is(await get(server, '/echo/show'), 200);
  });
});

test('the upgrade request\'s Cookie, Authorization and Host apply to every tunnelled request unless the frame sets its own', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server, { headers: UPGRADE_COOKIE });
    const inherited = JSON.parse((await raw.call({ id: 1, method: 'GET', path: '/echo/show' })).body);
    assert.is(inherited.headers.cookie, 'a=1; b=2');
    assert.is(inherited.headers.authorization, 'Basic YWRtaW46c2VjcmV0');
    assert.is(inherited.headers.host, `127.0.0.1:${server.port}`);
    assert.is((await raw.call({ id: 2, method: 'GET', path: '/admin' })).body, 'admin area', 'authenticated by the upgrade');
    const own = JSON.parse((await raw.call({ id: 3, method: 'GET', path: '/echo/show', headers: { Cookie: 'c=3', Authorization: 'Bearer t', Host: 'example.com' } })).body);
    assert.is(own.headers.cookie, 'c=3', 'replaced, not merged');
    assert.is(own.headers.authorization, 'Bearer t');
    assert.is(own.host, 'example.com');
    assert.is((await raw.call({ id: 4, method: 'GET', path: '/admin', headers: { authorization: 'Basic YWRtaW46d3Jvbmc=' } })).status, 401);
  });
});

test('a frame\'s cookies change the upgrade\'s Cookie name by name: a value replaces or adds, null removes; a Cookie of its own wins', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server, { headers: UPGRADE_COOKIE });
    const cookieOf = async (id: number, frame: Partial<Frame>) => JSON.parse((await raw.call({ id, method: 'GET', path: '/echo/show', ...frame })).body).headers.cookie;
    assert.is(await cookieOf(1, { cookies: { b: '20', c: '3' } }), 'a=1; b=20; c=3');
    assert.is(await cookieOf(2, { cookies: { a: null, c: '"quoted"' } }), 'b=2; c="quoted"');
    assert.is(await cookieOf(3, { cookies: { a: null, b: null } }), undefined, 'every cookie removed: none inherited');
    assert.is(await cookieOf(4, { cookies: {} }), 'a=1; b=2');
    assert.is(await cookieOf(5, { cookies: { a: null }, headers: { Cookie: 'own=1' } }), 'own=1');
    assert.is(await cookieOf(6, { cookies: null }), 'a=1; b=2', 'null counts as absent');
  });
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    assert.is(JSON.parse((await raw.call({ id: 1, method: 'GET', path: '/echo/show', cookies: { s: 'x', gone: null } })).body).headers.cookie, 's=x', 'without an upgrade Cookie');
  });
});

test('cookies that could not be a Cookie header refuse the frame with bad_frame; the socket stays usable', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server, { headers: UPGRADE_COOKIE });
    const bad: unknown[] = [['a'], 'a=1', { 'a b': '1' }, { a: 'x;y=1' }, { a: 'x\r\nSet-Cookie: y' }, { a: 1 }, { a: { b: '1' } }, { '': '1' }];
    for (const [i, cookies] of bad.entries()) {
      raw.send(JSON.stringify({ id: i + 1, method: 'GET', path: '/echo/show', cookies }));
      assert.is((await raw.answer(i + 1)).error?.code, 'bad_frame', JSON.stringify(cookies));
    }
    assert.is((await raw.call({ id: 99, method: 'GET', path: '/echo/show' })).status, 200);
  });
});

test('frame headers are plain data: __proto__, constructor, prototype and non-token names never become headers', async () => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server, { headers: { Cookie: 'session=abc' } });
    raw.send('{"id":3,"method":"GET","path":"/admin","headers":{"__proto__":{"authorization":"Basic YWRtaW46c2VjcmV0","cookie":"x=1"}}}');
    const admin = await raw.answer(3);
    assert.is(admin.status, 401, 'no inherited Authorization');
    raw.send('{"id":4,"method":"GET","path":"/echo/show","headers":{"__proto__":{"x-a":"1"},"constructor":"c","prototype":"p","Bad Name":"b","x:y":"c","X-Ok":"ok"}}');
    const seen = JSON.parse((await raw.answer(4)).body);
    assert.equal(Object.keys(seen.headers).sort(), ['cookie', 'host', 'x-ok']);
    assert.is(seen.headers.cookie, 'session=abc', 'the upgrade cookie, not one from __proto__');
    assert.is(raw.ws.readyState, WebSocket.OPEN);
  });
  assert.equal(Object.getOwnPropertyNames(Object.prototype).sort(), before);
  assert.is(({} as Record<string, unknown>).authorization, undefined);
});

test('forgery protection applies to tunnelled requests exactly as over HTTP', async () => {
  class PostsController extends Controller {
    static {
      this.protect_from_forgery();
    }
    create(): void {
      this.render({ text: 'created' });
    }
    index(): void {
      this.render({ text: 'index' });
    }
  }
  const app = appWith({ posts: PostsController }, { config: { allow_forgery_protection: true }, session: { key: '_s', secret: 's'.repeat(32) } });
  await withServer(app, {}, async (server) => {
    const raw = await Raw.open(server, { origin: `http://127.0.0.1:${server.port}` });
    assert.is((await raw.call({ id: 1, method: 'GET', path: '/posts/index' })).status, 200);
    for (const [id, type] of [[2, 'application/x-www-form-urlencoded'], [3, 'text/plain']] as const) {
      const refused = await raw.call({ id, method: 'POST', path: '/posts/create', headers: { 'Content-Type': type }, body: 'a=1' });
      assert.is(refused.status, 422, type);
    }
    assert.is((await raw.call({ id: 5, method: 'POST', path: '/posts/create' })).status, 422, 'no Content-Type is not exempt either');
  });
});

test('header values set by hand answer the same over HTTP and the tunnel: a number as its digits, undefined not sent, an object a 500', async () => {
  class HeadersController extends Controller {
    number(): void { (this.response.headers as Record<string, unknown>)['X-Count'] = 5; this.render({ text: 'n' }); }
    list(): void { (this.response.headers as Record<string, unknown>)['X-List'] = ['a', 2]; this.render({ text: 'l' }); }
    unset(): void { (this.response.headers as Record<string, unknown>)['X-Gone'] = undefined; this.render({ text: 'u' }); }
    object(): void { (this.response.headers as Record<string, unknown>)['X-Object'] = { a: 1 }; this.render({ text: 'o' }); }
    bigint(): void { (this.response.headers as Record<string, unknown>)['X-Big'] = 5n; this.render({ text: 'b' }); }
  }
  const app = appWith({ headers: HeadersController });
  await withServer(app, {}, async (server) => {
    const raw = await Raw.open(server);
    const cases = [['number', 200, 'x-count', '5'], ['list', 200, 'x-list', 'a, 2'], ['unset', 200, 'x-gone', null], ['object', 500, 'x-object', null], ['bigint', 500, 'x-big', null]] as const;
    for (const [[action, status, name, value], id] of cases.map((c, i) => [c, i + 1] as const)) {
      const http = await fetch(`http://127.0.0.1:${server.port}/headers/${action}`);
      assert.is(http.status, status, `${action} over HTTP`);
      assert.is(http.headers.get(name), value, `${action} over HTTP`);
      const tunnelled = await raw.call({ id, method: 'GET', path: `/headers/${action}` });
      assert.is(tunnelled.status, status, `${action} through the tunnel`);
      const header = Object.entries(tunnelled.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
      assert.is(header === undefined ? null : ([] as string[]).concat(header as string | string[]).join(', '), value, `${action} through the tunnel`);
    }
  });
});

test('serve({ tunnel: false }) has no tunnel: an upgrade is just an HTTP request', async () => {
  await withServer(echoApp(), { tunnel: false }, async (server) => {
    assert.is(server.tunnel, null);
    assert.is(server.server.listenerCount('upgrade'), 0);
    assert.is((await handshake(server, '/_tunnel', {})).status, 404, 'answered by the app');
  });
});

test('the tunnel path is configurable', async () => {
  await withServer(echoApp(), tunnelOptions({ path: '/ws' }), async (server) => {
    assert.is(server.tunnel!.path, '/ws');
    assert.is((await handshake(server, '/_tunnel', {})).status, 404);
    await stillUsable(await Raw.open(server, { path: '/ws' }), 'configured path');
  });
  await serve(echoApp(), { port: 0, tunnel: { path: 'ws' } }).then(
    () => assert.unreachable('a path without a slash'),
    (e: Error) => assert.match(e.message, /must start with "\/"/),
  );
  await serve(echoApp(), { port: 0, tunnel: { maxInFlight: 0 } }).then(
    () => assert.unreachable('zero in flight'),
    (e: Error) => assert.match(e.message, /maxInFlight must be a positive number/),
  );
  await serve(echoApp(), { port: 0, tunnel: { batching: 'no' as never } }).then(
    () => assert.unreachable('batching is a boolean'),
    (e: Error) => assert.match(e.message, /batching must be true or false, not no/),
  );
});

test('with batching: false the server chooses no subprotocol, and a client offering signalbox-tunnel.2 gets JSON text frames', async () => {
  await withServer(echoApp(), tunnelOptions({ batching: false }), async (server) => {
    // ws insists on a subprotocol once it offered one: its refusal shows the server chose none.
    await batching(server).then(
      () => assert.unreachable('the server chose signalbox-tunnel.2'),
      (e: Error) => assert.match(e.message, /Server sent no subprotocol/),
    );
    await stillUsable(await Raw.open(server), 'batching off');
  });
});

test('server.close() lets tunnelled requests in flight answer, then closes their sockets with 1001 and refuses new upgrades', async () => {
  const server = await serve(echoApp(), { port: 0, host: '127.0.0.1' });
  const raw = await Raw.open(server);
  const idle = await Raw.open(server);
  raw.send({ id: 1, method: 'GET', path: '/echo/slow/1?ms=100' });
  await sleep(20);
  const closed = server.close();
  assert.is((await raw.answer(1)).body, 'slow 1');
  assert.is((await raw.closedWithin()).code, 1001);
  assert.is((await idle.closedWithin()).code, 1001);
  await closed;
  assert.is(server.tunnel!.connections, 0);
});

test('a tunnel closing refuses new upgrades with 503', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const raw = await Raw.open(server);
    await server.tunnel!.close(1005).then(
      () => assert.unreachable('1005 is reserved'),
      (e: Error) => assert.match(e.message, /Not a close code/),
    );
    await server.tunnel!.close(4000);
    assert.is((await raw.closedWithin()).code, 4000);
    assert.is((await handshake(server, '/_tunnel', {})).status, 503);
    assert.is(await get(server, '/echo/show'), 200, 'HTTP goes on');
  });
});

test('connections and refused frames are logged with transport "tunnel"', async () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  }));
  await withServer(echoApp({ logger }), {}, async (server) => {
    const raw = await Raw.open(server);
    raw.send('nope');
    await raw.next();
    raw.ws.close(1000);
    await raw.closedWithin();
    await sleep(20);
    assert.is((await handshake(server, '/_tunnel', { Origin: 'https://evil.example' })).status, 403);
  });
  const opened = lines.find((l) => l.msg === 'tunnel connection opened');
  assert.is(opened?.transport, 'tunnel');
  assert.is(opened?.remote, '127.0.0.1');
  const refused = lines.find((l) => l.msg === 'tunnel frame refused');
  assert.is(refused?.code, 'bad_json');
  const closed = lines.find((l) => l.msg === 'tunnel connection closed');
  assert.is(closed?.code, 1000);
  assert.is(lines.find((l) => l.msg === 'tunnel upgrade refused')?.status, 403);
});

test.run();
