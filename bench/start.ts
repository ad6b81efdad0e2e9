/**
 * Production start: the example blog started as its README says (`npm start`, NODE_ENV=production)
 * beside a Fastify hello app started the same way (`npm start` running `node server.js`, Fastify's
 * own logger on, as its getting-started page writes it). Run with `npm run bench:start`; writes the
 * `start` section of bench/RESULTS.md. Not a load benchmark: one request per start.
 *
 * For each of ROUNDS rounds (alternating which app starts first): the time from spawning npm to the
 * first 200 (polling every 10 ms), the node processes under npm, and the server process's RSS, with
 * `process.memoryUsage()` read inside it a second after its first 200 (a module given to both
 * through NODE_OPTIONS writes it on SIGUSR2). Figures are medians over rounds, with ranges.
 *
 * Environment: ROUNDS (7).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { positive } from './support/plan.ts';
import { processTree, sleep } from './support/processes.ts';
import { ownVersion, ROOT, sourcesFingerprint, treeState, version } from './support/provenance.ts';
import { fmt, machine, median, writeSection } from './support/results.ts';

const ROUNDS = Math.round(positive('ROUNDS', 7));
const TMP = join(ROOT, 'bench', '.tmp', 'start');
const FASTIFY_DIR = join(TMP, 'fastify-hello');
const REPORTER = join(TMP, 'memory-report.mjs');
const PORT = 3931;

interface Sample {
  readonly ms: number;
  readonly nodes: number;
  readonly tree: string;
  readonly rssMb: number;
  readonly memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
}

interface App { readonly key: string; readonly label: string; readonly cwd: string; readonly path: string; readonly env: Record<string, string> }

const APPS: readonly App[] = [
  {
    key: 'signalbox', label: 'Signalbox example blog (`npm start`: `node scripts/start.js`, compiled JavaScript in build/)', cwd: ROOT, path: '/posts',
    env: { NODE_ENV: 'production', SIGNALBOX_SECRET: 'signalbox-bench-secret-0123456789abcdef0123456789abcdef', SIGNALBOX_HOSTS: '127.0.0.1', WEB_CONCURRENCY: '', REDIS_URL: '' },
  },
  { key: 'fastify', label: 'Fastify hello app (`npm start`: `node server.js`, `logger: true`)', cwd: FASTIFY_DIR, path: '/', env: { NODE_ENV: 'production' } },
];

function prepare(): void {
  rmSync(TMP, { recursive: true, force: true });
  mkdirSync(FASTIFY_DIR, { recursive: true });
  // Inside the repository, so `import 'fastify'` finds the project's own devDependency.
  writeFileSync(join(FASTIFY_DIR, 'package.json'), `${JSON.stringify({ name: 'fastify-hello', private: true, type: 'module', scripts: { start: 'node server.js' } }, null, 2)}\n`);
  writeFileSync(join(FASTIFY_DIR, 'server.js'), `import Fastify from 'fastify';

const app = Fastify({ logger: true });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT || 3000), host: process.env.HOST || '127.0.0.1' });
`);
  writeFileSync(REPORTER, `import { writeFileSync } from 'node:fs';
process.on('SIGUSR2', () => writeFileSync(${JSON.stringify(TMP)} + '/memory-' + process.pid + '.json', JSON.stringify(process.memoryUsage())));
`);
  // The blog's build, so that no start below compiles.
  const built = spawnSync(process.execPath, ['scripts/start.js', '--build-only'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('node scripts/start.js --build-only failed');
}

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function startOnce(app: App): Promise<Sample> {
  const started = performance.now();
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: app.cwd, detached: true, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...app.env, PORT: String(PORT), HOST: '127.0.0.1', NODE_OPTIONS: `--import=${REPORTER}` },
  });
  try {
    let ms = 0;
    for (;;) {
      if (performance.now() - started > 30_000) throw new Error(`${app.key}: no 200 within 30 s`);
      try {
        const res = await fetch(`http://127.0.0.1:${PORT}${app.path}`, { signal: AbortSignal.timeout(1000) });
        await res.arrayBuffer();
        if (res.status === 200) {
          ms = performance.now() - started;
          break;
        }
      } catch {
        // Not listening yet.
      }
      await sleep(0.01);
    }
    const processes = processTree(child.pid!);
    const nodes = processes.filter((p) => /(^|\/)node\s/.test(`${p.command} `) && !/(^|\/)npm(-cli\.js)?(\s|$)/.test(p.command));
    const server = nodes.at(-1);
    if (server === undefined) throw new Error(`${app.key}: no node process under npm: ${JSON.stringify(processes)}`);
    await sleep(1);
    const rssMb = rssOf(server.pid);
    process.kill(server.pid, 'SIGUSR2');
    const file = join(TMP, `memory-${server.pid}.json`);
    let memory: Sample['memory'] | null = null;
    for (let i = 0; i < 100 && memory === null; i++) {
      try {
        memory = JSON.parse(readFileSync(file, 'utf8')) as Sample['memory'];
      } catch {
        await sleep(0.02);
      }
    }
    if (memory === null) throw new Error(`${app.key}: the server did not report its memory`);
    return { ms, nodes: nodes.length, tree: processes.map((p) => p.command).join(' → '), rssMb, memory };
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
    await sleep(0.3);
  }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const range = (xs: readonly number[], digits = 0) => `${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)}`;

async function main(): Promise<void> {
  const tree0 = treeState();
  const fingerprint = sourcesFingerprint();
  prepare();
  const samples = new Map<string, Sample[]>(APPS.map((a) => [a.key, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? APPS : [...APPS].reverse();
    for (const app of order) {
      const s = await startOnce(app);
      samples.get(app.key)!.push(s);
      console.log(`round ${round + 1} ${app.key}: first 200 after ${s.ms.toFixed(0)} ms, ${s.nodes} node process(es), RSS ${s.rssMb.toFixed(1)} MB, heap used ${mb(s.memory.heapUsed)} MB`);
    }
  }
  const [sb, fy] = APPS.map((a) => samples.get(a.key)!);
  const row = (app: App, xs: readonly Sample[]) => {
    const m = (f: (s: Sample) => number) => median(xs.map(f));
    return `| ${app.label} | ${fmt(m((s) => s.ms))} (${range(xs.map((s) => s.ms))}) | ${m((s) => s.nodes)} | ${m((s) => s.rssMb).toFixed(1)} (${range(xs.map((s) => s.rssMb), 1)}) | ${mb(m((s) => s.memory.heapTotal))} | ${mb(m((s) => s.memory.heapUsed))} | ${mb(m((s) => s.memory.external))} | ${mb(m((s) => s.memory.arrayBuffers))} |`;
  };
  const ratio = (f: (s: Sample) => number) => (median(sb!.map(f)) / median(fy!.map(f))).toFixed(2);
  writeSection('start', `
## Production start and memory (\`npm run bench:start\`)

Each app started ${ROUNDS} times as its README runs it, \`npm start\` (alternating which goes first); the time from spawning npm to the first 200 (\`GET /posts\`, a rendered page, for the blog; \`GET /\` for Fastify), the node processes under npm, and the server's RSS and \`process.memoryUsage()\` one second after that first 200. Medians, ranges in brackets. Not a load benchmark: one request per start.

${machine()}; fastify ${version('fastify')}, signalbox ${ownVersion()} (${tree0}; sources fingerprint ${fingerprint}).

| app | first 200 (ms) | node processes | RSS (MB) | heap total (MB) | heap used (MB) | external (MB) | array buffers (MB) |
|---|---:|---:|---:|---:|---:|---:|---:|
${row(APPS[0]!, sb!)}
${row(APPS[1]!, fy!)}

Signalbox ÷ Fastify: start ${ratio((s) => s.ms)}×, RSS ${ratio((s) => s.rssMb)}× (targets ≤ 1.2× and ≤ 1.1×). Process tree under npm, Signalbox: ${sb![0]!.tree}; Fastify: ${fy![0]!.tree}.
`);
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
