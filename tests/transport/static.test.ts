/**
 * Files under the app's public directory, served before routing: assets with
 * their types, cached pages (`/posts/1` from posts/1.html), `/` from
 * index.html, and nothing else. No request path, however encoded, reads a
 * file outside public/ or a dotfile: such requests fall through to the app.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import type { App } from '../../machines/index.ts';
import { PublicIndex, publicIndex, serve, serveStatic, type RunningServer } from '../../transport/index.ts';
import { appWith, tempDir } from '../core/pipeline/support.ts';

const test = suite('static files are served from public/ only');

const SECRET = 'TOP SECRET: outside public';
let tmp = { path: '', remove: () => {} };
let pub = '';

class FallbackController extends Controller {
  show(): void {
    this.render({ text: `app saw ${this.request.path}` });
  }
}

/** An app with a catch-all route, so whatever static serving refuses is visibly answered by the app. */
const appOver = (publicDir: string | null): App => appWith({ fallback: FallbackController }, {
  draw: (map) => map.connect('*path', { controller: 'fallback', action: 'show' }),
  ...(publicDir ? { publicDir: publicDir } : {}),
});

test.before(() => {
  tmp = tempDir('static');
  pub = join(tmp.path, 'public');
  mkdirSync(join(pub, 'posts'), { recursive: true });
  mkdirSync(join(pub, '.git'));
  mkdirSync(join(pub, 'assets', '.cache'), { recursive: true });
  writeFileSync(join(pub, 'index.html'), '<h1>home</h1>');
  writeFileSync(join(pub, 'style.css'), 'body{}');
  writeFileSync(join(pub, 'app.js'), 'alert(1)');
  writeFileSync(join(pub, 'data.json'), '{"a":1}');
  writeFileSync(join(pub, 'feed.xml'), '<feed/>');
  writeFileSync(join(pub, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(pub, 'blob.xyz'), 'blob');
  writeFileSync(join(pub, 'posts', '1.html'), '<p>cached post 1</p>');
  writeFileSync(join(pub, 'with space.txt'), 'spaced');
  writeFileSync(join(pub, '.env'), SECRET);
  writeFileSync(join(pub, '.git', 'config'), SECRET);
  writeFileSync(join(pub, 'assets', '.cache', 'x.txt'), SECRET);
  writeFileSync(join(tmp.path, 'secret.txt'), SECRET);
  writeFileSync(join(tmp.path, 'public-evil.txt'), SECRET);
});
test.after(() => tmp.remove());

test('assets are served with their content types (text types with a charset) and lengths', async () => {
  const app = appOver(pub);
  const CASES: [string, string, string][] = [
    ['/style.css', 'text/css; charset=utf-8', 'body{}'],
    ['/app.js', 'text/javascript; charset=utf-8', 'alert(1)'],
    ['/data.json', 'application/json; charset=utf-8', '{"a":1}'],
    ['/feed.xml', 'application/xml; charset=utf-8', '<feed/>'],
    ['/index.html', 'text/html; charset=utf-8', '<h1>home</h1>'],
    ['/logo.png', 'image/png', '\u0089PNG'],
    ['/blob.xyz', 'application/octet-stream', 'blob'],
  ];
  for (const [url, type, body] of CASES) {
    const res = (await serveStatic(app, url))!;
    assert.ok(res, url);
    assert.is(res.status, 200);
    assert.is(res.headers['Content-Type'], type, url);
    assert.is(Buffer.from(res.body).toString('latin1'), body, url);
    assert.is(res.headers['Content-Length'], String(Buffer.from(res.body).byteLength));
  }
});

test('/ is index.html; /posts/1 is the cached page posts/1.html; the query string is ignored', async () => {
  const app = appOver(pub);
  assert.is(String((await serveStatic(app, '/'))!.body), '<h1>home</h1>');
  assert.is(String((await serveStatic(app, '/posts/1'))!.body), '<p>cached post 1</p>');
  assert.is(String((await serveStatic(app, '/posts/1.html?page=2'))!.body), '<p>cached post 1</p>');
  assert.is(String((await serveStatic(app, '/with%20space.txt'))!.body), 'spaced', 'the path is decoded');
});

test('anything not in public/ is left to the app (null)', async () => {
  const app = appOver(pub);
  for (const url of ['/posts/2', '/posts', '/missing.css', '/POSTS/1']) assert.is(await serveStatic(app, url), null, url);
});

const ESCAPES = [
  '/../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt', '/posts/../../secret.txt',
  '/posts/%2e%2e/%2e%2e/secret.txt', '/..\\secret.txt', '/%5c..%5csecret.txt', '/..%5csecret.txt', '/../public-evil.txt', '/index.html%00',
  '/index.html%00.png', '/.env', '/%2eenv', '/.git/config', '/assets/.cache/x.txt', '/%2e%2e', '/%E0%A4%A', '//secret.txt', '/posts/..',
];

test('no encoding of .., separators, backslashes, NUL or dotfiles names a file: the answer is null', async () => {
  const app = appOver(pub);
  for (const url of ESCAPES) assert.is(await serveStatic(app, url), null, url);
});

/** Sends a request with the target exactly as written (no client normalisation). */
function rawGet(server: RunningServer, target: string, method = 'GET'): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(`${method} ${target} HTTP/1.1\r\nHost: test.host\r\nConnection: close\r\n\r\n`));
    let out = '';
    socket.on('data', (d) => { out += d.toString('latin1'); });
    socket.on('close', () => {
      const cut = out.indexOf('\r\n\r\n');
      resolve({ head: out.slice(0, cut), body: out.slice(cut + 4) });
    });
    socket.on('error', reject);
  });
}

