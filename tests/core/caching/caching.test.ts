/**
 * Action caching over real HTTP (`serve()`, and the tunnel): a 200 GET
 * response is kept in the app's cache store by host, path and format and
 * answered from there after the before filters have run; nothing else is
 * kept (other methods, other statuses, redirects, queries); HEAD is answered
 * from a GET's entry; expiry, `if`, `expires_in`, `cache_path`; what belongs
 * to one visitor (the flash, the authenticity token) never reaches another;
 * and every response of a cached action says `X-Cache: hit` or `miss`, in
 * its header (unless turned off) and in its log line.
 */
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, TOKEN_KEY } from '../../../core/index.ts';
import { fileStore, memoryStore } from '../../../core/caching/index.ts';
import { actionCacheKey } from '../../../core/caching/keys.ts';
import { cacheHost } from '../../../core/controller/cache-host.ts';
import { scratchDir } from '../../support/temp.ts';
import { gate, serveApp, withApp, type Served } from '../../support/harness.ts';

const test = suite('caches_action keeps 200 GET responses in the cache store, behind the before filters');

interface Runs {
  show: number;
  filter: number;
  late: number;
  after: number;
}

/** The post page in three formats, and the statuses and redirects a cache must not keep. */
class PostsController extends Controller {
  static {
    this.before_filter('count_filter');
    this.caches_action('show');
    // Declared after caches_action: still runs on a hit.
    this.before_filter('late_filter');
    this.after_filter((c: PostsController) => c.runs.after++);
  }

  get runs(): Runs {
    return this.services.runs as Runs;
  }

  count_filter(): void {
    this.runs.filter++;
  }

  late_filter(): void {
    this.runs.late++;
  }

  show(): void {
    const n = ++this.runs.show;
    const id = String(this.params.id);
    if (id === '404') return this.head('not_found');
    if (id === '500') throw new Error('boom');
    if (id === '302') return this.redirect_to('/posts');
    if (id === '201') return this.render({ text: 'made', status: 'created' });
    this.response.set_header('X-Kept', 'kept');
    this.cookies.set('visited', 'yes');
    this.respond_to({
      html: () => this.render({ html: `<p>post ${id}, render ${n}</p>` }),
      json: () => this.render({ json: { id, n } }),
      xml: () => this.render({ xml: `<post><id>${id}</id><n>${n}</n></post>` }),
    });
  }

  update(): void {
    this.expire_action({ action: 'show', id: this.params.id });
    this.head('ok');
  }
}

const fresh = (): Runs => ({ show: 0, filter: 0, late: 0, after: 0 });

async function withPosts(body: (s: Served, runs: Runs) => Promise<void>, options: Parameters<typeof serveApp>[1] = {}): Promise<void> {
  const runs = fresh();
  await withApp({ posts: PostsController }, { services: { runs }, ...options }, (s) => body(s, runs));
}

test('the first GET is a miss and is stored; the next is a hit with the same body, type, kept headers and ETag', async () => {
  await withPosts(async (s, runs) => {
    const first = await s.get('/posts/1.json');
    assert.is(first.status, 200);
    assert.is(first.headers['x-cache'], 'miss');
    assert.equal(JSON.parse(first.body), { id: '1', n: 1 });
    const second = await s.get('/posts/1.json');
    assert.is(second.headers['x-cache'], 'hit');
    assert.is(second.body, first.body);
    assert.is(runs.show, 1, 'the action ran once');
    assert.is(second.headers['content-type'], 'application/json; charset=utf-8');
    assert.is(second.headers['content-length'], first.headers['content-length']);
    assert.is(second.headers['x-kept'], 'kept');
    assert.is(second.headers.etag, first.headers.etag);
    assert.is(second.headers['cache-control'], 'private, max-age=0, must-revalidate');
    assert.ok(second.headers['x-runtime']);
    assert.is(second.headers['set-cookie'], undefined, "the first visitor's cookie is not handed out");
    assert.is(runs.after, 1, 'after filters do not run on a hit');
    const revalidated = await s.get('/posts/1.json', { 'If-None-Match': second.headers.etag! });
    assert.is(revalidated.status, 304);
    assert.is(revalidated.headers['x-cache'], 'hit');
  });
});

