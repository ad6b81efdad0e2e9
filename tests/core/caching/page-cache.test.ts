/**
 * Page caching over real HTTP (`serve()`, and the tunnel): the first 200
 * GET of a cached action is written under the page cache directory at its
 * path plus its format's extension, atomically, and later requests are
 * answered from that file by the transport (`X-Cache: hit`, ETag, 304, HEAD)
 * before the app runs. Nothing else is written: other methods and statuses,
 * redirects, queries, and responses that belong to one visitor. No URL,
 * however it is spelled, writes or removes a file outside the directory.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../../core/index.ts';
import { pageCacheFile } from '../../../core/caching/page-cache.ts';
import { scratchDir } from '../../support/temp.ts';
import { gate, withApp, type Served } from '../../support/harness.ts';

const test = suite('caches_page writes 200 GET pages under the page cache directory, served before the app runs');

interface Runs {
  index: number;
  show: number;
}

class PagesController extends Controller {
  static {
    this.caches_page('index', 'show');
  }

  get runs(): Runs {
    return this.services.runs as Runs;
  }

  index(): void {
    const n = ++this.runs.index;
    this.respond_to({
      html: () => this.render({ html: `<h1>pages</h1><p>render ${n}</p>` }),
      json: () => this.render({ json: { pages: [1, 2], n } }),
      xml: () => this.render({ xml: `<pages><n>${n}</n></pages>` }),
    });
  }

  show(): void {
    const n = ++this.runs.show;
    const id = String(this.params.id);
    if (id === '404') return this.head('not_found');
    if (id === '500') throw new Error('boom');
    if (id === '302') return this.redirect_to('/pages');
    if (id === 'cookie') this.cookies.set('seen', 'yes');
    if (id === 'flash') this.flash.now('notice', 'for you');
    const token = id === 'token' ? `<input name="authenticity_token" value="${this.form_authenticity_token()}">` : '';
    this.respond_to({
      html: () => this.render({ html: `<p>page ${id}, render ${n}</p>${token}` }),
      json: () => this.render({ json: { id, n } }),
    });
  }

  update(): void {
    this.expire_page({ action: 'show', id: this.params.id });
    this.head('ok');
  }
}

interface Setup {
  readonly s: Served;
  readonly runs: Runs;
  /** The page cache directory. */
  readonly dir: string;
  /** Its parent: nothing may ever be written here but the directory itself. */
  readonly around: string;
}

async function withPages(body: (setup: Setup) => Promise<void>, options: Parameters<typeof withApp>[1] = {}, controllers: Record<string, typeof Controller> = { pages: PagesController }): Promise<void> {
  const around = scratchDir('page-cache');
  const dir = join(around, 'pages');
  const runs: Runs = { index: 0, show: 0 };
  await withApp(controllers, { page_cache_directory: dir, services: { runs }, ...options }, (s) => body({ s, runs, dir, around }));
}

