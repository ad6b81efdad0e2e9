/**
 * What the inspector costs: throughput of the full pipeline (GET /posts/1, JSON, as in
 * `bench/http.ts`) with inspection off (`serve({ inspect: false })`), on with nobody watching
 * (`inspect: true`, no page connected: the app is not traced at all), and on with a viewer
 * connected (a WebSocket client reading and parsing the trace stream, as a page would; every
 * request traced, sanitised and sent). Run with `npm run bench:inspect`; writes the `inspect`
 * section of bench/RESULTS.md.
 *
 * Every server runs from `npm run build` in its own process pinned to core 0; wrk runs pinned to
 * core 1, and so does the viewer (the machine has two cores; the viewer's CPU is reported). After
 * a warm-up, each of ROUNDS rounds runs every (engine × mode) once in a shuffled order; figures
 * are medians over the rounds, compared with inspection off for the same engine.
 *
 * Environment: DURATION (s per run, 8), ROUNDS (5), WARMUP (s, 2), CONNECTIONS (50), PAUSE (s, 0.5),
 * SEED (1), ENGINES (`compiled,xstate`), QUICK=1 (2 s runs, 3 rounds), LOADGEN=autocannon, and the
 * shared-machine guards of bench:http: QUIET, QUIET_WAIT, MAX_FOREIGN, RETRIES, SLACK.
 */
import type { ChildProcess } from 'node:child_process';
import { JSON_TYPE, PATHS, POST } from './servers/bodies.ts';
import { envLine, GATE_ENV, gateSettings, runRounds } from './support/noise.ts';
import { positive, rng, shuffle } from './support/plan.ts';
import { killAll, sh, shown, sleep, spawnTracked, startListening, stopChild } from './support/processes.ts';
import { build, ownVersion, ROOT, sourcesFingerprint, treeState, version } from './support/provenance.ts';
import { fmt, machine, median, ms, pct, writeSection } from './support/results.ts';
import { ensureLoadGenerator, loadCommand, runLoad, type LoadGen, type LoadResult, type LoadSetup } from './support/wrk.ts';

const QUICK = process.env.QUICK === '1';
const GATE = gateSettings(QUICK);
const DURATION = positive('DURATION', QUICK ? 2 : 8);
const WARMUP = positive('WARMUP', QUICK ? 1 : 2);
const ROUNDS = positive('ROUNDS', QUICK ? 3 : 5);
const PAUSE = Number(process.env.PAUSE ?? (QUICK ? 0.25 : 0.5));
const SEED = positive('SEED', 1);
const ENGINES = (process.env.ENGINES ?? 'compiled,xstate').split(',').filter((e) => e === 'compiled' || e === 'xstate');
const SERVER_CORE = '0';
const LOAD_CORE = '1';
const LOAD: LoadSetup = { core: LOAD_CORE, connections: positive('CONNECTIONS', 50), prefix: [] };
const SERVER_SCRIPT = 'dist/bench/servers/inspect-server.js';
const VIEWER_SCRIPT = 'dist/bench/servers/inspect-viewer.js';
const BODY = JSON.stringify(POST);

type Mode = 'off' | 'idle' | 'viewer';
const MODES: readonly { readonly mode: Mode; readonly label: string }[] = [
  { mode: 'off', label: 'inspection off (`inspect: false`)' },
  { mode: 'idle', label: 'inspection on, no viewer' },
  { mode: 'viewer', label: 'inspection on, one viewer reading the trace stream' },
];

interface Report { events: number; requests: number; dropped: number; frames: number; bytes: number; cpu: number }

/** A viewer process: `report()` asks for its counts since the last call. */
class ViewerProcess {
  readonly child: ChildProcess;
  readonly command: string;
  #out = '';
  #waiting: ((r: Report) => void)[] = [];
  #opened: (() => void) | null = null;

  constructor(port: number) {
    const argv = ['taskset', '-c', LOAD_CORE, process.execPath, VIEWER_SCRIPT, `ws://127.0.0.1:${port}/__inspect/trace`];
    this.command = shown(argv);
    this.child = spawnTracked(argv, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout!.on('data', (d: Buffer) => {
      this.#out += d.toString('utf8');
      let nl: number;
      while ((nl = this.#out.indexOf('\n')) >= 0) {
        const line = this.#out.slice(0, nl);
        this.#out = this.#out.slice(nl + 1);
        if (line.startsWith('REPORT ')) this.#waiting.shift()?.(JSON.parse(line.slice(7)) as Report);
        if (line === 'OPEN') this.#opened?.();
      }
    });
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the viewer did not connect within 10 s')), 10_000);
      this.#opened = () => { clearTimeout(timer); resolve(); };
      this.child.once('exit', (code) => reject(new Error(`the viewer exited with ${code}`)));
    });
  }

  report(): Promise<Report> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the viewer did not report within 10 s')), 10_000);
      this.#waiting.push((r) => { clearTimeout(timer); resolve(r); });
      this.child.stdin!.write('report\n');
    });
  }
}

