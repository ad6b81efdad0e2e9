/**
 * End-to-end HTTP throughput and latency: Signalbox (both engines, the full pipeline over the
 * ~670-route Rails table) against bare node:http and Fastify serving the same bodies, under wrk.
 * Run with `npm run bench:http`; writes the `http` section of bench/RESULTS.md.
 *
 * Each server runs in its own process pinned to core 0 (`taskset -c 0`); the load generator runs
 * pinned to core 1. After a warm-up of every server, each of ROUNDS rounds runs every
 * (server × route) once; a run is cut into SLICES slices, and each round goes through every
 * (server × route) slice by slice in shuffled passes, so that every server meets the same drifts of
 * a shared host (bench/support/slices.ts). Figures are medians over the rounds and ratios compare
 * with bare node:http from the same interleaved set; each target also gets the median of its
 * per-pass ratios with a bootstrap interval (bench/support/paired.ts).
 *
 * Environment: DURATION (s per run, default 10), SLICES (per run, 10; DURATION / SLICES whole
 * seconds), CONNECTIONS (50), ROUNDS (3), WARMUP (s per
 * server and route, 5), PAUSE (s between slices, 0.25; between whole runs, 0.5), SEED (order shuffle, 1), QUICK=1 (2 s runs in one slice,
 * 1 s warm-up, no repeats, no profiling, no diagnostic server: about a minute), LOADGEN=autocannon (skip wrk), PROFILE=0|1
 * (profile the default engine when it misses a target: default on, off with QUICK; 1 forces it).
 * The machine may be shared: QUIET (cores, 0.15) and QUIET_WAIT (s, 20) gate the start of each run
 * on an idle machine; a run during which other processes used more than MAX_FOREIGN cores (0.15)
 * is repeated up to RETRIES (2) times; waiting and repeating may add at most SLACK seconds (60)
 * to the planned time, so the whole run stays bounded. PROFILE_SECONDS (5) per profiling window;
 * NICE=<n> runs servers and load generator under `nice -n <n>`.
 */
import { type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PATHS, ROUTES, type RouteSpec } from './servers/bodies.ts';
import { waitQuiet as quietFor, envLine, GATE_ENV, gateSettings, runRounds } from './support/noise.ts';
import { positive, rng, shuffle } from './support/plan.ts';
import { combineSlices } from './support/slices.ts';
import { pairedRatio, type PairedEstimate } from './support/paired.ts';
import { exitCode, killAll, sh, shown, sleep, spawnTracked, startListening, stopChild } from './support/processes.ts';
import { build, ownVersion, ROOT, sourcesFingerprint, treeState, version } from './support/provenance.ts';
import { profileServers, type ProfileReport } from './support/profile.ts';
import { BENCH_DIR, fmt, machine, median, ms, pct, writeSection, logLoad } from './support/results.ts';
import { ensureLoadGenerator, loadCommand as wrkCommand, runLoad as runWrk, type LoadGen, type LoadSetup } from './support/wrk.ts';

