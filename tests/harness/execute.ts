/**
 * Runs one queued suite the way uvu means it to run (before hooks, then each test between its
 * before.each and after.each hooks, then after hooks), except that nothing is swallowed: a hook
 * that throws is a failure naming the hook, the tests a failed `before` hook kept from running
 * count as failed, and a test or hook that never settles fails after a timeout instead of
 * stalling the run. Something a test needs being absent (Unavailable) skips it, or fails it in CI.
 */
import type { QueuedSuite } from './uvu.ts';
import type { Tally } from './tally.ts';
import { Unavailable } from './unavailable.ts';
import { onExtension } from './deadline.ts';

export interface ExecuteOptions {
  /** Longest a single test or hook may take. */
  readonly timeoutMs: number;
  /** CI run: a test that finds what it needs absent fails rather than skips. */
  readonly ci: boolean;
  readonly write: (text: string) => void;
}

/** Where the run is, so a rejection nobody handled can say during what it happened. */
export const position: { loading: string | null; suite: QueuedSuite | null; test: string | null } = { loading: null, suite: null, test: null };

/** "its 4 tests", "its 1 test". */
export const tests = (n: number): string => `its ${n} test${n === 1 ? '' : 's'}`;

export function suiteLabel(s: QueuedSuite): string {
  return s.name === '' ? s.file : `"${s.name}" (${s.file})`;
}

export function describePosition(): string {
  if (position.loading !== null) return `while loading ${position.loading}`;
  if (position.suite === null) return 'between suites';
  const where = suiteLabel(position.suite);
  return position.test === null ? `in ${where}, outside its tests` : `during ${where} › "${position.test}"`;
}

/** The failure's title already says what did not finish. */
class TimedOut extends Error {
  constructor(ms: number, extended: boolean) {
    super(`did not finish within ${ms} ms${extended ? ' (the time it asked for included)' : ''} (a promise that never settles?); SIGNALBOX_TEST_TIMEOUT_MS allows longer`);
    this.name = 'TimedOut';
  }
}

/**
 * Calls `body`, turning a synchronous throw into a rejection and a hang into a TimedOut. The body may
 * ask for more time (deadline.ts); one body runs at a time, so the extension is always its own.
 */
function settle(body: () => unknown, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let allowed = ms;
  let deadline = performance.now() + ms;
  const timeout = new Promise<never>((_, reject) => {
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => reject(new TimedOut(allowed, allowed !== ms)), Math.max(0, deadline - performance.now()));
    };
    arm();
    onExtension((more) => {
      allowed += more;
      deadline += more;
      arm();
    });
  });
  const done = (): void => {
    clearTimeout(timer);
    onExtension(null);
  };
  return Promise.race([Promise.resolve().then(body), timeout]).then(done, (error: unknown) => { done(); throw error; });
}

/** Runs hooks in order; the first one to throw stops the rest and is returned. */
async function hooks(list: QueuedSuite['hooks']['before'], state: QueuedSuite['state'], what: string, ms: number): Promise<unknown> {
  for (const hook of list) {
    try {
      await settle(() => hook(state), ms);
    } catch (error) {
      return error ?? new Error(`${what} threw ${String(error)}`);
    }
  }
  return undefined;
}

export async function executeSuite(s: QueuedSuite, tally: Tally, options: ExecuteOptions): Promise<void> {
  const label = suiteLabel(s);
  const { state } = s;
  const ms = options.timeoutMs;
  position.suite = s;
  position.test = null;
  state.__suite__ = s.name;
  state.__test__ = '';
  let passed = 0;
  options.write(`  ${s.name === '' ? s.file : s.name}  `);

  for (const name of s.skipped) tally.skip(`${label} › "${name}"`, 'marked .skip');
  if (s.excluded.length > 0) {
    if (options.ci) tally.fail(`${label} uses .only (CI=true): ${tests(s.excluded.length)} left out count as failed`, undefined, s.excluded.length);
    else tally.skip(label, 'left out by .only in the same suite', s.excluded.length);
  }

  const blocked = await hooks(s.hooks.before, state, `the before hook of ${label}`, ms);
  if (blocked !== undefined) {
    const count = Math.max(s.tests.length, 1);
    const skipping = blocked instanceof Unavailable && !options.ci;
    if (skipping) tally.skip(label, blocked.message, s.tests.length);
    else if (blocked instanceof Unavailable) tally.fail(`${label} needs what is absent (CI=true), so ${tests(s.tests.length)} fail`, blocked, count);
    else tally.fail(`the before hook of ${label} threw, so ${tests(s.tests.length)} did not run`, blocked, count);
    options.write(`${(skipping ? '-' : '✘').repeat(s.tests.length)}  (0 / ${s.tests.length})\n`);
  } else {
    for (const t of s.tests) {
      position.test = t.name;
      state.__test__ = t.name;
      const where = `${label} › "${t.name}"`;
      let failure: { error: unknown; title: string } | null = null;
      const before = await hooks(s.hooks.beforeEach, state, `the before.each hook of ${where}`, ms);
      if (before !== undefined) {
        failure = { error: before, title: `the before.each hook of ${where} threw` };
      } else {
        try {
          await settle(() => t.handler(state), ms);
        } catch (error) {
          failure = { error, title: where };
        }
      }
      const after = await hooks(s.hooks.afterEach, state, `the after.each hook of ${where}`, ms);
      if (after !== undefined && failure === null) failure = { error: after, title: `the after.each hook of ${where} threw` };

      if (failure === null) {
        passed++;
        tally.passed++;
        options.write('·');
      } else if (failure.error instanceof Unavailable && !options.ci) {
        tally.skip(where, failure.error.message);
        options.write('-');
      } else {
        const title = failure.error instanceof Unavailable ? `${where} needs what is absent (CI=true)` : failure.title;
        tally.fail(title, failure.error);
        options.write('✘');
      }
    }
    options.write(`  (${passed} / ${s.tests.length})\n`);
  }

  position.test = null;
  state.__test__ = '';
  for (const hook of s.hooks.after) {
    const error = await hooks([hook], state, `the after hook of ${label}`, ms);
    if (error !== undefined) tally.fail(`the after hook of ${label} threw`, error);
  }
  position.suite = null;
  options.write(tally.unprinted());
}
