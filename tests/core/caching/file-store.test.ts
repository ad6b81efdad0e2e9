/**
 * The file cache store: entries survive the store object (another one over
 * the same directory reads them), expire on the store's clock, and live
 * only in files named by the SHA-256 of their key, so no key reaches
 * outside the directory. Writes are atomic: readers racing writers of one
 * key only ever see whole values. Files the store did not make are never
 * read as entries nor removed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError } from '../../../core/errors.ts';
import { fileStore } from '../../../core/caching/index.ts';
import { storeContract } from './store-contract.ts';
import { scratchDir } from '../../support/temp.ts';

const test = suite('fileStore keeps entries in files named by the hash of their key, written atomically');

const isArgumentError = (e: unknown) => e instanceof ArgumentError;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)))
    .sort();
}

test('values round-trip through JSON files, bytes and awkward object keys included', async () => {
  const dir = join(scratchDir('file-store'), 'cache');
  const store = fileStore(dir);
  assert.is(await store.read('missing'), undefined, 'before the directory exists');
  const value = {
    text: 'héllo', n: 3.5, yes: true, none: null, list: [1, 'two', [3]],
    // A computed `__proto__` is an own key, as JSON.parse makes it.
    bytes: new Uint8Array([0, 255, 10, 13]), $b: 'not bytes', $$: 'dollars', ['__proto__']: 'just a key',
  };
  assert.is(await store.write('k', value), true);
  const again = await fileStore(dir).read('k');
  assert.equal(again, value);
  assert.is(Object.getPrototypeOf(again), Object.prototype, 'a "__proto__" key stays a key');
  assert.ok((again as { bytes: unknown }).bytes instanceof Uint8Array);
  assert.is(await store.read('K'), undefined);
  assert.is(await store.delete('k'), true);
  assert.is(await store.delete('k'), false);
  assert.is(await store.read('k'), undefined);
});

test('expires_in ends an entry on the store clock; an expired file is removed when read', async () => {
  let now = 5_000;
  const dir = scratchDir('file-store-expiry');
  const store = fileStore(dir, { now: () => now });
  await store.write('soon', 'v', { expires_in: 2 });
  await store.write('later', 'w');
  now += 1_999;
  assert.is(await store.read('soon'), 'v');
  now += 1;
  assert.is(await store.read('soon'), undefined);
  assert.not.ok(existsSync(store.pathFor('soon')));
  assert.is(await store.read('later'), 'w');
  let refused = false;
  try {
    await store.write('x', 'y', { expires_in: -3 });
  } catch (error) {
    refused = isArgumentError(error);
  }
  assert.ok(refused);
});

test('no key names a path: traversal, separators, NUL, drive letters and 10 KB keys all land in hashed files', async () => {
  const parent = scratchDir('file-store-keys');
  const dir = join(parent, 'cache');
  const store = fileStore(dir);
  const KEYS = [
    '../../../../etc/passwd', '..', '.', '/', '/absolute/path', 'a/../../b', 'back\\slash\\..\\..\\x', 'nul\u0000byte',
    'C:\\Windows\\system32', '%2e%2e%2f%2e%2e', 'views/example.com/posts/1.json', 'x'.repeat(10_000), 'ünïcödé/路径', ' ', '\n',
  ];
  for (const [i, key] of KEYS.entries()) await store.write(key, `value ${i}`);
  for (const [i, key] of KEYS.entries()) assert.is(await store.read(key), `value ${i}`, JSON.stringify(key.slice(0, 40)));
  assert.equal(readdirSync(parent), ['cache'], 'nothing written beside the directory');
  const files = filesUnder(dir);
  assert.is(files.length, KEYS.length, 'one file per key, no collisions');
  for (const file of files) assert.match(file, new RegExp(`^[0-9a-f]{2}\\${sep}[0-9a-f]{64}$`), file);
  for (const key of KEYS) assert.ok(store.pathFor(key).startsWith(dir + sep));
  assert.throws(() => store.pathFor(''), isArgumentError);
});

test('delete_matched and clear touch only entries: other files in the directory stay, and are never read as entries', async () => {
  const dir = scratchDir('file-store-matched');
  const store = fileStore(dir);
  for (const key of ['views/a.com/posts/1.json', 'views/a.com/posts/1;accept=html,all', 'views/b.com/posts/1.xml', 'views/a.com/posts/12.json', 'session/1']) {
    await store.write(key, key);
  }
  writeFileSync(join(dir, 'README'), 'mine');
  mkdirSync(join(dir, 'zz'));
  writeFileSync(join(dir, 'zz', 'notes.txt'), 'mine too');
  const inSubdir = join(store.pathFor('session/1'), '..', 'not-an-entry');
  writeFileSync(inSubdir, '{"key":"views/a.com/posts/1.json","expires_at":null}\n"forged"');
  assert.is(await store.delete_matched(/^views\/[^/]*\/posts\/1(?:\.|;|$)/), 3);
  assert.is(await store.read('views/a.com/posts/12.json'), 'views/a.com/posts/12.json');
  assert.is(await store.delete_matched('session/'), 1);
  await store.clear();
  assert.is(await store.read('views/a.com/posts/12.json'), undefined);
  assert.equal(filesUnder(dir).filter((f) => !/^[0-9a-f]{2}\//.test(f) || f.endsWith('not-an-entry')), ['README', join('zz', 'notes.txt'), relative(dir, inSubdir)].sort());
  assert.is(readFileSync(join(dir, 'README'), 'utf8'), 'mine');
});

test("delete_matched reads every header right, keys longer than the peek at a file's start among short ones", async () => {
  const dir = scratchDir('file-store-long-keys');
  const store = fileStore(dir);
  const long = (c: string) => `views/${c.repeat(70 * 1024)}`;
  const KEYS = ['views/a', long('b'), 'views/c', long('d'), 'other/e', `other/${'f'.repeat(70 * 1024)}`, 'views/g'];
  for (const key of KEYS) await store.write(key, key.slice(0, 10));
  assert.is(await store.delete_matched(/^views\//), 5);
  for (const key of KEYS) assert.is(await store.read(key), key.startsWith('views/') ? undefined : key.slice(0, 10), key.slice(0, 10));
  assert.is(await store.delete_matched('other/'), 2);
  assert.equal(filesUnder(dir), []);
});

test('a damaged file, or one holding another key (a hash collision), reads as absent', async () => {
  const dir = scratchDir('file-store-damaged');
  const store = fileStore(dir);
  await store.write('a', 'A');
  writeFileSync(store.pathFor('a'), 'not json at all');
  assert.is(await store.read('a'), undefined);
  writeFileSync(store.pathFor('a'), '{"key":"b","expires_at":null}\n"B"');
  assert.is(await store.read('a'), undefined);
  writeFileSync(store.pathFor('a'), '{"key":"a","expires_at":null}\n{broken');
  assert.is(await store.read('a'), undefined);
  await store.write('a', 'fixed');
  assert.is(await store.read('a'), 'fixed');
});

test('writers racing on one key never leave a torn value: every read is one whole value, no temporary file remains', async () => {
  const dir = scratchDir('file-store-race');
  const store = fileStore(dir);
  const values = Array.from({ length: 12 }, (_, i) => String.fromCharCode(97 + i).repeat(256 * 1024));
  const reads: Promise<unknown>[] = [];
  const writes = values.map(async (v, i) => {
    await store.write('race', v);
    reads.push(store.read('race'), fileStore(dir).read('race'));
    if (i % 3 === 0) reads.push(store.read('race'));
  });
  for (let i = 0; i < 20; i++) reads.push(store.read('race'));
  await Promise.all(writes);
  const seen = await Promise.all(reads);
  for (const v of seen) assert.ok(v === undefined || values.includes(v as string), `torn read of ${String(v).length} characters`);
  assert.ok(values.includes((await store.read('race')) as string));
  assert.equal(filesUnder(dir), [relative(dir, store.pathFor('race'))], 'one entry file, no leftovers');
});

storeContract(test, () => fileStore(scratchDir('file-store-contract')));

test.run();