const QUICK = process.env.QUICK === '1';
const DURATION = positive('DURATION', QUICK ? 2 : 10);
// Long enough for V8 to settle the whole pipeline's optimised code before anything is measured.
const WARMUP = positive('WARMUP', QUICK ? 1 : 5);
const CONNECTIONS = positive('CONNECTIONS', 50);
const ROUNDS = positive('ROUNDS', 3);
// Ten 1 s slices per run: thirty passes pair every server with its peers for the paired ratios.
const SLICES = positive('SLICES', QUICK ? 1 : 10);
const SLICE_SECONDS = DURATION / SLICES;
if (!Number.isInteger(SLICE_SECONDS)) throw new Error(`DURATION (${DURATION}) must be a whole number of seconds per slice (SLICES=${SLICES})`);
const PAUSE = Number(process.env.PAUSE ?? (QUICK || SLICES > 1 ? 0.25 : 0.5));
// Slices are short, so is the quiet sample before each.
const GATE = SLICES > 1 ? { ...gateSettings(QUICK), sample: 0.25 } : gateSettings(QUICK);
const SEED = positive('SEED', 1);
const PROFILE = process.env.PROFILE ?? (QUICK ? '0' : 'auto');
const PROFILE_SECONDS = positive('PROFILE_SECONDS', QUICK ? 3 : 5);
// NICE=<n> runs the server and the load generator under `nice -n <n>` (off by default: on the
// shared machine this was written on, other tenants' load went through it anyway).
const NICE = Number(process.env.NICE ?? 0);
const NICE_PREFIX: readonly string[] = NICE !== 0 ? ['nice', '-n', String(NICE)] : [];
const SERVER_CORE = '0';
const LOAD_CORE = '1';
const SERVER_SCRIPT = 'bench/servers/http-server.ts';
// Every server runs from `npm run build` (plain JavaScript, as deployed); one extra row runs the default
// engine through tsx, which the dev commands use and which wraps each closure made at run time in a
// name-setting call (esbuild's keepNames).
const BUILT_SCRIPT = 'dist/bench/servers/http-server.js';
const LOAD: LoadSetup = { core: LOAD_CORE, connections: CONNECTIONS, prefix: NICE_PREFIX };
const loadCommand = (gen: LoadGen, url: string, seconds: number) => wrkCommand(gen, url, seconds, LOAD);
const runLoad = (gen: LoadGen, url: string, seconds: number, serverPid: number) => runWrk(gen, url, seconds, serverPid, LOAD);
const waitQuiet = (maxSeconds: number) => quietFor(maxSeconds, GATE.quiet, GATE.sample);

interface ServerSpec { readonly key: string; readonly label: string; readonly mode: string; readonly tsx?: boolean }
const SERVERS: readonly ServerSpec[] = [
  { key: 'compiled', label: 'Signalbox, compiled engine (default)', mode: 'signalbox-compiled' },
  { key: 'compiled-tsx', label: 'Signalbox, compiled engine, run through tsx', mode: 'signalbox-compiled', tsx: true },
  { key: 'xstate', label: 'Signalbox, XState engine', mode: 'signalbox-xstate' },
  { key: 'node', label: 'bare node:http', mode: 'node' },
  { key: 'fastify', label: 'Fastify', mode: 'fastify' },
  // Diagnostic, not a target: Signalbox's HTTP transport around a stub app.handle that returns the
  // same response (headers included) at once, to split the cost between transport and pipeline.
  { key: 'transport', label: 'diagnostic: Signalbox transport, stub app', mode: 'signalbox-transport' },
];

// ---- servers ------------------------------------------------------------------------------------

interface Running { readonly spec: ServerSpec; readonly child: ChildProcess; readonly port: number; readonly command: string }

async function startServer(spec: ServerSpec, extraEnv: Record<string, string> = {}): Promise<Running> {
  const script = spec.tsx ? ['--import', 'tsx', SERVER_SCRIPT] : [BUILT_SCRIPT];
  const argv = [...NICE_PREFIX, 'taskset', '-c', SERVER_CORE, process.execPath, ...script, spec.mode, '0'];
  return { spec, ...await startListening(argv, spec.mode, extraEnv) };
}

async function stopServer(s: Running): Promise<void> {
  await stopChild(s.child);
}

/** Runs `node <args>` pinned to the server core (bounded: 5 minutes); resolves with stdout. */
async function execPinned(args: readonly string[]): Promise<string> {
  const argv = [...NICE_PREFIX, 'taskset', '-c', SERVER_CORE, process.execPath, ...args];
  const child = spawnTracked(argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d; });
  const code = await exitCode(child, 300_000);
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return out;
}

