/**
 * The small helpers at the bottom of core/: telling a thenable from a value,
 * and continuing after a value that may or may not be one without leaving
 * the synchronous path when it is not.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isThenable, thenOrNow, untraced } from '../../core/util.ts';

const test = suite('isThenable and thenOrNow');

test('isThenable: promises and any object or function with a then method; nothing else', () => {
  const fn = Object.assign(() => undefined, { then: () => undefined });
  for (const yes of [Promise.resolve(1), { then: () => undefined }, fn]) assert.ok(isThenable(yes), String(yes));
  for (const no of [undefined, null, 0, 'then', {}, { then: 1 }, [], () => undefined]) assert.not.ok(isThenable(no), String(no));
});

test('thenOrNow continues at once after a plain value, and returns what the continuation returns', () => {
  let ran = false;
  const out = thenOrNow(2, (v) => {
    ran = true;
    return v * 3;
  });
  assert.ok(ran, 'no microtask in between');
  assert.is(out, 6);
});

test('thenOrNow waits for a thenable, and hands a rejection to the failure continuation', async () => {
  const fake = (value: number, fail = false): PromiseLike<number> => ({ then: (ok, no) => (fail ? Promise.reject(value) : Promise.resolve(value)).then(ok, no) });
  const out = thenOrNow(fake(2), (v) => v * 3);
  assert.ok(out instanceof Promise, 'a real promise, whatever the thenable was');
  assert.is(await out, 6);
  assert.is(await thenOrNow(fake(5, true), () => 0, (e) => Number(e) + 1), 6);
  await (thenOrNow(fake(5, true), () => 0) as Promise<number>).then(() => assert.unreachable('rejects without a failure continuation'), (e: unknown) => assert.is(e, 5));
});

test('untraced makes an error with no stack frames, and leaves the trace limit as it found it, even when making throws', () => {
  const before = Error.stackTraceLimit;
  const made = untraced(() => new RangeError('no route'));
  assert.instance(made, RangeError);
  assert.is(made.message, 'no route');
  assert.not.match(String(made.stack), /\n\s+at /);
  assert.is(Error.stackTraceLimit, before);
  assert.throws(() => untraced(() => { throw new TypeError('while making'); }), /while making/);
  assert.is(Error.stackTraceLimit, before);
  assert.match(String(new Error('elsewhere').stack), /\n\s+at /, 'errors made elsewhere keep their frames');
});

test.run();
