/**
 * Where a server's time goes under load, per request. For each target (the compiled-engine
 * Signalbox server, then bare node:http for comparison), after warm-up and while wrk runs:
 *
 * 1. V8's CPU profile (inspector, 250 µs sampling): self time by place and by function, and
 *    Signalbox functions by inclusive time;
 * 2. V8's sampling heap profile with collected objects included, in its own window (so that its
 *    cost does not distort the CPU profile): bytes allocated per request, by function;
 * 3. when `perf` works here, `perf record -e cpu-clock -g` of the process: the split between
 *    kernel, V8 (JIT code, builtins, runtime) and Node's C++, which the V8 profile cannot show.
 *
 * Plus `app.handle` in a loop without HTTP (bench/servers/handle-loop.ts). Used by bench/http.ts
 * when the default engine misses a target (or PROFILE=1).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface CpuNode { id: number; callFrame: CallFrame; children?: number[] }
interface CpuProfile { nodes: CpuNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }
interface HeapNode { callFrame: CallFrame; selfSize: number; children: HeapNode[] }

export interface ProfiledServer { readonly child: ChildProcess; readonly port: number }
export interface ProfileTarget<S extends ProfiledServer> {
  readonly key: string;
  readonly label: string;
  /** Starts the server with extra environment (SIGNALBOX_BENCH_PROFILE). */
  start(env: Record<string, string>): Promise<S>;
}
export interface LoadOutcome { readonly requests: number; readonly rps: number; readonly serverCpu: number }
export interface ProfileOptions<S extends ProfiledServer> {
  /** The first target is the one analysed in detail; the others are compared with it. */
  readonly targets: readonly ProfileTarget<S>[];
  stop(server: S): Promise<void>;
  /** Runs the load generator against a server. */
  load(server: S, path: string, seconds: number): Promise<LoadOutcome>;
  /** Waits (bounded) for the machine to be quiet. */
  quiet(): Promise<unknown>;
  /** Runs `node <args>` pinned like the servers; resolves with its stdout. */
  exec(args: readonly string[]): Promise<string>;
  /** Spawns a tracked child process (killed with the bench). */
  spawnTracked(argv: readonly string[]): ChildProcess;
  readonly routes: readonly string[];
  readonly seconds: number;
  readonly warmup: number;
  readonly root: string;
  readonly dir: string;
}

export interface ProfileReport {
  readonly markdown: string;
  readonly summary: string;
}

function waitFor(child: ChildProcess, marker: string, ms: number): Promise<void> {
  return new Promise((resolveWait, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes(marker)) { clearTimeout(timer); child.stdout!.off('data', onData); resolveWait(); }
    };
    const timer = setTimeout(() => { child.stdout!.off('data', onData); reject(new Error(`no ${marker} within ${ms} ms`)); }, ms);
    child.stdout!.on('data', onData);
  });
}

async function step(child: ChildProcess, marker: string): Promise<void> {
  const seen = waitFor(child, marker, 30_000);
  process.kill(child.pid!, 'SIGUSR2');
  await seen;
}

function waitExit(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => {
    const timer = setTimeout(() => { try { process.kill(child.pid!, 'SIGKILL'); } catch { /* gone */ } }, ms);
    child.once('exit', (code) => { clearTimeout(timer); done(code); });
  });
}

// ---- perf (optional) ----------------------------------------------------------------------------

let perfWorks: boolean | null = null;
function perfAvailable(): boolean {
  if (perfWorks === null) {
    const r = spawnSync('perf', ['record', '-q', '-e', 'cpu-clock', '-o', '/dev/null', '--', 'true'], { encoding: 'utf8', timeout: 20_000 });
    perfWorks = r.status === 0;
  }
  return perfWorks;
}

interface PerfSplit { readonly groups: Map<string, number>; readonly inclusive: Map<string, number>; readonly requests: number; readonly cpuSeconds: number; readonly rps: number }

