/**
 * uvu's registration API (`suite()`, `test`, `.before`, `.after`, `.before.each`, `.after.each`,
 * `.only`, `.skip`, `.run()`), kept as data for run.ts to execute. While run.ts runs the tests,
 * every `import … from 'uvu'` resolves to this module (redirect-uvu.mjs), so a suite written the
 * ordinary uvu way needs no change. uvu's own runner cannot be trusted with failures: it calls the
 * `after` hooks from a `finally` block that returns, which swallows whatever a `before` hook threw,
 * and it counts a suite that ran none of its tests as a success.
 *
 * As in uvu, `.run()` queues what the suite registered so far and starts it afresh, so a suite
 * object can be filled and run again; the queue runs once every file has been imported.
 */
import type { Callback, Test } from 'uvu';

export type State = Record<string, unknown> & { __suite__: string; __test__: string };
type Handler = Callback<Record<string, unknown>>;

export interface TestCase {
  readonly name: string;
  readonly handler: Handler;
}

export interface Hooks {
  readonly before: readonly Handler[];
  readonly after: readonly Handler[];
  readonly beforeEach: readonly Handler[];
  readonly afterEach: readonly Handler[];
}

/** One `.run()` of one suite, as queued. */
export interface QueuedSuite {
  readonly file: string;
  readonly name: string;
  readonly state: State;
  /** The tests to run: the `.only` ones when there are any, otherwise all. */
  readonly tests: readonly TestCase[];
  /** Tests left out because the suite has `.only` tests. */
  readonly excluded: readonly string[];
  /** Names given to `.skip` (uvu allows none: then the suite's name stands in). */
  readonly skipped: readonly string[];
  readonly usesOnly: boolean;
  readonly hooks: Hooks;
}

/** Tests a file registered and never queued with `.run()`. */
export interface Unqueued {
  readonly file: string;
  readonly suite: string;
  readonly count: number;
}

interface Registrations {
  tests: TestCase[];
  only: TestCase[];
  skipped: string[];
  before: Handler[];
  after: Handler[];
  beforeEach: Handler[];
  afterEach: Handler[];
}

const fresh = (): Registrations => ({ tests: [], only: [], skipped: [], before: [], after: [], beforeEach: [], afterEach: [] });

interface SuiteRecord {
  readonly name: string;
  readonly state: State;
  pending: Registrations;
}

const suites: SuiteRecord[] = [];
let queue: QueuedSuite[] = [];
let loadingFile = '';

function queueRun(record: SuiteRecord): void {
  const { pending } = record;
  record.pending = fresh();
  const usesOnly = pending.only.length > 0;
  queue.push({
    file: loadingFile,
    name: record.name,
    state: record.state,
    tests: usesOnly ? pending.only : pending.tests,
    excluded: usesOnly ? pending.tests.map((t) => t.name) : [],
    skipped: pending.skipped,
    usesOnly,
    hooks: { before: pending.before, after: pending.after, beforeEach: pending.beforeEach, afterEach: pending.afterEach },
  });
}

export function suite<T = Record<string, unknown>>(name = '', state?: T): Test<T> {
  const context = (state ?? {}) as State;
  context.__suite__ = name;
  context.__test__ = '';
  const record: SuiteRecord = { name, state: context, pending: fresh() };
  suites.push(record);
  const add = (name: string, handler: Handler): void => { record.pending.tests.push({ name, handler }); };
  const before = Object.assign((hook: Handler) => { record.pending.before.push(hook); }, {
    each: (hook: Handler) => { record.pending.beforeEach.push(hook); },
  });
  const after = Object.assign((hook: Handler) => { record.pending.after.push(hook); }, {
    each: (hook: Handler) => { record.pending.afterEach.push(hook); },
  });
  const api = Object.assign(add, {
    before,
    after,
    only: (name: string, handler: Handler) => { record.pending.only.push({ name, handler }); },
    skip: (name?: string) => { record.pending.skipped.push(name ?? (record.name || '(unnamed test)')); },
    run: () => { queueRun(record); },
  });
  return api as unknown as Test<T>;
}

/** uvu's default suite, shared by every file that imports `test`. */
export const test = suite();

/** uvu exports `exec`; under run.ts the runner alone executes the queue. */
export function exec(): Promise<void> {
  return Promise.reject(new Error('tests/harness/run.ts runs the suites; exec() is not available under it'));
}

/** Marks the file whose top level is about to register suites. */
export function loading(file: string): void {
  loadingFile = file;
}

/**
 * What the file just loaded registered and never queued (a missing `.run()`, or a test added
 * after it). uvu would have run those tests with the next file's suite, or not at all.
 */
export function unqueued(): Unqueued[] {
  const found: Unqueued[] = [];
  for (const record of suites) {
    const count = record.pending.tests.length + record.pending.only.length;
    if (count > 0) found.push({ file: loadingFile, suite: record.name, count });
    record.pending = fresh();
  }
  return found;
}

/** Hands the queued runs over, in the order `.run()` was called. */
export function takeQueue(): QueuedSuite[] {
  const taken = queue;
  queue = [];
  return taken;
}
