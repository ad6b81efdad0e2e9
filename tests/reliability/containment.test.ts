/**
 * Containment, site by site (docs/containment.md lists them): everything a
 * request creates (a body stream, an upload's temporary file, a file being
 * sent, a template's promise, a cache or session store's promise, a Redis
 * command, a tunnel frame's answer) fails into that request's own answer, a
 * typed 4xx or a 500, or a closed connection, and the next request is
 * served. Each failure is injected from outside, over real HTTP on
 * 127.0.0.1 (and a real redis-server where Redis is used). The test runner
 * itself fails any test during which an uncaughtException or
 * unhandledRejection fires, so every test here also proves there was none.
 */
import { readdirSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller, memoryStore, memoryViews, redisCacheStore, redisSessionStore,
  type CacheStore, type SessionStore, type Template,
} from '../../core/index.ts';
import { tunnel } from '../../transport/index.ts';
import { startRedis, type RedisServer } from '../support/redis.ts';
import { defaultRoutes, serveApp, tempDir, type Served, type ServeAppOptions } from '../support/harness.ts';

const test = suite('a failure inside one request ends that request, never the server');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What each test may inject, set before its request and cleared after. */
const inject: { redis: RedisServer | null; beforeRender: (() => Promise<void>) | null } = { redis: null, beforeRender: null };

class ThingsController extends Controller {
  /** The request that must still be answered after each failure. */
  index(): void {
    this.render({ text: 'still here' });
  }

  /** Reads its parameters (a body of any kind) and says how many there were. */
  create(): void {
    this.render({ text: `params: ${Object.keys(this.params).length}` });
  }

  /** Renders things/show.html (the templates are each test's). */
  show(): void {
    this.render({ locals: { id: this.params.id } });
  }

  /** Counts visits in the session, after whatever the test injects. */
  async visit(): Promise<void> {
    await inject.beforeRender?.();
    this.session.visits = Number(this.session.visits ?? 0) + 1;
    this.render({ text: `visit ${String(this.session.visits)}` });
  }

  /** Answers at once, and renders, redirects or heads again from work it does not wait for (a promise it drops). */
  late(): void {
    this.render({ text: 'answered' });
    const again = String(this.params.again);
    void sleep(10).then(() => {
      if (again === 'render') this.render({ text: 'too late' });
      else if (again === 'redirect') this.redirect_to('/elsewhere');
      else this.head('gone');
    });
  }

  /** Expires the show action's cached entries without waiting for the store, then answers. */
  expire(): void {
    void this.expire_action({ action: 'show', id: '1' });
    void this.expire_action({ action: ['index', 'show'], id: '1' });
    this.render({ text: 'expired' });
  }
}

class CachedController extends Controller {
  static {
    this.caches_action('show');
  }

  async show(): Promise<void> {
    await inject.beforeRender?.();
    this.render({ text: `cached ${String(this.params.id)}` });
  }
}

const okTemplates: Record<string, Template> = { 'things/show.html': () => 'shown' };

async function served(options: ServeAppOptions = {}): Promise<Served> {
  return serveApp({ things: ThingsController, cached: CachedController }, { draw: defaultRoutes, views: memoryViews(okTemplates), ...options });
}

/** The server still answers a plain request. */
async function stillServes(s: Served): Promise<void> {
  const next = await s.get('/things');
  assert.is(next.status, 200, 'the next request is answered');
  assert.is(next.body, 'still here');
}

/**
 * Writes `head` and then `body` on a fresh connection, waiting `pauseMs` between them, and stops
 * there: with `abort`, the connection is then destroyed without reading an answer; otherwise the
 * first status line (0 for a close without one) is awaited.
 */
function rawExchange(s: Served, bytes: (Buffer | string)[], options: { abortAfterMs?: number } = {}): Promise<{ status: number; closed: boolean }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(s.server.port, '127.0.0.1', () => {
      for (const b of bytes) socket.write(b);
      if (options.abortAfterMs !== undefined) {
        setTimeout(() => {
          socket.destroy();
          resolve({ status: 0, closed: true });
        }, options.abortAfterMs);
      }
    });
    let data = '';
    socket.on('data', (d: Buffer) => {
      data += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), closed: true }));
    socket.setTimeout(8_000, () => socket.destroy());
  });
}

