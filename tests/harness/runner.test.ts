/**
 * The test runner, run as `npm test` runs it (a child process) over the small suites in
 * fixtures/: every way a run can go wrong makes it exit non-zero and name the cause, an absent
 * prerequisite is a skip locally and a failure in CI, and the last line of its output is always
 * the plain `N passed, M failed, K skipped`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Outcome { code: number | null; stdout: string; stderr: string; closing: string }

/** Runs the runner over one fixture file with a clean environment plus `env`. */
function runFixture(name: string, env: Record<string, string> = {}, flags: readonly string[] = [], dir = 'tests/harness/fixtures'): Promise<Outcome> {
  const inherited = { ...process.env };
  // The parent's coverage collection, CI flag and runner settings must not leak into the child.
  for (const key of ['CI', 'NODE_V8_COVERAGE', 'SIGNALBOX_TEST_TIMEOUT_MS', 'SIGNALBOX_TEST_LINGER_MS', 'FORCE_COLOR']) delete inherited[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/harness/run.ts', ...flags, dir, `^${name}\\.ts$`], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => {
      const lines = stdout.split('\n');
      assert.is(lines.pop(), '', 'the output ends with a newline');
      done({ code, stdout, stderr, closing: lines.pop() ?? '' });
    });
  });
}

const test = suite('the test runner fails loudly and says why');

test('a passing run exits 0 and closes with the counts, skipped tests included', async () => {
  const run = await runFixture('passing');
  assert.is(run.code, 0, run.stdout);
  assert.is(run.closing, '3 passed, 0 failed, 1 skipped');
  assert.match(run.stdout, '"is not finished yet": marked .skip');
});

test('a before hook that throws fails the run, names the hook and the error, and counts its tests as failed', async () => {
  const run = await runFixture('before-hook-throws');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'the before hook of "needs a database" (tests/harness/fixtures/before-hook-throws.ts) threw, so its 4 tests did not run');
  assert.match(run.stdout, 'Error: could not connect to the database');
  assert.match(run.stdout, 'before-hook-throws.ts:5:');
  assert.is(run.closing, '1 passed, 4 failed, 0 skipped', 'the next suite still runs');
});

test('an after hook that throws fails the run', async () => {
  const run = await runFixture('after-hook-throws');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'the after hook of "cleans up" (tests/harness/fixtures/after-hook-throws.ts) threw');
  assert.match(run.stdout, 'temporary folder already gone');
  assert.is(run.closing, '1 passed, 1 failed, 0 skipped');
});

test('before.each and after.each hooks that throw fail the test they ran around', async () => {
  const run = await runFixture('each-hooks-throw');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'the before.each hook of "before.each fails once" (tests/harness/fixtures/each-hooks-throw.ts) › "second" threw');
  assert.match(run.stdout, 'fixture 2 is broken');
  assert.match(run.stdout, 'the after.each hook of "after.each fails" (tests/harness/fixtures/each-hooks-throw.ts) › "passes by itself" threw');
  assert.match(run.stdout, 'could not reset the clock');
  assert.is(run.closing, '2 passed, 2 failed, 0 skipped');
});

test('an unhandled rejection fails the run and says during which test it happened', async () => {
  const run = await runFixture('unhandled-rejection');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'a promise rejection nobody handled, during "forgets a promise" (tests/harness/fixtures/unhandled-rejection.ts) › "starts work and does not wait for it"');
  assert.match(run.stdout, 'the forgotten write failed');
  assert.is(run.closing, '2 passed, 1 failed, 0 skipped');
});

test('an uncaught exception fails the run and the run goes on', async () => {
  const run = await runFixture('uncaught-exception');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'an uncaught exception, during "throws from a callback"');
  assert.match(run.stdout, 'TypeError: callback exploded');
  assert.is(run.closing, '1 passed, 1 failed, 0 skipped');
});

