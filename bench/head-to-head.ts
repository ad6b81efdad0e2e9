/**
 * Head to head: two servers measured at the same time, for a ratio the shared host's drift cannot
 * touch. Run with `npm run bench:h2h`; writes the `h2h` section of bench/RESULTS.md.
 *
 * bench:http measures one server at a time, so every figure carries the host's mood at that second
 * (±30% here). This bench pins both servers of a pair to core 0 together and loads them with two wrk
 * processes on core 1 at once: whatever slows the machine slows both alike. The kernel shares core 0
 * between them, and each rep's figure is requests per second of the server's own CPU time (its
 * throughput on a core of its own), so an uneven share of the core does not count either. A pair of
 * two identical servers runs first, as the control: its spread is this method's own precision.
 *
 * Every server is checked before it is measured: each route answers 200 with the expected Content-Type
 * and a body byte-identical to the one in bench/servers/bodies.ts (for HTML, the page Signalbox renders
 * from its templates and the peers from a template literal).
 *
 * Environment: SECONDS (per rep, 5), REPS (per pair and route, 8), WARMUP (s per server and route, 5),
 * CONNECTIONS (per server, 50), SEED (bootstrap, 1), QUICK=1 (2 s reps, 3 of them, 1 s warm-up),
 * PAIRS (`a/b,...`, modes of bench/servers/http-server.ts; default: the control, Fastify without and
 * with logging, bare node:http).
 */
import type { ChildProcess } from 'node:child_process';
import { ROUTES } from './servers/bodies.ts';
import { pairedRatio, type PairedEstimate } from './support/paired.ts';
import { positive, rng } from './support/plan.ts';
import { sh, startListening, stopChild } from './support/processes.ts';
import { build, ownVersion, sourcesFingerprint, treeState, version } from './support/provenance.ts';
import { fmt, machine, median, pct, writeSection } from './support/results.ts';
import { ensureLoadGenerator, runLoad, type LoadResult, type LoadSetup } from './support/wrk.ts';

const QUICK = process.env.QUICK === '1';
const SECONDS = positive('SECONDS', QUICK ? 2 : 5);
const REPS = positive('REPS', QUICK ? 3 : 8);
const WARMUP = positive('WARMUP', QUICK ? 1 : 5);
const CONNECTIONS = positive('CONNECTIONS', 50);
const SEED = positive('SEED', 1);
const SERVER_CORE = '0';
const LOAD: LoadSetup = { core: '1', connections: CONNECTIONS, prefix: [] };
const SCRIPT = 'dist/bench/servers/http-server.js';

const NAMES: Record<string, string> = {
  'signalbox-compiled': 'Signalbox, compiled engine (default)', fastify: 'Fastify', node: 'bare node:http',
};
/** A mode's label: `:log` means one pino line per request to a file (bench/servers/http-server.ts). */
const label = (mode: string): string => {
  const [name = '', suffix] = mode.split(':');
  return suffix === 'log' ? `${NAMES[name]}, logging each request (pino to a file)` : `${NAMES[name]}, no logging`;
};
// The control first: two copies of the same server show how far apart this method reads equals.
// Then Fastify without logging and with it (one pino line per request to a file on both sides), and bare node:http.
const PAIRS: readonly (readonly [string, string])[] = (process.env.PAIRS ?? 'signalbox-compiled/signalbox-compiled,signalbox-compiled/fastify,signalbox-compiled:log/fastify:log,signalbox-compiled/node')
  .split(',').map((pair) => {
    const [a, b] = pair.split('/');
    if (!a || !b || !(a.split(':')[0]! in NAMES) || !(b.split(':')[0]! in NAMES)) throw new Error(`PAIRS lists <mode>/<mode>, not ${JSON.stringify(pair)}`);
    return [a, b] as const;
  });

interface Server { readonly mode: string; readonly child: ChildProcess; readonly port: number; readonly command: string }
interface Rep { readonly a: LoadResult; readonly b: LoadResult }
interface Row {
  readonly a: string; readonly b: string; readonly route: string; readonly reps: readonly Rep[];
  /** Requests per second of each server's own CPU, A over B, rep by rep. */
  readonly efficiency: PairedEstimate;
  /** Plain requests per second, A over B, rep by rep. */
  readonly throughput: PairedEstimate;
}

async function start(mode: string): Promise<Server> {
  const argv = ['taskset', '-c', SERVER_CORE, process.execPath, SCRIPT, mode, '0'];
  const server = { mode, ...await startListening(argv, mode) };
  await verify(server);
  return server;
}

/** Every route answers 200 with the expected Content-Type and byte-identical body, or the bench stops here. */
async function verify(s: Server): Promise<void> {
  for (const route of ROUTES) {
    const res = await fetch(url(s, route.path), { signal: AbortSignal.timeout(5000) });
    const body = await res.text();
    if (res.status !== 200 || res.headers.get('content-type') !== route.type || body !== route.body) {
      throw new Error(`${s.mode} ${route.path}: ${res.status} ${res.headers.get('content-type')} ${JSON.stringify(body.slice(0, 120))} is not the expected 200 ${route.type} body`);
    }
  }
}

const url = (s: Server, path: string) => `http://127.0.0.1:${s.port}${path}`;

/** Requests per second of the server's own CPU time: what it would serve with a core to itself. */
const perCpuSecond = (r: LoadResult) => (r.serverCpu > 0 ? r.rps / r.serverCpu : 0);