/** Every server must answer both routes with 200, the same body bytes and the same Content-Type. */
async function verify(servers: readonly Running[]): Promise<Record<string, Record<string, string>>> {
  const headers: Record<string, Record<string, string>> = {};
  for (const s of servers) for (const route of ROUTES) {
    const res = await fetch(`http://127.0.0.1:${s.port}${route.path}`, { signal: AbortSignal.timeout(5000) });
    const body = await res.text();
    const type = res.headers.get('content-type');
    if (res.status !== 200 || body !== route.body || type !== route.type) {
      throw new Error(`${s.spec.label} ${route.path}: ${res.status} ${type} ${JSON.stringify(body.slice(0, 80))} differs from the expected ${route.type} body`);
    }
    const names: string[] = [];
    res.headers.forEach((_value, name) => { if (name !== 'date' && name !== 'connection' && name !== 'keep-alive') names.push(name); });
    headers[s.spec.key] ??= {};
    headers[s.spec.key][route.key] = names.join(', ');
  }
  return headers;
}

// ---- main -----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to pin the server and the load generator to different cores');
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen = ensureLoadGenerator(LOAD_CORE);
  console.log(`load generator: ${gen.version} (${gen.note})`);
  // The servers run from the build of the very sources fingerprinted above.
  build();
  const active = SERVERS.filter((spec) => !(QUICK && spec.key === 'transport'));
  const plannedSeconds = active.length * ROUTES.length * (WARMUP + PAUSE + ROUNDS * SLICES * (SLICE_SECONDS + GATE.sample + PAUSE));
  console.log(`${active.length} servers × ${ROUTES.length} routes × ${ROUNDS} rounds of ${DURATION} s (${SLICES} slice(s) of ${SLICE_SECONDS} s each), ${CONNECTIONS} connections, warm-up ${WARMUP} s each: at least ${Math.ceil(plannedSeconds / 60)} min (more if the machine is busy)`);

  const servers: Running[] = [];
  for (const spec of active) servers.push(await startServer(spec));
  const headers = await verify(servers);
  console.log('bodies and Content-Type identical on every server');

  const random = rng(SEED);
  // Warm-up: every server, both routes, results dropped.
  for (const s of shuffle(servers, random)) for (const route of ROUTES) {
    await runLoad(gen, `http://127.0.0.1:${s.port}${route.path}`, WARMUP, s.child.pid!);
    await sleep(PAUSE);
  }

  const cells = servers.flatMap((s) => ROUTES.map((route) => ({ s, route })));
  // One pass measures one slice of every cell, in a shuffled order; a round is SLICES passes, and a
  // cell's run in that round is its slices added up. When other tenants took more than MAX_FOREIGN
  // cores during a slice, it is retried (at most RETRIES times) and the least disturbed kept. Waiting
  // for quiet and repeating disturbed slices may add at most SLACK seconds to the planned time.
  const log = logLoad(22);
  const passes = await runRounds({
    cells, rounds: ROUNDS * SLICES, gate: GATE, secondsPerRun: SLICE_SECONDS + GATE.sample + PAUSE, pause: PAUSE,
    key: (c) => `${c.s.spec.key}/${c.route.key}`,
    order: (all) => shuffle(all, random),
    measure: ({ s, route }) => runLoad(gen, `http://127.0.0.1:${s.port}${route.path}`, SLICE_SECONDS, s.child.pid!),
    report: (r, key, pass, attempt) => log(r, SLICES > 1 ? `${key} slice ${(pass % SLICES) + 1}` : key, Math.floor(pass / SLICES), attempt),
  });
  const { orders, repeats } = passes;
  const results = new Map([...passes.results].map(([key, slices]) => [
    key, Array.from({ length: ROUNDS }, (_, round) => combineSlices(slices.slice(round * SLICES, (round + 1) * SLICES))),
  ]));
  for (const s of servers) await stopServer(s);
  const fingerprintAfterRounds = sourcesFingerprint();
  if (fingerprintAfterRounds !== fingerprint) console.warn(`warning: the framework's sources changed during the rounds (${fingerprint} → ${fingerprintAfterRounds}); running servers kept the code they started with`);

  // ---- figures ----
  const get = (server: string, route: string) => results.get(`${server}/${route}`)!;
  const med = (server: string, route: string, field: 'rps' | 'p50' | 'p99' | 'serverCpu' | 'loadCpu' | 'foreign') => median(get(server, route).map((r) => r[field]));
  const perRoundRatio = (server: string, route: string, peer: string) => get(server, route).map((r, i) => r.rps / get(peer, route)[i].rps);
  // Slice by slice, pass by pass: the same index is the same pass for every cell.
  const paired = (server: string, route: string, peer: string, field: 'rps' | 'p99'): PairedEstimate => {
    const slicesOf = (key: string) => passes.results.get(`${key}/${route}`)!.map((r) => r[field]);
    return pairedRatio(slicesOf(server), slicesOf(peer), rng(SEED));
  };

  const targets: { route: RouteSpec; name: string; want: string; value: (server: string) => number; paired: (server: string) => PairedEstimate; ok: (v: number) => boolean }[] = [];
  for (const route of ROUTES) {
    const ratio = (field: 'rps' | 'p99', peer: string) => ({
      value: (sv: string) => med(sv, route.key, field) / med(peer, route.key, field),
      paired: (sv: string) => paired(sv, route.key, peer, field),
    });
    targets.push({ route, name: 'req/s vs bare node:http', want: '≥ 0.75×', ...ratio('rps', 'node'), ok: (v) => v >= 0.75 });
    targets.push({ route, name: 'req/s vs Fastify', want: '≥ 1.0×', ...ratio('rps', 'fastify'), ok: (v) => v >= 1.0 });
    targets.push({ route, name: 'p99 vs bare node:http', want: '≤ 1.3×', ...ratio('p99', 'node'), ok: (v) => v <= 1.3 });
  }
  const interval = (e: PairedEstimate) => `${e.ratio.toFixed(2)}× (${e.low.toFixed(2)}–${e.high.toFixed(2)}, ${e.pairs} passes)`;
  const missed = targets.filter((t) => !t.ok(t.value('compiled')));

  let profile: ProfileReport | null = null;
  let profileFingerprint = fingerprintAfterRounds;
  if (PROFILE === '1' || (PROFILE !== '0' && missed.length > 0)) {
    console.log(`profiling the default engine and bare node:http under load (${missed.length} target(s) missed)`);
    profile = await profileServers<Running>({
      targets: ['compiled', 'node'].map((key) => SERVERS.find((spec) => spec.key === key)!).map((spec) => ({ key: spec.mode, label: spec.label, start: (env: Record<string, string>) => startServer(spec, env) })),
      stop: stopServer,
      load: (s, path, seconds) => runLoad(gen, `http://127.0.0.1:${s.port}${path}`, seconds, s.child.pid!),
      quiet: () => waitQuiet(GATE.quietWait),
      exec: (args) => execPinned(args),
      spawnTracked: (argv) => spawnTracked(argv, { stdio: 'ignore' }),
      routes: ROUTES.map((r) => r.path),
      seconds: PROFILE_SECONDS,
      warmup: WARMUP,
      root: ROOT,
      dir: join(BENCH_DIR, '.tmp', 'http-profile'),
    });
    console.log(profile.summary);
    profileFingerprint = sourcesFingerprint();
  }

  // ---- stdout summary ----
  console.log('');
  for (const route of ROUTES) {
    const node = med('node', route.key, 'rps');
    const line = active.map((s) => `${s.key} ${fmt(med(s.key, route.key, 'rps'))} (${(med(s.key, route.key, 'rps') / node).toFixed(2)}×, p99 ${ms(med(s.key, route.key, 'p99'))} ms)`).join(' · ');
    console.log(`${route.label}: ${line}`);
  }
  for (const t of targets) {
    const v = t.value('compiled');
    console.log(`target ${t.route.key} ${t.name} ${t.want}: ${v.toFixed(2)}× ${t.ok(v) ? 'met' : 'MISSED'}; paired ${interval(t.paired('compiled'))} (xstate ${t.value('xstate').toFixed(2)}×)`);
  }

  // ---- RESULTS.md ----
  const rows: string[] = [];
  for (const route of ROUTES) for (const s of active) {
    const rps = med(s.key, route.key, 'rps');
    const vsNode = rps / med('node', route.key, 'rps');
    const range = perRoundRatio(s.key, route.key, 'node');
    const vsFastify = s.key.startsWith('compiled') || s.key === 'xstate' ? `${(rps / med('fastify', route.key, 'rps')).toFixed(2)}×` : '';
    const p99 = med(s.key, route.key, 'p99');
    const rounds = get(s.key, route.key).map((r) => fmt(r.rps)).join(' / ');
    rows.push(`| ${route.label} | ${s.label} | ${fmt(rps)} | ${vsNode.toFixed(2)}× (${Math.min(...range).toFixed(2)}–${Math.max(...range).toFixed(2)}) | ${vsFastify} | ${ms(med(s.key, route.key, 'p50'))} | ${ms(p99)} | ${(p99 / med('node', route.key, 'p99')).toFixed(2)}× | ${rounds} | ${pct(med(s.key, route.key, 'serverCpu'))} / ${pct(med(s.key, route.key, 'loadCpu'))} | ${Math.max(...get(s.key, route.key).map((r) => r.foreign)).toFixed(2)} |`);
  }
  const targetRows = targets.map((t) => {
    const v = t.value('compiled');
    return `| ${t.route.label} | ${t.name} | ${t.want} | ${v.toFixed(2)}× | ${t.ok(v) ? 'met' : '**missed**'} | ${interval(t.paired('compiled'))} | ${t.value('xstate').toFixed(2)}× (${t.ok(t.value('xstate')) ? 'met' : 'missed'}) |`;
  });
  const problems = [...results.entries()].flatMap(([k, rs]) => rs.filter((r) => r.errors).map((r) => `${k}: ${r.errors}`));
  const exampleLoad = shown(loadCommand(gen, `http://127.0.0.1:<port>${PATHS.json}`, SLICE_SECONDS));
  const env = envLine(QUICK, ['DURATION', 'SLICES', 'WARMUP', 'CONNECTIONS', 'ROUNDS', 'PAUSE', 'SEED', 'LOADGEN', 'PROFILE', ...GATE_ENV, 'NICE', 'PROFILE_SECONDS']);

  writeSection('http', `
## HTTP end to end (\`npm run bench:http\`)

Signalbox serves \`GET /posts/1\` (JSON) and \`GET /posts/1.html\` through the whole pipeline — \`serve()\` → \`app.handle\` → parse → negotiate → forgery check → recognize over the ${'~'}670-route table of \`bench/fixtures/rails-table.ts\` → dispatch → \`PostsController#show\` with \`respond_to({ json, html })\` → render, MD5 ETag → respond with X-Runtime — with \`environment: 'production'\` and \`logger: false\` (pino at level silent: the peers log nothing either). Bare node:http (an if/else) and Fastify (a route per path) send byte-identical bodies with the same Content-Type; every server serialises the same in-memory post with \`JSON.stringify\` per request (checked before measuring). Signalbox's \`serve()\` runs with its defaults, so it holds answers until the event loop has read every ready request and writes them back to back (\`batchWrites\`); node:http and Fastify write each answer as soon as it is ready.
Every server runs from \`npm run build\` (plain JavaScript, as deployed), in its own process on core ${SERVER_CORE}, the load generator on core ${LOAD_CORE}; one more row runs the default engine through tsx, as \`npm start\` does (tsx wraps each closure made at run time in a name-setting call). All servers are warmed (${WARMUP} s per route), then ${ROUNDS} rounds each run every server × route once: ${DURATION} s per run, ${CONNECTIONS} keep-alive connections. ${SLICES > 1 ? `Each run is cut into ${SLICES} slices of ${SLICE_SECONDS} s, and a round goes through its runs slice by slice: ${SLICES} passes over every server × route, each pass in a new shuffled order, so that every server meets the same drifts of the shared host. A run's req/s is its requests over its slices' seconds; its p50 and p99 are read off its slices' latency distributions (1,001 quantiles each, from wrk) mixed by request count. ` : 'Each round runs them in a shuffled order. '}Figures are medians of the ${ROUNDS} rounds; ratios compare medians with bare node:http (the per-round range in brackets).

${machine()}; ${gen.version}; fastify ${version('fastify')}, xstate ${version('xstate')}, signalbox ${ownVersion()} (${tree}; sources fingerprint ${fingerprint}, sha1 of core/, machines/, transport/).${gen.kind === 'autocannon' ? `\n**Load generator: autocannon, not wrk** — ${gen.note}` : ` ${gen.note}`}

| route | server | req/s | × node:http | × Fastify | p50 ms | p99 ms | p99 × node:http | req/s per round | CPU server / load | others, max (cores) |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

${active.some((s) => s.key === 'transport') ? 'The diagnostic row is not a contender: it runs Signalbox\'s transport (`serve()`, transport/http.ts) around a stub `app.handle` that answers at once with the same response and headers, so the gap between it and bare node:http is the transport\'s, and the gap between it and the compiled engine is the request pipeline\'s.\n\n' : ''}Targets for the default (compiled) engine, with the XState engine beside them:

| route | measure | target | compiled | met? | compiled, paired by pass (90% interval) | XState |
|---|---|---|---:|---|---:|---:|
${targetRows.join('\n')}

${missed.length === 0 ? 'All targets met by the default engine.' : `Missed by the default engine: ${missed.map((t) => `${t.route.key} ${t.name}`).join('; ')}.`}
The verdict reads the medians of rounds, as the targets are stated. The paired column is a second reading of the same slices: the ratio of the two servers' slices in each pass (measured seconds apart, so a drift of the shared host cancels out), its median over all ${ROUNDS * SLICES} passes, and a 90% percentile-bootstrap interval for that median (resampling passes). An interval that straddles a target says one run on this host cannot settle it.
CPU is the share of one core used during the run (server from /proc/<pid>/stat, load generator from the bench's reaped-children times): a server near 100% is the bottleneck; the load generator well below 100% is not. "Others" is CPU used meanwhile by processes outside this bench (machine busy time from /proc/stat minus ours, in cores; the machine is shared). Each ${SLICES > 1 ? 'slice' : 'run'} starts once a ${GATE.sample} s sample shows under ${GATE.quiet} cores busy (waiting at most ${GATE.quietWait} s), and a ${SLICES > 1 ? 'slice' : 'run'} during which others took more than ${GATE.maxForeign} cores is repeated (at most ${GATE.retries} times; waits and repeats may add at most ${GATE.slack} s in all), keeping the least disturbed: ${repeats} repeat(s) in this run.${NICE !== 0 ? ` Servers and load generator ran under \`nice -n ${NICE}\`.` : ''} Runs still disturbed after that show it in the column; read their figures with care.${problems.length ? `\nLoad generator reported: ${problems.join('; ')}.` : ''}

Response headers besides Date/Connection/Keep-Alive — ${active.map((s) => `${s.label}: ${headers[s.key].json}`).join('; ')}.

Commands (run: \`${env ? `${env} ` : ''}npm run bench:http\`):
${servers.map((s) => `- \`${s.command}\` (port ${s.port})`).join('\n')}
- load, per ${SLICES > 1 ? 'slice' : 'run'}: \`${exampleLoad}\`, \`<port>\` as above, path \`${PATHS.json}\` or \`${PATHS.html}\`
- orders (shuffled with SEED=${SEED}): ${orders.map((o, i) => `${SLICES > 1 ? `round ${Math.floor(i / SLICES) + 1} pass ${(i % SLICES) + 1}` : `round ${i + 1}`}: ${o}`).join('; ')}
${profile ? `\n${fingerprintAfterRounds !== profileFingerprint || fingerprintAfterRounds !== fingerprint ? `**The framework's sources changed during this run** (fingerprint ${fingerprint} at the start, ${fingerprintAfterRounds} after the rounds, ${profileFingerprint} after profiling): the profile below may describe other code than the table above.\n\n` : ''}${profile.markdown}` : ''}`);
  console.log('\nwrote the http section of bench/RESULTS.md');
}

main().then(() => { killAll(); }, (error: unknown) => {
  console.error(error);
  killAll();
  process.exitCode = 1;
});
