/**
 * Measuring on a shared machine: CPU used by a process and by the whole machine (from /proc), a
 * wait for an idle machine before each run, and repeating runs that other tenants disturbed, all
 * within a fixed budget of extra time so that a benchmark stays bounded.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { positive } from './plan.ts';
import { sleep } from './processes.ts';

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** utime + stime of a process, in seconds; `self` also gives its reaped children's times. */
export function cpuSeconds(pid: number | 'self'): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the comm field: state is fields[0], so utime (14) is fields[11], stime [12], cutime [13], cstime [14].
  return { own: (Number(fields[11]) + Number(fields[12])) / CLK_TCK, children: (Number(fields[13]) + Number(fields[14])) / CLK_TCK };
}

/** Busy ticks (user + nice + system) of the whole machine, from /proc/stat. */
export function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/);
  return (Number(line[1]) + Number(line[2]) + Number(line[3])) / CLK_TCK;
}

/**
 * The machine is shared: waits (at most maxSeconds) until a `sample`-second sample shows less
 * than `quiet` cores busy with anything, so that runs start on an idle machine. Returns the load
 * seen last, in cores.
 */
export async function waitQuiet(maxSeconds: number, quiet: number, sample: number): Promise<number> {
  const deadline = performance.now() + Math.max(0, maxSeconds) * 1000;
  let load = 0;
  do {
    const a = machineBusySeconds();
    const t = performance.now();
    await sleep(sample);
    load = (machineBusySeconds() - a) / ((performance.now() - t) / 1000);
    if (load < quiet) return load;
  } while (performance.now() < deadline);
  return load;
}

export interface GateOptions {
  /** Cores busy below which the machine counts as quiet. */
  readonly quiet: number;
  /** Longest wait for quiet before a run, in seconds. */
  readonly quietWait: number;
  /** Length of one quiet sample, in seconds. */
  readonly sample: number;
  /** Cores used by others during a run beyond which the run is repeated. */
  readonly maxForeign: number;
  /** Repeats of one run at most. */
  readonly retries: number;
  /** Seconds that waiting and repeating may add to the planned time, in all. */
  readonly slack: number;
  /** Runs planned, and the time each takes without waits or repeats (the sample and the pause after it included). */
  readonly runs: number;
  readonly secondsPerRun: number;
}

/** What the gate needs besides the plan, from the environment. */
export type GateSettings = Omit<GateOptions, 'runs' | 'secondsPerRun'>;

/**
 * The shared-machine guards every load benchmark takes from the environment: QUIET (cores, 0.15)
 * and QUIET_WAIT (s; 20, 1 with QUICK) gate each run's start on an idle machine; a run during which
 * others used more than MAX_FOREIGN cores (0.15) is repeated up to RETRIES times (2; 0 with QUICK),
 * within SLACK seconds in all (60; 20 with QUICK).
 */
export function gateSettings(quick: boolean): GateSettings {
  return {
    quiet: positive('QUIET', 0.15),
    quietWait: positive('QUIET_WAIT', quick ? 1 : 20),
    sample: quick ? 0.25 : 1,
    maxForeign: positive('MAX_FOREIGN', 0.15),
    retries: Number(process.env.RETRIES ?? (quick ? 0 : 2)),
    slack: positive('SLACK', quick ? 20 : 60),
  };
}

/** The environment variables a bench's results page should repeat in its command line. */
export const GATE_ENV = ['QUIET', 'QUIET_WAIT', 'MAX_FOREIGN', 'RETRIES', 'SLACK'] as const;

/** `QUICK=1 DURATION=5 ...`: how the run was asked for, for the results page. */
export function envLine(quick: boolean, names: readonly string[]): string {
  const set = names.filter((k) => k !== 'QUICK' && process.env[k] !== undefined).map((k) => `${k}=${process.env[k]}`);
  return [quick ? 'QUICK=1' : '', ...set].filter(Boolean).join(' ');
}

/**
 * One measurement per call of `measure`, repeated while others took more than `maxForeign` cores
 * during it (at most `retries` times, within the slack left), keeping the least disturbed; each
 * attempt is reported to `report`. `repeats` counts the repeats made.
 */
class NoiseGate {
  readonly #o: GateOptions;
  readonly #deadline: number;
  #done = 0;
  repeats = 0;

  constructor(options: GateOptions) {
    this.#o = options;
    this.#deadline = performance.now() + (options.runs * options.secondsPerRun + options.slack) * 1000;
  }

  async measure<R extends { readonly foreign: number }>(run: () => Promise<R>, report: (r: R, attempt: number) => void): Promise<R> {
    const o = this.#o;
    let best: R | null = null;
    for (let attempt = 0; attempt <= o.retries; attempt++) {
      const left = (this.#deadline - performance.now()) / 1000 - (o.runs - this.#done) * o.secondsPerRun;
      if (attempt > 0 && left <= 0) break;
      await waitQuiet(Math.min(o.quietWait, left), o.quiet, o.sample);
      const r = await run();
      report(r, attempt);
      if (best === null || r.foreign < best.foreign) best = r;
      if (r.foreign <= o.maxForeign) break;
      this.repeats++;
    }
    this.#done++;
    return best!;
  }
}

export interface RoundsPlan<C, R extends { readonly foreign: number }> {
  readonly cells: readonly C[];
  readonly rounds: number;
  readonly gate: GateSettings;
  /** Seconds one run takes without waits or repeats (the sample and the pause after it included). */
  readonly secondsPerRun: number;
  /** Seconds to rest after each run. */
  readonly pause: number;
  /** A cell's name in results, logs and orders (`compiled/json`). */
  readonly key: (cell: C) => string;
  /** The order of one round's cells (shuffled, or as given). */
  readonly order: (cells: readonly C[]) => readonly C[];
  readonly measure: (cell: C) => Promise<R>;
  /** Each attempt, as it ends (a disturbed run is repeated; the least disturbed is kept). */
  readonly report: (r: R, key: string, round: number, attempt: number) => void;
}

/**
 * Every cell once per round, in each round's order, each through the gate: the runs kept, by key,
 * each round's order written out (`a → b → c`) for the results page, and the repeats made.
 */
export async function runRounds<C, R extends { readonly foreign: number }>(plan: RoundsPlan<C, R>): Promise<{ results: Map<string, R[]>; orders: string[]; repeats: number }> {
  const gate = new NoiseGate({ ...plan.gate, runs: plan.cells.length * plan.rounds, secondsPerRun: plan.secondsPerRun });
  const results = new Map<string, R[]>();
  const orders: string[] = [];
  for (let round = 0; round < plan.rounds; round++) {
    const order = plan.order(plan.cells);
    orders.push(order.map(plan.key).join(' → '));
    for (const cell of order) {
      const key = plan.key(cell);
      const best = await gate.measure(() => plan.measure(cell), (r, attempt) => plan.report(r, key, round, attempt));
      results.set(key, [...(results.get(key) ?? []), best]);
      await sleep(plan.pause);
    }
  }
  return { results, orders, repeats: gate.repeats };
}
