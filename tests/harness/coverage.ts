/**
 * `run.ts --coverage`: the run under V8 coverage with c8's report, and the run's account still
 * last. `c8 node run.ts` would print its tables after the runner's closing line; here the run is
 * a child process writing V8 coverage to a temporary directory. Its output passes through, but
 * its account (skips, the list of failures, the closing line) comes on a channel of its own
 * (SUMMARY_FD_VARIABLE) and is printed after `c8 report` (thresholds from .c8rc.json): a reader
 * of the log's last lines, as CI shows them, sees which tests failed, not only how many.
 * Coverage below a threshold fails the run and counts in the closing line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

const CLOSING = /^(\d+) passed, (\d+) failed, (\d+) skipped$/;

/** Names the file descriptor on which a run under coverage writes its account instead of stdout. */
export const SUMMARY_FD_VARIABLE = 'SIGNALBOX_TEST_SUMMARY_FD';
const SUMMARY_FD = 3;

export async function runWithCoverage(script: string, args: readonly string[]): Promise<number> {
  // A directory of its own, so a run inside another run (the runner's tests) leaves the outer one's data alone.
  const temp = mkdtempSync(join(tmpdir(), 'signalbox-coverage-'));

  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    env: { ...process.env, NODE_V8_COVERAGE: temp, [SUMMARY_FD_VARIABLE]: String(SUMMARY_FD) },
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
  });
  let summary = '';
  (child.stdio[SUMMARY_FD] as Readable).setEncoding('utf8').on('data', (chunk: string) => { summary += chunk; });
  const testsCode = await new Promise<number>((done) => {
    child.on('close', (code, signal) => { done(code ?? (signal === null ? 1 : 128)); });
  });
  if (summary === '') {
    // Killed before it could give its account: still a failed run, and still a closing line.
    summary = `\nFailures:\n  1. the test process ended (${testsCode}) without giving its account\n0 passed, 1 failed, 0 skipped\n`;
  }

  const c8 = resolve(dirname(createRequire(import.meta.url).resolve('c8/package.json')), 'bin', 'c8.js');
  const report = spawnSync(process.execPath, [c8, 'report', '--temp-directory', temp], { stdio: 'inherit' });
  const coverageMet = report.status === 0;
  rmSync(temp, { recursive: true, force: true });

  const lines = summary.trimEnd().split('\n');
  const counts = CLOSING.exec(lines.at(-1) ?? '');
  if (coverageMet || counts === null) {
    process.stdout.write(summary);
  } else {
    const [, passed, failed, skipped] = counts;
    process.stdout.write(`\nThe run fails as well because coverage is below the thresholds in .c8rc.json (see c8's report above).\n`);
    process.stdout.write(`${lines.slice(0, -1).join('\n')}\n${passed} passed, ${Number(failed) + 1} failed, ${skipped} skipped\n`);
  }
  return testsCode !== 0 ? testsCode : coverageMet ? 0 : 1;
}
