/**
 * Adding the slices of a benchmark run together (bench/support/slices.ts): throughput as requests
 * over seconds, percentiles read off the request-weighted mixture of the slices' distributions.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { combineSlices, mixtureQuantile, type Quantiles, type SliceFigures } from '../../bench/support/slices.ts';

/** A distribution uniform between `lo` and `hi` ms, as 1,001 quantile points like wrk's. */
const uniform = (lo: number, hi: number): Quantiles => Array.from({ length: 1001 }, (_, i) => [i / 1000, lo + ((hi - lo) * i) / 1000] as const);

const slice = (rps: number, seconds: number, latency: Quantiles, extra: Partial<SliceFigures> = {}): SliceFigures => ({
  rps, requests: rps * seconds, p50: NaN, p99: NaN, latency, serverCpu: 1, loadCpu: 0.4, foreign: 0, errors: null, ...extra,
});

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} is not ${expected}`);

test('one distribution gives back its own percentiles', () => {
  close(mixtureQuantile([{ weight: 5, latency: uniform(1, 3) }], 0.5), 2, 'p50');
  close(mixtureQuantile([{ weight: 5, latency: uniform(1, 3) }], 0.99), 2.98, 'p99');
});

test('equal distributions mix into the same one, whatever their weights', () => {
  const same = [{ weight: 1, latency: uniform(2, 4) }, { weight: 9, latency: uniform(2, 4) }];
  close(mixtureQuantile(same, 0.5), 3, 'p50');
  close(mixtureQuantile(same, 0.99), 3.98, 'p99');
});

test('a mixture weighs each slice by its requests: the slow tail of a small slice moves p99 only as far as its share', () => {
  // 99% of the requests take 1–2 ms, 1% take 10–20 ms: p99 sits where the fast ones end.
  const mixed = [{ weight: 99, latency: uniform(1, 2) }, { weight: 1, latency: uniform(10, 20) }];
  close(mixtureQuantile(mixed, 0.99), 2, 'p99');
  close(mixtureQuantile(mixed, 0.5), 1 + 50 / 99, 'p50');
  // With ten times the slow share, p99 lands inside the slow slice's range.
  const slower = [{ weight: 90, latency: uniform(1, 2) }, { weight: 10, latency: uniform(10, 20) }];
  close(mixtureQuantile(slower, 0.99), 19, 'p99 of the slower mixture');
});

test('slices without a distribution are left out, and none at all is an error', () => {
  close(mixtureQuantile([{ weight: 10, latency: [] }, { weight: 10, latency: uniform(0, 1) }], 0.5), 0.5, 'p50');
  assert.throws(() => mixtureQuantile([{ weight: 10, latency: [] }], 0.5), /no latency distribution/);
});

test('a run from its slices: requests over seconds, CPU weighted by time, the worst disturbance, every error', () => {
  const run = combineSlices([
    slice(30_000, 2, uniform(1, 2), { serverCpu: 1, foreign: 0.01 }),
    slice(10_000, 2, uniform(3, 4), { serverCpu: 0.5, foreign: 0.2, errors: 'Socket errors: 1' }),
  ]);
  assert.is(run.requests, 80_000);
  close(run.rps, 20_000, 'req/s');
  close(run.serverCpu, 0.75, 'server CPU');
  assert.is(run.foreign, 0.2);
  assert.is(run.errors, 'Socket errors: 1');
  // Three quarters of the requests came from the fast slice, so the median is inside its range.
  close(run.p50, 1 + 0.5 / 0.75, 'p50');
  close(run.p99, 3 + (0.99 - 0.75) / 0.25, 'p99');
});

test('a run of one slice is that slice', () => {
  const only = slice(12_345, 10, uniform(1, 2), { p50: 1.4, p99: 1.9 });
  assert.is(combineSlices([only]), only);
});

test.run();
