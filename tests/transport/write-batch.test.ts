/**
 * WriteBatch: answers queued during one turn of the event loop leave
 * together once the loop has read what was ready, in arrival order, and a
 * full batch leaves at once.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WriteBatch } from '../../transport/write-batch.ts';

const test = suite('WriteBatch holds answers until the loop has read what is ready');
const turn = () => new Promise((r) => setImmediate(r));

test('answers queued in one turn are written after it, together and in order', async () => {
  const written: string[] = [];
  const batch = new WriteBatch<string, number>((target, n) => written.push(`${target}:${n}`));
  batch.add('a', 1);
  batch.add('b', 2);
  batch.add('c', 3);
  assert.equal(written, [], 'nothing leaves during the turn that queued it');
  assert.is(batch.size, 3);
  await turn();
  assert.equal(written, ['a:1', 'b:2', 'c:3']);
  assert.is(batch.size, 0);
});

test('a full batch is written at once, so no answer waits behind more than max others', async () => {
  const written: number[] = [];
  const batch = new WriteBatch<string, number>((_t, n) => written.push(n), 3);
  for (let n = 1; n <= 7; n++) batch.add('x', n);
  assert.equal(written, [1, 2, 3, 4, 5, 6]);
  await turn();
  assert.equal(written, [1, 2, 3, 4, 5, 6, 7]);
});

test('answers queued while a batch is being written leave in that same flush', async () => {
  const written: number[] = [];
  const batch: WriteBatch<string, number> = new WriteBatch((_t, n) => {
    written.push(n);
    if (n === 1) batch.add('x', 10);
  });
  batch.add('x', 1);
  batch.add('x', 2);
  await turn();
  assert.equal(written, [1, 2, 10]);
  assert.is(batch.size, 0);
});

test('each later turn gets its own flush', async () => {
  const written: number[][] = [];
  let current: number[] = [];
  const batch = new WriteBatch<string, number>((_t, n) => current.push(n));
  batch.add('x', 1);
  await turn();
  written.push(current);
  current = [];
  batch.add('x', 2);
  batch.add('x', 3);
  await turn();
  written.push(current);
  assert.equal(written, [[1], [2, 3]]);
});

test.run();
