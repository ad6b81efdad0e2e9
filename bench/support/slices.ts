/**
 * One run made of slices. On a shared machine the speed of the whole host drifts over tens of
 * seconds, so a 10 s run of one server and the next server's 10 s run can see quite different
 * machines. Cutting each run into short slices, interleaved with every other server's slices, puts
 * every server on the same stretch of host time; the slices are then added up into one run.
 *
 * Throughput adds as requests over seconds. Latency percentiles do not add: each slice's latency
 * distribution (quantile points from the load generator) is mixed with the others, weighted by its
 * request count, and the percentile read off the mixture.
 */

import type { LoadResult } from './wrk.ts';

/** A latency distribution as `[p, ms]` points, p from 0 (the fastest) to 1 (the slowest), ascending. */
export type Quantiles = readonly (readonly [number, number])[];

/** What one slice of a run measured: a load run's figures, without its command line. */
export type SliceFigures = Readonly<Omit<LoadResult, 'command'>>;

/** The share of requests at or below `x` ms in one distribution (linear between its points). */
function cdf(points: Quantiles, x: number): number {
  if (x < points[0][1]) return 0;
  const last = points[points.length - 1];
  if (x >= last[1]) return 1;
  let lo = 0;
  let hi = points.length - 1;
  // The last point at or below x; points are ascending in both p and ms.
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid][1] <= x) lo = mid;
    else hi = mid;
  }
  const [p0, x0] = points[lo];
  const [p1, x1] = points[hi];
  return x1 > x0 ? p0 + ((p1 - p0) * (x - x0)) / (x1 - x0) : p1;
}

/**
 * The q-quantile (0 < q < 1) of several latency distributions taken together, each weighted
 * (by its request count): the latency below which a share q of all their requests fell.
 * @example mixtureQuantile([{ weight: 10, latency: a }, { weight: 30, latency: b }], 0.99)
 */
export function mixtureQuantile(samples: readonly { readonly weight: number; readonly latency: Quantiles }[], q: number): number {
  const used = samples.filter((s) => s.weight > 0 && s.latency.length > 0);
  if (used.length === 0) throw new Error('no latency distribution to read a percentile from');
  const total = used.reduce((sum, s) => sum + s.weight, 0);
  const share = (x: number) => used.reduce((sum, s) => sum + s.weight * cdf(s.latency, x), 0) / total;
  let lo = Math.min(...used.map((s) => s.latency[0][1]));
  let hi = Math.max(...used.map((s) => s.latency[s.latency.length - 1][1]));
  // The mixture's share is monotone in x, so halving the interval converges on the smallest x reaching q.
  for (let i = 0; i < 100 && hi - lo > 1e-9; i++) {
    const mid = (lo + hi) / 2;
    if (share(mid) >= q) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** One run from its slices: requests over seconds, percentiles of the mixed latencies, mean CPU, worst disturbance. */
export function combineSlices(slices: readonly SliceFigures[]): SliceFigures {
  if (slices.length === 1) return slices[0];
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const seconds = slices.map((s) => (s.rps > 0 ? s.requests / s.rps : 0));
  const time = seconds.reduce((a, b) => a + b, 0);
  const weighted = (field: 'serverCpu' | 'loadCpu') => slices.reduce((sum, s, i) => sum + s[field] * seconds[i], 0) / (time || 1);
  const mixed = slices.map((s) => ({ weight: s.requests, latency: s.latency }));
  const errors = slices.map((s) => s.errors).filter((e): e is string => e !== null);
  return {
    rps: time > 0 ? requests / time : 0,
    requests,
    p50: mixtureQuantile(mixed, 0.5),
    p99: mixtureQuantile(mixed, 0.99),
    latency: [],
    serverCpu: weighted('serverCpu'),
    loadCpu: weighted('loadCpu'),
    foreign: Math.max(...slices.map((s) => s.foreign)),
    errors: errors.length > 0 ? errors.join('; ') : null,
  };
}
