/**
 * Requests per second over ONE tunnel socket with IN_FLIGHT (50) requests in flight, against HTTP
 * keep-alive with as many connections, on the same Signalbox app in the same run. Run with
 * `npm run bench:tunnel`; writes the `tunnel` section of bench/RESULTS.md. Target: the
 * tunnel at least 2.5× the HTTP figure with the server saturated, since it skips HTTP parsing and
 * per-connection work. Several loader processes (PROCESSES, 3) share the tunnel's requests in flight,
 * each on its own socket, so that the client is not what limits the figure; the server's CPU per
 * request is reported beside the ratio.
 *
 * One server process from `npm run build` (`bench/servers/http-server.ts signalbox-compiled`: the
 * app of bench/servers/signalbox-app.ts behind `serve()`, whose tunnel is on at `/_tunnel`) is
 * pinned to core 0 and answers both transports. The load generators run in their own processes
 * pinned to core 1: wrk for HTTP, and `bench/servers/tunnel-load.ts` for the tunnel, driving one
 * socket either with the project's client (`tunnel()`) or with raw `ws` and frames serialised once
 * (a lighter loader). The headline is the first loader, in LOADERS order, that leaves the server
 * saturated (at least 95% of its core on every route) without saturating its own core: the target is
 * the server's throughput, which a loader that lets the server idle does not show. Before
 * measuring, both transports must give the same status, body, Content-Type and ETag per route.
 * After a warm-up of every transport × route, each of ROUNDS rounds runs, per route, HTTP then the
 * tunnel loaders, DURATION seconds each; figures are medians over the rounds.
 *
 * Environment: DURATION (s per run, 10), ROUNDS (3), WARMUP (s per transport and route, 2),
 * IN_FLIGHT (50: tunnel requests in flight, shared by the PROCESSES (3) loader processes, and wrk's
 * connections), LOAD_CORES (the load core, 1: taskset's list of cores for the tunnel loaders), RAMP (s of load before a
 * tunnel run's window opens, 0.5), PAUSE (s between runs, 0.5), LOADERS (`client,raw`, or `raw-text` too: which tunnel
 * loaders run, in headline order), QUICK=1 (2 s runs, 1 s
 * warm-up, no repeats: about a minute). The machine may be shared: QUIET (cores, 0.15) and
 * QUIET_WAIT (s, 20) gate each run on an idle machine; a run during which others used more than
 * MAX_FOREIGN cores (0.15) is repeated up to RETRIES (2) times, within SLACK seconds (60) in all.
 * NICE=<n> runs the server and load generators under `nice -n <n>`.
 */
import { type ChildProcess } from 'node:child_process';
import { WebSocket } from 'ws';
import { tunnel } from '../transport/tunnel-client.ts';
import { PATHS, ROUTES, type RouteSpec } from './servers/bodies.ts';
import { cpuSeconds, machineBusySeconds, envLine, GATE_ENV, gateSettings, runRounds } from './support/noise.ts';
import { positive } from './support/plan.ts';
import { exitCode, killAll, sh, shown, sleep, spawnTracked, startListening, stopChild } from './support/processes.ts';
import { build, ownVersion, ROOT, sourcesFingerprint, treeState, version } from './support/provenance.ts';
import { fmt, machine, median, ms, pct, writeSection, logLoad } from './support/results.ts';
import { ensureLoadGenerator, loadCommand, runLoad, type LoadGen, type LoadResult, type LoadSetup } from './support/wrk.ts';