test('over HTTP: files are served before routing, HEAD without a body, and escapes fall through to the app', async () => {
  const server = await serve(appOver(pub), { port: 0, host: '127.0.0.1' });
  try {
    let res = await rawGet(server, '/style.css');
    assert.match(res.head, /^HTTP\/1\.1 200 OK/);
    assert.match(res.head, /Content-Type: text\/css; charset=utf-8/i);
    assert.is(res.body, 'body{}');
    res = await rawGet(server, '/style.css', 'HEAD');
    assert.match(res.head, /Content-Length: 6/i);
    assert.is(res.body, '');
    res = await rawGet(server, '/posts/1');
    assert.is(res.body, '<p>cached post 1</p>');
    res = await rawGet(server, '/');
    assert.is(res.body, '<h1>home</h1>');
    for (const target of ESCAPES) {
      const answer = await rawGet(server, target);
      assert.not.match(answer.body, 'SECRET', target);
      // The app answered (X-Runtime is the app's): with the path as sent, or 400 for an encoding that does not decode.
      assert.match(answer.head, /X-Runtime: /i, target);
      if (target === '/%E0%A4%A') assert.match(answer.head, /^HTTP\/1\.1 400 /);
      else assert.is(answer.body, `app saw ${target}`, target);
    }
  } finally {
    await server.close();
  }
});

test('POST to a file path, and staticFiles: false, go to the app', async () => {
  for (const [options, method] of [[{}, 'POST'], [{ staticFiles: false }, 'GET']] as const) {
    const server = await serve(appOver(pub), { port: 0, host: '127.0.0.1', ...options });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path: '/style.css', agent: false }, (res) => {
          let text = '';
          res.on('data', (d) => { text += d; });
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      assert.is(body, 'app saw /style.css', method);
    } finally {
      await server.close();
    }
  }
});

test('an app without a public directory, or with an empty one, serves no files', async () => {
  assert.is(await serveStatic(appOver(null), '/style.css'), null);
  assert.is(publicIndex(appOver(null)), null);
  const empty = join(tmp.path, 'empty');
  mkdirSync(empty);
  assert.is(await serveStatic(appOver(empty), '/'), null);
  assert.is(await serveStatic(appOver(join(tmp.path, 'does-not-exist')), '/'), null);
});

test('the index is built once per app: a file removed afterwards is no longer served, never an error', async () => {
  const dir = join(tmp.path, 'volatile');
  mkdirSync(dir);
  writeFileSync(join(dir, 'gone.txt'), 'here');
  const app = appOver(dir);
  assert.is(String((await serveStatic(app, '/gone.txt'))!.body), 'here');
  assert.is(publicIndex(app), publicIndex(app), 'one index per app');
  rmSync(join(dir, 'gone.txt'));
  assert.is(await serveStatic(app, '/gone.txt'), null);
  mkdirSync(join(dir, 'late'));
  writeFileSync(join(dir, 'late.txt'), 'late');
  assert.is(await serveStatic(app, '/late.txt'), null, 'files written later must be added to the index');
  publicIndex(app)!.add(join(dir, 'late.txt'));
  assert.is(String((await serveStatic(app, '/late.txt'))!.body), 'late');
});

