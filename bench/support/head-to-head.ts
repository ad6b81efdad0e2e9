/**
 * The one way the load benches compare servers: head to head. A bench declares its servers, routes
 * and pairs (`compare(plan)`); this runs them and writes the bench's section of bench/RESULTS.md.
 *
 * Together (the default): both servers of a pair run at the same time, pinned together to core 0,
 * each loaded by its own wrk on core 1, both at once. Whatever slows the shared host slows both
 * alike, so their ratio holds where one-server-at-a-time figures swing by ±30%. Each rep's main
 * figure is requests per second of the server's own CPU time (its throughput on a core of its own),
 * so an uneven share of core 0 does not count either; plain throughput is beside it.
 *
 * Alternating (`together: false`, for servers that need every core, such as several workers): the
 * servers are not pinned, nor is the load generator, and each rep runs A then B back to back (the
 * order flipping every rep), so each pair of runs sees nearly the same host; the throughput ratio
 * is the figure, and the load generator shares the cores with the server.
 *
 * Either way the ratio is the median of the per-rep ratios with a 90% bootstrap interval
 * (bench/support/paired.ts), and the first pair is a control, two copies of the same server, whose
 * spread is the method's own precision. Every server is checked before it is measured: each route
 * answers as the plan's `check` says, and, where the plan says so, with the same body on every server.
 *
 * Environment: SECONDS (per rep, 5), REPS (per pair and route, 8), WARMUP (s per server and route,
 * 5), CONNECTIONS (per server, 50), SEED (bootstrap, 1), QUICK=1 (2 s reps, 3 of them, 1 s warm-up),
 * PAIRS (`a/b,...`: the plan's server keys, to run other pairs than its own), LOADGEN=autocannon
 * (alternating benches only), BENCH_RESULTS (another file to write the section to).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { envLine } from './noise.ts';
import { pairedRatio, type PairedEstimate } from './paired.ts';
import { positive, rng } from './plan.ts';
import { processTree, sh, shown, startListening, stopChild } from './processes.ts';
import { build, ownVersion, sourcesFingerprint, treeState } from './provenance.ts';
import { fmt, machine, median, pct, writeSection } from './results.ts';
import { ensureLoadGenerator, loadCommand, runLoad, type LoadGen, type LoadResult, type LoadSetup } from './wrk.ts';

const QUICK = process.env.QUICK === '1';
const SECONDS = positive('SECONDS', QUICK ? 2 : 5);
const REPS = positive('REPS', QUICK ? 3 : 8);
const WARMUP = positive('WARMUP', QUICK ? 1 : 5);
const CONNECTIONS = positive('CONNECTIONS', 50);
const SEED = positive('SEED', 1);
const SERVER_CORE = '0';
const TOGETHER_LOAD: LoadSetup = { core: '1', connections: CONNECTIONS, prefix: [] };
const ALTERNATE_LOAD: LoadSetup = { core: '0,1', connections: CONNECTIONS, prefix: [] };

export interface ServerSpec {
  /** How the rows name it: what it runs, and how. */
  readonly label: string;
  /** The arguments to `node`, from the repository root: a script of the benches' build and its own arguments. */
  readonly args: readonly string[];
  /** Other processes whose CPU counts as this server's (a redis-server only it talks to). */
  readonly alsoCounts?: readonly number[];
  /** Started once the server listens, stopped with it (a client that watches it, say). */
  readonly attach?: (port: number) => Promise<Attached>;
}

/** A process started beside a server by `ServerSpec.attach`. */
export interface Attached {
  readonly command: string;
  /** A line for the results page, read once the server's last rep is over. */
  summary?(): Promise<string>;
  stop(): Promise<void>;
}

export interface RouteSpec { readonly key: string; readonly label: string; readonly path: string }

/** One server of a pair, running. */
export interface Running<K extends string> { readonly key: K; readonly child: ChildProcess; readonly port: number; readonly command: string; readonly attached: Attached | null }