const QUICK = process.env.QUICK === '1';
const GATE = gateSettings(QUICK);
const DURATION = positive('DURATION', QUICK ? 2 : 10);
const WARMUP = positive('WARMUP', QUICK ? 1 : 2);
const ROUNDS = Math.round(positive('ROUNDS', 3));
if (ROUNDS < 3) throw new Error('ROUNDS must be at least 3: figures are medians over rounds');
const IN_FLIGHT = Math.round(positive('IN_FLIGHT', 50));
const RAMP = Number(process.env.RAMP ?? (QUICK ? 0.25 : 0.5));
const PAUSE = Number(process.env.PAUSE ?? (QUICK ? 0.25 : 0.5));
const NICE = Number(process.env.NICE ?? 0);
const NICE_PREFIX: readonly string[] = NICE !== 0 ? ['nice', '-n', String(NICE)] : [];
const SERVER_CORE = '0';
const LOAD_CORE = '1';
const SERVER_ARGS = ['dist/bench/servers/http-server.js', 'signalbox-compiled', '0'];
const LOADER_SCRIPT = 'dist/bench/servers/tunnel-load.js';
const TUNNEL_PATH = '/_tunnel';
const WRK: LoadSetup = { core: LOAD_CORE, connections: IN_FLIGHT, prefix: NICE_PREFIX };
/** Tunnel ÷ HTTP throughput wanted, with the server saturated. */
const TARGET = 2.5;
// A loader using this much of its core may be what limits the figure rather than the server.
const SATURATED = 0.9;
// A server using this much of its core is what limits the figure: the target is measured there.
const SERVER_SATURATED = 0.95;

type LoaderMode = 'client' | 'raw' | 'raw-text';
const LOADER_NAMES: Record<LoaderMode, string> = { client: "the project's client", raw: 'the raw `ws` loader', 'raw-text': 'the raw `ws` loader (JSON text frames)' };
const LOADER_LABELS: Record<LoaderMode, string> = {
  client: `tunnel, project client (\`tunnel()\`), ${Math.round(positive('PROCESSES', 3))} processes`,
  raw: `tunnel, raw \`ws\` loader (batching), ${Math.round(positive('PROCESSES', 3))} processes`,
  'raw-text': `tunnel, raw \`ws\` loader (JSON text frames), ${Math.round(positive('PROCESSES', 3))} processes`,
};
const LOADERS: readonly LoaderMode[] = (process.env.LOADERS ?? 'client,raw').split(',').map((m) => m.trim()).map((m) => {
  if (m !== 'client' && m !== 'raw' && m !== 'raw-text') throw new Error(`LOADERS lists client, raw and/or raw-text, not ${JSON.stringify(m)}`);
  return m;
});
if (LOADERS.length === 0) throw new Error('LOADERS must name at least one tunnel loader');

type TransportKey = 'http' | LoaderMode;
const TRANSPORTS: readonly TransportKey[] = ['http', ...LOADERS];
const LABELS: Record<TransportKey, string> = { http: `HTTP keep-alive, wrk -c${IN_FLIGHT}`, ...LOADER_LABELS };

interface Server { readonly child: ChildProcess; readonly port: number; readonly command: string }

async function startServer(): Promise<Server> {
  const argv = [...NICE_PREFIX, 'taskset', '-c', SERVER_CORE, process.execPath, ...SERVER_ARGS];
  return startListening(argv, 'the server');
}

/** How many loader processes share a tunnel run's requests in flight, each on its own socket. */
const PROCESSES = Math.round(positive('PROCESSES', 3));
/** The cores the load generators may use (taskset's list syntax): one on a 2-core host, more where there are more. */
const LOAD_CORES = process.env.LOAD_CORES ?? LOAD_CORE;

/** The requests in flight of loader `i` of PROCESSES: IN_FLIGHT shared out, the first ones taking any remainder. */
const inFlightOf = (i: number): number => Math.floor(IN_FLIGHT / PROCESSES) + (i < IN_FLIGHT % PROCESSES ? 1 : 0);

function loaderCommand(mode: LoaderMode, port: number | string, path: string, seconds: number, inFlight = inFlightOf(0)): string[] {
  return [...NICE_PREFIX, 'taskset', '-c', LOAD_CORES, process.execPath, LOADER_SCRIPT, mode, `ws://127.0.0.1:${port}${TUNNEL_PATH}`, path, String(seconds), String(inFlight), String(RAMP)];
}

