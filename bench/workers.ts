/**
 * What workers buy: throughput of the example blog served by `serve(() => app, { workers: 2 })`
 * against the same app in one process, in the same run. Run with `npm run bench:workers`; writes
 * the `workers` section of bench/RESULTS.md.
 *
 * Routes: the post page `GET /posts/1` (HTML) and `GET /posts/1.json`, caching off, so every request
 * runs the whole request path. Two servers from `npm run build` (bench/servers/scale-server.ts),
 * neither pinned: the two workers need both of the machine's cores, and the load generator shares
 * them (it is not pinned either), so the ratio is what two workers give on a two-core machine that
 * also runs the client, not a clean doubling. After a warm-up, each of ROUNDS rounds runs every
 * (server × route) once in a shuffled order; figures are medians over the rounds.
 *
 * Environment: DURATION (s per run, default 10), CONNECTIONS (50), ROUNDS (3), WARMUP (s, 2), PAUSE
 * (s, 0.5), SEED (1), QUICK=1 (2 s runs, 1 s warm-up), LOADGEN=autocannon (skip wrk); QUIET and
 * QUIET_WAIT gate each run's start on an idle machine. The gate's "others" figure cannot tell the
 * workers (children of the server) from other processes, so runs are not repeated for it here.
 */
import { type ChildProcess } from 'node:child_process';
import { envLine, gateSettings, runRounds } from './support/noise.ts';
import { positive, rng, shuffle } from './support/plan.ts';
import { killAll, sh, shown, sleep, startListening, stopChild } from './support/processes.ts';
import { build, ownVersion, sourcesFingerprint, treeState } from './support/provenance.ts';
import { fmt, machine, median, ms, writeSection, logLoad } from './support/results.ts';
import { ensureLoadGenerator, loadCommand, runLoad, type LoadGen, type LoadSetup } from './support/wrk.ts';

const QUICK = process.env.QUICK === '1';
// Workers are children of the server: the gate would count them as others and repeat every run.
const GATE = { ...gateSettings(QUICK), maxForeign: 2, retries: 0 };
const DURATION = positive('DURATION', QUICK ? 2 : 10);
const WARMUP = positive('WARMUP', QUICK ? 1 : 2);
const CONNECTIONS = positive('CONNECTIONS', 50);
const ROUNDS = positive('ROUNDS', 3);
const PAUSE = Number(process.env.PAUSE ?? (QUICK ? 0.25 : 0.5));
const SEED = positive('SEED', 1);
const LOAD: LoadSetup = { core: '0,1', connections: CONNECTIONS, prefix: [] };
const BUILT_SCRIPT = 'dist/bench/servers/scale-server.js';

interface ServerSpec { readonly key: string; readonly workers: number; readonly label: string }
const SERVERS: readonly ServerSpec[] = [
  { key: 'one', workers: 1, label: 'one process (`workers: 1`)' },
  { key: 'two', workers: 2, label: 'two workers (`workers: 2`)' },
];
interface RouteSpec { readonly key: string; readonly label: string; readonly path: string }
const ROUTES: readonly RouteSpec[] = [
  { key: 'show', label: 'GET /posts/1 (HTML)', path: '/posts/1' },
  { key: 'show-json', label: 'GET /posts/1.json', path: '/posts/1.json' },
];

interface Running { readonly spec: ServerSpec; readonly child: ChildProcess; readonly port: number; readonly command: string }