interface Cell { readonly engine: string; readonly mode: Mode; readonly label: string; child: ChildProcess; port: number; command: string; viewer: ViewerProcess | null }

async function startCell(engine: string, mode: Mode, label: string): Promise<Cell> {
  const argv = ['taskset', '-c', SERVER_CORE, process.execPath, SERVER_SCRIPT, engine, mode === 'off' ? 'off' : 'on', '0'];
  const { child, port, command } = await startListening(argv, `${engine}/${mode}`);
  let viewer: ViewerProcess | null = null;
  if (mode === 'viewer') {
    viewer = new ViewerProcess(port);
    await viewer.opened();
  }
  return { engine, mode, label, child, port, command, viewer };
}

/** Every server answers the bench route alike; the inspector is where each mode says, and the viewer sees requests. */
async function verify(cells: readonly Cell[]): Promise<void> {
  for (const c of cells) {
    const res = await fetch(`http://127.0.0.1:${c.port}${PATHS.json}`, { signal: AbortSignal.timeout(5000) });
    const body = await res.text();
    if (res.status !== 200 || body !== BODY || res.headers.get('content-type') !== JSON_TYPE) throw new Error(`${c.engine}/${c.mode}: ${res.status} ${JSON.stringify(body.slice(0, 80))}`);
    const page = await fetch(`http://127.0.0.1:${c.port}/__inspect`, { signal: AbortSignal.timeout(5000) });
    await page.arrayBuffer();
    if ((page.status === 200) !== (c.mode !== 'off')) throw new Error(`${c.engine}/${c.mode}: /__inspect answered ${page.status}`);
    if (c.viewer) {
      // The requests above are traced too; let their batch arrive before counting afresh.
      await sleep(0.3);
      await c.viewer.report();
      await fetch(`http://127.0.0.1:${c.port}${PATHS.json}`).then((r) => r.arrayBuffer());
      await sleep(0.3);
      const seen = await c.viewer.report();
      if (seen.requests !== 1) throw new Error(`${c.engine}/viewer: the viewer saw ${seen.requests} requests finish, not 1`);
    }
  }
}

interface Measured extends LoadResult { viewer: Report | null }

