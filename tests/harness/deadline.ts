/**
 * A test whose work grows with its input (a flood of 100,000 requests, say) asks for time in
 * proportion to it, rather than every slower machine needing a longer SIGNALBOX_TEST_TIMEOUT_MS:
 * the runner's deadline is there to catch what hangs, and work that is long by design is not that.
 * The extension lasts for the test (or hook) running now.
 */
let extendRunning: ((ms: number) => void) | null = null;

/** Gives the test or hook running now `ms` more before it times out. Outside one it does nothing. */
export function allowMoreTime(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`allowMoreTime takes a number of milliseconds, not ${ms}`);
  extendRunning?.(ms);
}

/** The runner's side: what extends the deadline of the body now running (null once it settled). */
export function onExtension(extend: ((ms: number) => void) | null): void {
  extendRunning = extend;
}