test("a miss goes out with the render stage's ETag and Cache-Control; an ETag of the action's own is kept, and on a hit too", async () => {
  class TaggedController extends Controller {
    static {
      this.caches_action('show', 'index');
    }
    show(): void {
      this.response.set_header('ETag', '"mine"');
      this.render({ text: 'tagged' });
    }
    index(): void {
      this.render({ text: 'untagged' });
    }
  }
  await withApp({ tagged: TaggedController }, {}, async (s) => {
    const md5 = `"${createHash('md5').update('untagged').digest('hex')}"`;
    for (const [path, etag] of [['/tagged', md5], ['/tagged/1', '"mine"']]) {
      const miss = await s.get(path);
      const hit = await s.get(path);
      for (const res of [miss, hit]) {
        assert.equal([res.headers.etag, res.headers['cache-control']], [etag, 'private, max-age=0, must-revalidate'], `${path}: ${String(res.headers['x-cache'])}`);
      }
      assert.equal([miss.headers['x-cache'], hit.headers['x-cache']], ['miss', 'hit'], path);
    }
  });
});

test('each format is its own entry: extension, ?format is a query (uncached), Accept, and hosts apart', async () => {
  await withPosts(async (s, runs) => {
    const json = await s.get('/posts/1.json');
    const xml = await s.get('/posts/1.xml');
    const html = await s.get('/posts/1', { Accept: 'text/html' });
    const acceptJson = await s.get('/posts/1', { Accept: 'application/json' });
    assert.is(runs.show, 4, 'four formats, four renders');
    for (const [path, headers, expected] of [
      ['/posts/1.json', {}, json], ['/posts/1.xml', {}, xml], ['/posts/1', { Accept: 'text/html' }, html], ['/posts/1', { Accept: 'application/json' }, acceptJson],
    ] as const) {
      const again = await s.get(path, headers);
      assert.is(again.headers['x-cache'], 'hit', path);
      assert.is(again.body, expected.body, path);
      assert.is(again.headers['content-type'], expected.headers['content-type'], path);
    }
    assert.is(runs.show, 4);
    assert.is(xml.headers['content-type'], 'application/xml; charset=utf-8');
    const other = await s.get('/posts/1.json', { Host: 'other.example' });
    assert.is(other.headers['x-cache'], 'miss', 'another host, another entry');
    const query = await s.get('/posts/1.json?utm=x');
    assert.is(query.headers['x-cache'], 'miss');
    assert.is((await s.get('/posts/1.json?utm=x')).headers['x-cache'], 'miss', 'a query string is never cached');
    assert.is(runs.show, 7);
  });
});

test('only 200 is kept: 404, 500, redirects and 201 run the action every time, and still say miss', async () => {
  await withPosts(async (s, runs) => {
    for (const [id, status] of [['404', 404], ['500', 500], ['302', 302], ['201', 201]] as const) {
      const before = runs.show;
      for (let i = 0; i < 2; i++) {
        const res = await s.get(`/posts/${id}`);
        assert.is(res.status, status, id);
        assert.is(res.headers['x-cache'], 'miss', `${id}: a response of a cached action says so, errors included`);
      }
      assert.is(runs.show, before + 2, id);
    }
    assert.is((s.app.caching.store as ReturnType<typeof memoryStore>).size, 0);
  });
});

test('other methods never use the cache: POST, PUT and DELETE run the action and store nothing', async () => {
  const runs = fresh();
  await withApp({ posts: PostsController }, { services: { runs }, draw: (map) => map.connect('any/:id', { controller: 'posts', action: 'show' }) }, async (s) => {
    await s.get('/any/1');
    assert.is((await s.get('/any/1')).headers['x-cache'], 'hit');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const before = runs.show;
      const res = await s.send(method, '/any/1', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
      assert.is(res.status, 200, method);
      assert.is(res.headers['x-cache'], 'miss', method);
      assert.is(runs.show, before + 1, method);
    }
    assert.is((s.app.caching.store as ReturnType<typeof memoryStore>).size, 1);
  });
});

test('HEAD is answered from a GET entry, and a HEAD miss stores the entry a GET then hits', async () => {
  await withPosts(async (s, runs) => {
    const get = await s.get('/posts/1.json');
    const head = await s.send('HEAD', '/posts/1.json');
    assert.is(head.headers['x-cache'], 'hit');
    assert.is(head.body, '');
    assert.is(head.headers['content-length'], get.headers['content-length']);
    assert.is(head.headers.etag, get.headers.etag);
    const headFirst = await s.send('HEAD', '/posts/2.json');
    assert.is(headFirst.headers['x-cache'], 'miss');
    const after = await s.get('/posts/2.json');
    assert.is(after.headers['x-cache'], 'hit');
    assert.is(after.headers['content-length'], headFirst.headers['content-length']);
    assert.is(runs.show, 2);
  });
});