/** Every file and link under `dir`, relative to it, sorted. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

test('the file is the path plus the extension of its format: /pages → pages.html, /pages/1.json → pages/1.json, / → index.html', async () => {
  await withPages(async ({ s, dir }) => {
    for (const path of ['/pages', '/pages.json', '/pages.xml', '/pages/1', '/pages/1.json', '/']) {
      const res = await s.get(path);
      assert.equal([res.status, res.headers['x-cache']], [200, 'miss'], path);
    }
    assert.equal(tree(dir), ['index.html', 'pages.html', 'pages.json', 'pages.xml', 'pages/1.html', 'pages/1.json']);
    assert.is(readFileSync(join(dir, 'pages/1.html'), 'utf8'), '<p>page 1, render 1</p>');
    assert.equal(JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')), { pages: [1, 2], n: 2 });
  });
});

test('later requests are answered from the file by the transport, with the right type, ETag and X-Cache: hit', async () => {
  await withPages(async ({ s, runs }) => {
    const CASES: [string, string][] = [
      ['/pages', 'text/html; charset=utf-8'], ['/pages.json', 'application/json; charset=utf-8'], ['/pages.xml', 'application/xml; charset=utf-8'],
      ['/pages/1', 'text/html; charset=utf-8'], ['/', 'text/html; charset=utf-8'],
    ];
    const first = new Map<string, Awaited<ReturnType<Served['get']>>>();
    for (const [path] of CASES) first.set(path, await s.get(path));
    const before = { ...runs };
    for (const [path, type] of CASES) {
      const hit = await s.get(path);
      const miss = first.get(path)!;
      assert.equal([hit.status, hit.headers['x-cache'], hit.headers['content-type']], [200, 'hit', type], path);
      assert.is(hit.body, miss.body, path);
      assert.is(hit.headers['content-length'], miss.headers['content-length'], path);
      assert.is(hit.headers.etag, miss.headers.etag, `${path}: the ETag the app gave`);
      assert.is(hit.headers['cache-control'], miss.headers['cache-control'], path);
      assert.ok(hit.headers['x-runtime'], path);
    }
    assert.equal(runs, before, 'no action ran');
    const revalidated = await s.get('/pages/1', { 'If-None-Match': first.get('/pages/1')!.headers.etag! });
    assert.equal([revalidated.status, revalidated.body, revalidated.headers['x-cache']], [304, '', 'hit']);
    const trailing = await s.get('/pages/');
    assert.is(trailing.headers['x-cache'], 'hit', 'a trailing slash names the same page');
  });
});

test('a page hit is logged by the transport as the request it answered: method, path, status, action, cache: hit', async () => {
  await withPages(async ({ s }) => {
    await s.get('/pages/1');
    await s.get('/pages/1');
    await s.send('HEAD', '/pages/1');
    const lines = s.completed().map((l) => [l.method, l.path, l.status, l.controller, l.action, l.transport, l.cache]);
    assert.equal(lines, [
      ['GET', '/pages/1', 200, 'pages', 'show', 'http', 'miss'],
      ['GET', '/pages/1', 200, 'pages', 'show', 'http', 'hit'],
      ['HEAD', '/pages/1', 200, 'pages', 'show', 'http', 'hit'],
    ]);
    assert.is(typeof s.completed().at(-1)!.ms, 'number');
  });
});

test('HEAD is answered from the cached page: the same length and ETag, no body', async () => {
  await withPages(async ({ s, runs }) => {
    const get = await s.get('/pages/1');
    const head = await s.send('HEAD', '/pages/1');
    assert.equal([head.status, head.headers['x-cache'], head.body], [200, 'hit', '']);
    assert.is(head.headers['content-length'], get.headers['content-length']);
    assert.is(head.headers.etag, get.headers.etag);
    assert.is(runs.show, 1);
  });
});

test('formats are cached apart; a URL without an extension is answered from its .html page only for clients that take HTML first', async () => {
  await withPages(async ({ s, dir }) => {
    await s.get('/pages');
    const json = await s.get('/pages', { Accept: 'application/json' });
    assert.equal([json.headers['x-cache'], json.headers['content-type']], ['miss', 'application/json; charset=utf-8'], 'not the HTML page');
    assert.equal(tree(dir), ['pages.html'], 'JSON for a URL without an extension is not written where HTML would be served');
    for (const accept of ['text/html', '*/*', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '']) {
      assert.is((await s.get('/pages', accept === '' ? {} : { Accept: accept })).headers['x-cache'], 'hit', accept);
    }
    assert.is((await s.get('/pages', { Accept: 'application/xml' })).headers['content-type'], 'application/xml; charset=utf-8');
    await s.get('/pages.json');
    assert.is((await s.get('/pages.json')).headers['x-cache'], 'hit');
  });
});

test('only 200 GET pages are written: 404, 500, redirects, other methods and query strings are not', async () => {
  await withPages(async ({ s, runs, dir }) => {
    for (const [path, status] of [['/pages/404', 404], ['/pages/500', 500], ['/pages/302', 302]] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await s.get(path);
        assert.equal([res.status, res.headers['x-cache']], [status, 'miss'], path);
      }
    }
    await s.get('/pages/1?page=2');
    assert.is((await s.get('/pages/1?page=2')).headers['x-cache'], 'miss');
    assert.equal(tree(dir), []);
    assert.is(runs.show, 8);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await s.send(method, '/any/1', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
      assert.equal([res.status, res.headers['x-cache']], [200, 'miss'], method);
    }
    assert.equal(tree(dir), []);
    await s.get('/pages/1');
    assert.is((await s.get('/pages/1?page=2')).headers['x-cache'], 'miss', 'a query goes to the app even when the bare page is cached');
  }, { draw: (map) => { map.resources('pages'); map.connect('any/:id', { controller: 'pages', action: 'show' }); } });
});