async function verify(servers: readonly Running[]): Promise<void> {
  for (const route of ROUTES) for (const s of servers) {
    const res = await fetch(`http://127.0.0.1:${s.port}${route.path}`, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    if (res.status !== 200 || res.headers.get('x-cache') !== null) throw new Error(`${s.spec.key} ${route.path}: ${res.status}, X-Cache ${String(res.headers.get('x-cache'))}`);
  }
}

async function main(): Promise<void> {
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to place the load generator');
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen: LoadGen = ensureLoadGenerator(LOAD.core);
  console.log(`load generator: ${gen.version} (${gen.note})`);
  build();
  const servers: Running[] = [];
  for (const spec of SERVERS) {
    servers.push({ spec, ...await startListening([process.execPath, BUILT_SCRIPT, 'workers', String(spec.workers), '0'], `scale-server workers ${spec.workers}`) });
  }
  await verify(servers);
  const random = rng(SEED);
  for (const s of shuffle(servers, random)) for (const route of ROUTES) {
    await runLoad(gen, `http://127.0.0.1:${s.port}${route.path}`, WARMUP, s.child.pid!, LOAD);
    await sleep(PAUSE);
  }
  const cells = servers.flatMap((s) => ROUTES.map((route) => ({ s, route })));
  const { results, orders } = await runRounds({
    cells, rounds: ROUNDS, gate: GATE, secondsPerRun: DURATION + GATE.sample + PAUSE, pause: PAUSE,
    key: (c) => `${c.s.spec.key}/${c.route.key}`,
    order: (all) => shuffle(all, random),
    measure: ({ s, route }) => runLoad(gen, `http://127.0.0.1:${s.port}${route.path}`, DURATION, s.child.pid!, LOAD),
    report: logLoad(16),
  });
  for (const s of servers) await stopChild(s.child);

  const get = (server: string, route: string) => results.get(`${server}/${route}`)!;
  const med = (server: string, route: string, field: 'rps' | 'p50' | 'p99') => median(get(server, route).map((r) => r[field]));
  const rows = ROUTES.map((route) => {
    const one = med('one', route.key, 'rps');
    const two = med('two', route.key, 'rps');
    const perRound = get('two', route.key).map((r, i) => r.rps / get('one', route.key)[i].rps);
    console.log(`${route.label}: one ${fmt(one)} req/s, two workers ${fmt(two)} req/s (${(two / one).toFixed(2)}×)`);
    return `| ${route.label} | ${fmt(one)} | ${fmt(two)} | **${(two / one).toFixed(2)}×** (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}) | ${ms(med('one', route.key, 'p50'))} / ${ms(med('two', route.key, 'p50'))} | ${ms(med('one', route.key, 'p99'))} / ${ms(med('two', route.key, 'p99'))} |`;
  });
  const problems = [...results.entries()].flatMap(([k, rs]) => rs.filter((r) => r.errors).map((r) => `${k}: ${r.errors}`));
  const env = envLine(QUICK, ['DURATION', 'WARMUP', 'CONNECTIONS', 'ROUNDS', 'PAUSE', 'SEED', 'LOADGEN', 'QUIET', 'QUIET_WAIT']);
  writeSection('workers', `
## Two workers against one process (\`npm run bench:workers\`)

The example blog, production environment, no logging, caching off (every request runs the whole request path), served by \`serve(() => app, { workers: 2 })\` and by the same app in one process, same run. **The load generator shares the machine's 2 cores with the server**: neither is pinned, so the two workers and the client compete for the same two cores, and the ratio is what a second worker gives on such a machine, not the doubling a machine with cores to spare would show. After a warm-up (${WARMUP} s per server and route), ${ROUNDS} rounds each run every server × route once, in a shuffled order; ${DURATION} s per run, ${CONNECTIONS} keep-alive connections. Figures are medians of the rounds; the ratio is two workers over one process (per-round range in brackets).

${machine()}; ${gen.version}; signalbox ${ownVersion()} (${tree}; sources fingerprint ${fingerprint}).

| route | one process req/s | two workers req/s | two × one | p50 ms (one / two) | p99 ms (one / two) |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}
${problems.length ? `\nLoad generator reported: ${problems.join('; ')}.` : ''}
Commands (run: \`${env ? `${env} ` : ''}npm run bench:workers\`):
${servers.map((s) => `- \`${s.command}\` (port ${s.port})`).join('\n')}
- load, per run: \`${shown(loadCommand(gen, 'http://127.0.0.1:<port>/posts/1', DURATION, LOAD))}\`
- orders: ${orders.map((o, i) => `round ${i + 1}: ${o}`).join('; ')}`);
  console.log('\nwrote the workers section of bench/RESULTS.md');
}

main().then(() => { killAll(); }, (error: unknown) => {
  console.error(error);
  killAll();
  process.exitCode = 1;
});
