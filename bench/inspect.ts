/**
 * What the inspector costs: the full pipeline (GET /posts/1, JSON, as in bench:h2h) with inspection
 * on, against the same server with it off, head to head (bench/support/head-to-head.ts). On with
 * nobody watching (`inspect: true`, no page connected: the app is not traced at all), and on with a
 * viewer connected (a WebSocket client in its own process reading and parsing the trace stream, as a
 * page would: every request traced, sanitised and sent). Run with `npm run bench:inspect`; writes
 * the `inspect` section of bench/RESULTS.md.
 *
 * Servers: bench/servers/http-server.ts, `signalbox-compiled` and `signalbox-xstate`, with `:inspect`
 * or without; the viewer is bench/servers/inspect-viewer.ts, pinned to the load generators' core.
 */
import type { ChildProcess } from 'node:child_process';
import { JSON_TYPE, PATHS, POST } from './servers/bodies.ts';
import { compare, type Attached, type Running, type ServerSpec } from './support/head-to-head.ts';
import { shown, sleep, spawnTracked, stopChild } from './support/processes.ts';
import { ROOT, version } from './support/provenance.ts';
import { fmt } from './support/results.ts';

const VIEWER_SCRIPT = 'dist/bench/servers/inspect-viewer.js';
const BODY = JSON.stringify(POST);

interface Report { events: number; requests: number; dropped: number; frames: number; bytes: number; cpu: number }

/** A viewer process: `report()` asks for its counts since the last call. */
class Viewer implements Attached {
  readonly child: ChildProcess;
  readonly command: string;
  #out = '';
  #waiting: ((r: Report) => void)[] = [];
  #opened: (() => void) | null = null;
  #total: Report = { events: 0, requests: 0, dropped: 0, frames: 0, bytes: 0, cpu: 0 };

  constructor(port: number) {
    const argv = ['taskset', '-c', '1', process.execPath, VIEWER_SCRIPT, `ws://127.0.0.1:${port}/__inspect/trace`];
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

  /** Counts since the last report (CPU: the viewer's whole life). */
  report(): Promise<Report> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the viewer did not report within 10 s')), 10_000);
      this.#waiting.push((r) => {
        clearTimeout(timer);
        for (const k of ['events', 'requests', 'dropped', 'frames', 'bytes'] as const) this.#total[k] += r[k];
        this.#total.cpu = r.cpu;
        resolve(r);
      });
      this.child.stdin!.write('report\n');
    });
  }

  async summary(): Promise<string> {
    await sleep(0.2);
    await this.report();
    const t = this.#total;
    return `the viewer read ${fmt(t.events)} trace events (${(t.events / Math.max(1, t.requests)).toFixed(1)} per request) for ${fmt(t.requests)} finished requests, ${fmt(t.dropped)} events dropped, in ${fmt(t.frames)} frames; its CPU, ${t.cpu.toFixed(1)} s, came out of the load generators' core.`;
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}

const viewers = new Map<number, Viewer>();
async function attachViewer(port: number): Promise<Viewer> {
  const viewer = new Viewer(port);
  await viewer.opened();
  viewers.set(port, viewer);
  return viewer;
}

const ENGINES = { compiled: 'compiled engine (default)', xstate: 'XState engine' } as const;
type Engine = keyof typeof ENGINES;
type Server = Engine | `${Engine}:inspect` | `${Engine}:viewer`;
const servers = {} as Record<Server, ServerSpec>;
for (const engine of Object.keys(ENGINES) as Engine[]) {
  const args = (inspect: boolean) => ['dist/bench/servers/http-server.js', `signalbox-${engine}${inspect ? ':inspect' : ''}`, '0'];
  servers[engine] = { label: `${ENGINES[engine]}, inspection off (\`inspect: false\`)`, args: args(false) };
  servers[`${engine}:inspect`] = { label: `${ENGINES[engine]}, inspection on, no viewer`, args: args(true) };
  servers[`${engine}:viewer`] = { label: `${ENGINES[engine]}, inspection on, one viewer reading the trace stream`, args: args(true), attach: attachViewer };
}

/** The inspector is where each server says, and a viewer sees the requests it is shown. */
async function verify(...pair: Running<Server>[]): Promise<void> {
  for (const s of pair) {
    const page = await fetch(`http://127.0.0.1:${s.port}/__inspect`, { signal: AbortSignal.timeout(5000) });
    await page.arrayBuffer();
    if ((page.status === 200) !== s.key.includes(':')) throw new Error(`${s.key}: /__inspect answered ${page.status}`);
    const viewer = viewers.get(s.port);
    if (viewer === undefined) continue;
    // The requests already made are traced too; let their batch arrive before counting afresh.
    await sleep(0.3);
    await viewer.report();
    await fetch(`http://127.0.0.1:${s.port}${PATHS.json}`).then((r) => r.arrayBuffer());
    await sleep(0.3);
    const seen = await viewer.report();
    if (seen.requests !== 1) throw new Error(`${s.key}: the viewer saw ${seen.requests} requests finish, not 1`);
  }
}

await compare<Server>({
  name: 'inspect',
  title: 'Inspector overhead: inspection on against off',
  about: 'What the inspector costs a server: `GET /posts/1` (JSON) through the whole pipeline, with the app and route table of `npm run bench:h2h` (production environment, no logging), behind `serve()` with inspection off (`inspect: false`: no page, no trace channel) against on with nobody watching (`inspect: true`, no page connected: the app\'s trace listener is not attached, so the engines skip tracing) and on with one viewer connected (a WebSocket client in its own process on the load generators\' core, reading and parsing the trace stream as a page would: every request traced by the engine, each event sanitised, batched every 40 ms and sent as JSON).',
  servers,
  routes: [{ key: 'json', label: 'GET /posts/1 (JSON)', path: PATHS.json }],
  pairs: [['compiled', 'compiled'], ['compiled:inspect', 'compiled'], ['compiled:viewer', 'compiled'], ['xstate:inspect', 'xstate'], ['xstate:viewer', 'xstate']],
  check: (_server, _route, res, body) => (res.status === 200 && body === BODY && res.headers.get('content-type') === JSON_TYPE ? null : `${res.status} ${JSON.stringify(body.slice(0, 80))}`),
  verify,
  versions: [`xstate ${version('xstate')}`, `ws ${version('ws')}`],
  notes: '"On, no viewer" should match "off" within the control\'s spread: the only work left per request is the inspector\'s path check in the request handler and two `Tracer.active` checks. "One viewer" is the price of watching: the engines emit about 17 trace events per request (request, 8 states, 7 transitions, done), each sanitised and serialised.',
});
process.exit(0);