/**
 * One tunnel run: PROCESSES loaders at once, each with its own socket and its share of the requests
 * in flight, so that no one client process is what limits the figure. CPU is sampled once every loader
 * has printed START and again when the first prints END, so the window is one all of them measured in
 * (not their start-up, ramp or closing); the run's rate is the sum of the loaders' own rates.
 */
async function runTunnel(mode: LoaderMode, server: Server, path: string, seconds: number): Promise<LoadResult> {
  type Sample = { t: number; server: number; loaders: number; busy: number; own: number };
  const loaders = Array.from({ length: Math.min(PROCESSES, IN_FLIGHT) }, (_, i) => {
    const argv = loaderCommand(mode, server.port, path, seconds, inFlightOf(i));
    return { argv, child: spawnTracked(argv, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] }), out: '', err: '', pending: '', started: false, ended: false };
  });
  const sample = (): Sample => ({
    t: performance.now(), server: cpuSeconds(server.child.pid!).own,
    loaders: loaders.reduce((sum, l) => sum + cpuSeconds(l.child.pid!).own, 0),
    busy: machineBusySeconds(), own: cpuSeconds('self').own,
  });
  let start: Sample | null = null;
  let end: Sample | null = null;
  for (const loader of loaders) {
    loader.child.stdout!.on('data', (d: Buffer) => {
      loader.pending += d;
      let nl: number;
      while ((nl = loader.pending.indexOf('\n')) >= 0) {
        const line = loader.pending.slice(0, nl);
        loader.pending = loader.pending.slice(nl + 1);
        // Every loader is still alive at both markers (each drains and closes after END), so /proc has them.
        if (line === 'START') {
          loader.started = true;
          if (loaders.every((l) => l.started)) start = sample();
        } else if (line === 'END') {
          if (end === null && start !== null) end = sample();
          loader.ended = true;
        } else loader.out += `${line}\n`;
      }
    });
    loader.child.stderr!.on('data', (d: Buffer) => { loader.err += d; });
  }
  const codes = await Promise.all(loaders.map((l) => exitCode(l.child, (RAMP + seconds + 30) * 1000)));
  const failed = loaders.find((l, i) => codes[i] !== 0);
  if (failed !== undefined || start === null || end === null) {
    const l = failed ?? loaders[0]!;
    throw new Error(`${l.argv.join(' ')} exited with ${codes[loaders.indexOf(l)]}${start === null || end === null ? ' (the loaders\' windows did not overlap)' : ''}:\n${l.out}${l.err}`);
  }
  const a: Sample = start;
  const b: Sample = end;
  const wall = (b.t - a.t) / 1000;
  const serverCpu = (b.server - a.server) / wall;
  const loadCpu = (b.loaders - a.loaders) / wall;
  const foreign = Math.max(0, (b.busy - a.busy) / wall - serverCpu - loadCpu - (b.own - a.own) / wall);
  const reports = loaders.map((l) => JSON.parse(l.out.trim().split('\n').pop()!) as { requests: number; rps: number; p50: number; p99: number; statuses: Record<string, number> });
  const statuses: Record<string, number> = {};
  for (const r of reports) for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const bad = Object.entries(statuses).filter(([status]) => status !== '200');
  return {
    // Each loader reports its own percentiles: the median of their p50s and the worst p99 stand for the run.
    rps: reports.reduce((sum, r) => sum + r.rps, 0), p50: median(reports.map((r) => r.p50)), p99: Math.max(...reports.map((r) => r.p99)),
    requests: reports.reduce((sum, r) => sum + r.requests, 0),
    errors: bad.length ? `non-200 answers: ${bad.map(([st, n]) => `${n} × ${st}`).join(', ')}` : null,
    serverCpu, loadCpu, foreign, command: loaders.map((l) => l.argv.join(' ')).join(' & '),
  };
}

function run(gen: LoadGen, transport: TransportKey, server: Server, route: RouteSpec, seconds: number): Promise<LoadResult> {
  if (transport === 'http') return runLoad(gen, `http://127.0.0.1:${server.port}${route.path}`, seconds, server.child.pid!, WRK);
  return runTunnel(transport, server, route.path, seconds);
}