// ---------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------

test('a client that leaves in the middle of a form body: the connection closes, the next request is served', async () => {
  const s = await served();
  try {
    await rawExchange(s, ['POST /things/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n', 'a=1&b='], { abortAfterMs: 50 });
    await sleep(20);
    await stillServes(s);
  } finally {
    await s.close();
  }
});

const BOUNDARY = 'AaB03x';
const MULTIPART = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
const filePartHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\n`;

test('a multipart body whose file part is cut off is a 400, and the next request is served', async () => {
  const s = await served();
  try {
    const cut = await s.send('POST', '/things/create', MULTIPART, `${filePartHead}abc`);
    assert.is(cut.status, 400);
    await stillServes(s);
  } finally {
    await s.close();
  }
});

/** Runs `body` with the system's temporary directory (where uploads go) pointed at `dir`. */
async function withTmpdir(dir: string, body: () => Promise<void>): Promise<void> {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    await body();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

test('a client that leaves in the middle of an upload streaming to a temporary file: the file is removed, the next request is served', async () => {
  const s = await served({ config: { limits: { multipart: { memoryBytes: 1024 } } } });
  const tmp = tempDir('containment-uploads');
  try {
    await withTmpdir(tmp.path, async () => {
      const head = `POST /things/create HTTP/1.1\r\nHost: x\r\nContent-Type: ${MULTIPART['Content-Type']}\r\nContent-Length: 10000000\r\n\r\n${filePartHead}`;
      const socket = connect(s.server.port, '127.0.0.1', () => socket.write(head + 'a'.repeat(256 * 1024)));
      socket.on('error', () => {});
      // The client leaves once the upload has reached its temporary file.
      let deadline = performance.now() + 2_000;
      while (readdirSync(tmp.path).length === 0 && performance.now() < deadline) await sleep(10);
      assert.is(readdirSync(tmp.path).length, 1, 'the upload went to a temporary file');
      socket.destroy();
      deadline = performance.now() + 2_000;
      while (readdirSync(tmp.path).length > 0 && performance.now() < deadline) await sleep(20);
      assert.equal(readdirSync(tmp.path), [], 'no temporary file is left behind');
      await stillServes(s);
    });
  } finally {
    tmp.remove();
    await s.close();
  }
});

test('an upload whose temporary file cannot be created is a 500 for that request alone', async () => {
  const s = await served({ config: { limits: { multipart: { memoryBytes: 1024 } } } });
  const tmp = tempDir('containment-missing');
  try {
    await withTmpdir(join(tmp.path, 'not-there'), async () => {
      const body = `${filePartHead}${'a'.repeat(64 * 1024)}\r\n--${BOUNDARY}--\r\n`;
      const answer = await s.send('POST', '/things/create', MULTIPART, body);
      assert.is(answer.status, 500);
      await stillServes(s);
    });
  } finally {
    tmp.remove();
    await s.close();
  }
});

// ---------------------------------------------------------------------------
// Files sent from public/
// ---------------------------------------------------------------------------

/** GET `path` and read the whole answer: its status, the length it promised and the bytes that came (a close may cut them short). */
function download(s: Served, path: string, onHead?: (res: import('node:http').IncomingMessage) => void): Promise<{ status: number; promised: number; received: number; complete: boolean }> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port: s.server.port, path, agent: false }, (res) => {
      let received = 0;
      onHead?.(res);
      res.on('data', (d: Buffer) => {
        received += d.length;
      });
      const done = (complete: boolean) => resolve({ status: res.statusCode ?? 0, promised: Number(res.headers['content-length'] ?? -1), received, complete });
      res.on('end', () => done(true));
      res.on('error', () => done(false));
      res.on('aborted', () => done(false));
    });
    req.on('error', () => resolve({ status: 0, promised: -1, received: 0, complete: false }));
    req.end();
  });
}

test('a public file that shrinks while it is sent: the connection closes short of the promised length, the next request is served', async () => {
  const dir = tempDir('containment-public');
  const file = join(dir.path, 'big.bin');
  writeFileSync(file, Buffer.alloc(32 * 1024 * 1024, 0x62));
  const s = await served({ publicDir: dir.path });
  try {
    const got = await download(s, '/big.bin', (res) => {
      // Nothing more is read until the file has lost most of its bytes.
      res.pause();
      truncateSync(file, 1024);
      setTimeout(() => res.resume(), 50);
    });
    assert.is(got.status, 200);
    assert.is(got.promised, 32 * 1024 * 1024);
    assert.ok(got.received < got.promised, `${got.received} of ${got.promised} bytes`);
    assert.not.ok(got.complete, 'the answer did not pass for a whole one');
    await stillServes(s);
  } finally {
    await s.close();
    dir.remove();
  }
});

test('a public file deleted and written again while it is requested: each answer is the whole file or a 404, over HTTP and the tunnel', async () => {
  const dir = tempDir('containment-public');
  const file = join(dir.path, 'flicker.bin');
  // Larger than the files kept in memory, so it is streamed from disk: stat first, open later.
  const bytes = Buffer.alloc(600 * 1024, 0x63);
  writeFileSync(file, bytes);
  const s = await served({ publicDir: dir.path });
  let flicker = true;
  // Each version appears whole (written aside, then renamed in), as a deploy puts files in place.
  const flickering = (async () => {
    while (flicker) {
      rmSync(file, { force: true });
      await sleep(1);
      writeFileSync(`${file}.new`, bytes);
      renameSync(`${file}.new`, file);
      await sleep(1);
    }
  })();
  const seen = new Map<string, number>();
  const count = (kind: string) => seen.set(kind, (seen.get(kind) ?? 0) + 1);
  try {
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => download(s, '/flicker.bin')));
      for (const a of answers) {
        count(a.status === 200 && a.complete && a.received === bytes.length ? 'whole'
          : a.status === 404 && a.complete ? '404'
          : `HTTP: ${a.status} (${a.received} of ${a.promised} bytes, complete: ${a.complete})`);
      }
      const viaTunnel = await Promise.all(Array.from({ length: 5 }, () => s.viaTunnel('GET', '/flicker.bin')));
      for (const a of viaTunnel) count(a.status === 200 && a.body.length === bytes.length ? 'whole' : a.status === 404 ? '404' : `tunnel: ${a.status}`);
    }
  } finally {
    flicker = false;
    await flickering;
  }
  try {
    assert.equal([...seen.keys()].filter((k) => k !== 'whole' && k !== '404'), [], JSON.stringify([...seen]));
    await stillServes(s);
  } finally {
    await s.close();
    dir.remove();
  }
});

// ---------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------

test('a template that throws asynchronously is a 500 for its request alone', async () => {
  const s = await served({
    views: memoryViews({
      'things/show.html': async () => {
        await sleep(5);
        throw new Error('the template failed after a wait');
      },
    }),
  });
  try {
    assert.is((await s.get('/things/show/1')).status, 500);
    await stillServes(s);
  } finally {
    await s.close();
  }
});

test('a view resolver whose lookup rejects is a 500 for its request alone', async () => {
  const s = await served({
    views: { root: 'memory', describe: (name: string) => name, find: () => Promise.reject(new Error('the templates could not be read')) },
  });
  try {
    assert.is((await s.get('/things/show/1')).status, 500);
    await stillServes(s);
  } finally {
    await s.close();
  }
});

test('templates that cannot be brought up to date: logged before each request, a 500 for a request that renders one, the others served', async () => {
  const s = await served({
    views: { root: 'memory', describe: (name: string) => name, find: () => okTemplates['things/show.html'], refresh: () => Promise.reject(new Error('the template directory went away')) },
  });
  try {
    assert.is((await s.get('/things/show/1')).status, 500);
    assert.ok(s.lines.some((l) => l.msg === 'templates could not be reloaded'));
    await stillServes(s);
  } finally {
    await s.close();
  }
});

// ---------------------------------------------------------------------------
// Caching
// ---------------------------------------------------------------------------

/** A memory store whose chosen operations reject (asynchronously, as a networked store's would). */
function failingStore(failing: ReadonlySet<'read' | 'write' | 'delete_matched'>): CacheStore {
  const inner = memoryStore();
  const fail = (op: string) => sleep(2).then(() => Promise.reject(new Error(`the cache store's ${op} failed`)));
  return {
    name: 'failing',
    read: (key) => (failing.has('read') ? fail('read') : Promise.resolve(inner.read(key))),
    write: (key, value, options) => (failing.has('write') ? fail('write') : Promise.resolve(inner.write(key, value, options))),
    delete: (key) => inner.delete(key),
    delete_matched: (pattern) => (failing.has('delete_matched') ? fail('delete_matched') : Promise.resolve(inner.delete_matched(pattern))),
    exist: (key) => inner.exist(key),
    fetch: ((key: string, a: unknown, b?: unknown) => inner.fetch(key, a as never, b as never)) as CacheStore['fetch'],
    clear: () => inner.clear(),
  };
}