export interface Plan<K extends string> {
  /** The section of bench/RESULTS.md, and the bench's npm script (`npm run bench:<name>`). */
  readonly name: string;
  readonly title: string;
  /** What the servers and routes are, for the results page (markdown). */
  readonly about: string;
  readonly servers: Readonly<Record<K, ServerSpec>>;
  readonly routes: readonly RouteSpec[];
  /** The pairs, A against B; the first is the control, a server against itself. */
  readonly pairs: readonly (readonly [K, K])[];
  /** What is wrong with a server's second answer to a route (the first primes any cache), or null. */
  readonly check: (server: K, route: RouteSpec, res: Response, body: string) => string | null;
  /** When set, every server's answer to a route must be the same once passed through it. */
  readonly sameBody?: (body: string) => string;
  /** Checks of a pair once its servers answer alike (a viewer seeing their requests, say). */
  readonly verify?: (a: Running<K>, b: Running<K>) => Promise<void>;
  /** false: run a pair's servers one after the other, unpinned (they need every core). */
  readonly together?: boolean;
  /** Versions of the peers and libraries measured, for the machine line (`fastify 5.12.8`). */
  readonly versions?: readonly string[];
  /** Commands besides the servers' (a redis-server), for the results page. */
  readonly commands?: readonly string[];
  /** Markdown after the table. */
  readonly notes?: string;
}

interface Rep { readonly a: LoadResult; readonly b: LoadResult }
/** What a pair's servers hold once every route's load is over: steady memory after the requests they served. */
interface Memory { readonly a: string; readonly b: string; readonly requests: readonly [number, number]; readonly rss: readonly [number, number] }
interface Row {
  readonly a: string; readonly b: string; readonly route: RouteSpec; readonly reps: readonly Rep[];
  /** Requests per second of each server's own CPU, A over B, rep by rep. */
  readonly efficiency: PairedEstimate;
  /** Plain requests per second, A over B, rep by rep. */
  readonly throughput: PairedEstimate;
}

/** Requests per second of the server's own CPU time: what it would serve with a core to itself. */
const perCpuSecond = (r: LoadResult) => (r.serverCpu > 0 ? r.rps / r.serverCpu : 0);
const interval = (e: PairedEstimate) => `${e.ratio.toFixed(3)}× (${e.low.toFixed(3)}–${e.high.toFixed(3)})`;

/** The plan's pairs, or those PAIRS lists (`a/b,...`). */
function pairsOf<K extends string>(plan: Plan<K>): readonly (readonly [K, K])[] {
  if (!process.env.PAIRS) return plan.pairs;
  return process.env.PAIRS.split(',').map((pair) => {
    const [a, b] = pair.split('/');
    if (!a || !b || !(a in plan.servers) || !(b in plan.servers)) throw new Error(`PAIRS lists <server>/<server> of ${Object.keys(plan.servers).join(', ')}, not ${JSON.stringify(pair)}`);
    return [a as K, b as K] as const;
  });
}