async function main(): Promise<void> {
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to pin the servers and the load generators');
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen = ensureLoadGenerator(LOAD.core);
  if (gen.kind !== 'wrk') throw new Error('bench:h2h needs wrk: two autocannon processes on one core would measure each other');
  build();
  const random = rng(SEED);
  const rows: Row[] = [];
  const commands = new Set<string>();
  for (const [modeA, modeB] of PAIRS) {
    const a = await start(modeA);
    const b = await start(modeB);
    commands.add(a.command).add(b.command);
    try {
      for (const route of ROUTES) {
        for (const s of [a, b]) await runLoad(gen, url(s, route.path), WARMUP, s.child.pid!, LOAD);
        const reps: Rep[] = [];
        for (let i = 0; i < REPS; i++) {
          const [ra, rb] = await Promise.all([
            runLoad(gen, url(a, route.path), SECONDS, a.child.pid!, LOAD),
            runLoad(gen, url(b, route.path), SECONDS, b.child.pid!, LOAD),
          ]);
          for (const r of [ra, rb]) if (r.errors) console.warn(`  warning: ${r.errors}`);
          reps.push({ a: ra, b: rb });
          console.log(`${modeA} vs ${modeB} ${route.key} rep ${i + 1}: ${fmt(ra.rps)} vs ${fmt(rb.rps)} req/s, CPU ${pct(ra.serverCpu)} vs ${pct(rb.serverCpu)}, per CPU-second ${(perCpuSecond(ra) / perCpuSecond(rb)).toFixed(3)}×`);
        }
        rows.push({
          a: modeA, b: modeB, route: route.label, reps,
          efficiency: pairedRatio(reps.map((r) => perCpuSecond(r.a)), reps.map((r) => perCpuSecond(r.b)), random),
          throughput: pairedRatio(reps.map((r) => r.a.rps), reps.map((r) => r.b.rps), random),
        });
      }
    } finally {
      await stopChild(a.child);
      await stopChild(b.child);
    }
  }
  report(rows, { tree, fingerprint, gen: gen.version, commands: [...commands] });
}

const ratio = (e: PairedEstimate) => `${e.ratio.toFixed(3)}× (${e.low.toFixed(3)}–${e.high.toFixed(3)})`;

function report(rows: readonly Row[], run: { tree: string; fingerprint: string; gen: string; commands: readonly string[] }): void {
  const lines = rows.map((r) => {
    const cpuA = median(r.reps.map((x) => x.a.serverCpu));
    const cpuB = median(r.reps.map((x) => x.b.serverCpu));
    const rpsA = median(r.reps.map((x) => perCpuSecond(x.a)));
    const rpsB = median(r.reps.map((x) => perCpuSecond(x.b)));
    const pair = r.a === r.b ? `${label(r.a)} vs itself (control)` : `${label(r.a)} vs ${label(r.b)}`;
    return `| ${r.route} | ${pair} | ${ratio(r.efficiency)} | ${ratio(r.throughput)} | ${fmt(rpsA)} / ${fmt(rpsB)} | ${pct(cpuA)} / ${pct(cpuB)} | ${r.reps.length} |`;
  });
  console.log(lines.join('\n'));
  writeSection('h2h', `
## Head to head, both servers at once (\`npm run bench:h2h\`)

Rows: JSON (\`GET /posts/1\`, the post serialised per request) and HTML (\`GET /posts/1.html\`: Signalbox renders \`posts/show.html\` in \`layouts/application.html\` with two partials, route helpers and escaping; the peers render the same page from a template literal with the same escaping; bodies checked byte-identical before measuring), each without logging and with one pino line per request written to a file on both sides.

Both servers of a pair run at the same time, pinned together to core 0, each loaded by its own wrk (\`-t1 -c${CONNECTIONS}\`, both on core 1) for ${SECONDS} s per rep, ${REPS} reps per pair and route after a ${WARMUP} s warm-up of each. Whatever slows the shared host slows both alike, so the ratio of the two is steady where bench:http's one-server-at-a-time figures swing by ±30%. The first figure divides each server's requests by its own CPU time (what it would serve on a core of its own), so an uneven share of core 0 does not count; the plain throughput ratio is beside it. Each is the median over reps with a 90% bootstrap interval. The control pair, two copies of the same server, shows the method's own precision. Servers and routes are bench:http's (\`bench/servers/http-server.ts\`): the same bodies, Signalbox through its whole pipeline.

With half a core each, a server reads more requests per turn of its event loop than it would alone, which suits Signalbox's batched writes a little; read these as the cost of a request, and bench:http as throughput.

${machine()}; ${run.gen}; fastify ${version('fastify')}, signalbox ${ownVersion()} (${run.tree}; sources fingerprint ${run.fingerprint}).

| route | pair (A vs B) | A / B per CPU-second (90% interval) | A / B req/s | req per CPU-second, A / B (medians) | CPU share, A / B | reps |
|---|---|---:|---:|---:|---:|---:|
${lines.join('\n')}

Commands: ${run.commands.map((c) => `\`${c}\``).join(', ')}; load per server and rep: \`taskset -c 1 wrk -t1 -c${CONNECTIONS} -d${SECONDS}s --latency -s bench/support/quantiles.lua http://127.0.0.1:<port><path>\`, both at once.
`);
  console.log('wrote the h2h section of bench/RESULTS.md');
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