test("what belongs to one visitor is never written: a response that sets a cookie, holds the session's token, or shows a flash", async () => {
  await withPages(async ({ s, dir }) => {
    for (const id of ['cookie', 'flash']) {
      const res = await s.get(`/pages/${id}`);
      assert.equal([res.status, res.headers['x-cache']], [200, 'miss'], id);
    }
    // A first visit starts the session that holds the token (a cookie); a later one changes nothing, but shows the token.
    const first = await s.get('/pages/token');
    const cookie = first.headers['set-cookie']![0].split(';')[0];
    const again = await s.get('/pages/token', { Cookie: cookie });
    assert.equal([again.headers['set-cookie'], again.headers['x-cache']], [undefined, 'miss']);
    assert.equal(tree(dir), []);
    const reasons = s.lines.filter((l) => l.msg === 'response not cached').map((l) => l.reason);
    assert.equal(reasons, ['it sets a cookie', 'it was rendered with a flash', 'it sets a cookie', "it holds the session's authenticity token"]);
  });
});

test('expire_page removes the page (in every format for a path without an extension), in an action or from outside a request', async () => {
  await withPages(async ({ s, dir }) => {
    for (const path of ['/pages', '/pages.json', '/pages.xml', '/pages/1', '/pages/1.json', '/pages/2']) await s.get(path);
    assert.is((await s.send('PUT', '/pages/1', { 'content-type': 'application/json' }, '{}')).status, 200);
    assert.equal(tree(dir), ['pages.html', 'pages.json', 'pages.xml', 'pages/2.html']);
    assert.is((await s.get('/pages/1')).headers['x-cache'], 'miss');
    assert.is((await s.get('/pages/1')).headers['x-cache'], 'hit');
    assert.is(s.app.caching.expire_page('/pages.json'), 1);
    assert.equal(tree(dir), ['pages.html', 'pages.xml', 'pages/1.html', 'pages/2.html']);
    assert.is(s.app.caching.expire_page({ controller: 'pages', action: 'index' }), 2);
    assert.is(s.app.caching.expire_page('/pages'), 0);
    assert.equal(tree(dir), ['pages/1.html', 'pages/2.html']);
    assert.is((await s.get('/pages')).headers['x-cache'], 'miss');
    assert.is(s.app.caching.pages!.expireAll(), 3);
    assert.equal(tree(dir), []);
  });
});

test('pageCacheFile: the file for a path, or the reason it may not be written', () => {
  const CASES: [string, string | null, string][] = [
    ['/', 'html', '/index.html'],
    ['/posts', 'html', '/posts.html'],
    ['/posts/', 'html', '/posts.html'],
    ['/posts/1', 'html', '/posts/1.html'],
    ['/posts/1.xml', null, '/posts/1.xml'],
    ['/caf%C3%A9/men%C3%BC', 'html', '/café/menü.html'],
    ['/a%20b', 'html', '/a b.html'],
    ['/posts/../../etc/passwd', 'html', 'refused: a "." or ".." segment'],
    ['/posts/%2e%2e/%2E%2E/etc/passwd', 'html', 'refused: a "." or ".." segment'],
    ['/posts/./1', 'html', 'refused: a "." or ".." segment'],
    ['/posts%2f..%2f..%2fetc', 'html', 'refused: an encoded slash, backslash or NUL'],
    ['/posts%5C..%5Cetc', 'html', 'refused: an encoded slash, backslash or NUL'],
    ['/posts%00.html', 'html', 'refused: an encoded slash, backslash or NUL'],
    ['/posts\\..\\etc', 'html', 'refused: a control character or backslash'],
    ['/posts/%0a', 'html', 'refused: a control character or backslash'],
    ['//etc/passwd', 'html', 'refused: an empty segment'],
    ['/posts//1', 'html', 'refused: an empty segment'],
    ['/.htaccess', 'html', 'refused: a hidden name'],
    ['/posts/.git/config', 'html', 'refused: a hidden name'],
    ['etc/passwd', 'html', 'refused: not an absolute path'],
    ['/%E0%A4%A', 'html', 'refused: malformed percent-encoding'],
    [`/${'x'.repeat(251)}`, 'html', 'refused: a name too long for the file system'],
    [`/${'x/'.repeat(600)}x`, 'html', 'refused: a path too long'],
    ['/posts', '../x', 'refused: an unusable extension'],
    ['/posts', null, 'refused: no extension'],
  ];
  for (const [path, extension, expected] of CASES) {
    const file = pageCacheFile(path, extension);
    assert.is('url' in file ? file.url : `refused: ${file.refused}`, expected, `${path} + ${String(extension)}`);
  }
});

