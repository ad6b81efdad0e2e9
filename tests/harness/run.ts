/**
 * The test runner behind `npm test`:
 *
 *   node --import tsx tests/harness/run.ts [--coverage] [dir] [pattern]
 *
 * runs every TypeScript file under `dir` (default: tests) whose path matches `pattern` (a regular
 * expression; default: \.test\.ts$), so a pattern naming a folder never loads its data or notes.
 * Files are written as ordinary uvu suites; see uvu.ts for why uvu's own runner is not used to
 * run them. The run fails (exit code 1), naming the cause, when a test fails, a hook throws, a
 * rejection goes unhandled, an exception goes uncaught, a file does not load, tests are registered
 * and never run, the process exits before the end, or no test runs at all. It ends with one plain
 * line: `N passed, M failed, K skipped`. With --coverage the run is measured and c8's report
 * printed before that line (coverage.ts).
 *
 * SIGNALBOX_TEST_TIMEOUT_MS bounds each test and hook (default 60000). SIGNALBOX_TEST_LINGER_MS is
 * how long what a test left open may keep a finished run alive (default 10000) before the run is
 * ended with the culprits named. CI=true turns an absent prerequisite (Unavailable) and a
 * left-over `.only` into failures.
 */
import { readdirSync, statSync, writeSync } from 'node:fs';
import { register } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runWithCoverage, SUMMARY_FD_VARIABLE } from './coverage.ts';
import { describePosition, executeSuite, position } from './execute.ts';
import { describeError, Tally } from './tally.ts';
import { inCI } from './unavailable.ts';
import { loading, takeQueue, unqueued } from './uvu.ts';

const DEFAULT_TIMEOUT_MS = 60_000;
/** How long a finished run may linger (open sockets, timers) before it is ended and the culprits named. */
const DEFAULT_LINGER_MS = 10_000;

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

function testFiles(dir: string, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = entry.split(sep).join('/');
    if (path.split('/').includes('node_modules') || !path.endsWith('.ts') || !pattern.test(path)) continue;
    if (statSync(resolve(dir, entry)).isFile()) found.push(resolve(dir, entry));
  }
  return found.sort();
}

function milliseconds(variable: string, fallback: number): number {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${variable} must be a positive whole number of milliseconds, not ${JSON.stringify(raw)}`);
  return value;
}

/**
 * Where the run's account goes: stdout, or under --coverage the descriptor the parent named, so
 * that it can print the account after c8's report. Taken out of the environment so that runs the
 * tests start get stdout.
 */
function accountWriter(): (text: string) => void {
  const fd = process.env[SUMMARY_FD_VARIABLE];
  delete process.env[SUMMARY_FD_VARIABLE];
  if (fd === undefined) return (text) => { process.stdout.write(text); };
  return (text) => { writeSync(Number(fd), text); };
}

async function main(args: string[]): Promise<void> {
  const account = accountWriter();
  const [dirArg = 'tests', patternArg = '\\.test\\.ts$'] = args;
  const dir = resolve(dirArg);
  const pattern = new RegExp(patternArg, 'i');
  const lingerMs = milliseconds('SIGNALBOX_TEST_LINGER_MS', DEFAULT_LINGER_MS);
  const options = { timeoutMs: milliseconds('SIGNALBOX_TEST_TIMEOUT_MS', DEFAULT_TIMEOUT_MS), ci: inCI(), write: (text: string) => { process.stdout.write(text); } };
  const tally = new Tally();
  const started = performance.now();
  let finished = false;

  const stray = (what: string, error: unknown): void => {
    if (!finished) {
      tally.fail(`${what}, ${describePosition()}`, error);
      return;
    }
    // After the closing line: too late to count, not too late to fail the run.
    process.stderr.write(`${what}, after the last test:\n${describeError(error)}`);
    process.exitCode = 1;
  };
  process.on('unhandledRejection', (reason) => { stray('a promise rejection nobody handled', reason); });
  process.on('uncaughtException', (error) => { stray('an uncaught exception', error); });
  process.on('exit', (code) => {
    if (finished) return;
    tally.fail(`the process exited (code ${code}) before the run finished, ${describePosition()}`);
    process.stdout.write(tally.unprinted());
    account(tally.summary((performance.now() - started) / 1000));
    process.exitCode = 1;
  });

  register('./redirect-uvu.mjs', import.meta.url);

  const files = testFiles(dir, pattern);
  for (const file of files) {
    const name = relative(process.cwd(), file).split(sep).join('/');
    loading(name);
    position.loading = name;
    let loaded = true;
    try {
      await import(pathToFileURL(file).href);
    } catch (error) {
      loaded = false;
      tally.fail(`${name} did not load`, error);
    }
    position.loading = null;
    // A file that threw at its top level never reached its .run() calls; saying so again is noise.
    for (const u of unqueued()) {
      if (!loaded) continue;
      const where = u.suite === '' ? 'its default suite' : `"${u.suite}"`;
      tally.fail(`${u.file} registered ${plural(u.count, 'test')} in ${where} and never ran them (no .run() after them)`, undefined, u.count);
    }
  }

  let lastFile = '';
  for (const s of takeQueue()) {
    if (s.file !== lastFile) process.stdout.write(`\n${s.file}\n`);
    lastFile = s.file;
    await executeSuite(s, tally, options);
  }

  if (tally.passed + tally.failures.length === 0) {
    tally.fail(files.length === 0
      ? `no test ran: no file under ${relative(process.cwd(), dir) || '.'} matches /${pattern.source}/`
      : `no test ran: ${plural(files.length, 'file')} matched, ${tally.skipped > 0 ? `and all ${plural(tally.skipped, 'test')} were skipped` : 'and none registered a test'}`);
  }
  finished = true;
  process.stdout.write(tally.unprinted());
  account(tally.summary((performance.now() - started) / 1000));
  process.exitCode = tally.failed > 0 ? 1 : 0;

  // A test that left a server or a timer running would otherwise keep CI waiting until its limit.
  setTimeout(() => {
    process.stderr.write(`the run finished ${lingerMs} ms ago and something still keeps the process alive (${process.getActiveResourcesInfo().join(', ')}): a test left it open\n`);
    process.exit();
  }, lingerMs).unref();
}

const args = process.argv.slice(2);
if (args[0] === '--coverage') process.exitCode = await runWithCoverage(fileURLToPath(import.meta.url), args.slice(1));
else await main(args);
