/**
 * The fast lane over real sockets: simple requests answered on the socket
 * itself (small bodies by Content-Length among them) get the bytes node:http
 * would have written, and a connection moves to node:http, in order and
 * without losing a byte, at its first request that is not simple.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { serve, type RunningServer, type ServeOptions } from '../../transport/index.ts';
import { appWith, tempDir } from '../support/harness.ts';
import { eventually } from '../support/patience.ts';
import { serverProcess } from './support-process.ts';

const test = suite('the fast lane answers simple requests as node:http would');

class EchoController extends Controller {
  show(): void {
    this.render({ json: { method: this.request.method, id: this.params.id ?? null, body_length: this.request.body.length, accept: this.request.headers.accept ?? null } });
  }
  form(): void {
    this.render({ json: { method: this.request.method, params: this.params, body_length: this.request.body.length } });
  }
  moved(): void {
    this.render({ text: 'gone', status: '404 Moved Elsewhere' });
  }
  away(): void {
    this.redirect_to('/echo/show/9');
  }
  long(): void {
    // Longer than a slab of waiting answers, and three bytes of UTF-8 to some characters.
    this.render({ text: `${'é—x'.repeat(4000)}${this.params.id ?? ''}` });
  }
  async slow(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 100));
    this.render({ text: 'slow done' });
  }
}

const dir = tempDir('signalbox-fast-lane');
mkdirSync(join(dir.path, 'public'), { recursive: true });
// Larger than what public files keep in memory, so it is streamed from disk.
const BIG = Buffer.alloc(300 * 1024, 'x');
writeFileSync(join(dir.path, 'public', 'big.txt'), BIG);
// Small enough to be answered from memory, so its answers pile up in the socket's own buffer.
const MID = Buffer.alloc(200 * 1024, 'y');
writeFileSync(join(dir.path, 'public', 'mid.txt'), MID);

const echoApp = () => appWith({ echo: EchoController }, { publicDir: join(dir.path, 'public') });

async function withServers(options: ServeOptions, body: (lane: RunningServer, node: RunningServer) => Promise<void>): Promise<void> {
  const lane = await serve(echoApp(), { port: 0, ...options });
  const node = await serve(echoApp(), { port: 0, ...options, fastLane: false });
  try {
    await body(lane, node);
  } finally {
    await Promise.all([lane.close(), node.close()]);
  }
}

/**
 * Writes `parts` on one connection (a pause between them), ending the client's side after them when `end`,
 * and returns every byte the server sent until it closed. With `answered`, the second part waits until that
 * many answers have begun to arrive (at most 5 s), not just the pause: on a loaded machine an answer may take
 * longer than the pause, and node:http writes its 400 for a malformed request at once, ahead of an answer
 * still being made, which would make the bytes differ for a reason that is the machine's, not the reader's.
 */
function exchange(server: RunningServer, parts: readonly (string | Buffer)[], pauseMs = 30, end = false, answered = 0): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const answers = () => (Buffer.concat(chunks).toString('latin1').match(/^HTTP\/1\.1 \d{3} /gm) ?? []).length;
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: end }, async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, pauseMs));
        if (i === 1) for (const deadline = Date.now() + 5_000; answers() < answered && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 5));
        socket.write(part);
      }
      if (end) socket.end();
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
}

/** The bytes with what differs from one answer to the next (the clock, the run time) blanked. */
const steady = (bytes: Buffer) => bytes.toString('latin1').replace(/^Date: .*$/gm, 'Date: -').replace(/^X-Runtime: .*$/gm, 'X-Runtime: -');