test('every before filter runs first, hit or miss, wherever it was declared; one that halts keeps the entry unseen', async () => {
  class Guarded extends PostsController {
    static {
      this.prepend_before_filter((c: Guarded) => {
        if (c.request.headers.authorization !== 'Bearer ok') c.head('unauthorized');
      });
    }
  }
  const runs = fresh();
  await withApp({ posts: Guarded }, { services: { runs } }, async (s) => {
    assert.is((await s.get('/posts/1.json')).status, 401);
    const ok = await s.get('/posts/1.json', { Authorization: 'Bearer ok' });
    assert.equal([ok.status, ok.headers['x-cache']], [200, 'miss']);
    const refused = await s.get('/posts/1.json');
    assert.equal([refused.status, refused.headers['x-cache'], refused.body], [401, 'miss', ''], 'authentication still applies to a cached action');
    const hit = await s.get('/posts/1.json', { Authorization: 'Bearer ok' });
    assert.equal([hit.status, hit.headers['x-cache']], [200, 'hit']);
    assert.equal([runs.filter, runs.late, runs.show], [2, 2, 1], 'both filters ran on the miss and on the hit; the action once');
  });
});

test('expire_action (in an action, and from outside a request) makes the next GET a miss, in every format', async () => {
  await withPosts(async (s, runs) => {
    await s.get('/posts/1.json');
    await s.get('/posts/1.xml');
    await s.get('/posts/1', { Accept: 'text/html' });
    await s.get('/posts/2.json');
    assert.is((await s.send('PUT', '/posts/1', { 'content-type': 'application/json' }, '{}')).status, 200);
    for (const [path, headers] of [['/posts/1.json', {}], ['/posts/1.xml', {}], ['/posts/1', { Accept: 'text/html' }]] as const) {
      assert.is((await s.get(path, headers)).headers['x-cache'], 'miss', path);
    }
    assert.is((await s.get('/posts/2.json')).headers['x-cache'], 'hit', 'another post is untouched');
    assert.equal(JSON.parse((await s.get('/posts/1.json')).body), { id: '1', n: 5 });
    assert.is(await s.app.caching.expire_action({ controller: 'posts', action: 'show', id: 2 }), 1);
    assert.is((await s.get('/posts/2.json')).headers['x-cache'], 'miss');
    assert.is(await s.app.caching.expire_action('/posts/1.json'), 3, 'a path expires every format of it');
    assert.is(runs.show, 8);
  });
});

test('an asynchronous if is waited for: a visitor it leaves out is neither served an entry nor stored as one', async () => {
  class SignedIn extends PostsController {
    static {
      this.caches_action('show', {
        if: async (c: SignedIn) => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          return c.request.headers['x-user'] === undefined;
        },
      });
    }
  }
  const runs = fresh();
  await withApp({ posts: SignedIn }, { services: { runs } }, async (s) => {
    const ann = await s.get('/posts/1.json', { 'X-User': 'ann' });
    assert.equal(JSON.parse(ann.body), { id: '1', n: 1 });
    const anonymous = await s.get('/posts/1.json');
    assert.equal([anonymous.headers['x-cache'], JSON.parse(anonymous.body)], ['miss', { id: '1', n: 2 }], "not ann's page");
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'hit');
    const bob = await s.get('/posts/1.json', { 'X-User': 'bob' });
    assert.equal([bob.headers['x-cache'], JSON.parse(bob.body)], ['miss', { id: '1', n: 3 }], 'not the cached page');
  });
});