test('a cache store whose write rejects: the response is served uncached and the failure logged', async () => {
  const s = await served({ cache_store: failingStore(new Set(['write'])) });
  try {
    for (let i = 0; i < 2; i++) {
      const answer = await s.get('/cached/show/1');
      assert.is(answer.status, 200);
      assert.is(answer.body, 'cached 1');
    }
    assert.ok(s.lines.some((l) => l.msg === 'action cache write failed'));
    await stillServes(s);
  } finally {
    await s.close();
  }
});

test('a cache store whose read rejects, or throws at once as a synchronous store fails: the request is served as a miss', async () => {
  const throwing: CacheStore = {
    ...failingStore(new Set()),
    read: () => {
      throw new Error("the cache store's read failed");
    },
  };
  for (const [store, how] of [[failingStore(new Set(['read'])), 'rejects'], [throwing, 'throws']] as const) {
    const s = await served({ cache_store: store });
    try {
      const answer = await s.get('/cached/show/1');
      assert.is(answer.status, 200, how);
      assert.is(answer.body, 'cached 1', how);
      assert.ok(s.lines.some((l) => l.msg === 'action cache read failed'), how);
      await stillServes(s);
    } finally {
      await s.close();
    }
  }
});

test('an expiry the action does not wait for, whose store rejects: logged, never an unhandled rejection', async () => {
  const s = await served({ cache_store: failingStore(new Set(['delete_matched'])) });
  try {
    assert.is((await s.get('/things/expire')).status, 200);
    await sleep(20);
    assert.ok(s.lines.some((l) => l.msg === 'cache expiry failed'), 'the failure is logged');
    await stillServes(s);
  } finally {
    await s.close();
  }
});

