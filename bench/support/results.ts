/**
 * Shared helpers for the benchmarks: medians, machine description, and
 * writing one section of `bench/RESULTS.md` without disturbing the others.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
/** bench/RESULTS.md, or the file BENCH_RESULTS names (a smoke run's figures belong elsewhere). */
const RESULTS = process.env.BENCH_RESULTS || join(BENCH_DIR, 'RESULTS.md');

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** Replaces (or appends) the section between `<!-- name:start -->` and `<!-- name:end -->`. */
export function writeSection(name: string, markdown: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n\nEach section is written by its benchmark (`npm run bench:<name>`); figures are medians from one run on the machine named in the section, and ratios compare against a peer measured in the same run.\n';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  text = a >= 0 && b > a ? text.slice(0, a) + block + text.slice(b + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS, text);
  console.log(`wrote the ${name} section of ${RESULTS}`);
}

/** Numbers for tables: thousands separated, milliseconds with sensible digits, shares of a core. */
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
export const pct = (n: number) => `${Math.round(n * 100)}%`;

/** What a load run reports, as the console line of each attempt shows it. */
export interface LoadFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly serverCpu: number;
  readonly loadCpu: number;
  readonly foreign: number;
  readonly errors?: string | null;
}

/** Logs each attempt of a load run: `round 2 compiled/json  12,345 req/s  p50 ... others 0.00 cores`. */
export function logLoad(pad: number): (r: LoadFigures, key: string, round: number, attempt: number) => void {
  return (r, key, round, attempt) => {
    if (r.errors) console.warn(`  warning: ${key}: ${r.errors}`);
    console.log(`round ${round + 1} ${key.padEnd(pad)} ${fmt(r.rps).padStart(7)} req/s  p50 ${ms(r.p50)} ms  p99 ${ms(r.p99)} ms  CPU server ${pct(r.serverCpu)} load ${pct(r.loadCpu)} others ${r.foreign.toFixed(2)} cores${attempt ? ` (retry ${attempt})` : ''}`);
  };
}