test('public files carry a weak ETag and Last-Modified; a matching If-None-Match or If-Modified-Since gets 304 and no body', async () => {
  const dir = join(tmp.path, 'validated');
  mkdirSync(dir);
  writeFileSync(join(dir, 'app.css'), 'a{}');
  const changed = new Date('2026-01-02T03:04:05.678Z');
  utimesSync(join(dir, 'app.css'), changed, changed);
  const app = appOver(dir);
  const first = serveStatic(app, '/app.css')!;
  assert.is(first.status, 200);
  const etag = first.headers.ETag as string;
  assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
  assert.is(first.headers['Last-Modified'], 'Fri, 02 Jan 2026 03:04:05 GMT');
  const ask = (headers: Record<string, string>) => serveStatic(app, '/app.css', { method: 'GET', headers })!;
  for (const headers of <Record<string, string>[]>[{ 'if-none-match': etag }, { 'if-none-match': `"other", ${etag}` }, { 'if-none-match': '*' },
    { 'if-modified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' }, { 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' }]) {
    const got = ask(headers);
    assert.is(got.status, 304, JSON.stringify(headers));
    assert.is(got.body, '');
    assert.is(got.headers.ETag, etag);
  }
  for (const headers of <Record<string, string>[]>[{ 'if-none-match': '"other"' }, { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, { 'if-modified-since': 'yesterday' },
    // If-None-Match decides when both are present.
    { 'if-none-match': '"other"', 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' }]) {
    assert.is(ask(headers).status, 200, JSON.stringify(headers));
  }
});

test('a public file that changes is served anew, with new validators', async () => {
  const dir = join(tmp.path, 'changing');
  mkdirSync(dir);
  const file = join(dir, 'note.txt');
  writeFileSync(file, 'one');
  utimesSync(file, new Date(1_000_000), new Date(1_000_000));
  const app = appOver(dir);
  const before = serveStatic(app, '/note.txt')!;
  assert.is(String(before.body), 'one');
  assert.is(String(serveStatic(app, '/note.txt')!.body), 'one', 'unchanged: the same answer');
  writeFileSync(file, 'two!');
  utimesSync(file, new Date(2_000_000), new Date(2_000_000));
  const after = serveStatic(app, '/note.txt')!;
  assert.is(String(after.body), 'two!');
  assert.is.not(after.headers.ETag, before.headers.ETag);
  assert.is(serveStatic(app, '/note.txt', { headers: { 'if-none-match': before.headers.ETag as string } })!.status, 200, 'the old tag no longer matches');
});

test('at most 16 MB of public files stay in memory: the oldest make room, and are read again when asked for', async () => {
  const dir = join(tmp.path, 'many');
  mkdirSync(dir);
  const size = 250 * 1024;
  const at = new Date(3_000_000);
  const names = Array.from({ length: 70 }, (_, i) => `f${i}.txt`);
  for (const name of names) {
    writeFileSync(join(dir, name), 'a'.repeat(size));
    utimesSync(join(dir, name), at, at);
  }
  const app = appOver(dir);
  for (const name of names) assert.is(Buffer.from(serveStatic(app, `/${name}`)!.body).byteLength, size);
  // Same size, same change time: only a file no longer held in memory shows its new bytes.
  for (const name of ['f0.txt', 'f69.txt']) {
    writeFileSync(join(dir, name), 'b'.repeat(size));
    utimesSync(join(dir, name), at, at);
  }
  assert.is(String(serveStatic(app, '/f0.txt')!.body)[0], 'b', 'the oldest was let go');
  assert.is(String(serveStatic(app, '/f69.txt')!.body)[0], 'a', 'the newest is still held');
});

test('PublicIndex lists regular files, skips dotfiles and dot-directories, and ignores adds outside its root', () => {
  const index = new PublicIndex(pub);
  assert.is(index.root, pub);
  assert.is(index.size, 9);
  assert.is(index.lookup('/'), join(pub, 'index.html'));
  assert.is(index.lookup('/posts/1'), join(pub, 'posts', '1.html'));
  assert.is(index.lookup('/.env'), null);
  index.add(join(tmp.path, 'secret.txt'));
  index.add(join(pub, '.hidden'));
  index.add(join(pub, 'sub', '.dir', 'x'));
  index.add(pub);
  assert.is(index.size, 9);
  index.add(join(pub, 'new.txt'));
  assert.is(index.lookup('/new.txt'), join(pub, 'new.txt'));
  index.remove(join(pub, 'new.txt'));
  assert.is(index.lookup('/new.txt'), null);
});

test.run();