test('tests registered and never run (no .run()) fail the run', async () => {
  const run = await runFixture('never-run');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'tests/harness/fixtures/never-run.ts registered 2 tests in "forgotten" and never ran them (no .run() after them)');
  assert.is(run.closing, '1 passed, 2 failed, 0 skipped');
});

test('a run in which no test ran fails', async () => {
  const run = await runFixture('no-tests');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'no test ran: 1 file matched, and none registered a test');
  assert.is(run.closing, '0 passed, 1 failed, 0 skipped');
});

test('a run that matches no file fails', async () => {
  const run = await runFixture('no-such-fixture');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'no test ran: no file under tests/harness/fixtures matches /^no-such-fixture\\.ts$/');
  assert.is(run.closing, '0 passed, 1 failed, 0 skipped');
});

test('a file that throws while loading fails the run', async () => {
  const run = await runFixture('does-not-load');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'tests/harness/fixtures/does-not-load.ts did not load');
  assert.match(run.stdout, 'configuration file missing');
  assert.is(run.closing, '0 passed, 1 failed, 0 skipped');
});

test('a test that never settles fails after the timeout and the next test runs', async () => {
  const run = await runFixture('hangs', { SIGNALBOX_TEST_TIMEOUT_MS: '300', SIGNALBOX_TEST_LINGER_MS: '300' });
  assert.is(run.code, 1);
  assert.match(run.stdout, '"waits forever" (tests/harness/fixtures/hangs.ts) › "awaits a promise that never settles": TimedOut: did not finish within 300 ms');
  assert.is(run.closing, '1 passed, 1 failed, 0 skipped');
  // The interval the test started is still running: the run ends anyway and names what kept it alive.
  assert.match(run.stderr, /the run finished 300 ms ago and something still keeps the process alive \(.*Timeout.*\): a test left it open/);
});

test('a test that asks for more time gets it, and only as much as it asked for', async () => {
  const run = await runFixture('long-by-design', { SIGNALBOX_TEST_TIMEOUT_MS: '300' });
  assert.is(run.code, 1);
  assert.not.match(run.stdout, '"asks for the time its work takes": TimedOut');
  assert.match(run.stdout, '"takes as long without asking": TimedOut: did not finish within 300 ms (a promise');
  assert.match(run.stdout, '"asks for too little": TimedOut: did not finish within 400 ms (the time it asked for included)');
  assert.is(run.closing, '1 passed, 2 failed, 0 skipped');
});

test('a rejection after the last test still fails the run, on stderr since the closing line is written', async () => {
  const run = await runFixture('late-rejection');
  assert.is(run.code, 1);
  assert.is(run.closing, '1 passed, 0 failed, 0 skipped');
  assert.match(run.stderr, 'a promise rejection nobody handled, after the last test:\nError: the late write failed');
});

test('a test that exits the process early fails the run, even with exit code 0', async () => {
  const run = await runFixture('exits-early');
  assert.is(run.code, 1);
  assert.match(run.stdout, 'the process exited (code 0) before the run finished, during "leaves early" (tests/harness/fixtures/exits-early.ts) › "calls process.exit(0)"');
  assert.is(run.closing, '0 passed, 1 failed, 0 skipped');
});

test('a failed assertion shows the difference and where it was made', async () => {
  const run = await runFixture('failing-assertion');
  assert.is(run.code, 1);
  assert.match(run.stdout, '"compares" (tests/harness/fixtures/failing-assertion.ts) › "a wrong total"');
  assert.match(run.stdout, 'Expected values to be deeply equal');
  assert.match(run.stdout, 'failing-assertion.ts:5:');
  assert.is(run.closing, '1 passed, 1 failed, 0 skipped');
});

test('the closing line is plain text, even when colours are forced', async () => {
  const run = await runFixture('failing-assertion', { FORCE_COLOR: '1' });
  assert.is(run.closing, '1 passed, 1 failed, 0 skipped');
});