async function main(): Promise<void> {
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to pin the server and the load generator to different cores');
  if (ENGINES.length === 0) throw new Error('ENGINES must name compiled and/or xstate');
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen: LoadGen = ensureLoadGenerator(LOAD_CORE);
  console.log(`load generator: ${gen.version} (${gen.note})`);
  build();

  const cells: Cell[] = [];
  for (const engine of ENGINES) for (const { mode, label } of MODES) cells.push(await startCell(engine, mode, label));
  await verify(cells);
  console.log('every server answers alike; the inspector is off, on, and watched as planned');

  const random = rng(SEED);
  for (const c of shuffle(cells, random)) {
    await runLoad(gen, `http://127.0.0.1:${c.port}${PATHS.json}`, WARMUP, c.child.pid!, LOAD);
    await sleep(PAUSE);
  }

  const { results, orders, repeats } = await runRounds({
    cells, rounds: ROUNDS, gate: GATE, secondsPerRun: DURATION + GATE.sample + PAUSE, pause: PAUSE,
    key: (c) => `${c.engine}/${c.mode}`,
    order: (all) => shuffle(all, random),
    measure: async (c): Promise<Measured> => {
      await c.viewer?.report();
      const load = await runLoad(gen, `http://127.0.0.1:${c.port}${PATHS.json}`, DURATION, c.child.pid!, LOAD);
      // Let the last batch arrive before counting.
      if (c.viewer) await sleep(0.2);
      return { ...load, viewer: c.viewer ? await c.viewer.report() : null };
    },
    report: (m, key, round, attempt) => {
      if (m.errors) console.warn(`  warning: ${key}: ${m.errors}`);
      const v = m.viewer ? `  viewer ${fmt(m.viewer.events / DURATION)} events/s, ${fmt(m.viewer.requests)} requests, ${fmt(m.viewer.dropped)} dropped` : '';
      console.log(`round ${round + 1} ${key.padEnd(16)} ${fmt(m.rps).padStart(7)} req/s  p50 ${ms(m.p50)} ms  p99 ${ms(m.p99)} ms  CPU server ${pct(m.serverCpu)} others ${m.foreign.toFixed(2)}${v}${attempt ? ` (retry ${attempt})` : ''}`);
    },
  });
  for (const c of cells) {
    if (c.viewer) await stopChild(c.viewer.child);
    await stopChild(c.child);
  }
  const fingerprintAfter = sourcesFingerprint();

  const get = (engine: string, mode: Mode) => results.get(`${engine}/${mode}`)!;
  const med = (engine: string, mode: Mode, field: 'rps' | 'p50' | 'p99' | 'serverCpu') => median(get(engine, mode).map((r) => r[field]));
  const rows: string[] = [];
  const summary: string[] = [];
  for (const engine of ENGINES) {
    const off = med(engine, 'off', 'rps');
    for (const { mode, label } of MODES) {
      const runs = get(engine, mode);
      const rps = med(engine, mode, 'rps');
      const ratios = runs.map((r, i) => r.rps / get(engine, 'off')[i].rps);
      const viewer = mode === 'viewer'
        ? (() => {
          const events = median(runs.map((r) => r.viewer!.events / DURATION));
          const traced = median(runs.map((r) => r.viewer!.requests / r.requests));
          const dropped = runs.reduce((n, r) => n + r.viewer!.dropped, 0);
          const cpu = median(runs.map((r) => r.viewer!.cpu / DURATION));
          return `${fmt(events)} events/s, ${pct(Math.min(1, traced))} of requests seen whole, ${fmt(dropped)} events dropped; viewer CPU ${pct(cpu)}`;
        })()
        : '';
      rows.push(`| ${engine === 'compiled' ? 'compiled (default)' : 'XState'} | ${label} | ${fmt(rps)} | ${(rps / off).toFixed(3)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ${ms(med(engine, mode, 'p50'))} | ${ms(med(engine, mode, 'p99'))} | ${runs.map((r) => fmt(r.rps)).join(' / ')} | ${pct(med(engine, mode, 'serverCpu'))} | ${Math.max(...runs.map((r) => r.foreign)).toFixed(2)} | ${viewer} |`);
      summary.push(`${engine}/${mode}: ${fmt(rps)} req/s (${(rps / off).toFixed(3)}× off)`);
    }
  }
  console.log(`\n${summary.join('\n')}`);

  const exampleLoad = shown(loadCommand(gen, `http://127.0.0.1:<port>${PATHS.json}`, DURATION, LOAD));
  const env = envLine(QUICK, ['DURATION', 'WARMUP', 'CONNECTIONS', 'ROUNDS', 'PAUSE', 'SEED', 'ENGINES', 'LOADGEN', ...GATE_ENV]);
  writeSection('inspect', `
## Inspector overhead (\`npm run bench:inspect\`)

What the inspector costs a server: \`GET /posts/1\` (JSON) through the whole pipeline, with the app and route table of \`npm run bench:http\` (production environment, no logging), behind \`serve()\` in three ways: inspection off (\`inspect: false\`: no page, no trace channel); on with nobody watching (\`inspect: true\`, no page connected: the app's trace listener is not attached, so the engines skip tracing); and on with one viewer connected (a WebSocket client in its own process that reads and parses the trace stream as a page would: every request traced by the engine, each event sanitised, batched every 40 ms and sent as JSON).
Every server runs from \`npm run build\`, in its own process on core ${SERVER_CORE}; wrk runs on core ${LOAD_CORE}, and so does the viewer (two cores in all; its CPU is in the last column). After a warm-up (${WARMUP} s each), ${ROUNDS} rounds each run every engine × mode once in a shuffled order, ${DURATION} s per run, ${LOAD.connections} keep-alive connections. Figures are medians of the rounds; ratios compare with inspection off for the same engine (the per-round range in brackets).

${machine()}; ${gen.version}; xstate ${version('xstate')}, ws ${version('ws')}, signalbox ${ownVersion()} (${tree}; sources fingerprint ${fingerprint}${fingerprintAfter !== fingerprint ? `, **${fingerprintAfter} after the rounds: the sources changed during the run**` : ''}).

| engine | inspection | req/s | × off | p50 ms | p99 ms | req/s per round | CPU server | others, max (cores) | trace stream |
|---|---|---:|---:|---:|---:|---:|---:|---:|---|
${rows.join('\n')}

"On, no viewer" should match "off" within the noise: the only work left per request is the inspector's path check in the request handler and two \`Tracer.active\` checks. "One viewer" is the price of watching: the engines emit about 17 trace events per request (request, 8 states, 7 transitions, done), each sanitised and serialised. "Others" is CPU used meanwhile by processes outside this bench (the machine is shared); a run during which others took more than ${GATE.maxForeign} cores was repeated (at most ${GATE.retries} times, within ${GATE.slack} s in all) and the least disturbed kept: ${repeats} disturbed run(s) in this one. Read rows with a high figure there with care.

Commands (run: \`${env ? `${env} ` : ''}npm run bench:inspect\`):
${cells.map((c) => `- ${c.engine}/${c.mode}: \`${c.command}\` (port ${c.port})${c.viewer ? `; viewer \`${c.viewer.command.replace(String(c.port), '<port>')}\`` : ''}`).join('\n')}
- load, per run: \`${exampleLoad}\`
- orders: ${orders.map((o, i) => `round ${i + 1}: ${o}`).join('; ')}
`);
  console.log('\nwrote the inspect section of bench/RESULTS.md');
}

main().then(() => { killAll(); }, (error: unknown) => {
  console.error(error);
  killAll();
  process.exitCode = 1;
});
