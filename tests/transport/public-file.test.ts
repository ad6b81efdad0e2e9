/**
 * A public file as a response: single byte ranges (206, 416), If-Range,
 * and large files sent from disk rather than read whole, over HTTP (streamed)
 * and over the tunnel (read without blocking). Validators and 304s are in
 * static.test.ts.
 */
import { createServer, get, type IncomingMessage } from 'node:http';
import { writeFileSync, truncateSync, utimesSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import type { App } from '../../machines/index.ts';
import { serveStatic, tunnel, TunnelError, TUNNEL_DEFAULTS, createTunnel, type RunningServer } from '../../transport/index.ts';
import { fileAnswer, MEMO_MAX_FILE, readSlice } from '../../transport/public-file.ts';
import { sendFile } from '../../transport/send-file.ts';
import { appWith, tempDir } from '../core/pipeline/support.ts';
import { withServer } from './support.ts';

const test = suite('public files: byte ranges, and large files sent from disk');

let tmp = { path: '', remove: () => {} };
const SMALL = 'abcdefghijklmnopqrstuvwxyz';
// Bigger than what is held in memory, with bytes that say where they are.
const BIG = Buffer.alloc(MEMO_MAX_FILE * 4 + 123);
for (let i = 0; i < BIG.length; i++) BIG[i] = (i * 7 + (i >> 8)) & 0xff;
const STAMP = new Date('2026-03-04T05:06:07Z');
const LAST_MODIFIED = 'Wed, 04 Mar 2026 05:06:07 GMT';

class FallbackController extends Controller {
  show(): void {
    this.render({ text: `app saw ${this.request.path}` });
  }
}
const appOver = (dir: string): App => appWith({ fallback: FallbackController }, {
  draw: (map) => map.connect('*path', { controller: 'fallback', action: 'show' }),
  publicDir: dir,
});

test.before(() => {
  tmp = tempDir('public-file');
  writeFileSync(join(tmp.path, 'letters.txt'), SMALL);
  writeFileSync(join(tmp.path, 'big.bin'), BIG);
  for (const name of ['letters.txt', 'big.bin']) utimesSync(join(tmp.path, name), STAMP, STAMP);
});
test.after(() => tmp.remove());

const ask = (range: string | null, extra: Record<string, string> = {}, method = 'GET') =>
  serveStatic(appOver(tmp.path), '/letters.txt', { method, headers: { ...(range === null ? {} : { range }), ...extra } })!;

test('a whole file says it accepts byte ranges', () => {
  const whole = ask(null);
  assert.is(whole.status, 200);
  assert.is(whole.headers['Accept-Ranges'], 'bytes');
  assert.is(whole.headers['Content-Range'], undefined);
});

test('one range gets 206 with Content-Range and just those bytes; open and suffix ranges too', () => {
  for (const [range, start, end] of <[string, number, number][]>[['bytes=0-4', 0, 4], ['bytes=20-', 20, 25], ['bytes=-3', 23, 25], ['bytes=24-1000', 24, 25], ['bytes=2-4,3-6', 2, 6]]) {
    const part = ask(range);
    assert.is(part.status, 206, range);
    assert.is(part.headers['Content-Range'], `bytes ${start}-${end}/26`, range);
    assert.is(part.headers['Content-Length'], String(end - start + 1), range);
    assert.is(Buffer.from(part.body).toString(), SMALL.slice(start, end + 1), range);
    assert.match(String(part.headers.ETag), /^W\//);
  }
});

test('a range wholly past the end, or ending before it starts, is 416 with the size; a malformed one, several, or another unit get the whole file', () => {
  for (const range of ['bytes=26-30', 'bytes=5-2']) {
    const none = ask(range);
    assert.is(none.status, 416, range);
    assert.is(none.headers['Content-Range'], 'bytes */26', range);
    assert.is(none.body, '', range);
  }
  for (const range of ['bytes=abc', 'rows=0-4', 'bytes=0-1,5-6']) {
    const whole = ask(range);
    assert.is(whole.status, 200, range);
    assert.is(Buffer.from(whole.body).toString(), SMALL, range);
  }
});

test('ranges are for GET: HEAD answers as for the whole file', () => {
  const head = ask('bytes=0-4', {}, 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.headers['Content-Length'], '26');
});

test('If-Range with the current Last-Modified keeps the range; an ETag or another date sends the whole file', () => {
  assert.is(ask('bytes=0-4', { 'if-range': LAST_MODIFIED }).status, 206);
  const etag = String(ask(null).headers.ETag);
  for (const ifRange of [etag, 'Tue, 03 Mar 2026 00:00:00 GMT']) assert.is(ask('bytes=0-4', { 'if-range': ifRange }).status, 200, ifRange);
});

test('a copy that is still current gets 304, whatever range it asks for', () => {
  assert.is(ask('bytes=0-4', { 'if-none-match': String(ask(null).headers.ETag) }).status, 304);
});

test('a file larger than what is held in memory is answered by a slice of it, not its bytes', () => {
  const answer = serveStatic(appOver(tmp.path), '/big.bin', { method: 'GET', headers: {} })!;
  assert.is(answer.status, 200);
  assert.is(answer.body, '');
  assert.equal(answer.file, { path: join(tmp.path, 'big.bin'), start: 0, end: BIG.length - 1 });
  assert.is(answer.headers['Content-Length'], String(BIG.length));
  assert.is(answer.headers['Content-Type'], 'application/octet-stream');
  const part = fileAnswer(join(tmp.path, 'big.bin'), { headers: { range: 'bytes=1000-1999' } }, 'application/octet-stream')!;
  assert.is(part.status, 206);
  assert.equal(part.file, { path: join(tmp.path, 'big.bin'), start: 1000, end: 1999 });
});

function download(server: RunningServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ res: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port: server.port, path, headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

test('over HTTP a large file is streamed whole, in ranges, and HEAD sends only its length', async () => {
  await withServer(appOver(tmp.path), {}, async (server) => {
    const whole = await download(server, '/big.bin');
    assert.is(whole.res.statusCode, 200);
    assert.ok(whole.body.equals(BIG), 'every byte, in order');
    const part = await download(server, '/big.bin', { range: `bytes=${MEMO_MAX_FILE}-${MEMO_MAX_FILE * 3}` });
    assert.is(part.res.statusCode, 206);
    assert.ok(part.body.equals(BIG.subarray(MEMO_MAX_FILE, MEMO_MAX_FILE * 3 + 1)));
    const head = await download(server, '/big.bin', {}, 'HEAD');
    assert.is(head.res.headers['content-length'], String(BIG.length));
    assert.is(head.body.length, 0);
    // The connection is still good for the next request after all that.
    assert.is((await download(server, '/letters.txt', { range: 'bytes=-1' })).body.toString(), 'z');
  });
});

test('over the tunnel a large file arrives whole, read without blocking', async () => {
  await withServer(appOver(tmp.path), {}, async (server) => {
    const t = await tunnel(`ws://127.0.0.1:${server.port}/_tunnel`);
    try {
      const whole = await t.request({ method: 'GET', path: '/big.bin' });
      assert.is(whole.status, 200);
      assert.ok(Buffer.from(whole.body).equals(BIG));
      const part = await t.request({ method: 'GET', path: '/big.bin', headers: { Range: 'bytes=10-19' } });
      assert.is(part.status, 206);
      assert.ok(Buffer.from(part.body).equals(BIG.subarray(10, 20)));
    } finally {
      await t.close();
    }
  });
});

test('the tunnel refuses a file, or a range of one, over maxFileBytes (file_too_large, 501); HEAD and smaller ranges still pass', async () => {
  assert.is(TUNNEL_DEFAULTS.maxFileBytes, 4 * 1024 * 1024);
  await withServer(appOver(tmp.path), { tunnel: { maxFileBytes: MEMO_MAX_FILE * 2 } }, async (server) => {
    const t = await tunnel(`ws://127.0.0.1:${server.port}/_tunnel`);
    try {
      for (const headers of <Record<string, string>[]>[{}, { Range: `bytes=0-${MEMO_MAX_FILE * 2}` }]) {
        try {
          await t.request({ method: 'GET', path: '/big.bin', headers });
          assert.unreachable('too large for the tunnel');
        } catch (error) {
          assert.instance(error, TunnelError);
          assert.is((error as TunnelError).code, 'file_too_large');
          assert.is((error as TunnelError).status, 501);
          assert.match((error as Error).message, /request it over HTTP/);
        }
      }
      const head = await t.request({ method: 'HEAD', path: '/big.bin' });
      assert.is(head.headers.get('content-length'), String(BIG.length));
      const part = await t.request({ method: 'GET', path: '/big.bin', headers: { Range: `bytes=0-${MEMO_MAX_FILE * 2 - 1}` } });
      assert.is(part.status, 206);
      assert.ok(Buffer.from(part.body).equals(BIG.subarray(0, MEMO_MAX_FILE * 2)), 'a range within the limit is carried');
    } finally {
      await t.close();
    }
  });
  assert.throws(() => createTunnel(appOver(tmp.path), { maxFileBytes: 0 }), /maxFileBytes must be a positive number/);
});

test('readSlice reads exactly the slice, and a file that has since shrunk is an error', async () => {
  const path = join(tmp.path, 'shrinking.bin');
  writeFileSync(path, BIG);
  assert.ok((await readSlice({ path, start: 5, end: 9 })).equals(BIG.subarray(5, 10)));
  truncateSync(path, 100);
  try {
    await readSlice({ path, start: 0, end: 999 });
    assert.unreachable('a short file must not pass for the promised slice');
  } catch (error) {
    assert.match(String(error), /ended 900 bytes early/);
  }
});

test('sendFile closes the connection when the file is shorter than the length already promised', async () => {
  const path = join(tmp.path, 'short.bin');
  writeFileSync(path, 'only ten b');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Length': '1000' });
    sendFile(res, { path, start: 0, end: 999 });
  });
  // Long enough that only sendFile's own closing can end the wait.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const outcome = await new Promise<string>((resolve) => {
      setTimeout(() => resolve('still waiting'), 3_000).unref();
      get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve('ended'));
        res.on('aborted', () => resolve('aborted'));
        res.on('error', () => resolve('aborted'));
      }).on('error', () => resolve('aborted'));
    });
    assert.is(outcome, 'aborted', 'the client must learn the body is short, not wait for it');
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

test.run();
