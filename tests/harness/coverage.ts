/**
 * `run.ts --coverage`: the run under V8 coverage with c8's report, and the closing line still
 * last. `c8 node run.ts` would print its tables after the runner's closing line; here the run is
 * a child process writing V8 coverage to a temporary directory, its output passes through except
 * the closing line, which is printed after `c8 report` (thresholds from .c8rc.json). Coverage
 * below a threshold fails the run and counts in the closing line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const CLOSING = /^(\d+) passed, (\d+) failed, (\d+) skipped$/;

/** Passes `chunk`s through, holding back the last line until `end()`. */
class HoldLastLine {
  private held = '';
  constructor(private readonly write: (text: string) => void) {}

  push(chunk: string): void {
    this.held += chunk;
    const body = this.held.endsWith('\n') ? this.held.slice(0, -1) : this.held;
    const cut = body.lastIndexOf('\n');
    if (cut === -1) return;
    this.write(this.held.slice(0, cut + 1));
    this.held = this.held.slice(cut + 1);
  }

  end(): string {
    const last = this.held;
    this.held = '';
    return last;
  }
}

export async function runWithCoverage(script: string, args: readonly string[]): Promise<number> {
  // A directory of its own, so a run inside another run (the runner's tests) leaves the outer one's data alone.
  const temp = mkdtempSync(join(tmpdir(), 'signalbox-coverage-'));

  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    env: { ...process.env, NODE_V8_COVERAGE: temp },
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  const out = new HoldLastLine((text) => { process.stdout.write(text); });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { out.push(chunk); });
  const testsCode = await new Promise<number>((done) => {
    child.on('close', (code, signal) => { done(code ?? (signal === null ? 1 : 128)); });
  });
  const closing = out.end();

  const c8 = resolve(dirname(createRequire(import.meta.url).resolve('c8/package.json')), 'bin', 'c8.js');
  const report = spawnSync(process.execPath, [c8, 'report', '--temp-directory', temp], { stdio: 'inherit' });
  const coverageMet = report.status === 0;
  rmSync(temp, { recursive: true, force: true });

  const counts = CLOSING.exec(closing.trimEnd());
  if (coverageMet || counts === null) {
    process.stdout.write(closing);
  } else {
    const [, passed, failed, skipped] = counts;
    process.stdout.write(`\nFailures:\n  coverage is below the thresholds in .c8rc.json (see c8's report above)\n`);
    process.stdout.write(`${passed} passed, ${Number(failed) + 1} failed, ${skipped} skipped\n`);
  }
  return testsCode !== 0 ? testsCode : coverageMet ? 0 : 1;
}
