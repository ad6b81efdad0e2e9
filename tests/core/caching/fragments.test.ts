/**
 * Fragment caching, as Rails 2.1's: a template's `cache(name, block)` keeps
 * the block's markup in the app's cache store under `views/<name>` and
 * answers from it next time; controllers read, write and test fragments
 * (`read_fragment`, `write_fragment`, `fragment_exist`) by name or by route
 * hash, and `expire_fragment` removes them, with the memory store (answers
 * at once) and an asynchronous one (the file store) alike. Expiries made in
 * another process (relayed) reach this one's store and stop its renders.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, html, memoryViews, type Template } from '../../../core/index.ts';
import { fileStore, memoryStore, type CacheStore } from '../../../core/caching/index.ts';
import { scratchDir } from '../../support/temp.ts';
import { withApp } from '../../support/harness.ts';

const test = suite('fragment caching keeps rendered markup in the cache store');

interface Counts { sidebar: number }

class PagesController extends Controller {
  get counts(): Counts {
    return this.services.counts as Counts;
  }

  sidebar_markup(): string {
    return `sidebar #${++this.counts.sidebar}`;
  }

  index(): void {}

  async notes(): Promise<void> {
    const before = await this.fragment_exist('notes');
    const written = await this.write_fragment('notes', `<p>${String(this.params.text ?? '')}</p>`);
    this.render({ json: { before, written, read: await this.read_fragment('notes'), missing: await this.read_fragment('absent') ?? null } });
  }

  async by_route(): Promise<void> {
    await this.write_fragment({ action: 'show', id: 7 }, 'seven');
    const key = `views/${this.request.host_with_port}/pages/show/7`;
    this.render({ json: { read: await this.read_fragment({ action: 'show', id: 7 }), stored: await this.services_store().read(key) } });
  }

  services_store(): CacheStore {
    return this.services.store as CacheStore;
  }

  async expire(): Promise<void> {
    const name = String(this.params.name);
    this.render({ text: String(await this.expire_fragment(name.startsWith('/') ? new RegExp(name.slice(1)) : name)) });
  }
}

const templates: Record<string, Template> = {
  'pages/index.html': async (v: any) => html`<main>${await v.cache('sidebar', () => v.sidebar_markup())}</main>`,
};

for (const [label, makeStore] of [['memory', () => memoryStore()], ['file', () => fileStore(scratchDir('fragments'))]] as const) {
  const options = (store: CacheStore, counts: Counts) => ({
    views: memoryViews(templates),
    cache_store: store,
    services: { counts, store },
    draw: (map: import('../../../core/index.ts').Mapper) => {
      map.connect('pages/:action/:id', { controller: 'pages' });
      map.connect('pages/:action', { controller: 'pages' });
    },
  });

  test(`[${label}] a template's cache block renders once, then comes from the store until expired`, async () => {
    const counts = { sidebar: 0 };
    const store = makeStore();
    await withApp({ pages: PagesController }, options(store, counts), async (s) => {
      assert.is((await s.get('/pages/index')).body, '<main>sidebar #1</main>');
      assert.is((await s.get('/pages/index')).body, '<main>sidebar #1</main>');
      assert.is(counts.sidebar, 1);
      assert.is(await store.read('views/sidebar'), 'sidebar #1');
      assert.is((await s.get('/pages/expire?name=sidebar')).body, '1');
      assert.is((await s.get('/pages/index')).body, '<main>sidebar #2</main>');
    });
  });

  test(`[${label}] controllers write, read and test fragments; expire_fragment takes a name or a RegExp`, async () => {
    const counts = { sidebar: 0 };
    const store = makeStore();
    await withApp({ pages: PagesController }, options(store, counts), async (s) => {
      const first = JSON.parse((await s.get('/pages/notes?text=hi')).body) as Record<string, unknown>;
      assert.equal(first, { before: false, written: '<p>hi</p>', read: '<p>hi</p>', missing: null });
      const second = JSON.parse((await s.get('/pages/notes?text=again')).body) as Record<string, unknown>;
      assert.is(second.before, true);
      assert.is((await s.get('/pages/expire?name=/^views\\/no')).body, '1');
      assert.is(await store.exist('views/notes'), false);
    });
  });

  test(`[${label}] a route hash names the fragment by host and path, as Rails keys it`, async () => {
    const counts = { sidebar: 0 };
    const store = makeStore();
    await withApp({ pages: PagesController }, options(store, counts), async (s) => {
      assert.equal(JSON.parse((await s.get('/pages/by_route')).body), { read: 'seven', stored: 'seven' });
    });
  });
}

test('with perform_caching off, fragments are rendered every time and never stored', async () => {
  const counts = { sidebar: 0 };
  const store = memoryStore();
  await withApp({ pages: PagesController }, {
    views: memoryViews(templates), cache_store: store, services: { counts, store }, config: { perform_caching: false },
    draw: (map) => map.connect('pages/:action', { controller: 'pages' }),
  }, async (s) => {
    await s.get('/pages/index');
    assert.is((await s.get('/pages/index')).body, '<main>sidebar #2</main>');
    assert.is(store.size, 0);
  });
});

test('an expiry relayed from another process empties this process\'s store and stops its renders under way from storing', async () => {
  const counts = { sidebar: 0 };
  const store = memoryStore();
  await withApp({ pages: PagesController }, {
    views: memoryViews(templates), cache_store: store, services: { counts, store },
    draw: (map) => map.connect('pages/:action', { controller: 'pages' }),
  }, async (s) => {
    await s.get('/pages/index');
    assert.is(store.read('views/sidebar'), 'sidebar #1');
    const before = s.app.caching.generation;
    await s.app.caching.applyRelayed({ kind: 'entries', source: '^views/sidebar$', flags: '' });
    assert.is(store.read('views/sidebar'), undefined);
    assert.ok(s.app.caching.generation > before, 'renders that began before it store nothing');
  });
});

test('expiries are published to a relay when one is set, and the expiry settles only once the relay has', async () => {
  const store = memoryStore();
  const published: unknown[] = [];
  let release!: () => void;
  await withApp({ pages: PagesController }, {
    views: memoryViews(templates), cache_store: store, services: { counts: { sidebar: 0 }, store },
    draw: (map) => map.connect('pages/:action', { controller: 'pages' }),
  }, async (s) => {
    const stop = s.app.caching.useRelay({
      publish(expiry) {
        published.push(expiry);
        return new Promise<void>((resolve) => { release = resolve; });
      },
    });
    store.write('views/notes', 'n');
    let settled = false;
    const expiry = Promise.resolve(s.app.caching.expire_fragment('notes')).then((n) => { settled = true; return n; });
    await new Promise((r) => setTimeout(r, 20));
    assert.is(settled, false, 'waits for the other processes');
    release();
    assert.is(await expiry, 1);
    assert.equal(published, [{ kind: 'entries', source: '^views\\/notes(?:\\.[^/;]*|;accept=.*)?$', flags: 's' }]);
    stop();
    await s.app.caching.expire_fragment('notes');
    assert.is(published.length, 1, 'no relay once stopped');
  });
});

test.run();
