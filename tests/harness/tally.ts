/**
 * The run's account: what passed, what was skipped and why, and every failure with its cause.
 * Failures are not only failed tests: a hook that threw, a rejection nobody handled, a file that
 * would not load, tests registered and never run, a run with no test at all. Each counts in the
 * closing line's "failed", so the line never reads "0 failed" on a run that exits non-zero.
 */
import { inspect } from 'node:util';

export interface Failure {
  /** One line naming what failed and where. */
  readonly title: string;
  /** What was thrown, when something was. */
  readonly error?: unknown;
  /** How many of the closing line's failures this stands for (the tests a failed `before` hook kept from running). */
  readonly count: number;
}

export interface Skip {
  readonly where: string;
  readonly reason: string;
  readonly count: number;
}

export class Tally {
  passed = 0;
  readonly failures: Failure[] = [];
  readonly skips: Skip[] = [];
  /** Failures already printed in full; the rest are printed at the next opportunity. */
  private printed = 0;

  get failed(): number {
    return this.failures.reduce((sum, f) => sum + f.count, 0);
  }

  get skipped(): number {
    return this.skips.reduce((sum, s) => sum + s.count, 0);
  }

  fail(title: string, error?: unknown, count = 1): void {
    this.failures.push(error === undefined ? { title, count } : { title, error, count });
  }

  skip(where: string, reason: string, count = 1): void {
    this.skips.push({ where, reason, count });
  }

  /** Full accounts of the failures recorded since the last call. */
  unprinted(): string {
    const fresh = this.failures.slice(this.printed);
    this.printed = this.failures.length;
    return fresh.map((f) => `\n  ✘ ${f.title}\n${f.error === undefined ? '' : indent(describeError(f.error), '    ')}`).join('');
  }

  /** The end of the run: reasons for skips, the list of failures, and the closing line, alone on the last line. */
  summary(seconds: number): string {
    let text = '';
    if (this.skips.length > 0) {
      text += '\nSkipped:\n' + this.skips.map((s) => `  - ${s.where}${s.count > 1 ? ` (${s.count} tests)` : ''}: ${s.reason}\n`).join('');
    }
    if (this.failures.length > 0) {
      text += '\nFailures:\n' + this.failures.map((f, i) => `  ${i + 1}. ${f.title}${f.error === undefined ? '' : `: ${firstLine(f.error)}`}\n`).join('');
    }
    text += `\nDuration: ${seconds.toFixed(1)} s\n`;
    return `${text}${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped\n`;
  }
}

function indent(text: string, by: string): string {
  return text.split('\n').map((line) => (line === '' ? line : by + line)).join('\n') + '\n';
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : inspect(error);
  return text.split('\n')[0]!;
}

/** Frames worth reading: not Node's internals, not a dependency's, not the runner's own. */
const NOISE = /\(node:|at node:|[\\/]node_modules[\\/]|[\\/]tests[\\/]harness[\\/](?:execute|run|tally|uvu)\.ts:/;

/** An error as a person debugging it wants it: name, message, the assertion's diff, the useful frames, the cause. */
export function describeError(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return `thrown: ${inspect(error)}\n`;
  let text = `${error.name}: ${error.message}\n`;
  const details = (error as { details?: unknown }).details;
  if (typeof details === 'string' && details !== '') text += `${details.trimEnd()}\n`;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line) && !NOISE.test(line)).slice(0, 8);
  for (const frame of frames) text += `  ${frame.trim()}\n`;
  if (error.cause !== undefined && depth < 3) text += `cause: ${describeError(error.cause, depth + 1)}`;
  return text;
}