test('with --coverage, c8\'s report comes before the closing line, and coverage below the thresholds fails the run', async () => {
  const run = await runFixture('passing', {}, ['--coverage']);
  assert.is(run.code, 1);
  assert.match(run.stdout, 'Coverage summary');
  assert.match(run.stdout, 'coverage is below the thresholds in .c8rc.json');
  assert.ok(run.stdout.indexOf('Coverage summary') < run.stdout.lastIndexOf('3 passed'), 'the report precedes the closing line');
  assert.is(run.closing, '3 passed, 1 failed, 1 skipped');
});

test('with --coverage, the list of failures follows c8\'s report, so the log\'s last lines name them', async () => {
  const run = await runFixture('failing-assertion', {}, ['--coverage']);
  assert.is(run.code, 1);
  const report = run.stdout.indexOf('Coverage summary');
  const list = run.stdout.lastIndexOf('\nFailures:\n');
  assert.ok(report !== -1 && list > report, 'the list of failures comes after the report');
  assert.match(run.stdout.slice(list), '1. "compares" (tests/harness/fixtures/failing-assertion.ts) › "a wrong total"');
  assert.is(run.closing, '1 passed, 2 failed, 0 skipped', 'the failed test and the coverage below the thresholds');
});

const absent = suite('a test that needs something absent is never silently green');

absent('locally it is skipped and its reason printed', async () => {
  const run = await runFixture('unavailable');
  assert.is(run.code, 0, run.stdout);
  assert.match(run.stdout, '"in a browser" (tests/harness/fixtures/unavailable.ts) (2 tests): no browser at /nowhere/chromium: install one');
  assert.match(run.stdout, '"against redis" (tests/harness/fixtures/unavailable.ts) › "stores": redis-server is not on PATH');
  assert.is(run.closing, '1 passed, 0 failed, 3 skipped');
});

absent('with CI=true it fails', async () => {
  const run = await runFixture('unavailable', { CI: 'true' });
  assert.is(run.code, 1);
  assert.match(run.stdout, '"in a browser" (tests/harness/fixtures/unavailable.ts) needs what is absent (CI=true), so its 2 tests fail');
  assert.match(run.stdout, 'no browser at /nowhere/chromium: install one');
  assert.is(run.closing, '1 passed, 3 failed, 0 skipped');
});

/**
 * A suite with a focused test, written when the test runs into the untracked tests/artifacts/ and removed
 * after it: kept on disk, it would be the very left-over focus the runner refuses in CI.
 */
function focusedFixture(): string {
  const dir = 'tests/artifacts/harness-focused';
  mkdirSync(resolve(ROOT, dir), { recursive: true });
  const focus = 'only';
  writeFileSync(resolve(ROOT, dir, 'only.ts'), [
    "import { suite } from 'uvu';",
    "import * as assert from 'uvu/assert';",
    "const test = suite('focused');",
    "test('left out', () => { assert.ok(true); });",
    `test.${focus}('the one being worked on', () => { assert.ok(true); });`,
    "test('also left out', () => { assert.ok(true); });",
    'test.run();',
    '',
  ].join('\n'));
  return dir;
}

absent('a .only left in a suite skips the rest locally and fails in CI', async () => {
  const dir = focusedFixture();
  try {
    const local = await runFixture('only', {}, [], dir);
    assert.is(local.code, 0);
    assert.is(local.closing, '1 passed, 0 failed, 2 skipped');
    const ci = await runFixture('only', { CI: 'true' }, [], dir);
    assert.is(ci.code, 1);
    assert.match(ci.stdout, '"focused" (tests/artifacts/harness-focused/only.ts) uses .only (CI=true)');
    assert.is(ci.closing, '1 passed, 2 failed, 0 skipped');
  } finally {
    // Gone once it has served: a focused test left on disk is what the runner exists to refuse.
    rmSync(resolve(ROOT, dir), { recursive: true, force: true });
  }
});

test.run();
absent.run();