const PERF_GROUPS: readonly [string, (dso: string, sym: string) => boolean][] = [
  ['kernel (system calls, TCP over loopback, scheduling)', (dso) => dso.includes('kernel')],
  ['JIT-compiled JavaScript', (dso) => dso.startsWith('[JIT]')],
  ['V8 inline caches, megamorphic (property access on many shapes)', (_d, sym) => /Megamorphic/.test(sym)],
  ['V8 builtins (other)', (_d, sym) => sym.startsWith('Builtins_')],
  ['V8 runtime: objects, maps, property lookup, transitions', (_d, sym) => /v8::internal::(Runtime|LookupIterator|JSObject|Map::|Map<|TransitionsAccessor|JSReceiver|Object::|FactoryBase|Factory::|.*Dictionary|JSFunction|String)/.test(sym)],
  ['V8 garbage collection', (_d, sym) => /v8::internal::(Heap|Scavenger|MarkCompact|Concurrent|Sweeper|MinorMarkCompact|MemoryAllocator|Evacuat)/.test(sym)],
  ['V8 JSON', (_d, sym) => /v8::internal::Json/.test(sym)],
  ['V8 (other)', (_d, sym) => sym.includes('v8::')],
  ['Node C++ (HTTP parser, stream and crypto bindings)', (_d, sym) => /llhttp|node::|ncrypto|EVP_|openssl/i.test(sym)],
  ['libc, libstdc++, other', () => true],
];
const PERF_KERNEL_PATHS: readonly [string, string][] = [
  ['entry_SYSCALL_64_after_hwframe', 'all system calls'],
  ['do_writev', 'writev: sending responses (delivery to the client over loopback included)'],
  ['sock_def_readable', 'waking the load generator when its data arrives'],
];

async function perfWindow<S extends ProfiledServer>(o: ProfileOptions<S>, server: S, file: string, seconds: number): Promise<PerfSplit | null> {
  if (!perfAvailable()) return null;
  await o.quiet();
  const perf = o.spawnTracked(['perf', 'record', '-q', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', String(server.child.pid), '-o', file, '--', 'sleep', String(seconds)]);
  const load = await o.load(server, o.routes[0], seconds);
  if ((await waitExit(perf, 20_000)) !== 0) return null;
  const flat = spawnSync('perf', ['report', '-i', file, '--no-children', '--sort', 'dso,sym', '--stdio', '-g', 'none'], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 }).stdout ?? '';
  const groups = new Map<string, number>();
  for (const line of flat.split('\n')) {
    const m = /^\s+([\d.]+)%\s+(\S+(?: tid \d+)?)\s+\[[.k]\]\s+(.*)$/.exec(line) ?? /^\s+([\d.]+)%\s+(\S+(?: tid \d+)?)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, pct, dso, sym] = m;
    const group = PERF_GROUPS.find(([, test]) => test(dso, sym))![0];
    groups.set(group, (groups.get(group) ?? 0) + Number(pct) / 100);
  }
  const children = spawnSync('perf', ['report', '-i', file, '--children', '--sort', 'sym', '--stdio', '-g', 'none'], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 }).stdout ?? '';
  const inclusive = new Map<string, number>();
  for (const line of children.split('\n')) {
    const m = /^\s+([\d.]+)%\s+[\d.]+%\s+\[[.k]\]\s+(\S+)/.exec(line);
    if (m && PERF_KERNEL_PATHS.some(([sym]) => sym === m[2])) inclusive.set(m[2], Number(m[1]) / 100);
  }
  return { groups, inclusive, requests: load.requests, cpuSeconds: load.serverCpu * seconds, rps: load.rps };
}

// ---- capture ------------------------------------------------------------------------------------

interface Captured {
  label: string;
  cpu: CpuProfile; cpuRequests: number; cpuRates: string[];
  heap: HeapNode; heapRequests: number;
  perf: PerfSplit | null;
}