test('if: a false condition leaves the request to the action, neither read nor stored; a method name works too', async () => {
  class Conditional extends PostsController {
    static {
      this.caches_action('show', { if: (c: Conditional) => c.request.headers['x-preview'] === undefined });
    }
  }
  class ByName extends PostsController {
    static {
      this.caches_action('show', { if: 'cacheable' });
      this.hide_action('cacheable');
    }
    cacheable(): boolean {
      return this.params.id !== '9';
    }
  }
  const runs = fresh();
  await withApp({ posts: Conditional }, { services: { runs } }, async (s) => {
    await s.get('/posts/1.json');
    assert.is((await s.get('/posts/1.json', { 'X-Preview': '1' })).headers['x-cache'], 'miss');
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'hit');
    assert.is(runs.show, 2);
  });
  const named = fresh();
  await withApp({ posts: ByName }, { services: { runs: named } }, async (s) => {
    await s.get('/posts/9.json');
    assert.is((await s.get('/posts/9.json')).headers['x-cache'], 'miss');
    await s.get('/posts/8.json');
    assert.is((await s.get('/posts/8.json')).headers['x-cache'], 'hit');
  });
});

test('expires_in: the entry lasts that many seconds on the store clock', async () => {
  class Expiring extends PostsController {
    static {
      this.caches_action('show', { expires_in: 60 });
    }
  }
  let now = 1_000;
  const runs = fresh();
  await withApp({ posts: Expiring }, { services: { runs }, cache_store: memoryStore({ now: () => now }) }, async (s) => {
    await s.get('/posts/1.json');
    now += 59_000;
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'hit');
    now += 1_000;
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'miss');
    assert.is(runs.show, 2);
  });
});

test('cache_path names the key (a query can then be cached), and expire_fragment removes it', async () => {
  class Paged extends PostsController {
    static {
      this.caches_action('show', { cache_path: (c: Paged) => `posts/${String(c.params.id)}/page-${String(c.params.page ?? 1)}` });
    }
  }
  const runs = fresh();
  await withApp({ posts: Paged }, { services: { runs } }, async (s) => {
    await s.get('/posts/1.json?page=2');
    assert.is((await s.get('/posts/1.json?page=2')).headers['x-cache'], 'hit');
    assert.is((await s.get('/posts/1.json?page=3')).headers['x-cache'], 'miss');
    assert.ok(s.app.caching.store.read('views/posts/1/page-2.json') !== undefined);
    assert.is(await s.app.caching.expire_fragment('posts/1/page-2'), 1);
    assert.is((await s.get('/posts/1.json?page=2')).headers['x-cache'], 'miss');
    assert.is(await s.app.caching.expire_fragment(/^views\/posts\/1\//), 2);
  });
});

test("cache_path as a route hash (Rails' :cache_path => { ... }) names the key as url_for does against the request", async () => {
  class Summarised extends PostsController {
    static {
      this.caches_action('show', { cache_path: { action: 'show', part: 'summary' } });
    }
  }
  const runs = fresh();
  await withApp({ posts: Summarised }, { services: { runs } }, async (s) => {
    // What the hash leaves out (the id) is the request's: one entry per post, queries and all.
    await s.get('/posts/1.json');
    assert.is((await s.get('/posts/1.json?page=9')).headers['x-cache'], 'hit');
    assert.is((await s.get('/posts/2.json')).headers['x-cache'], 'miss');
    const host = `127.0.0.1:${s.server.port}`;
    assert.ok(s.app.caching.store.read(`views/${host}/posts/1?part=summary.json`) !== undefined);
    assert.is(await s.app.caching.expire_fragment(`${host}/posts/1?part=summary`), 1);
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'miss');
    assert.is((await s.get('/posts/2.json')).headers['x-cache'], 'hit');
  });
});

test('a cache_path that gives a promise is an ArgumentError saying so, not one key for every page', async () => {
  class Awaiting extends PostsController {
    static {
      // TypeScript refuses it; plain JavaScript can give one.
      this.caches_action('show', { cache_path: (async (c: Awaiting) => `posts/${String(c.params.id)}`) as never });
    }
  }
  const runs = fresh();
  await withApp({ posts: Awaiting }, { services: { runs }, config: { consider_all_requests_local: true } }, async (s) => {
    for (const id of ['1', '2']) {
      const res = await s.get(`/posts/${id}.json`);
      assert.is(res.status, 500);
      assert.match(res.body, 'cache_path must give a string or a route hash at once, not a promise');
    }
  });
});

test('expireAll forgets every entry, so the next GET of each is a miss again', async () => {
  const runs = fresh();
  await withApp({ posts: PostsController }, { services: { runs } }, async (s) => {
    await s.get('/posts/1.json');
    await s.get('/posts/2.json');
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'hit');
    assert.is(await s.app.caching.expireAll(), 2);
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'miss');
    assert.is((await s.get('/posts/2.json')).headers['x-cache'], 'miss');
  });
});

