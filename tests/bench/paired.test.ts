/**
 * Paired ratios between two servers' slices (bench/support/paired.ts): the median of per-pass
 * ratios, and a bootstrap interval that narrows as the passes agree.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pairedRatio } from '../../bench/support/paired.ts';
import { rng } from '../../bench/support/plan.ts';

test('a drift both servers share cancels out of the paired ratio', () => {
  // The host slows down and speeds up; server a is always 10% faster than b in the same pass.
  const host = [1, 0.7, 1.2, 0.8, 1.1, 0.6, 1.3];
  const b = host.map((h) => 30_000 * h);
  const a = b.map((x) => x * 1.1);
  const estimate = pairedRatio(a, b, rng(1));
  assert.ok(Math.abs(estimate.ratio - 1.1) < 1e-9);
  assert.ok(Math.abs(estimate.low - 1.1) < 1e-9 && Math.abs(estimate.high - 1.1) < 1e-9, 'identical ratios leave no spread');
  assert.is(estimate.pairs, 7);
});

test('the interval holds the median and widens with disagreeing passes', () => {
  const b = Array.from({ length: 30 }, () => 100);
  const tight = pairedRatio(b.map((x, i) => x * (1.05 + (i % 3) * 0.01)), b, rng(2));
  const loose = pairedRatio(b.map((x, i) => x * (1.05 + ((i % 7) - 3) * 0.1)), b, rng(2));
  for (const e of [tight, loose]) assert.ok(e.low <= e.ratio && e.ratio <= e.high, `${e.low} ≤ ${e.ratio} ≤ ${e.high}`);
  assert.ok(loose.high - loose.low > tight.high - tight.low);
});

test('the same seed gives the same interval', () => {
  const a = [5, 7, 6, 9, 4, 8];
  const b = [6, 6, 6, 7, 5, 7];
  assert.equal(pairedRatio(a, b, rng(3)), pairedRatio(a, b, rng(3)));
});

test('passes missing a measurement are left out; mismatched or empty inputs are refused', () => {
  assert.is(pairedRatio([10, 0, 12], [5, 6, 6], rng(1)).pairs, 2);
  assert.throws(() => pairedRatio([1, 2], [1], rng(1)), /same passes/);
  assert.throws(() => pairedRatio([0], [1], rng(1)), /no pass/);
});

test.run();