async function capture<S extends ProfiledServer>(o: ProfileOptions<S>, target: ProfileTarget<S>): Promise<Captured> {
  const prefix = join(o.dir, target.key);
  rmSync(`${prefix}.cpuprofile`, { force: true });
  rmSync(`${prefix}.heapprofile`, { force: true });
  rmSync(`${prefix}.perf.data`, { force: true });
  rmSync(`${prefix}.perf.data.old`, { force: true });
  const server = await target.start({ SIGNALBOX_BENCH_PROFILE: prefix });
  let cpuRequests = 0;
  let heapRequests = 0;
  const cpuRates: string[] = [];
  let perf: PerfSplit | null = null;
  try {
    for (const path of o.routes) await o.load(server, path, o.warmup);
    await o.quiet();
    await step(server.child, 'CPU-PROFILING');
    for (const path of o.routes) {
      const r = await o.load(server, path, o.seconds);
      cpuRequests += r.requests;
      cpuRates.push(`${path} ${Math.round(r.rps).toLocaleString('en-US')} req/s`);
    }
    await step(server.child, 'HEAP-PROFILING');
    for (const path of o.routes) heapRequests += (await o.load(server, path, Math.max(2, Math.round(o.seconds / 2)))).requests;
    await step(server.child, 'PROFILED');
    perf = await perfWindow(o, server, `${prefix}.perf.data`, o.seconds);
  } finally {
    await o.stop(server);
  }
  return {
    label: target.label, cpuRequests, cpuRates, heapRequests, perf,
    cpu: JSON.parse(readFileSync(`${prefix}.cpuprofile`, 'utf8')) as CpuProfile,
    heap: (JSON.parse(readFileSync(`${prefix}.heapprofile`, 'utf8')) as { head: HeapNode }).head,
  };
}

export async function profileServers<S extends ProfiledServer>(o: ProfileOptions<S>): Promise<ProfileReport> {
  mkdirSync(o.dir, { recursive: true });
  const captured: Captured[] = [];
  for (const target of o.targets) captured.push(await capture(o, target));
  await o.quiet();
  const loopOut = await o.exec(['--expose-gc', '--max-semi-space-size=128', '--import', 'tsx', 'bench/servers/handle-loop.ts']);
  const loop = JSON.parse(loopOut.trim().split('\n').pop()!) as Record<string, { us: number; bytes: number | null }>;
  return report(captured.map((c) => reduce(o.root, c)), loop);
}

// ---- reduction ------------------------------------------------------------------------------------

function place(root: string, f: CallFrame): string {
  let url = f.url.replace(/^file:\/\//, '');
  if (url.startsWith(root)) url = url.slice(root.length + 1);
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) url = url.slice(nm + 'node_modules/'.length);
  // Files run through tsx report line 1 for everything; node's own files keep real lines.
  return url && f.lineNumber > 0 ? `${url}:${f.lineNumber + 1}` : url;
}

function keyOf(root: string, f: CallFrame): string {
  const where = place(root, f);
  return `\`${f.functionName || '(anonymous)'}\`${where ? ` ${where}` : ''}`;
}

const IDLE = 'idle (waiting for the network)';

function category(root: string, f: CallFrame): string {
  const name = f.functionName;
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)') return IDLE;
  if (name === '(program)') return 'V8/native, unattributed (program)';
  // tsx compiles with esbuild's keepNames: every function expression created at run time goes
  // through `__name(fn, "name")`, an Object.defineProperty (seen as the native `set natives`).
  if (name === '__name' || name === 'set natives') return 'tsx `__name` wrappers (keepNames: defineProperty per closure)';
  const url = f.url.replace(/^file:\/\//, '');
  if (url === '' && /^write(v|Buffer|Utf8String|Latin1String|AsciiString)$/.test(name)) return 'socket writes (the write system call)';
  if (url === '' && (name === 'Hash' || name === 'digest' || name === 'update')) return 'crypto (MD5 ETag: Hash, update, digest)';
  if (url === '') return 'other native code (JSON, bindings)';
  if (url.startsWith('node:')) return 'Node internals (http, net, streams, events, timers)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return `node_modules/${url.slice(nm + 13).split('/')[0]}`;
  const rel = url.startsWith(root) ? url.slice(root.length + 1) : url;
  const parts = rel.split('/');
  if (parts[0] === 'core') return `core/${parts[1]}`;
  return parts[0];
}

interface Row { key: string; ms: number }

function top(map: Map<string, number>, n: number): Row[] {
  return [...map.entries()].map(([key, ms]) => ({ key, ms })).sort((a, b) => b.ms - a.ms).slice(0, n);
}