test('the key: host + path + format named in the URL, or the Accept list it was negotiated from', async () => {
  class Keys extends Controller {
    static {
      this.caches_action('show');
    }
    show(): void {
      this.render({ text: actionCacheKey(cacheHost(this, null), { kind: 'action', actions: ['show'] }) ?? 'none' });
    }
  }
  await withApp({ keys: Keys }, { config: { perform_caching: false } }, async (s) => {
    const key = async (path: string, headers: Record<string, string> = {}) => (await s.get(path, { Host: 'example.com', ...headers })).body;
    assert.is(await key('/keys/1.json'), 'views/example.com/keys/1.json');
    assert.is(await key('/keys/1', { Accept: 'application/json' }), 'views/example.com/keys/1;accept=json');
    assert.is(await key('/keys/1', { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }), 'views/example.com/keys/1;accept=html,xml,all');
    assert.is(await key('/keys/1'), 'views/example.com/keys/1;accept=all');
    assert.is(await key('/keys/1?x=1'), 'none');
    assert.is(await key('/keys/1', { Accept: `application/json, ${Array.from({ length: 300 }, (_, i) => `x/y${i}`).join(', ')}, */*` }), 'none', 'an absurd key is not cached');
  });
});

test('X-Cache can be turned off (caching goes on); perform_caching: false turns caching and the header off', async () => {
  await withPosts(async (s, runs) => {
    await s.get('/posts/1.json');
    const hit = await s.get('/posts/1.json');
    assert.is(hit.headers['x-cache'], undefined);
    assert.is(runs.show, 1, 'still cached');
    assert.is(s.completed().at(-1)!.cache, 'hit', 'the log line still says it');
  }, { config: { cacheHeader: false } });
  await withPosts(async (s, runs) => {
    await s.get('/posts/1.json');
    const again = await s.get('/posts/1.json');
    assert.is(again.headers['x-cache'], undefined);
    assert.is(runs.show, 2);
    assert.is(s.completed().at(-1)!.cache, undefined);
  }, { config: { perform_caching: false } });
});

test("the request log line says cache: 'miss' or 'hit' for a cached action, and nothing for others", async () => {
  await withPosts(async (s) => {
    await s.get('/posts/1.json');
    await s.get('/posts/1.json');
    await s.get('/posts');
    const lines = s.completed();
    assert.equal(lines.map((l) => [l.path, l.status, l.controller, l.action, l.cache]), [
      ['/posts/1.json', 200, 'posts', 'show', 'miss'],
      ['/posts/1.json', 200, 'posts', 'show', 'hit'],
      ['/posts', 404, 'posts', 'index', undefined],
    ]);
  });
});

test("a form's authenticity token is never handed to another visitor: each hit carries its own session's", async () => {
  class Forms extends Controller {
    static {
      this.caches_action('show');
    }
    show(): void {
      this.render({ html: `<form><input name="authenticity_token" value="${this.form_authenticity_token()}"></form>` });
    }
  }
  await withApp({ forms: Forms }, { session: { key: '_s', secret: 'a test secret that is long enough to sign cookies' } }, async (s) => {
    const first = await s.get('/forms/1');
    const cookieA = first.headers['set-cookie']![0].split(';')[0];
    const tokenA = /value="([^"]+)"/.exec(first.body)![1];
    const again = await s.get('/forms/1', { Cookie: cookieA });
    assert.is(again.headers['x-cache'], 'hit');
    assert.is(/value="([^"]+)"/.exec(again.body)![1], tokenA, 'the same session gets its own token back');
    const stranger = await s.get('/forms/1');
    assert.is(stranger.headers['x-cache'], 'hit');
    const tokenB = /value="([^"]+)"/.exec(stranger.body)![1];
    assert.is.not(tokenB, tokenA);
    assert.ok(stranger.headers['set-cookie'], 'a new visitor gets the session that holds its token');
    assert.is.not(stranger.headers.etag, first.headers.etag, 'bodies differ per visitor, and so do their ETags');
    const entry = s.app.caching.store.read(`views/127.0.0.1:${s.server.port}/forms/1;accept=all`);
    assert.ok(entry !== undefined);
    assert.not.match(JSON.stringify(entry), tokenA, 'the stored entry holds no token');
  });
});