test('a render, redirect or head from a promise the action dropped, after its answer went: logged, never thrown where nothing could catch it', async () => {
  const s = await served();
  try {
    for (const again of ['render', 'redirect', 'head']) {
      const res = await s.get(`/things/late?again=${again}`);
      assert.is(res.status, 200, again);
      assert.is(res.body, 'answered', again);
      await sleep(30);
      const line = s.lines.find((l) => l.msg === 'render after the response was sent' && l.call === again);
      assert.ok(line, `${again} is logged`);
      assert.is(line!.level, 50);
      assert.is(line!.controller, 'things');
      assert.is(line!.action, 'late');
      await stillServes(s);
    }
  } finally {
    await s.close();
  }
});

test('two renders within one action are still a DoubleRenderError, as in Rails', async () => {
  class TwiceController extends Controller {
    index(): void {
      this.render({ text: 'one' });
      this.render({ text: 'two' });
    }
  }
  const s = await serveApp({ twice: TwiceController });
  try {
    const res = await s.get('/twice');
    assert.is(res.status, 500);
    assert.ok(s.lines.some((l) => l.msg === 'request errored' && String((l.err as { type?: string } | undefined)?.type) === 'DoubleRenderError'));
  } finally {
    await s.close();
  }
});

test('a page cache directory that cannot be written: the page is served uncached', async () => {
  const dir = tempDir('containment-pages');
  // A file where the page cache's directory should be: no page can be written under it.
  const blocked = join(dir.path, 'pages');
  writeFileSync(blocked, 'not a directory');
  class PagesController extends Controller {
    static {
      this.caches_page('index');
    }
    index(): void {
      this.render({ text: 'a page' });
    }
  }
  const s = await serveApp({ pages: PagesController, things: ThingsController }, { draw: defaultRoutes, page_cache_directory: blocked });
  try {
    for (let i = 0; i < 2; i++) assert.is((await s.get('/pages')).body, 'a page');
    await stillServes(s);
  } finally {
    await s.close();
    dir.remove();
  }
});

