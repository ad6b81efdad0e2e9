/**
 * The in-memory cache store: read/write/delete, expiry on its own clock,
 * the least recently used entry evicted first past either bound (entries,
 * bytes), delete_matched, and values that no reader can change.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError } from '../../../core/errors.ts';
import { memoryStore, MEMORY_STORE_DEFAULTS } from '../../../core/caching/index.ts';

const isArgumentError = (e: unknown) => e instanceof ArgumentError;

const test = suite('memoryStore keeps values in memory, bounded, least recently used out first');

test('reads what was written; a missing key reads undefined; delete says whether there was one', () => {
  const store = memoryStore();
  assert.is(store.read('a'), undefined);
  assert.is(store.write('a', 'one'), true);
  assert.is(store.read('a'), 'one');
  assert.is(store.write('a', { n: 2, list: [1, 'x', null], bytes: new Uint8Array([1, 2]) }), true);
  assert.equal(store.read('a'), { n: 2, list: [1, 'x', null], bytes: new Uint8Array([1, 2]) });
  assert.is(store.delete('a'), true);
  assert.is(store.delete('a'), false);
  assert.is(store.read('a'), undefined);
  assert.is(store.size, 0);
  assert.is(store.bytes, 0);
});

test('the defaults: 10,000 entries and 32 MiB', () => {
  const store = memoryStore();
  assert.equal([store.maxEntries, store.maxBytes], [MEMORY_STORE_DEFAULTS.maxEntries, MEMORY_STORE_DEFAULTS.maxBytes]);
  assert.equal(MEMORY_STORE_DEFAULTS, { maxEntries: 10_000, maxBytes: 32 * 1024 * 1024 });
});

test('expires_in (seconds) ends an entry on the store clock, not before', () => {
  let now = 1_000_000;
  const store = memoryStore({ now: () => now });
  store.write('short', 's', { expires_in: 5 });
  store.write('forever', 'f');
  now += 4_999;
  assert.is(store.read('short'), 's');
  now += 1;
  assert.is(store.read('short'), undefined);
  assert.is(store.size, 1, 'an expired entry is dropped when read');
  now += 10 ** 9;
  assert.is(store.read('forever'), 'f');
});

test('expires_in must be a positive number of seconds; keys must be non-empty strings', () => {
  const store = memoryStore();
  for (const expires_in of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
    assert.throws(() => store.write('k', 'v', { expires_in }), isArgumentError, String(expires_in));
  }
  for (const key of ['', 1, null, undefined, {}]) assert.throws(() => store.read(key as string), isArgumentError, String(key));
  assert.throws(() => memoryStore({ maxEntries: 0 }), isArgumentError);
  assert.throws(() => memoryStore({ maxBytes: 1.5 }), isArgumentError);
});

test('past maxEntries the least recently used entry goes, and a read counts as a use', () => {
  const store = memoryStore({ maxEntries: 3 });
  store.write('a', 1);
  store.write('b', 2);
  store.write('c', 3);
  assert.is(store.read('a'), 1, 'a is now the most recently used');
  store.write('d', 4);
  assert.is(store.read('b'), undefined, 'b was the least recently used');
  assert.equal(['a', 'c', 'd'].map((k) => store.read(k)), [1, 3, 4]);
  assert.is(store.size, 3);
  store.write('c', 30);
  store.write('e', 5);
  assert.is(store.read('a'), undefined, 'rewriting c made a the oldest');
  assert.equal(['c', 'd', 'e'].map((k) => store.read(k)), [30, 4, 5]);
});

test('past maxBytes entries go oldest first; a value larger than the store is refused and leaves the rest', () => {
  const store = memoryStore({ maxBytes: 100 });
  store.write('a', 'x'.repeat(40));
  store.write('b', 'y'.repeat(40));
  assert.ok(store.bytes <= 100);
  store.write('c', 'z'.repeat(40));
  assert.is(store.read('a'), undefined);
  assert.is(store.read('b'), 'y'.repeat(40));
  assert.is(store.read('c'), 'z'.repeat(40));
  assert.ok(store.bytes <= 100, String(store.bytes));
  assert.is(store.write('huge', 'h'.repeat(200)), false);
  assert.is(store.read('huge'), undefined);
  assert.is(store.read('b'), 'y'.repeat(40), 'a refused write evicts nothing');
  // Rewriting a key with a value too large drops the old value: the key never reads stale.
  assert.is(store.write('b', 'h'.repeat(200)), false);
  assert.is(store.read('b'), undefined);
});

test('bytes counts UTF-8 text and byte arrays, and goes back to zero', () => {
  const store = memoryStore();
  store.write('k', 'é'.repeat(10));
  assert.ok(store.bytes >= 21, String(store.bytes));
  store.write('b', new Uint8Array(1000));
  assert.ok(store.bytes >= 1021);
  store.clear();
  assert.equal([store.size, store.bytes], [0, 0]);
});

test('delete_matched removes keys matching a RegExp (global flags ignored) or containing a string', () => {
  const store = memoryStore();
  for (const key of ['views/a.com/posts/1.json', 'views/a.com/posts/1;accept=html', 'views/b.com/posts/1.xml', 'views/a.com/posts/10.json', 'other']) store.write(key, key);
  assert.is(store.delete_matched(/^views\/[^/]*\/posts\/1(?:\.|;|$)/g), 3);
  assert.is(store.delete_matched(/^views\/[^/]*\/posts\/1(?:\.|;|$)/g), 0, 'a global RegExp keeps no lastIndex between calls');
  assert.equal(['views/a.com/posts/10.json', 'other'].map((k) => store.read(k)), ['views/a.com/posts/10.json', 'other']);
  assert.is(store.delete_matched('posts/'), 1);
  assert.is(store.size, 1);
  assert.throws(() => store.delete_matched(42 as unknown as string), isArgumentError);
});

test('what a reader gets cannot be changed for the next reader', () => {
  const store = memoryStore();
  const value = { headers: { a: '1' }, list: [1] };
  store.write('k', value);
  const read = store.read('k') as { headers: Record<string, string>; list: number[] };
  assert.throws(() => {
    read.headers.a = '2';
  });
  assert.throws(() => read.list.push(2));
  assert.equal(store.read('k'), { headers: { a: '1' }, list: [1] });
});

test.run();