interface Reduced {
  readonly label: string;
  readonly requests: number;
  readonly rates: readonly string[];
  readonly total: number;
  readonly busy: number;
  readonly self: Map<string, number>;
  readonly inclusive: Map<string, number>;
  readonly categories: Map<string, number>;
  readonly heapSelf: Map<string, number>;
  readonly heapTotal: number;
  readonly heapRequests: number;
  readonly perf: PerfSplit | null;
}

function reduce(root: string, c: Captured): Reduced {
  const { cpu } = c;
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of cpu.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const categories = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < cpu.samples.length; i++) {
    const dt = (cpu.timeDeltas[i + 1] ?? cpu.timeDeltas[i]) / 1000; // ms
    total += dt;
    const node = byId.get(cpu.samples[i])!;
    const k = keyOf(root, node.callFrame);
    self.set(k, (self.get(k) ?? 0) + dt);
    const cat = category(root, node.callFrame);
    categories.set(cat, (categories.get(cat) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      const fc = category(root, f);
      if (!(fc.startsWith('core/') || fc === 'machines' || fc === 'transport')) continue;
      const key = keyOf(root, f);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  }
  const heapSelf = new Map<string, number>();
  let heapTotal = 0;
  const walk = (n: HeapNode) => {
    if (n.selfSize > 0) {
      const k = keyOf(root, n.callFrame);
      heapSelf.set(k, (heapSelf.get(k) ?? 0) + n.selfSize);
      heapTotal += n.selfSize;
    }
    for (const child of n.children) walk(child);
  };
  walk(c.heap);
  return {
    label: c.label, requests: c.cpuRequests, rates: c.cpuRates, total,
    busy: total - (categories.get(IDLE) ?? 0), self, inclusive, categories, heapSelf, heapTotal, heapRequests: c.heapRequests, perf: c.perf,
  };
}

function report(reduced: readonly Reduced[], loop: Record<string, { us: number; bytes: number | null }>): ProfileReport {
  const main = reduced[0];
  const us = (r: Reduced, msTotal: number) => ((msTotal * 1000) / r.requests).toFixed(2);
  const share = (r: Reduced, msTotal: number) => `${((100 * msTotal) / r.total).toFixed(1)}%`;
  const header = (first: string) => `| ${first} | ${reduced.map((r) => r.label).join(' | ')} |\n|---|${reduced.map(() => '---:').join('|')}|`;

  const catKeys = [...new Set(reduced.flatMap((r) => [...r.categories.keys()]))]
    .sort((a, b) => (main.categories.get(b) ?? 0) - (main.categories.get(a) ?? 0));
  const catRows = catKeys.map((k) => `| ${k} | ${reduced.map((r) => `${us(r, r.categories.get(k) ?? 0)} (${share(r, r.categories.get(k) ?? 0)})`).join(' | ')} |`);
  catRows.push(`| **busy CPU per request** (all but idle) | ${reduced.map((r) => `**${us(r, r.busy)}**`).join(' | ')} |`);
  const selfRows = top(main.self, 25).map((row) => `| ${row.key} | ${share(main, row.ms)} | ${us(main, row.ms)} |`);
  const peerSelf = reduced.slice(1).map((r) => `${r.label}: ${top(r.self, 8).map((row) => `${row.key} ${us(r, row.ms)}`).join(', ')}`);
  const inclRows = top(main.inclusive, 25).map((row) => `| ${row.key} | ${share(main, row.ms)} | ${us(main, row.ms)} |`);
  const bytes = (r: Reduced) => Math.round(r.heapTotal / r.heapRequests).toLocaleString('en-US');
  const heapRows = top(main.heapSelf, 15).map((row) => `| ${row.key} | ${((100 * row.ms) / main.heapTotal).toFixed(1)}% | ${Math.round(row.ms / main.heapRequests).toLocaleString('en-US')} |`);
  const loopRows = Object.entries(loop).map(([k, v]) => `| ${k} | ${v.us.toFixed(1)} | ${v.bytes === null ? 'n/a' : Math.round(v.bytes).toLocaleString('en-US')} |`);

  let perfSection = '`perf` is not available here (or not permitted), so there is no kernel/V8/Node split.\n';
  const withPerf = reduced.filter((r) => r.perf !== null);
  if (withPerf.length > 0) {
    const perUs = (r: Reduced, fraction: number) => ((fraction * r.perf!.cpuSeconds * 1e6) / r.perf!.requests).toFixed(1);
    const pHeader = `| where | ${withPerf.map((r) => r.label).join(' | ')} |\n|---|${withPerf.map(() => '---:').join('|')}|`;
    const groupRows = PERF_GROUPS.map(([g]) => `| ${g} | ${withPerf.map((r) => `${perUs(r, r.perf!.groups.get(g) ?? 0)} (${(100 * (r.perf!.groups.get(g) ?? 0)).toFixed(1)}%)`).join(' | ')} |`);
    const pathRows = PERF_KERNEL_PATHS.map(([sym, what]) => `| \`${sym}\` and below: ${what} | ${withPerf.map((r) => `${perUs(r, r.perf!.inclusive.get(sym) ?? 0)} (${(100 * (r.perf!.inclusive.get(sym) ?? 0)).toFixed(1)}%)`).join(' | ')} |`);
    const total = `| **server CPU per request** | ${withPerf.map((r) => `**${((r.perf!.cpuSeconds * 1e6) / r.perf!.requests).toFixed(1)}**`).join(' | ')} |`;
    perfSection = `\`perf record -e cpu-clock -F 2000 -g\` of the same processes while wrk ran the JSON route (${withPerf.map((r) => `${r.label}: ${Math.round(r.perf!.rps).toLocaleString('en-US')} req/s`).join('; ')}; no V8 profiler attached), µs of CPU per request (share of samples). Unlike the V8 profile, this sees the kernel and V8's own C++:

${pHeader}
${groupRows.join('\n')}
${total}

Kernel paths, inclusive (nested):

${pHeader}
${pathRows.join('\n')}
`;
  }

  const markdown = `### Where the default engine's time goes

V8's CPU profile (250 µs sampling) of each server process, taken over the inspector after warm-up while wrk ran each route (${reduced.map((r) => `${r.label}: ${r.rates.join(', ')}, ${r.requests.toLocaleString('en-US')} requests`).join('; ')}; the profiler lowers throughput). µs of one core per request, with the share of the profiled window:

${header('where (self time)')}
${catRows.join('\n')}

Top functions by self time, ${main.label} (native frames such as \`writev\` include the system call; files run through tsx show no line numbers):

| function | share | µs/req |
|---|---:|---:|
${selfRows.join('\n')}

For comparison, top self time per request — ${peerSelf.join('; ')}.

${main.label}: Signalbox functions (core/, machines/, transport/) by inclusive time, callees included, so nested rows overlap:

| function | share | µs/req |
|---|---:|---:|
${inclRows.join('\n')}

${perfSection}
Allocation, from V8's sampling heap profiler (4 KiB interval, collected objects included) in a window of its own: ${reduced.map((r) => `${r.label} about ${bytes(r)} bytes per request`).join('; ')}. Top allocating functions, ${main.label}:

| function | share | bytes/req |
|---|---:|---:|
${heapRows.join('\n')}

\`app.handle\` alone in a loop, no HTTP (\`taskset -c 0 node --expose-gc --max-semi-space-size=128 --import tsx bench/servers/handle-loop.ts\`; median of 7 rounds of 3,000 awaited calls; bytes = heap growth over 250 calls without a GC):

| engine/route | µs per call | bytes per call |
|---|---:|---:|
${loopRows.join('\n')}
`;
  const summary = reduced.map((r) => `${r.label}: ${us(r, r.busy)} µs busy CPU/request under the V8 profiler, ~${bytes(r)} B allocated/request`).join('; ')
    + `; top self (${main.label}): ${top(main.self, 6).map((row) => `${row.key} ${us(main, row.ms)} µs`).join(', ')}`
    + `; app.handle alone: ${Object.entries(loop).map(([k, v]) => `${k} ${v.us.toFixed(1)} µs`).join(', ')}`;
  return { markdown, summary };
}