test('no URL writes outside the directory: traversal, encoded slashes, NUL, backslashes, absolute paths, dotfiles, symbolic links', async () => {
  class FilesController extends Controller {
    static {
      this.caches_page('show');
    }
    show(): void {
      this.render({ html: `<p>${String(this.params.path)}</p>` });
    }
  }
  await withPages(async ({ s, dir, around }) => {
    const outside = join(around, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'victim.html'), 'untouched');
    mkdirSync(dir, { recursive: true });
    // Links planted in the directory: one to a directory outside, one in place of a page.
    symlinkSync(outside, join(dir, 'link'));
    symlinkSync(join(outside, 'victim.html'), join(dir, 'victim.html'));
    const ATTEMPTS = [
      '/../outside/escape', '/a/../../outside/escape', '/%2e%2e/outside/escape', '/%2E%2E/%2e%2e/outside/escape',
      '/a%2f..%2f..%2foutside%2fescape', '/a%5c..%5c..%5coutside%5cescape', '/a\\..\\..\\outside\\escape', '/escape%00.html',
      '//outside/escape', '/.hidden', '/a/.git/escape', '/link/escape', '/link/../escape', '/victim', `/${'x'.repeat(300)}`,
      '/%E0%A4%A', '/tmp%2fescape', '/C:%5cescape',
    ];
    for (const path of ATTEMPTS) {
      const res = await s.get(path);
      assert.ok(res.status < 500, `${path}: ${res.status}`);
      assert.is.not(res.headers['x-cache'], 'hit', path);
      if (res.status === 200) assert.is((await s.get(path)).headers['x-cache'], 'miss', `${path}: never cached`);
    }
    assert.equal(readdirSync(around).sort(), ['outside', 'pages']);
    assert.equal(tree(outside), ['victim.html']);
    assert.is(readFileSync(join(outside, 'victim.html'), 'utf8'), 'untouched');
    assert.equal(tree(dir), ['link', 'victim.html'], 'nothing written inside either, but the planted links');
    const refusals = s.lines.filter((l) => l.msg === 'page not cached').map((l) => l.reason);
    assert.ok(refusals.includes('a symbolic link on the way'), String(refusals));
    assert.ok(refusals.includes('not a regular file'), String(refusals));
    // Expiry walks the same way: nothing outside is removed.
    for (const path of ['/link/victim', '/../outside/victim', '/victim', '/%2e%2e/outside/victim']) s.app.caching.expire_page(path);
    assert.is(readFileSync(join(outside, 'victim.html'), 'utf8'), 'untouched');
    // A legitimate page next to all that is still cached.
    await s.get('/fine/page');
    assert.is((await s.get('/fine/page')).headers['x-cache'], 'hit');
  }, { draw: (map) => map.connect('*path', { controller: 'files', action: 'show' }) }, { files: FilesController });
});

test('concurrent first requests leave one whole file (one of the bodies rendered), and no temporary files', async () => {
  const held = gate();
  let sequence = 0;
  class BigController extends Controller {
    static {
      this.caches_page('show');
    }
    async show(): Promise<void> {
      const n = ++sequence;
      await held.promise;
      this.render({ html: `<p>${n}</p>${String.fromCharCode(96 + n).repeat(512 * 1024)}` });
    }
  }
  await withPages(async ({ s, dir }) => {
    const pending = Array.from({ length: 16 }, () => s.get('/big/1'));
    while (sequence < 16) await new Promise((r) => setTimeout(r, 5));
    held.open();
    const answers = await Promise.all(pending);
    const bodies = new Set(answers.map((a) => a.body));
    assert.is(bodies.size, 16, 'every request rendered its own body');
    assert.ok(answers.every((a) => a.status === 200 && a.headers['x-cache'] === 'miss'));
    assert.equal(tree(dir), ['big/1.html']);
    const written = readFileSync(join(dir, 'big/1.html'), 'utf8');
    assert.ok(bodies.has(written), 'the file is exactly one of the bodies');
    const hit = await s.get('/big/1');
    assert.equal([hit.headers['x-cache'], hit.body === written], ['hit', true]);
  }, { draw: (map) => map.resources('big') }, { big: BigController });
});