/**
 * Both transports must answer each route alike: status 200, the same body, Content-Type and ETag
 * (the same bytes hash alike), through the project's client; and a raw frame's answer must start
 * `{"id":<id>,"status":200`, which the raw loader reads without parsing the rest.
 */
async function verify(server: Server): Promise<Record<string, { http: string; tunnel: string }>> {
  const names: Record<string, { http: string; tunnel: string }> = {};
  const t = await Promise.race([
    tunnel(`ws://127.0.0.1:${server.port}${TUNNEL_PATH}`, { cookies: false, reconnect: false, timeoutMs: 5000 }),
    sleep(10).then(() => { throw new Error('the tunnel did not open within 10 s'); }),
  ]);
  try {
    for (const route of ROUTES) {
      const res = await fetch(`http://127.0.0.1:${server.port}${route.path}`, { signal: AbortSignal.timeout(5000) });
      const httpBody = await res.text();
      const tres = await t.request({ method: 'GET', path: route.path });
      const tunnelBody = await tres.text();
      const seen = {
        http: { status: res.status, type: res.headers.get('content-type'), etag: res.headers.get('etag'), body: httpBody },
        tunnel: { status: tres.status, type: tres.headers.get('content-type'), etag: tres.headers.get('etag'), body: tunnelBody },
      };
      const expected = { status: 200, type: route.type, body: route.body };
      for (const [name, got] of Object.entries(seen)) {
        if (got.status !== expected.status || got.type !== expected.type || got.body !== expected.body || got.etag === null) {
          throw new Error(`${name} ${route.path}: ${got.status} ${got.type} ETag ${got.etag} ${JSON.stringify(got.body.slice(0, 80))} is not the expected 200 ${route.type} body`);
        }
      }
      if (seen.http.etag !== seen.tunnel.etag) throw new Error(`${route.path}: ETag ${seen.http.etag} over HTTP, ${seen.tunnel.etag} over the tunnel`);
      const httpNames: string[] = [];
      res.headers.forEach((_value, name) => { if (name !== 'date' && name !== 'connection' && name !== 'keep-alive') httpNames.push(name); });
      names[route.key] = { http: httpNames.join(', '), tunnel: Object.keys(tres.headers.raw).map((n) => n.toLowerCase()).join(', ') };
    }
  } finally {
    await t.close();
  }
  await verifyRawFrames(server.port);
  return names;
}

