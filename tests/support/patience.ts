/**
 * How long a test waits for another process to do what it should (start, restart, print a line): the
 * runner's own deadline for a test or hook (SIGNALBOX_TEST_TIMEOUT_MS, 60 s by default, as
 * tests/harness/run.ts reads it), less a margin to report what was seen instead. A fixed wait shorter
 * than that fails on a loaded or slower machine before the runner would: a server that restarts in 2 s
 * on an idle machine took over 20 with three test suites running beside it.
 */
export const PATIENCE_MS = Math.max(1_000, (Number(process.env.SIGNALBOX_TEST_TIMEOUT_MS) || 60_000) - 5_000);

/** Calls `check` every `everyMs` until it is true or PATIENCE_MS have passed; whether it came true. */
export async function eventually(check: () => boolean, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((wait) => setTimeout(wait, everyMs));
  }
}