export async function compare<K extends string>(plan: Plan<K>): Promise<void> {
  const together = plan.together ?? true;
  const load = together ? TOGETHER_LOAD : ALTERNATE_LOAD;
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to pin the servers and the load generators');
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen = ensureLoadGenerator(load.core);
  if (together && gen.kind !== 'wrk') throw new Error(`bench:${plan.name} needs wrk: two autocannon processes on one core would measure each other`);
  build();
  const random = rng(SEED);
  const pairs = pairsOf(plan);
  const rows: Row[] = [];
  const memory: Memory[] = [];
  const commands = new Set<string>();
  const summaries: string[] = [];

  const start = async (key: K): Promise<Running<K>> => {
    const spec = plan.servers[key];
    const argv = [...(together ? ['taskset', '-c', SERVER_CORE] : []), process.execPath, ...spec.args];
    const { child, port, command } = await startListening(argv, key);
    commands.add(command);
    const attached = spec.attach ? await spec.attach(port) : null;
    if (attached) commands.add(attached.command.replace(String(port), '<port>'));
    return { key, child, port, command, attached };
  };
  const stop = async (s: Running<K>): Promise<void> => {
    if (s.attached?.summary) summaries.push(`${plan.servers[s.key].label}: ${await s.attached.summary()}`);
    await s.attached?.stop();
    await stopChild(s.child);
  };
  const url = (s: Running<K>, route: RouteSpec) => `http://127.0.0.1:${s.port}${route.path}`;
  // The server, its workers if it has any, and what the plan counts with it.
  const pids = (s: Running<K>) => [s.child.pid!, ...processTree(s.child.pid!).map((p) => p.pid), ...(plan.servers[s.key].alsoCounts ?? [])];
  const served = new Map<Running<K>, number>();
  const measure = async (s: Running<K>, route: RouteSpec, seconds: number) => {
    const result = await runLoad(gen, url(s, route), seconds, pids(s), load);
    served.set(s, (served.get(s) ?? 0) + result.requests);
    return result;
  };

  for (const [keyA, keyB] of pairs) {
    const a = await start(keyA);
    const b = await start(keyB);
    try {
      await check(plan, [a, b], url);
      await plan.verify?.(a, b);
      for (const route of plan.routes) {
        for (const s of [a, b]) await measure(s, route, WARMUP);
        const reps: Rep[] = [];
        for (let i = 0; i < REPS; i++) {
          let rep: Rep;
          if (together) {
            const [ra, rb] = await Promise.all([measure(a, route, SECONDS), measure(b, route, SECONDS)]);
            rep = { a: ra, b: rb };
          } else if (i % 2 === 0) {
            const ra = await measure(a, route, SECONDS);
            rep = { a: ra, b: await measure(b, route, SECONDS) };
          } else {
            const rb = await measure(b, route, SECONDS);
            rep = { a: await measure(a, route, SECONDS), b: rb };
          }
          for (const r of [rep.a, rep.b]) if (r.errors) console.warn(`  warning: ${r.errors}`);
          reps.push(rep);
          console.log(`${keyA} vs ${keyB} ${route.key} rep ${i + 1}: ${fmt(rep.a.rps)} vs ${fmt(rep.b.rps)} req/s, CPU ${pct(rep.a.serverCpu)} vs ${pct(rep.b.serverCpu)}, per CPU-second ${(perCpuSecond(rep.a) / perCpuSecond(rep.b)).toFixed(3)}×`);
        }
        rows.push({
          a: keyA, b: keyB, route, reps,
          efficiency: pairedRatio(reps.map((r) => perCpuSecond(r.a)), reps.map((r) => perCpuSecond(r.b)), random),
          throughput: pairedRatio(reps.map((r) => r.a.rps), reps.map((r) => r.b.rps), random),
        });
      }
      // After a second of rest, as a server sits between bursts in production (no forced collection).
      await new Promise((done) => setTimeout(done, 1000));
      memory.push({ a: keyA, b: keyB, requests: [served.get(a) ?? 0, served.get(b) ?? 0], rss: [residentBytes(pids(a)), residentBytes(pids(b))] });
    } finally {
      await stop(a);
      await stop(b);
    }
  }
  const after = sourcesFingerprint();
  const changed = after !== fingerprint ? `; **they changed during the run**, to ${after}: servers kept the build they started with` : '';
  report(plan, rows, memory, {
    gen, load, together, summaries,
    provenance: `${[...(plan.versions ?? []), `signalbox ${ownVersion()}`].join(', ')} (${tree}; sources fingerprint ${fingerprint}, sha1 of core/, machines/, transport/${changed})`,
    commands: [...(plan.commands ?? []), ...commands],
  });
}

/** Every server answers every route as the plan says, the same body on each where it says so; or the bench stops here. */
async function check<K extends string>(plan: Plan<K>, servers: readonly Running<K>[], url: (s: Running<K>, route: RouteSpec) => string): Promise<void> {
  for (const route of plan.routes) {
    const bodies = new Set<string>();
    for (const s of servers) {
      await fetch(url(s, route), { signal: AbortSignal.timeout(5000) }).then((r) => r.arrayBuffer());
      const res = await fetch(url(s, route), { signal: AbortSignal.timeout(5000) });
      const body = await res.text();
      const problem = plan.check(s.key, route, res, body);
      if (problem !== null) throw new Error(`${s.key} ${route.path}: ${problem}`);
      if (plan.sameBody) bodies.add(plan.sameBody(body));
    }
    if (bodies.size > 1) throw new Error(`${route.path}: the servers' answers differ`);
  }
}

const PAIR_ENV = ['SECONDS', 'REPS', 'WARMUP', 'CONNECTIONS', 'SEED', 'PAIRS', 'LOADGEN'];