const get = (path: string, ...headers: string[]) => [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n');
const CLOSE = 'Connection: close';
/** A request whose body is `body`, framed by its Content-Length. */
const post = (path: string, type: string, body: string, ...headers: string[]) =>
  [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(body)}`, ...headers, '', body].join('\r\n');
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

const sameBytes: Record<string, string[]> = {
  'a GET': [get('/echo/show/1', CLOSE)],
  'a HEAD': [get('/echo/show/1', CLOSE).replace('GET', 'HEAD')],
  'pipelined requests, one of them unrouted': [get('/echo/show/1') + get('/echo/show/2?q=a%20b', 'Accept: application/json') + get('/nothing/here') + get('/echo/moved') + get('/echo/show/3', CLOSE)],
  'a redirect': [get('/echo/away', CLOSE)],
  'long non-ASCII answers pipelined with short ones': [get('/echo/long/1') + get('/echo/show/1') + get('/echo/long/2') + get('/echo/show/2', CLOSE)],
  'a public file streamed from disk, then the next answer': [get('/big.txt') + get('/echo/show/4', CLOSE)],
  'a head that arrives in two pieces': ['GET /echo/show/5 HTTP/1.1\r\nHo', `st: 127.0.0.1\r\n${CLOSE}\r\n\r\n`],
  'a request with no Host after a simple one': [get('/echo/show/1'), 'GET / HTTP/1.1\r\n\r\n'],
  'a malformed request after a simple one': [get('/echo/show/1'), 'GET / HTTP/1.1\r\nHost : bad\r\n\r\n'],
};

/** Status lines in what a connection got back. */
const statuses = (bytes: Buffer) => [...bytes.toString('latin1').matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

// node:http refuses the whole read when a later request in it is malformed, losing the answers owed
// before it; the lane answers what it took, then hands node:http the rest to refuse.
test('a malformed request in the same read as a simple one: the simple one is answered, then the refusal', async () => {
  await withServers({}, async (lane) => {
    assert.equal(statuses(await exchange(lane, [get('/echo/show/1') + 'GET / HTTP/1.1\r\nHost : bad\r\n\r\n'])), [200, 400]);
  });
});

test('nothing after a request that asked to close is read (RFC 9112 §9.6); its own answer still comes', async () => {
  await withServers({}, async (lane) => {
    const bytes = await exchange(lane, [get('/echo/show/1', CLOSE) + get('/echo/show/2')]);
    assert.equal(statuses(bytes), [200]);
    assert.match(bytes.toString('latin1'), /Connection: close\r\n/);
  });
});

for (const [what, parts] of Object.entries(sameBytes)) {
  test(`${what}: the same bytes as node:http`, async () => {
    await withServers({}, async (lane, node) => {
      const [fast, plain] = await Promise.all([exchange(lane, parts), exchange(node, parts)]);
      assert.ok(fast.length > 0);
      assert.is(steady(fast), steady(plain));
    });
  });
}

test('a keep-alive timeout under a second is announced as node:http announces it', async () => {
  await withServers({ keepAliveTimeoutMs: 200 }, async (lane, node) => {
    const [fast, plain] = await Promise.all([exchange(lane, [get('/echo/show/1')]), exchange(node, [get('/echo/show/1')])]);
    assert.match(steady(fast), /Keep-Alive: timeout=0\r\n/);
    assert.is(steady(fast), steady(plain));
  });
});

test('a streamed public file arrives whole', async () => {
  await withServers({}, async (lane) => {
    const bytes = await exchange(lane, [get('/big.txt', CLOSE)]);
    const text = bytes.toString('latin1');
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(bytes.subarray(text.indexOf('\r\n\r\n') + 4).equals(BIG));
  });
});

test('a WebSocket upgrade after a simple request on the same connection reaches the tunnel', async () => {
  await withServers({}, async (lane) => {
    const upgrade = ['GET /_tunnel HTTP/1.1', 'Host: 127.0.0.1', 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', '', ''].join('\r\n');
    const socket = connect(lane.port, '127.0.0.1');
    let seen = '';
    const switched = new Promise<void>((resolve) => {
      socket.on('data', (d: Buffer) => {
        seen += d.toString('latin1');
        if (seen.includes('101 Switching Protocols')) resolve();
      });
    });
    socket.write(get('/echo/show/1') + upgrade);
    await switched;
    assert.match(seen, /^HTTP\/1\.1 200 OK\r\n[\s\S]*HTTP\/1\.1 101 Switching Protocols\r\n/);
    socket.destroy();
  });
});

test('an idle connection closes after the keep-alive timeout', async () => {
  await withServers({ keepAliveTimeoutMs: 200 }, async (lane) => {
    const socket = connect(lane.port, '127.0.0.1');
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
    socket.on('data', () => {});
    socket.write(get('/echo/show/1'));
    const at = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 5_000))]);
    assert.ok(at > 0, 'closed by the server');
    socket.destroy();
  });
});

test('a request that reaches a busy server as its connection\'s keep-alive timeout runs out is answered, not reset', async () => {
  const server = await serverProcess({ keepAliveTimeoutMs: 1_000 });
  try {
    const open = (): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> => new Promise((resolve) => {
      let out = '';
      const socket = connect(server.port, '127.0.0.1', () => resolve({ socket, received: () => out, closed }));
      socket.on('data', (d: Buffer) => { out += d.toString('latin1'); });
      socket.on('error', () => {});
      const closed = new Promise<void>((r) => socket.once('close', () => r()));
    });
    const [waiting, holding] = await Promise.all([open(), open()]);
    waiting.socket.write(get('/slow/show'));
    assert.ok(await eventually(() => waiting.received().includes('slept 0')), 'answered once');
    // One client's request holds the server's event loop (a CPU-bound action, a long GC pause) past the other's
    // keep-alive timeout, and the other's next request arrives meanwhile: it is in the socket before the sweep runs.
    const release = join(dir.path, 'release');
    holding.socket.write(get(`/slow/show?hold=${encodeURIComponent(release)}`));
    assert.ok(await eventually(() => server.logs.some((l) => l.msg === 'holding the event loop')), 'the loop is held');
    await new Promise((r) => setTimeout(r, 1_200));
    const before = waiting.received().length;
    waiting.socket.write(get('/slow/show?ms=1'));
    await new Promise((r) => setTimeout(r, 100));
    writeFileSync(release, '');
    await Promise.race([waiting.closed, eventually(() => waiting.received().slice(before).includes('slept 1'))]);
    assert.match(waiting.received().slice(before), /^HTTP\/1\.1 200 OK\r\n/, 'after the timeout, before the sweep');
    waiting.socket.destroy();
    holding.socket.destroy();
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('a client that reads its pipelined answers only after the keep-alive timeout still gets every one', async () => {
  await withServers({ keepAliveTimeoutMs: 200 }, async (lane) => {
    const socket = connect(lane.port, '127.0.0.1');
    // 100 answers of 200 KB, more than the kernel's buffers hold, read only once the keep-alive timeout has long passed.
    socket.pause();
    socket.write(Array.from({ length: 100 }, () => get('/mid.txt')).join(''));
    await new Promise((r) => setTimeout(r, 2_500));
    let bytes = 0;
    let answers = 0;
    socket.on('data', (d: Buffer) => {
      bytes += d.length;
      answers += d.toString('latin1').split('HTTP/1.1 200 OK').length - 1;
      if (answers === 100 && bytes >= 100 * MID.length) socket.end();
    });
    socket.resume();
    await new Promise((r) => socket.on('close', r));
    assert.is(answers, 100);
    assert.ok(bytes >= 100 * MID.length);
  });
});

test('a client that ends its side after a request still gets the whole answer', async () => {
  await withServers({}, async (lane) => {
    const socket: Socket = connect({ port: lane.port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    const ended = new Promise<void>((resolve) => socket.on('end', () => resolve()));
    socket.end(get('/echo/show/7'));
    await ended;
    const text = Buffer.concat(chunks).toString('latin1');
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(text, /"id":"7"/);
    socket.destroy();
  });
});

test('a whole request, then half a request and the end of the stream: the first is answered, the half is 400', async () => {
  await withServers({}, async (lane) => {
    const bytes = await new Promise<Buffer>((resolve) => {
      const socket = connect({ port: lane.port, host: '127.0.0.1', allowHalfOpen: true });
      const chunks: Buffer[] = [];
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('close', () => resolve(Buffer.concat(chunks)));
      socket.end(get('/echo/show/1') + 'GET /echo/show/2 HTTP/1.1\r\nHost: 1');
    });
    assert.equal(statuses(bytes), [200, 400]);
  });
});

test('more pipelined requests than run at once, then the end of the stream: every one is answered', async () => {
  await withServers({ maxPipelined: 2 }, async (lane) => {
    const bytes = await new Promise<Buffer>((resolve) => {
      const socket = connect({ port: lane.port, host: '127.0.0.1', allowHalfOpen: true });
      const chunks: Buffer[] = [];
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('close', () => resolve(Buffer.concat(chunks)));
      socket.end(Array.from({ length: 7 }, (_, i) => get(`/echo/show/${i}`)).join(''));
    });
    assert.equal(statuses(bytes), [200, 200, 200, 200, 200, 200, 200]);
    assert.equal([...bytes.toString('latin1').matchAll(/"id":"(\d)"/g)].map((m) => m[1]), ['0', '1', '2', '3', '4', '5', '6']);
  });
});

test('a connection that closes while its requests run is dropped, and the server goes on', async () => {
  await withServers({}, async (lane) => {
    const socket = connect(lane.port, '127.0.0.1', () => socket.write(get('/echo/slow') + get('/echo/slow') + get('/echo/slow')));
    socket.on('error', () => {});
    await new Promise((r) => setTimeout(r, 30));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 150));
    const after = await exchange(lane, [get('/echo/slow', CLOSE)]);
    assert.match(after.toString('latin1'), /^HTTP\/1\.1 200 OK\r\n[\s\S]*slow done$/);
  });
});

/** Pipelines a slow request and a quick one, begins the server's shutdown while the quick answer waits behind the slow one, and returns the bytes. */
async function answersAcrossShutdown(options: ServeOptions): Promise<string> {
  const server = await serve(echoApp(), { port: 0, ...options });
  const socket = connect(server.port, '127.0.0.1', () => socket.write(get('/echo/slow') + get('/echo/show/1')));
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  const closed = new Promise((resolve) => socket.on('close', resolve));
  await new Promise((r) => setTimeout(r, 40));
  const closing = server.close();
  await closed;
  await closing;
  return steady(Buffer.concat(chunks));
}

test('an answer made before a shutdown began, written after it, closes the connection as node:http would have it', async () => {
  // The quick answer is ready first and waits (held as bytes with write batching) until the slow one is out; by then the server is closing.
  const batched = await answersAcrossShutdown({});
  const unbatched = await answersAcrossShutdown({ batchWrites: false });
  assert.equal(statuses(Buffer.from(batched, 'latin1')), [200, 200]);
  const [first, second] = batched.split(/(?=HTTP\/1\.1 )/);
  assert.match(first, /Connection: keep-alive\r\nKeep-Alive: timeout=\d+\r\n/);
  assert.match(second, /Connection: close\r\n/);
  assert.not.match(second, /Keep-Alive/);
  assert.equal(batched, unbatched);
});

/** Counts the requests node:http parses on `server`: those the lane answers emit no 'request' event. */
function parsedByNode(server: RunningServer): () => number {
  let parsed = 0;
  server.server.on('request', () => parsed++);
  return () => parsed;
}

const MULTIPART_BODY = ['--xyz', 'Content-Disposition: form-data; name="post[title]"', '', 'Hi', '--xyz', 'Content-Disposition: form-data; name="post[file]"; filename="a.txt"', 'Content-Type: text/plain', '', 'hello', '--xyz--', ''].join('\r\n');

interface BodySpec {
  readonly parts: readonly string[];
  /** Who reads the requests with bodies: the lane, or node:http once the lane has handed the connection over. */
  readonly reader: 'the lane' | 'node:http';
  readonly statuses: readonly number[];
  /** What the answers show of the parameters the app read from the body. */
  readonly shows?: RegExp;
  readonly options?: ServeOptions;
  /** The client ends its side after the last part. */
  readonly end?: boolean;
}

const withBodies: Record<string, BodySpec> = {
  'a urlencoded form post': {
    parts: [post('/echo/form/1', FORM, 'post[title]=Hi&post[tags][]=a%20b&post[tags][]=c', CLOSE)],
    reader: 'the lane', statuses: [200], shows: /"post":\{"title":"Hi","tags":\["a b","c"\]\}/,
  },
  'a JSON post with non-ASCII text': {
    parts: [post('/echo/form/1', JSON_TYPE, '{"post":{"title":"caf\u00e9","n":2}}', CLOSE)],
    reader: 'the lane', statuses: [200], shows: /"post":\{"title":"caf\u00e9","n":2\}/,
  },
  'a post pipelined between two GETs in one write': {
    parts: [get('/echo/show/1') + post('/echo/form/2', FORM, 'a=1&b=2') + get('/echo/show/3', CLOSE)],
    reader: 'the lane', statuses: [200, 200, 200], shows: /"a":"1","b":"2"/,
  },
  'posts and GETs sent request by request': {
    parts: [get('/echo/show/1'), post('/echo/form/2', FORM, 'a=1'), post('/echo/form/3', JSON_TYPE, '{"b":2}'), get('/echo/show/4', CLOSE)],
    reader: 'the lane', statuses: [200, 200, 200, 200], shows: /"a":"1"[\s\S]*"b":2/,
  },
  'a body whose bytes look like a request, which stays a body': {
    parts: [post('/echo/form/1', 'text/plain', get('/echo/show/666')) + get('/echo/show/2', CLOSE)],
    reader: 'the lane', statuses: [200, 200],
  },
  'a post with Content-Length: 0': {
    parts: [post('/echo/form/1', FORM, '') + get('/echo/show/2', CLOSE)],
    reader: 'the lane', statuses: [200, 200], shows: /"body_length":0/,
  },
  'a body of exactly maxBodyBytes': {
    parts: [post('/echo/form/1', FORM, `a=${'x'.repeat(62)}`, CLOSE)],
    options: { maxBodyBytes: 64 }, reader: 'the lane', statuses: [200], shows: /"body_length":64/,
  },
  'a body that arrives in a second write': {
    parts: [get('/echo/show/1') + post('/echo/form/2', FORM, 'a=1&b=2').replace(/a=1&b=2$/, ''), 'a=1&b=2' + get('/echo/show/3', CLOSE)],
    reader: 'node:http', statuses: [200, 200, 200], shows: /"a":"1","b":"2"/,
  },
  'a body over maxBodyBytes, refused with 413': {
    parts: [get('/echo/show/1') + post('/echo/form/2', FORM, `a=${'x'.repeat(63)}`) + get('/echo/show/3')],
    options: { maxBodyBytes: 64 }, reader: 'node:http', statuses: [200, 413],
  },
  "a body over the lane's own bound, all in one write": {
    parts: [get('/echo/show/1') + post('/echo/form/2', FORM, `a=${'x'.repeat(64 * 1024)}`) + get('/echo/show/3', CLOSE)],
    reader: 'node:http', statuses: [200, 200, 200], shows: /"body_length":65538/,
  },
  'a multipart upload, which node:http streams to the app': {
    parts: [get('/echo/show/1') + post('/echo/form/2', 'multipart/form-data; boundary=xyz', MULTIPART_BODY) + get('/echo/show/3', CLOSE)],
    reader: 'node:http', statuses: [200, 200, 200], shows: /"title":"Hi"/,
  },
  'a body one byte short, then the end of the stream': {
    // In a write of its own: node:http refuses a whole read whose last request is cut short, simple ones too.
    parts: [get('/echo/show/1'), post('/echo/form/2', FORM, 'a=1&b=2').slice(0, -1)],
    end: true, reader: 'node:http', statuses: [200, 400],
  },
};

for (const [what, spec] of Object.entries(withBodies)) {
  test(`${what}: read by ${spec.reader}, with the same bytes as node:http`, async () => {
    await withServers(spec.options ?? {}, async (lane, node) => {
      const parsed = parsedByNode(lane);
      const [fast, plain] = await Promise.all([exchange(lane, spec.parts, 30, spec.end), exchange(node, spec.parts, 30, spec.end)]);
      assert.equal(statuses(fast), [...spec.statuses]);
      if (spec.shows !== undefined) assert.match(fast.toString('utf8'), spec.shows);
      assert.is(steady(fast), steady(plain));
      if (spec.reader === 'the lane') assert.is(parsed(), 0, 'no request reached node:http');
      else assert.ok(parsed() > 0, 'node:http read the connection');
    });
  });
}

// Each is a framing two readers could take two ways: the lane reads none of them, and node:http refuses them.
// (Each in its own write: node:http refuses a whole read with a malformed request in it, simple ones too.)
const refusedFramings: Record<string, string> = {
  'Content-Length and Transfer-Encoding together': 'Content-Length: 3\r\nTransfer-Encoding: chunked',
  'two equal Content-Lengths': 'Content-Length: 3\r\nContent-Length: 3',
  'two different Content-Lengths': 'Content-Length: 3\r\nContent-Length: 4',
  'a Content-Length with a plus sign': 'Content-Length: +3',
  'a Content-Length list': 'Content-Length: 3,3',
  'a hexadecimal Content-Length': 'Content-Length: 0x3',
  'an empty Content-Length': 'Content-Length:',
};

for (const [what, framing] of Object.entries(refusedFramings)) {
  test(`${what} after a simple request: the same bytes as node:http`, async () => {
    await withServers({}, async (lane, node) => {
      const parts = [get('/echo/show/1'), `POST /echo/form/2 HTTP/1.1\r\nHost: 127.0.0.1\r\n${framing}\r\n\r\nabc` + get('/echo/show/3', CLOSE)];
      const [fast, plain] = await Promise.all([exchange(lane, parts, 30, false, 1), exchange(node, parts, 30, false, 1)]);
      assert.equal(statuses(fast), [200, 400]);
      assert.is(steady(fast), steady(plain));
    });
  });
}

test.after(() => dir.remove());

test.run();