test('an expiry while a page renders keeps that render from being written', async () => {
  const [entered, held] = [gate(), gate()];
  class SlowController extends Controller<{ services: { data: { version: number } } }> {
    static {
      this.caches_page('show');
    }
    async show(): Promise<void> {
      const version = this.services.data.version;
      entered.open();
      await held.promise;
      this.render({ html: `version ${version}` });
    }
  }
  const data = { version: 1 };
  await withPages(async ({ s, dir }) => {
    const pending = s.get('/slow/1');
    // The render has read the old data, however slow the machine.
    await entered.promise;
    data.version = 2;
    s.app.caching.expire_page('/slow/1');
    held.open();
    assert.is((await pending).body, 'version 1');
    assert.equal(tree(dir), []);
    assert.is((await s.get('/slow/1')).body, 'version 2');
    assert.is((await s.get('/slow/1')).headers['x-cache'], 'hit');
  }, { draw: (map) => map.resources('slow'), services: { data } }, { slow: SlowController });
});

test('a hit carries the Content-Type the app sent, charset and all, even where the extension alone would not say it', async () => {
  class FeedsController extends Controller {
    static {
      this.caches_page('index');
    }
    index(): void {
      this.respond_to({
        html: () => this.render({ html: '<p>feeds</p>' }),
        rss: () => this.render({ xml: '<rss/>' }),
        atom: () => this.render({ xml: '<feed/>' }),
        yaml: () => this.render({ text: 'feeds: []' }),
      });
    }
  }
  for (const charset of ['utf-8', 'iso-8859-1']) {
    await withPages(async ({ s }) => {
      for (const path of ['/feeds', '/feeds.rss', '/feeds.atom', '/feeds.yaml']) {
        const miss = await s.get(path);
        const hit = await s.get(path);
        assert.equal([miss.headers['x-cache'], hit.headers['x-cache']], ['miss', 'hit'], `${path} (${charset})`);
        assert.is(hit.headers['content-type'], miss.headers['content-type'], `${path} (${charset})`);
        assert.match(hit.headers['content-type']!, `; charset=${charset}`, `${path} (${charset})`);
      }
      assert.is((await s.get('/feeds.rss')).headers['content-type'], `application/rss+xml; charset=${charset}`);
    }, { draw: (map) => map.resources('feeds'), config: { default_charset: charset } }, { feeds: FeedsController });
  }
});

test('a page rewritten by another process is served as it now is, with the ETag of its new bytes', async () => {
  const md5 = (text: string) => `"${createHash('md5').update(text).digest('hex')}"`;
  await withPages(async ({ s, dir }) => {
    const miss = await s.get('/pages/1');
    assert.is((await s.get('/pages/1')).headers.etag, miss.headers.etag);
    const file = join(dir, 'pages', '1.html');
    // Replaced the way a page cache replaces a page: a new file renamed over it, here of the same size.
    const same = miss.body.replace('page 1', 'page X');
    writeFileSync(`${file}.new`, same);
    renameSync(`${file}.new`, file);
    const replaced = await s.get('/pages/1');
    assert.equal([replaced.headers['x-cache'], replaced.body, replaced.headers.etag], ['hit', same, md5(same)]);
    // Changed in place.
    writeFileSync(file, 'rewritten in place');
    const rewritten = await s.get('/pages/1');
    assert.equal([rewritten.body, rewritten.headers.etag], ['rewritten in place', md5('rewritten in place')]);
    assert.is((await s.get('/pages/1', { 'If-None-Match': md5('rewritten in place') })).status, 304);
  });
});