/** Resident memory of these processes, summed (bytes), from /proc. */
function residentBytes(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (kb) total += Number(kb[1]) * 1024;
    } catch {
      // A process gone since the tree was read holds nothing.
    }
  }
  return total;
}

function report<K extends string>(plan: Plan<K>, rows: readonly Row[], memory: readonly Memory[], run: { gen: LoadGen; load: LoadSetup; together: boolean; provenance: string; commands: readonly string[]; summaries: readonly string[] }): void {
  const label = (key: string) => plan.servers[key as K].label;
  const lines = rows.map((r) => {
    const m = (side: 'a' | 'b', f: (x: LoadResult) => number) => median(r.reps.map((x) => f(x[side])));
    const pair = r.a === r.b ? `${label(r.a)} vs itself (control)` : `${label(r.a)} vs ${label(r.b)}`;
    return `| ${r.route.label} | ${pair} | ${interval(r.efficiency)} | ${interval(r.throughput)} | ${fmt(m('a', perCpuSecond))} / ${fmt(m('b', perCpuSecond))} | ${fmt(m('a', (x) => x.rps))} / ${fmt(m('b', (x) => x.rps))} | ${pct(m('a', (x) => x.serverCpu))} / ${pct(m('b', (x) => x.serverCpu))} | ${r.reps.length} |`;
  });
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const memoryLines = memory.map((m) => `| ${m.a === m.b ? `${label(m.a)} vs itself (control)` : `${label(m.a)} vs ${label(m.b)}`} | ${fmt(m.requests[0])} / ${fmt(m.requests[1])} | ${mib(m.rss[0])} / ${mib(m.rss[1])} | ${m.rss[1] > 0 ? `${(m.rss[0] / m.rss[1]).toFixed(2)}×` : '–'} |`);
  console.log([...lines, ...memoryLines].join('\n'));
  const method = run.together
    ? `Both servers of a pair run at the same time, pinned together to core ${SERVER_CORE}, each loaded by its own wrk (\`-t1 -c${CONNECTIONS}\`, both on core ${run.load.core}) for ${SECONDS} s per rep, ${REPS} reps per pair and route after a ${WARMUP} s warm-up of each. Whatever slows the shared host slows both alike. The first figure divides each server's requests by its own CPU time (what it would serve on a core of its own), so an uneven share of core ${SERVER_CORE} does not count; the plain throughput ratio is beside it.`
    : `The servers need every core, so they are not pinned, nor is the load generator (${run.gen.version}, \`-c${CONNECTIONS}\`): **it shares the machine's cores with the server**. Each rep runs A then B for ${SECONDS} s each, the order flipping every rep (${REPS} reps per pair and route, after a ${WARMUP} s warm-up of each), so both runs of a rep see nearly the same host. Throughput is the figure here; per CPU-second counts the server and its workers.`;
  const load = shown(loadCommand(run.gen, 'http://127.0.0.1:<port><path>', SECONDS, run.load));
  const env = envLine(QUICK, PAIR_ENV);
  writeSection(plan.name, `
## ${plan.title} (\`npm run bench:${plan.name}\`)

${plan.about.trim()}

${method} Each ratio is the median over reps with a 90% bootstrap interval; the control pair, two copies of the same server, shows the method's own precision.

${machine()}; ${run.gen.version}; ${run.provenance}.

| route | pair (A vs B) | A / B per CPU-second (90% interval) | A / B req/s (90% interval) | req per CPU-second, A / B (medians) | req/s, A / B (medians) | CPU, A / B | reps |
|---|---|---:|---:|---:|---:|---:|---:|
${lines.join('\n')}

Steady memory: each server's resident set (with its workers and what the plan counts with it) a second after its pair's last rep, after every request it served in the run (warm-ups included).

| pair (A vs B) | requests served, A / B | RSS (MiB), A / B | A / B |
|---|---:|---:|---:|
${memoryLines.join('\n')}
${plan.notes ? `\n${plan.notes.trim()}\n` : ''}${run.summaries.length ? `\n${run.summaries.join('\n\n')}\n` : ''}
Commands (run: \`${env ? `${env} ` : ''}npm run bench:${plan.name}\`): ${run.commands.map((c) => `\`${c}\``).join(', ')}; load per server and rep: \`${load}\`${run.together ? ', both at once' : ''}.
`);
}