// ---------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------

test('a session store whose commit rejects with a plain error is a 500 for that request alone', async () => {
  const store: SessionStore = {
    asynchronous: true,
    load: () => Promise.resolve({}),
    // Only a session that changed is written, so requests that change none are unaffected.
    commit: (_request, _response, _data, state) => (state.changed ? sleep(2).then(() => Promise.reject(new Error('the session could not be written'))) : undefined),
  };
  const s = await served({ session_store: store });
  try {
    assert.is((await s.get('/things/visit')).status, 500);
    await stillServes(s);
  } finally {
    await s.close();
  }
});

// ---------------------------------------------------------------------------
// Redis going away in the middle of a request
// ---------------------------------------------------------------------------

let redis: RedisServer | null = null;
const needRedis = async (): Promise<RedisServer> => (redis ??= await startRedis());
test.after(async () => {
  await redis?.stop();
});

test('Redis going away in the middle of a request that writes the session: 503 for it, served again once Redis is back', async () => {
  const server = await needRedis();
  const store = redisSessionStore({ url: server.url, connect_timeout: 0.5 });
  const s = await served({ session_store: store });
  try {
    const first = await s.get('/things/visit');
    assert.is(first.status, 200);
    const cookie = String(first.headers['set-cookie']).split(';')[0];
    inject.beforeRender = () => server.kill();
    const during = await s.get('/things/visit', { Cookie: cookie });
    inject.beforeRender = null;
    assert.is(during.status, 503);
    await stillServes(s);
    await server.restart();
    const deadline = performance.now() + 5_000;
    let after = await s.get('/things/visit');
    while (after.status !== 200 && performance.now() < deadline) {
      await sleep(100);
      after = await s.get('/things/visit');
    }
    assert.is(after.status, 200);
  } finally {
    inject.beforeRender = null;
    await s.close();
    await store.close();
  }
});

test('Redis going away in the middle of a request whose answer is action-cached: served uncached', async () => {
  const server = await needRedis();
  const store = redisCacheStore({ url: server.url, connect_timeout: 0.5 });
  const s = await served({ cache_store: store });
  try {
    inject.beforeRender = () => server.kill();
    const during = await s.get('/cached/show/2');
    inject.beforeRender = null;
    assert.is(during.status, 200);
    assert.is(during.body, 'cached 2');
    await stillServes(s);
    assert.is((await s.get('/cached/show/2')).body, 'cached 2');
    await server.restart();
  } finally {
    inject.beforeRender = null;
    await s.close();
    await store.close();
  }
});

// ---------------------------------------------------------------------------
// The tunnel
// ---------------------------------------------------------------------------

test('a tunnel socket that closes while its request runs: nothing fails, a new socket is served', async () => {
  let release: () => void = () => {};
  inject.beforeRender = () => new Promise<void>((r) => {
    release = r;
  });
  const s = await served();
  try {
    const client = await tunnel(`ws://127.0.0.1:${s.server.port}${s.server.tunnel!.path}`, { cookies: false, reconnect: false });
    const pending = client.request({ method: 'GET', path: '/things/visit' }).then(() => 'answered', () => 'failed');
    await sleep(50);
    await client.close();
    assert.is(await pending, 'failed');
    inject.beforeRender = null;
    release();
    await sleep(20);
    assert.is((await s.viaTunnel('GET', '/things')).status, 200);
    await stillServes(s);
  } finally {
    inject.beforeRender = null;
    await s.close();
  }
});

test.run();