test("a token the cache could not swap (URL-encoded) keeps the page out of the cache; so does a page rendered with a flash", async () => {
  class Encoded extends Controller {
    static {
      this.caches_action('show', 'index');
    }
    show(): void {
      // A token with characters URL-encoding changes, shown once as it is and once inside a link.
      this.session[TOKEN_KEY] = 'a+b/c=';
      const token = this.form_authenticity_token();
      this.render({ html: `<input value="${token}"><a href="/x?t=${encodeURIComponent(token)}">x</a>` });
    }
    index(): void {
      this.flash.now('notice', 'Just for you');
      this.render({ html: `<p>${String(this.flash.get('notice'))}</p>` });
    }
  }
  await withApp({ encoded: Encoded }, {}, async (s) => {
    await s.get('/encoded/1');
    assert.is((await s.get('/encoded/1')).headers['x-cache'], 'miss');
    await s.get('/encoded');
    assert.is((await s.get('/encoded')).headers['x-cache'], 'miss');
    assert.is((s.app.caching.store as ReturnType<typeof memoryStore>).size, 0);
  });
});

test('an expiry while a request renders keeps that request from storing what it rendered from the old data', async () => {
  const [entered, held] = [gate(), gate()];
  class Slow extends Controller<{ services: { data: { version: number } } }> {
    static {
      this.caches_action('show');
    }
    async show(): Promise<void> {
      const version = this.services.data.version;
      if (this.params.id === 'held') {
        entered.open();
        await held.promise;
      }
      this.render({ text: `version ${version}` });
    }
  }
  const data = { version: 1 };
  await withApp({ slow: Slow }, { services: { data } }, async (s) => {
    const pending = s.get('/slow/held');
    // The render has read the old data, however slow the machine.
    await entered.promise;
    data.version = 2;
    await s.app.caching.expire_action('/slow/held');
    held.open();
    assert.is((await pending).body, 'version 1');
    const next = await s.get('/slow/held');
    assert.equal([next.headers['x-cache'], next.body], ['miss', 'version 2'], 'the stale render was not stored');
    assert.equal([(await s.get('/slow/held')).headers['x-cache'], (await s.get('/slow/held')).body], ['hit', 'version 2']);
  });
});

test('a file store behind the action cache: hits, expiry, and entries other processes can read', async () => {
  const dir = scratchDir('action-file-store');
  await withPosts(async (s, runs) => {
    await s.get('/posts/1.json');
    const hit = await s.get('/posts/1.json');
    assert.is(hit.headers['x-cache'], 'hit');
    assert.is(runs.show, 1);
    const key = 'views/127.0.0.1:' + s.server.port + '/posts/1.json';
    assert.is(((await fileStore(dir).read(key)) as { body: string }).body, hit.body);
    assert.is((await s.send('PUT', '/posts/1', { 'content-type': 'application/json' }, '{}')).status, 200);
    assert.is((await s.get('/posts/1.json')).headers['x-cache'], 'miss');
  }, { cache_store: fileStore(dir) });
});

test('through the WebSocket tunnel: the same entry, the same X-Cache', async () => {
  await withPosts(async (s, runs) => {
    const viaHttp = await s.get('/posts/1.json', { Host: 'blog.test' });
    const viaTunnel = await s.viaTunnel('GET', '/posts/1.json', { host: 'blog.test' });
    assert.equal([viaTunnel.status, viaTunnel.headers['x-cache'], viaTunnel.body], [200, 'hit', viaHttp.body]);
    assert.is((await s.viaTunnel('HEAD', '/posts/1.json', { host: 'blog.test' })).headers['x-cache'], 'hit');
    assert.is(runs.show, 1);
    assert.is(s.completed().at(-1)!.transport, 'tunnel');
  });
});

test('declaration mistakes are refused when declared', () => {
  const declare = (fn: () => void) => {
    try {
      fn();
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };
  class D extends Controller {}
  assert.match(declare(() => D.caches_action()), 'needs at least one action');
  assert.match(declare(() => D.caches_page('index', { expires_in: 5 } as never)), 'has no option "expires_in"');
  assert.match(declare(() => D.caches_action('show', { expires_in: 0 })), 'positive number of seconds');
  assert.match(declare(() => D.caches_action('show', { cache_path: 3 as never })), 'cache_path is a string, a route hash or a function');
  assert.match(declare(() => D.caches_action(3 as never)), 'takes action names');
});

test.run();
