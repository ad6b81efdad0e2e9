/**
 * The HTTP load generator of the benchmarks: wrk (installed from Debian packages when missing), or
 * autocannon as the fallback, run as a child process pinned to its own core, with the CPU used
 * meanwhile by the server, by the load generator and by everything else on the machine.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cpuSeconds, machineBusySeconds } from './noise.ts';
import { exitCode, sh, spawnTracked } from './processes.ts';

export interface LoadGen { readonly kind: 'wrk' | 'autocannon'; readonly version: string; readonly note: string }

/** Where and how the load generator runs. */
export interface LoadSetup {
  readonly core: string;
  readonly connections: number;
  /** Prepended to the command, e.g. `nice -n 5`. */
  readonly prefix: readonly string[];
}

function autocannonVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('autocannon/package.json') as { version: string }).version;
}

export function ensureLoadGenerator(core: string): LoadGen {
  const fallback = (why: string): LoadGen => ({
    kind: 'autocannon', version: `autocannon ${autocannonVersion()}`,
    note: `${why}; fell back to autocannon ${autocannonVersion()} in its own process pinned to core ${core}.`,
  });
  if (process.env.LOADGEN === 'autocannon') return fallback('LOADGEN=autocannon');
  const wrkVersion = () => sh('wrk -v 2>&1').out.split('\n')[0].trim();
  if (sh('command -v wrk').ok) return { kind: 'wrk', version: wrkVersion(), note: `wrk found at ${sh('command -v wrk').out.trim()}.` };
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  console.log(`wrk not found; installing it with ${sudo}apt-get install -y wrk`);
  let install = sh(`${sudo}apt-get install -y wrk`);
  if (!install.ok) {
    console.log('apt-get install failed; running apt-get update and trying again');
    sh(`${sudo}apt-get update`);
    install = sh(`${sudo}apt-get install -y wrk`);
  }
  if (install.ok && sh('command -v wrk').ok) return { kind: 'wrk', version: wrkVersion(), note: `wrk installed by this script (\`${sudo}apt-get install -y wrk\`, Debian package).` };
  console.log(install.out.split('\n').slice(-5).join('\n'));
  return fallback('wrk could not be installed from Debian packages');
}

export interface LoadResult {
  rps: number; p50: number; p99: number; requests: number; errors: string | null;
  /** Share of a core used by the server and by the load generator during the run. */
  serverCpu: number; loadCpu: number;
  /** CPU used on the machine by anything else during the run, in cores (0–2). */
  foreign: number;
  command: string;
}
type Parsed = Omit<LoadResult, 'loadCpu' | 'serverCpu' | 'foreign' | 'command'>;

const UNIT_MS: Record<string, number> = { us: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };
function wrkTime(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!m) throw new Error(`cannot read wrk time ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

function parseWrk(out: string): Parsed {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out);
  const p99 = /^\s+99%\s+(\S+)/m.exec(out);
  const total = /(\d+) requests in/.exec(out);
  if (!rps || !p99 || !p50 || !total) throw new Error(`cannot parse wrk output:\n${out}`);
  const problems = [/Non-2xx or 3xx responses: \d+/.exec(out)?.[0], /Socket errors: [^\n]+/.exec(out)?.[0]].filter(Boolean);
  return { rps: Number(rps[1]), p50: wrkTime(p50[1]), p99: wrkTime(p99[1]), requests: Number(total[1]), errors: problems.length ? problems.join('; ') : null };
}

function parseAutocannon(out: string): Parsed {
  const r = JSON.parse(out.slice(out.indexOf('{'))) as {
    requests: { average: number; total: number }; latency: Record<string, number> & { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number;
  };
  const problems = [r.non2xx ? `non-2xx: ${r.non2xx}` : '', r.errors ? `errors: ${r.errors}` : '', r.timeouts ? `timeouts: ${r.timeouts}` : ''].filter(Boolean);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, errors: problems.length ? problems.join('; ') : null };
}

export function loadCommand(gen: LoadGen, url: string, seconds: number, setup: LoadSetup): string[] {
  if (gen.kind === 'wrk') return [...setup.prefix, 'taskset', '-c', setup.core, 'wrk', '-t1', `-c${setup.connections}`, `-d${seconds}s`, '--latency', url];
  const require = createRequire(import.meta.url);
  const bin = join(require.resolve('autocannon/package.json'), '..', 'autocannon.js');
  return [...setup.prefix, 'taskset', '-c', setup.core, process.execPath, bin, '-c', String(setup.connections), '-d', String(seconds), '-j', url];
}

/**
 * One run of the load generator against `url`; `server` is the server's pid, or the pids whose CPU
 * counts as the server's (a server and the redis-server only it talks to).
 */
export async function runLoad(gen: LoadGen, url: string, seconds: number, server: number | readonly number[], setup: LoadSetup): Promise<LoadResult> {
  const pids = typeof server === 'number' ? [server] : server;
  const serverSeconds = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid).own, 0);
  const argv = loadCommand(gen, url, seconds, setup);
  const before = cpuSeconds('self');
  const serverBefore = serverSeconds();
  const busyBefore = machineBusySeconds();
  const t0 = performance.now();
  const child = spawnTracked(argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d; });
  child.stderr!.on('data', (d: Buffer) => { out += d; });
  const code = await exitCode(child, (seconds + 30) * 1000);
  const wall = (performance.now() - t0) / 1000;
  const busy = machineBusySeconds() - busyBefore;
  const serverCpu = serverSeconds() - serverBefore;
  const after = cpuSeconds('self');
  const load = after.children - before.children;
  // Interrupt time is left out on both sides; what remains is other tenants' work (and a little kernel noise).
  const foreign = Math.max(0, busy - serverCpu - load - (after.own - before.own)) / wall;
  if (code !== 0) throw new Error(`${argv.join(' ')} exited with ${code}:\n${out}`);
  const parsed = gen.kind === 'wrk' ? parseWrk(out) : parseAutocannon(out);
  return { ...parsed, loadCpu: load / wall, serverCpu: serverCpu / wall, foreign, command: argv.join(' ') };
}
