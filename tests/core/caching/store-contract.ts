/**
 * What every cache store does, whatever keeps its entries (memory, files,
 * Redis): Rails' `ActiveSupport::Cache` operations, awaited, since any store
 * may answer with promises. Each store's own suite runs these against a
 * fresh store. Not a test file itself.
 */
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CacheStore, CacheValue } from '../../../core/caching/index.ts';

/** Adds the contract's tests to `test`; `make` gives a fresh, empty store for each test. */
export function storeContract(test: Test, make: () => CacheStore | Promise<CacheStore>): void {
  test('contract: reads what was written, undefined when absent; exist and delete say whether there was one', async () => {
    const store = await make();
    assert.is(await store.read('a'), undefined);
    assert.is(await store.exist('a'), false);
    assert.is(await store.write('a', 'one'), true);
    assert.is(await store.read('a'), 'one');
    assert.is(await store.exist('a'), true);
    assert.is(await store.delete('a'), true);
    assert.is(await store.delete('a'), false);
    assert.is(await store.exist('a'), false);
  });

  test('contract: values come back as written: text, numbers, nesting, bytes, and keys that look special', async () => {
    const store = await make();
    const value: CacheValue = {
      text: 'ünïcødé \u2028', n: 1.5, yes: true, nothing: null, list: [1, 'two', [3]],
      bytes: new Uint8Array([0, 255, 10]), $b: 'not bytes', '$$': 'dollars',
    };
    Object.defineProperty(value, '__proto__', { value: 'a key like any other', enumerable: true });
    await store.write('v', value);
    const back = (await store.read('v')) as Record<string, CacheValue>;
    assert.equal(back, value);
    assert.is(Object.getPrototypeOf(back), Object.prototype, 'a __proto__ key stays a key');
    assert.is(Object.prototype.hasOwnProperty.call(back, '__proto__'), true);
    await store.write('bytes', new Uint8Array([1, 2, 3]));
    assert.equal(await store.read('bytes'), new Uint8Array([1, 2, 3]));
  });

  test('contract: fetch computes and writes on a miss, answers from the store on a hit, and recomputes with force', async () => {
    const store = await make();
    let runs = 0;
    const compute = () => `computed ${++runs}`;
    assert.is(await store.fetch('f', compute), 'computed 1');
    assert.is(await store.read('f'), 'computed 1');
    assert.is(await store.fetch('f', compute), 'computed 1');
    assert.is(runs, 1);
    assert.is(await store.fetch('f', { force: true }, compute), 'computed 2');
    assert.is(await store.read('f'), 'computed 2');
    assert.equal(await store.fetch('g', { expires_in: 60 }, async () => ({ from: 'a promise' })), { from: 'a promise' });
    assert.equal(await store.read('g'), { from: 'a promise' });
  });

  test('contract: fetch refuses a missing block and a nonsensical expires_in', async () => {
    const store = await make();
    await rejects(() => store.fetch('k', undefined as unknown as () => CacheValue), /function/);
    await rejects(() => store.fetch('k', { expires_in: -1 }, () => 'x'), /expires_in/);
    await rejects(() => store.write('k', 'v', { expires_in: 0 }), /expires_in/);
    await rejects(() => store.read(''), /non-empty string/);
  });

  test('contract: delete_matched removes the keys a RegExp or a string matches, and says how many', async () => {
    const store = await make();
    for (const key of ['views/a.com/posts/1.html', 'views/a.com/posts/1.json', 'views/a.com/posts/10.html', 'views/b.com/posts/1;accept=all', 'other']) {
      await store.write(key, key);
    }
    assert.is(await store.delete_matched(/^views\/[^/]*\/posts\/1(?:\.[^/;]*|;accept=.*)?$/g), 3);
    assert.is(await store.read('views/a.com/posts/10.html'), 'views/a.com/posts/10.html');
    assert.is(await store.delete_matched('posts/10'), 1);
    assert.is(await store.delete_matched(/nothing/), 0);
    assert.is(await store.read('other'), 'other');
  });

  test('contract: clear removes every entry', async () => {
    const store = await make();
    await store.write('x', 1);
    await store.write('y', 2);
    await store.clear();
    assert.is(await store.read('x'), undefined);
    assert.is(await store.read('y'), undefined);
  });
}

/** Passes when `run` throws or rejects with a message matching `pattern`. */
async function rejects(run: () => unknown, pattern: RegExp): Promise<void> {
  try {
    await run();
  } catch (error) {
    assert.match(String((error as Error).message), pattern);
    return;
  }
  assert.unreachable(`expected an error matching ${pattern}`);
}
