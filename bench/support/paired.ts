/**
 * Paired comparisons between two servers. On a shared host, slices measured in the same pass (a few
 * seconds apart) see nearly the same machine, while medians of whole rounds still carry the drift
 * between rounds. The ratio of two servers' slices from each pass cancels that common drift; the
 * median of those ratios, with a bootstrap interval, says how sure the comparison is.
 */
import { median } from './results.ts';

export interface PairedEstimate {
  /** Median of the per-pass ratios. */
  readonly ratio: number;
  /** Bounds of the interval holding the median in `level` of the resamples. */
  readonly low: number;
  readonly high: number;
  /** Pairs the estimate rests on. */
  readonly pairs: number;
}

/**
 * The median ratio `a[i] / b[i]` over passes, with a percentile-bootstrap interval for it
 * (resampling passes with replacement). Passes where either value is not a positive number are left out.
 * @example pairedRatio([10, 12], [9, 12], rng(1)) // { ratio: 1.0556, low: 1, high: 1.1111, pairs: 2 }
 */
export function pairedRatio(a: readonly number[], b: readonly number[], random: () => number, options: { resamples?: number; level?: number } = {}): PairedEstimate {
  if (a.length !== b.length) throw new Error(`paired values need the same passes: ${a.length} against ${b.length}`);
  const ratios = a.flatMap((x, i) => (x > 0 && b[i] > 0 ? [x / b[i]] : []));
  if (ratios.length === 0) throw new Error('no pass measured both servers');
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.9;
  const medians = new Float64Array(resamples);
  const draw = new Array<number>(ratios.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < ratios.length; i++) draw[i] = ratios[Math.floor(random() * ratios.length)];
    medians[r] = median(draw);
  }
  medians.sort();
  const tail = (1 - level) / 2;
  const at = (q: number) => medians[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))];
  return { ratio: median(ratios), low: at(tail), high: at(1 - tail), pairs: ratios.length };
}
