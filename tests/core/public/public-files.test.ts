/**
 * Files under the app's public directory, served before routing: assets with
 * their types (from the mime-db database for every extension), cached pages
 * (`/posts/1` from posts/1.html), `/` from index.html, and nothing else; as
 * the files are now (added, changed or removed after start), with
 * Cache-Control short by default and far-future for versioned asset URLs.
 * No request path, however encoded, and no symbolic link reads a file
 * outside public/ or a dotfile: such requests fall through to the app.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdirSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, DEFAULT_CACHE_CONTROL, DEVELOPMENT_CACHE_CONTROL, PublicDirectory, VERSIONED_CACHE_CONTROL } from '../../../core/index.ts';
import type { App } from '../../../machines/index.ts';
import { serve, type RunningServer } from '../../../transport/index.ts';
import { appWith, tempDir, publicAnswer } from '../../support/harness.ts';

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
  writeFileSync(join(pub, 'blob.nosuchtype'), 'blob');
  for (const name of ['module.mjs', 'code.wasm', 'paper.pdf', 'clip.mp4', 'font.woff2', 'site.webmanifest']) writeFileSync(join(pub, name), name);
  // Links: one to a file inside public/ (served), one out of it and one into a hidden directory (neither).
  symlinkSync(join(pub, 'style.css'), join(pub, 'alias.css'));
  symlinkSync(join(tmp.path, 'secret.txt'), join(pub, 'escape.txt'));
  symlinkSync(tmp.path, join(pub, 'outside'));
  symlinkSync(join(pub, '.git', 'config'), join(pub, 'config.txt'));
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
    ['/blob.nosuchtype', 'application/octet-stream', 'blob'],
    ['/module.mjs', 'text/javascript; charset=utf-8', 'module.mjs'],
    ['/code.wasm', 'application/wasm', 'code.wasm'],
    ['/paper.pdf', 'application/pdf', 'paper.pdf'],
    ['/clip.mp4', 'video/mp4', 'clip.mp4'],
    ['/font.woff2', 'font/woff2', 'font.woff2'],
    ['/site.webmanifest', 'application/manifest+json; charset=utf-8', 'site.webmanifest'],
    ['/alias.css', 'text/css; charset=utf-8', 'body{}'],
  ];
  for (const [url, type, body] of CASES) {
    const res = (await publicAnswer(app, url))!;
    assert.ok(res, url);
    assert.is(res.status, 200);
    assert.is(res.headers['Content-Type'], type, url);
    assert.is(Buffer.from(res.body).toString('latin1'), body, url);
    assert.is(res.headers['Content-Length'], String(Buffer.from(res.body).byteLength));
  }
});

test('/ is index.html; /posts/1 is the cached page posts/1.html; the query string is ignored', async () => {
  const app = appOver(pub);
  assert.is(String((await publicAnswer(app, '/'))!.body), '<h1>home</h1>');
  assert.is(String((await publicAnswer(app, '/posts/1'))!.body), '<p>cached post 1</p>');
  assert.is(String((await publicAnswer(app, '/posts/1.html?page=2'))!.body), '<p>cached post 1</p>');
  assert.is(String((await publicAnswer(app, '/with%20space.txt'))!.body), 'spaced', 'the path is decoded');
});

test('anything not in public/ is left to the app (null)', async () => {
  const app = appOver(pub);
  for (const url of ['/posts/2', '/posts', '/missing.css', '/POSTS/1']) assert.is(await publicAnswer(app, url), null, url);
});

const ESCAPES = [
  '/../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt', '/posts/../../secret.txt',
  '/posts/%2e%2e/%2e%2e/secret.txt', '/..\\secret.txt', '/%5c..%5csecret.txt', '/..%5csecret.txt', '/../public-evil.txt', '/index.html%00',
  '/index.html%00.png', '/.env', '/%2eenv', '/.git/config', '/assets/.cache/x.txt', '/%2e%2e', '/%E0%A4%A', '//secret.txt', '/posts/..',
  '/escape.txt', '/outside/secret.txt', '/config.txt',
];

test('no encoding of .., separators, backslashes, NUL or dotfiles names a file: the answer is null', async () => {
  const app = appOver(pub);
  for (const url of ESCAPES) assert.is(await publicAnswer(app, url), null, url);
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
      // The app answered, as it answers everything (X-Runtime): with the path as sent, or 400 for an encoding that does not decode.
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

test('an app without a public directory, or with an empty or missing one, serves no files', async () => {
  assert.is(await publicAnswer(appOver(null), '/style.css'), null);
  assert.is(appOver(null).publicFiles, null);
  const empty = join(tmp.path, 'empty');
  mkdirSync(empty);
  assert.is(await publicAnswer(appOver(empty), '/'), null);
  assert.is(await publicAnswer(appOver(join(tmp.path, 'does-not-exist')), '/'), null);
});

test('files added, changed or removed after start are served as they are now', async () => {
  const dir = join(tmp.path, 'volatile');
  mkdirSync(dir);
  writeFileSync(join(dir, 'gone.txt'), 'here');
  const app = appOver(dir);
  assert.is(String((await publicAnswer(app, '/gone.txt'))!.body), 'here');
  rmSync(join(dir, 'gone.txt'));
  assert.is(await publicAnswer(app, '/gone.txt'), null);
  assert.is(await publicAnswer(app, '/late.txt'), null);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'late.txt'), 'late');
  writeFileSync(join(dir, 'assets', 'new.js'), 'x()');
  // A path found missing is taken as missing for at most a second, less when the directory is watched.
  const deadline = performance.now() + 1_500;
  let late = await publicAnswer(app, '/late.txt');
  while (late === null && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    late = await publicAnswer(app, '/late.txt');
  }
  assert.is(String(late!.body), 'late');
  assert.is(String((await publicAnswer(app, '/assets/new.js'))!.body), 'x()', 'never asked for before: found at once');
});

test('a path no file answers is remembered for a moment, so the app\'s own URLs do not touch the disk on every request', async () => {
  const app = appOver(pub);
  assert.is(await publicAnswer(app, '/posts/2'), null);
  assert.is(app.publicFiles!.answer('/posts/2', { method: 'GET' }), null, 'answered at once, no promise');
  assert.ok(app.publicFiles!.directory!.knownMissing('/posts/2'));
});

test('Cache-Control: a short default, no-cache in development, a year for a Rails-style versioned asset URL', async () => {
  const app = appOver(pub);
  assert.is((await publicAnswer(app, '/style.css'))!.headers['Cache-Control'], DEFAULT_CACHE_CONTROL);
  assert.is(DEFAULT_CACHE_CONTROL, 'public, max-age=60');
  assert.is((await publicAnswer(app, '/style.css?1700000000'))!.headers['Cache-Control'], VERSIONED_CACHE_CONTROL);
  assert.is(VERSIONED_CACHE_CONTROL, 'public, max-age=31536000, immutable');
  assert.is((await publicAnswer(app, '/style.css?v=2'))!.headers['Cache-Control'], DEFAULT_CACHE_CONTROL, 'only a bare timestamp names a version');
  const development = appWith({ fallback: FallbackController }, { publicDir: pub, environment: 'development', logger: false });
  assert.is((await publicAnswer(development, '/style.css'))!.headers['Cache-Control'], DEVELOPMENT_CACHE_CONTROL);
  const notModified = await publicAnswer(app, '/style.css?1700000000', { headers: { 'if-none-match': String((await publicAnswer(app, '/style.css'))!.headers.ETag) } });
  assert.equal([notModified!.status, notModified!.headers['Cache-Control']], [304, VERSIONED_CACHE_CONTROL]);
});

test('public files carry a weak ETag and Last-Modified; a matching If-None-Match or If-Modified-Since gets 304 and no body', async () => {
  const dir = join(tmp.path, 'validated');
  mkdirSync(dir);
  writeFileSync(join(dir, 'app.css'), 'a{}');
  const changed = new Date('2026-01-02T03:04:05.678Z');
  utimesSync(join(dir, 'app.css'), changed, changed);
  const app = appOver(dir);
  const first = (await publicAnswer(app, '/app.css'))!;
  assert.is(first.status, 200);
  const etag = first.headers.ETag as string;
  assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
  assert.is(first.headers['Last-Modified'], 'Fri, 02 Jan 2026 03:04:05 GMT');
  const ask = async (headers: Record<string, string>) => (await publicAnswer(app, '/app.css', { method: 'GET', headers }))!;
  for (const headers of <Record<string, string>[]>[{ 'if-none-match': etag }, { 'if-none-match': `"other", ${etag}` }, { 'if-none-match': '*' },
    { 'if-modified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' }, { 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' }]) {
    const got = await ask(headers);
    assert.is(got.status, 304, JSON.stringify(headers));
    assert.is(got.body, '');
    assert.is(got.headers.ETag, etag);
  }
  for (const headers of <Record<string, string>[]>[{ 'if-none-match': '"other"' }, { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, { 'if-modified-since': 'yesterday' },
    // If-None-Match decides when both are present.
    { 'if-none-match': '"other"', 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' }]) {
    assert.is((await ask(headers)).status, 200, JSON.stringify(headers));
  }
});

test('a public file that changes is served anew, with new validators', async () => {
  const dir = join(tmp.path, 'changing');
  mkdirSync(dir);
  const file = join(dir, 'note.txt');
  writeFileSync(file, 'one');
  utimesSync(file, new Date(1_000_000), new Date(1_000_000));
  const app = appOver(dir);
  const before = (await publicAnswer(app, '/note.txt'))!;
  assert.is(String(before.body), 'one');
  assert.is(String((await publicAnswer(app, '/note.txt'))!.body), 'one', 'unchanged: the same answer');
  writeFileSync(file, 'two!');
  utimesSync(file, new Date(2_000_000), new Date(2_000_000));
  const after = (await publicAnswer(app, '/note.txt'))!;
  assert.is(String(after.body), 'two!');
  assert.is.not(after.headers.ETag, before.headers.ETag);
  assert.is((await publicAnswer(app, '/note.txt', { headers: { 'if-none-match': before.headers.ETag as string } }))!.status, 200, 'the old tag no longer matches');
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
  for (const name of names) assert.is(Buffer.from((await publicAnswer(app, `/${name}`))!.body).byteLength, size);
  // Same size, same change time: only a file no longer held in memory shows its new bytes.
  for (const name of ['f0.txt', 'f69.txt']) {
    writeFileSync(join(dir, name), 'b'.repeat(size));
    utimesSync(join(dir, name), at, at);
  }
  assert.is(String((await publicAnswer(app, '/f0.txt'))!.body)[0], 'b', 'the oldest was let go');
  assert.is(String((await publicAnswer(app, '/f69.txt'))!.body)[0], 'a', 'the newest is still held');
});

test('PublicDirectory finds regular files as they are, never dotfiles, dot-directories or links that lead out of it', async () => {
  const directory = new PublicDirectory(pub);
  try {
    assert.is(directory.root, pub);
    const real = (name: string) => realpathSync(join(pub, name));
    assert.is(await directory.lookup('/'), real('index.html'));
    assert.is(await directory.lookup('/posts/1'), real(join('posts', '1.html')));
    assert.is(await directory.lookup('/alias.css'), real('style.css'), 'a link inside the directory is followed');
    for (const path of ['/.env', '/.git/config', '/assets/.cache/x.txt', '/escape.txt', '/outside/secret.txt', '/config.txt', '/posts', '/../secret.txt']) {
      assert.is(await directory.lookup(path), null, path);
    }
    assert.is(await directory.lookup('/new.txt'), null);
    assert.ok(directory.knownMissing('/new.txt'), 'a miss is remembered');
    writeFileSync(join(pub, 'new.txt'), 'new');
    directory.changed();
    assert.not.ok(directory.knownMissing('/new.txt'), 'a change in the directory forgets the misses');
    assert.is(await directory.lookup('/new.txt'), real('new.txt'));
  } finally {
    rmSync(join(pub, 'new.txt'), { force: true });
    directory.close();
  }
});

test('a path no directory of public/ holds is known missing from the listings, however many distinct paths ask', async () => {
  const directory = new PublicDirectory(pub);
  try {
    assert.not.ok(directory.knownMissing('/users/1'), 'nothing is known before the directory is first read');
    assert.is(await directory.lookup('/users/1'), null);
    // Each distinct path is answered from the root's listing at once, with no lookup of its own.
    for (let i = 2; i < 5_000; i++) assert.ok(directory.knownMissing(`/users/${i}`), `/users/${i}`);
    assert.is(await directory.lookup('/posts/3'), null);
    assert.ok(directory.knownMissing('/posts/2/edit'), 'a name missing from a listed subdirectory');
    assert.not.ok(directory.knownMissing('/posts/1'), 'posts/1.html answers /posts/1');
    assert.not.ok(directory.knownMissing('/style.css'));
    assert.not.ok(directory.knownMissing('/'), 'index.html answers /');
    writeFileSync(join(pub, 'users'), 'now a file');
    directory.changed();
    assert.is(await directory.lookup('/users'), realpathSync(join(pub, 'users')), 'a change is read again');
  } finally {
    rmSync(join(pub, 'users'), { force: true });
    directory.close();
  }
});

test('the misses PublicDirectory remembers one by one are bounded in total length, and a path no file system could name finds nothing', async () => {
  const directory = new PublicDirectory(pub);
  // Names the listings hold but no regular file answers (directories): each such miss is remembered on its own.
  // A chain of 14 directories of 255-character names, and 300 directories at its foot: paths of about 3.6K characters.
  const chain = Array.from({ length: 14 }, (_, i) => `${String(i).padStart(2, '0')}${'m'.repeat(253)}`);
  const foot = join(pub, 'deep', ...chain);
  mkdirSync(foot, { recursive: true });
  const long = (i: number) => `/deep/${chain.join('/')}/${String(i).padStart(4, '0')}`;
  for (let i = 0; i < 300; i++) mkdirSync(join(foot, String(i).padStart(4, '0')));
  try {
    for (const path of [`/${'a'.repeat(256)}`, `/${'é'.repeat(128)}.css`, `/${'a/'.repeat(2100)}x`, `/posts/${'x'.repeat(15_000)}`]) {
      assert.is(await directory.lookup(path), null);
    }
    for (let i = 0; i < 300; i++) assert.is(await directory.lookup(long(i)), null);
    assert.not.ok(directory.knownMissing(long(0)), 'the oldest were let go');
    assert.ok(directory.knownMissing(long(299)), 'the newest is remembered');
    const held = Array.from({ length: 300 }, (_, i) => directory.knownMissing(long(i))).filter(Boolean).length;
    assert.ok(held * long(0).length <= 1_000_000, `${held} paths held`);
    assert.ok(held > 200, `${held} paths held`);
  } finally {
    rmSync(join(pub, 'deep'), { recursive: true, force: true });
    directory.close();
  }
});

test.run();
