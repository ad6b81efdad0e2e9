/**
 * Timing-ratio checks: "ten times the input costs at most about ten times
 * the time", measured so that a busy, shared machine cannot fail them by
 * chance. Each size is timed as the median of several runs; the smaller
 * size is grown until one run takes a few milliseconds (so timer resolution
 * and fixed costs do not dominate); and the ratio allowed is generous (a
 * quadratic cost gives about 100, a linear one about 10). A failing ratio is
 * measured again before it counts. Not a test file itself.
 */
import * as assert from 'uvu/assert';

/** Median milliseconds of `runs` calls of `work` (after one warm-up call). */
export async function medianMs(work: () => unknown, runs = 5): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Sizes stop growing here (the large input is ten times this many repetitions). */
const MAX_SIZE = 1 << 16;

export interface LinearOptions {
  /** The size to start calibrating from. */
  readonly start?: number;
  /** Grow the small size until one run takes this long. Default 3 ms. */
  readonly minMs?: number;
  /** The largest ratio of the two medians accepted for 10× the input. Default 30. */
  readonly maxRatio?: number;
}

/**
 * Asserts that `make(10n)` costs at most `maxRatio` times `make(n)`. `make(size)` returns the work for an
 * input of that size (build the input outside the returned function).
 */
export async function assertLinear(label: string, make: (size: number) => () => unknown, options: LinearOptions = {}): Promise<void> {
  const { start = 256, minMs = 3, maxRatio = 30 } = options;
  let size = start;
  while ((await medianMs(make(size), 3)) < minMs) {
    // Still this cheap at this size: the work is bounded whatever the size (an input refused at a limit, say).
    if (size >= MAX_SIZE) return;
    size *= 2;
  }
  const ratios: number[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const small = await medianMs(make(size));
    const large = await medianMs(make(size * 10));
    ratios.push(large / small);
    if (large / small <= maxRatio) return;
  }
  assert.unreachable(`${label}: 10× the input (size ${size} → ${size * 10}) cost ${ratios.map((r) => r.toFixed(1)).join(', ')}× the time`);
}