test('only pages this process wrote are served: a stray file in the directory is not taken for one', async () => {
  await withPages(async ({ s, dir, runs }) => {
    mkdirSync(join(dir, 'pages'), { recursive: true });
    writeFileSync(join(dir, 'pages', '7.html'), 'stale page from another run');
    const res = await s.get('/pages/7');
    assert.equal([res.headers['x-cache'], res.body], ['miss', '<p>page 7, render 1</p>']);
    assert.is(readFileSync(join(dir, 'pages', '7.html'), 'utf8'), '<p>page 7, render 1</p>', 'rewritten by the miss');
    assert.is((await s.get('/pages/7')).headers['x-cache'], 'hit');
    assert.is(runs.show, 1);
  });
});

test('the directory defaults to publicDir; page_cache_directory: false writes nothing (and still says miss)', async () => {
  const pub = scratchDir('page-cache-public');
  await withPages(async ({ s }) => {
    await s.get('/pages/1');
    assert.ok(existsSync(join(pub, 'pages', '1.html')));
    assert.is((await s.get('/pages/1')).headers['x-cache'], 'hit');
  }, { page_cache_directory: undefined, publicDir: pub });
  await withPages(async ({ s, around, runs }) => {
    await s.get('/pages/1');
    assert.is((await s.get('/pages/1')).headers['x-cache'], 'miss');
    assert.equal(readdirSync(around), []);
    assert.is(runs.show, 2);
  }, { page_cache_directory: false });
});

test('in the public directory (the default), a page declined for a query or a non-HTML client is not served as a public file instead', async () => {
  const pub = scratchDir('page-cache-public');
  await withPages(async ({ s, runs }) => {
    await s.get('/pages/1');
    assert.is((await s.get('/pages/1')).headers['x-cache'], 'hit');
    const query = await s.get('/pages/1?page=2');
    assert.equal([query.headers['x-cache'], query.body], ['miss', '<p>page 1, render 2</p>'], 'a query goes to the app');
    const json = await s.get('/pages/1', { Accept: 'application/json' });
    assert.equal([json.headers['x-cache'], json.headers['content-type'], json.body], ['miss', 'application/json; charset=utf-8', '{"id":"1","n":3}'], 'a JSON client gets JSON');
    await s.get('/');
    const home = await s.get('/?ref=mail');
    assert.is(home.headers['x-cache'], 'miss', 'the root page too');
    assert.is(runs.index, 2);
    assert.is((await s.get('/pages/1.html?page=2')).headers['x-cache'], undefined, 'a URL naming the file still gets the file');
  }, { page_cache_directory: undefined, publicDir: pub });
});

test('a hand-written .html page in the public directory still answers its extension-less path, query and all', async () => {
  const pub = scratchDir('page-cache-public');
  writeFileSync(join(pub, 'about.html'), '<p>about us</p>');
  await withPages(async ({ s }) => {
    for (const url of ['/about', '/about?ref=mail']) {
      const res = await s.get(url, { Accept: 'application/json' });
      assert.equal([res.status, res.body], [200, '<p>about us</p>'], url);
    }
  }, { page_cache_directory: undefined, publicDir: pub });
});

test('X-Cache off: page hits and misses carry no header, the log line still says hit', async () => {
  await withPages(async ({ s, runs }) => {
    const miss = await s.get('/pages/1');
    const hit = await s.get('/pages/1');
    assert.equal([miss.headers['x-cache'], hit.headers['x-cache']], [undefined, undefined]);
    assert.is(runs.show, 1);
    assert.is(s.completed().at(-1)!.cache, 'hit');
  }, { config: { cacheHeader: false } });
});

test('through the WebSocket tunnel: the cached page, with X-Cache: hit, logged as a tunnel request', async () => {
  await withPages(async ({ s, runs }) => {
    const miss = await s.viaTunnel('GET', '/pages/1');
    assert.is(miss.headers['x-cache'], 'miss');
    const hit = await s.viaTunnel('GET', '/pages/1');
    assert.equal([hit.status, hit.headers['x-cache'], hit.body], [200, 'hit', miss.body]);
    const head = await s.viaTunnel('HEAD', '/pages/1');
    assert.equal([head.headers['x-cache'], head.body], ['hit', '']);
    assert.is(runs.show, 1);
    assert.equal(s.completed().map((l) => [l.transport, l.cache]), [['tunnel', 'miss'], ['tunnel', 'hit'], ['tunnel', 'hit']]);
  });
});

test.run();