async function verifyRawFrames(port: number): Promise<void> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${TUNNEL_PATH}`, { perMessageDeflate: false });
  try {
    await new Promise<void>((open, fail) => {
      const timer = setTimeout(() => fail(new Error('raw tunnel socket did not open within 10 s')), 10_000);
      ws.once('open', () => { clearTimeout(timer); open(); });
      ws.once('error', (e) => { clearTimeout(timer); fail(e); });
    });
    for (const [i, route] of ROUTES.entries()) {
      const id = IN_FLIGHT - 1 - i;
      const answer = await new Promise<string>((done, fail) => {
        const timer = setTimeout(() => fail(new Error('no answer to a raw frame within 5 s')), 5000);
        ws.once('message', (data) => { clearTimeout(timer); done(String(data)); });
        ws.send(JSON.stringify({ id, method: 'GET', path: route.path }));
      });
      const frame = JSON.parse(answer) as { id: number; status: number; body?: string };
      if (!answer.startsWith(`{"id":${id},"status":200,`) || frame.body !== route.body) {
        throw new Error(`raw frame for ${route.path}: the answer ${JSON.stringify(answer.slice(0, 80))} does not start {"id":${id},"status":200 with the expected body`);
      }
    }
  } finally {
    ws.terminate();
  }
}

async function main(): Promise<void> {
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to pin the server and the load generators to different cores');
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen = ensureLoadGenerator(LOAD_CORE);
  console.log(`HTTP load generator: ${gen.version} (${gen.note})`);
  // The server and the tunnel loader run from the build of the very sources fingerprinted above.
  build();
  const cells = ROUTES.flatMap((route) => TRANSPORTS.map((transport) => ({ route, transport })));
  // A tunnel run also spends its ramp and a moment starting and closing its loader.
  const perRun = DURATION + GATE.sample + PAUSE + RAMP + 0.3;
  console.log(`${ROUTES.length} routes × ${TRANSPORTS.join(', ')} × ${ROUNDS} rounds of ${DURATION} s, ${IN_FLIGHT} in flight, warm-up ${WARMUP} s each: at least ${Math.ceil((cells.length * (WARMUP + ROUNDS * perRun)) / 60)} min (more if the machine is busy)`);

  const server = await startServer();
  const headerNames = await verify(server);
  console.log('status, body, Content-Type and ETag identical over HTTP and the tunnel, for both routes');

  for (const { route, transport } of cells) {
    await run(gen, transport, server, route, WARMUP);
    await sleep(PAUSE);
  }

  // The same order every round: transports of one route side by side, HTTP first.
  const { results, repeats } = await runRounds({
    cells, rounds: ROUNDS, gate: GATE, secondsPerRun: perRun, pause: PAUSE,
    key: (c) => `${c.route.key}/${c.transport}`,
    order: (all) => all,
    measure: ({ route, transport }) => run(gen, transport, server, route, DURATION),
    report: logLoad(12),
  });
  await stopChild(server.child);
  const fingerprintAfter = sourcesFingerprint();
  const changed = fingerprintAfter !== fingerprint;
  if (changed) console.warn(`warning: the framework's sources changed during the run (${fingerprint} → ${fingerprintAfter}); the server kept the build it started with`);

  // ---- figures ----
  const get = (route: string, transport: TransportKey) => results.get(`${route}/${transport}`)!;
  const med = (route: string, transport: TransportKey, field: 'rps' | 'p50' | 'p99' | 'serverCpu' | 'loadCpu') => median(get(route, transport).map((r) => r[field]));
  const ratio = (route: string, transport: TransportKey) => med(route, transport, 'rps') / med(route, 'http', 'rps');
  const perRound = (route: string, transport: TransportKey) => get(route, transport).map((r, i) => r.rps / get(route, 'http')[i].rps);
  // The headline is the first loader that kept the server saturated on every route without using
  // (nearly) all of its own core: a loader that lets the server idle measures itself, not the server.
  const saturated = (mode: LoaderMode) => ROUTES.some((route) => med(route.key, mode, 'loadCpu') >= SATURATED);
  const serverBusy = (mode: LoaderMode) => Math.min(...ROUTES.map((route) => med(route.key, mode, 'serverCpu')));
  const drives = (mode: LoaderMode) => !saturated(mode) && serverBusy(mode) >= SERVER_SATURATED;
  const headline: LoaderMode = LOADERS.find(drives) ?? LOADERS.find((m) => !saturated(m)) ?? LOADERS[LOADERS.length - 1];
  const passedOver = LOADERS.slice(0, LOADERS.indexOf(headline)).map((m) => (saturated(m)
    ? `the ${m} loader saturated its own core`
    : `the ${m} loader left the server ${pct(serverBusy(m))} busy`));
  const met = (route: RouteSpec) => ratio(route.key, headline) >= TARGET;
  const allMet = ROUTES.every(met);

  console.log('');
  for (const route of ROUTES) {
    console.log(`${route.label}: ${TRANSPORTS.map((tr) => `${tr} ${fmt(med(route.key, tr, 'rps'))} req/s${tr === 'http' ? '' : ` (${ratio(route.key, tr).toFixed(2)}×)`}, CPU server ${pct(med(route.key, tr, 'serverCpu'))} load ${pct(med(route.key, tr, 'loadCpu'))}`).join(' · ')}`);
    console.log(`target ${route.key} tunnel ÷ HTTP ≥ ${TARGET}× (${headline} loader): ${ratio(route.key, headline).toFixed(2)}× ${met(route) ? 'met' : 'MISSED'}`);
  }
  for (const mode of LOADERS) if (saturated(mode)) console.warn(`warning: the ${mode} tunnel loader used ≥ ${pct(SATURATED)} of its core: its figures may be the loader's limit`);

  // ---- RESULTS.md ----
  const rows: string[] = [];
  for (const route of ROUTES) for (const tr of TRANSPORTS) {
    const rs = get(route.key, tr);
    const range = perRound(route.key, tr);
    const rps = med(route.key, tr, 'rps');
    const serverUs = median(rs.map((r) => (r.serverCpu * 1e6) / r.rps));
    rows.push(`| ${route.label} | ${LABELS[tr]}${tr === headline ? ' **(headline)**' : ''} | ${fmt(rps)} | ${tr === 'http' ? '1.00×' : `${ratio(route.key, tr).toFixed(2)}× (${Math.min(...range).toFixed(2)}–${Math.max(...range).toFixed(2)})`} | ${ms(med(route.key, tr, 'p50'))} | ${ms(med(route.key, tr, 'p99'))} | ${rs.map((r) => fmt(r.rps)).join(' / ')} | ${pct(med(route.key, tr, 'serverCpu'))} | ${serverUs.toFixed(1)} | ${pct(med(route.key, tr, 'loadCpu'))} (max ${pct(Math.max(...rs.map((r) => r.loadCpu)))}) | ${Math.max(...rs.map((r) => r.foreign)).toFixed(2)} |`);
  }
  const targetRows = ROUTES.map((route) => `| ${route.label} | ${fmt(med(route.key, headline, 'rps'))} | ${fmt(med(route.key, 'http', 'rps'))} | **${ratio(route.key, headline).toFixed(2)}×** | ≥ ${TARGET}× | ${met(route) ? 'met' : '**missed**'} |`);
  const problems = [...results.entries()].flatMap(([k, rs]) => rs.filter((r) => r.errors).map((r) => `${k}: ${r.errors}`));
  const env = envLine(QUICK, ['DURATION', 'WARMUP', 'ROUNDS', 'IN_FLIGHT', 'PROCESSES', 'LOAD_CORES', 'RAMP', 'PAUSE', 'LOADERS', 'LOADGEN', ...GATE_ENV, 'NICE']);
  const saturatedNote = LOADERS.filter(saturated).map((m) => `**The ${m} loader used ${pct(SATURATED)} or more of its core on some route: its figures may show the loader's limit, not the server's.**`).join(' ');

  writeSection('tunnel', `
## WebSocket tunnel vs HTTP keep-alive (\`npm run bench:tunnel\`)

One server process (\`serve()\` with the tunnel on at \`${TUNNEL_PATH}\`, the app of \`bench/servers/signalbox-app.ts\`: the compiled engine, the ${'~'}670-route table, \`PostsController#show\` with \`respond_to({ json, html })\`, \`environment: 'production'\`, \`logger: false\`), run from \`npm run build\` and pinned to core ${SERVER_CORE}, answers both transports. The load generators run in their own processes pinned to core(s) ${LOAD_CORES}: wrk with ${IN_FLIGHT} keep-alive connections for HTTP; for the tunnel, ${PROCESSES} processes of \`bench/servers/tunnel-load.ts\` (also from the build) at once, each with its own socket and its share of ${IN_FLIGHT} requests in flight (so that no one client process is the limit; the run's rate is the sum of theirs, its CPU window the one all of them measured in), either through the project's client (\`tunnel()\` with \`cookies: false, reconnect: false\`: one loop per request in flight, each awaiting its answer and reading its body before sending the next; it speaks the batching subprotocol \`signalbox-tunnel.2\`: the requests of one turn in one frame, answers as binary records with unescaped bodies) or through raw \`ws\` (${IN_FLIGHT} frames serialised once, one per id, each answer sending its id's frame again; answers read only as far as id and status; \`raw\` batches as the client does, the frames due in one turn as one JSON array, and reads each answer record's head; \`raw-text\`, run only when LOADERS names it, offers no subprotocol and sends and reads JSON text frames, one request each, as a client of the plain protocol does). Before measuring, both transports gave status 200 and the same body, Content-Type and ETag for each route, and a raw frame's answer began \`{"id":<id>,"status":200\`.
After a warm-up (${WARMUP} s per transport and route), ${ROUNDS} rounds each ran, per route, ${TRANSPORTS.map((tr) => (tr === 'http' ? 'HTTP' : `the ${tr} tunnel loader`)).join(', then ')}: ${DURATION} s per run (a tunnel run's window opens after ${RAMP} s of load, once its loader's JIT has warmed). Figures are medians of the ${ROUNDS} rounds; the ratio is the tunnel's median over HTTP's (the per-round ratios in brackets).

${machine()}; ${gen.version}; ws ${version('ws')}, signalbox ${ownVersion()} (${tree}; sources fingerprint ${fingerprint}, sha1 of core/, machines/, transport/${changed ? `; **they changed during the run**, to ${fingerprintAfter}: the server kept the build it started with` : ''}).${gen.kind === 'autocannon' ? `\n**HTTP load generator: autocannon, not wrk** — ${gen.note}` : ` ${gen.note}`}

| route | transport | req/s | × HTTP | p50 ms | p99 ms | req/s per round | CPU server | server CPU µs/req | CPU load generator | others, max (cores) |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Target, with ${LOADER_NAMES[headline]} as the tunnel's figure${passedOver.length ? ` (${passedOver.join('; ')})` : ''}${drives(headline) ? '' : ` — **no loader kept the server at ${pct(SERVER_SATURATED)} or more of its core, so this is not the saturated server's figure**`}:

| route | tunnel req/s | HTTP req/s | tunnel ÷ HTTP | target | met? |
|---|---:|---:|---:|---|---|
${targetRows.join('\n')}

${allMet ? 'Target met on both routes.' : `Target missed on ${ROUTES.filter((r) => !met(r)).map((r) => r.label).join(' and ')}.`}${saturatedNote ? ` ${saturatedNote}` : ''}
CPU is the share of one core used during the run: the server from /proc/<pid>/stat; wrk from the bench's reaped-children times (the whole run); a tunnel loader from /proc/<pid>/stat between its START and END lines (its measured window). A server near 100% is the bottleneck; a load generator well below 100% is not. "Server CPU µs/req" is the server's CPU time per answered request. "Others" is CPU used meanwhile by processes outside this bench (machine busy time from /proc/stat minus ours, in cores; the machine is shared). Each run starts once a ${GATE.sample} s sample shows under ${GATE.quiet} cores busy (waiting at most ${GATE.quietWait} s), and a run during which others took more than ${GATE.maxForeign} cores is repeated (at most ${GATE.retries} times; waits and repeats may add at most ${GATE.slack} s in all), keeping the least disturbed: ${repeats} repeat(s) in this run.${NICE !== 0 ? ` Server and load generators ran under \`nice -n ${NICE}\`.` : ''}${problems.length ? `\nLoad generators reported: ${problems.join('; ')}.` : ''}

Response headers — over HTTP, besides Date/Connection/Keep-Alive: ${headerNames.json.http}; in tunnel response frames: ${headerNames.json.tunnel}.

Commands (run: \`${env ? `${env} ` : ''}npm run bench:tunnel\`, which first runs \`npm run build\`):
- server: \`${server.command}\` (port ${server.port}; NODE_ENV=production)
- HTTP load, per run: \`${shown(loadCommand(gen, `http://127.0.0.1:<port>${PATHS.json}`, DURATION, WRK))}\`
${LOADERS.map((m) => `- tunnel load (${m}), per run, ${PROCESSES} at once: \`${shown(loaderCommand(m, '<port>', PATHS.json, DURATION))}\``).join('\n')}
- path \`${PATHS.json}\` or \`${PATHS.html}\`; order in every round: ${cells.map((c) => `${c.route.key}/${c.transport}`).join(' → ')}
`);
}

main().then(() => { killAll(); }, (error: unknown) => {
  console.error(error);
  killAll();
  process.exitCode = 1;
});
