/**
 * What keeping the action cache in Redis costs: the hit path of `caches_action` with the Redis store
 * against the memory store, in the same run. Run with `npm run bench:redis-cache`; writes the
 * `redis-cache` section of bench/RESULTS.md. Needs redis-server (`npm run setup:redis`).
 *
 * Routes: `GET /posts/1.json` and `GET /posts/1` (HTML; its forms get each visitor's own token), both
 * action-cached hits once primed. Two servers from `npm run build` (bench/servers/scale-server.ts),
 * each one process pinned to core 0; a redis-server started here on a free port, pinned to core 0
 * too (it works when the Redis server's process does); the load generator on core 1. The machine
 * has 2 cores, so the load generator shares the machine with the servers and Redis. After a
 * warm-up, each of ROUNDS rounds runs every (server × route) once in a shuffled order.
 *
 * Environment: DURATION (s per run, default 10), CONNECTIONS (50), ROUNDS (3), WARMUP (s, 2), PAUSE
 * (s, 0.5), SEED (1), QUICK=1, LOADGEN=autocannon; QUIET, QUIET_WAIT, RETRIES and SLACK as in
 * bench/http.ts. Redis's own CPU counts among "others" for the gate, so MAX_FOREIGN defaults to 1.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envLine, GATE_ENV, gateSettings, runRounds } from './support/noise.ts';
import { positive, rng, shuffle } from './support/plan.ts';
import { killAll, sh, shown, sleep, spawnTracked, startListening, stopChild } from './support/processes.ts';
import { build, ownVersion, sourcesFingerprint, treeState } from './support/provenance.ts';
import { fmt, machine, median, ms, pct, writeSection, logLoad } from './support/results.ts';
import { ensureLoadGenerator, loadCommand, runLoad, type LoadGen, type LoadSetup } from './support/wrk.ts';

const QUICK = process.env.QUICK === '1';
const GATE = { ...gateSettings(QUICK), maxForeign: positive('MAX_FOREIGN', 1) };
const DURATION = positive('DURATION', QUICK ? 2 : 10);
const WARMUP = positive('WARMUP', QUICK ? 1 : 2);
const CONNECTIONS = positive('CONNECTIONS', 50);
const ROUNDS = positive('ROUNDS', 3);
const PAUSE = Number(process.env.PAUSE ?? (QUICK ? 0.25 : 0.5));
const SEED = positive('SEED', 1);
const SERVER_CORE = '0';
const LOAD: LoadSetup = { core: '1', connections: CONNECTIONS, prefix: [] };
const BUILT_SCRIPT = 'dist/bench/servers/scale-server.js';
const REDIS = process.env.SIGNALBOX_REDIS_SERVER ?? '/usr/bin/redis-server';

interface ServerSpec { readonly key: 'memory' | 'redis'; readonly label: string }
const SERVERS: readonly ServerSpec[] = [
  { key: 'memory', label: '`memoryStore()`' },
  { key: 'redis', label: '`redisCacheStore()`' },
];
interface RouteSpec { readonly key: string; readonly label: string; readonly path: string }
const ROUTES: readonly RouteSpec[] = [
  { key: 'show-json', label: 'GET /posts/1.json', path: '/posts/1.json' },
  { key: 'show', label: 'GET /posts/1 (HTML)', path: '/posts/1' },
];

interface Running { readonly spec: ServerSpec; readonly child: ChildProcess; readonly port: number; readonly command: string }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<{ child: ChildProcess; url: string; dir: string; command: string }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-redis-'));
  const argv = ['taskset', '-c', SERVER_CORE, REDIS, '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  const child = spawnTracked(argv, { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    if (sh(`redis-cli -p ${port} ping 2>/dev/null`).out.trim() === 'PONG') return { child, url: `redis://127.0.0.1:${port}/0`, dir, command: shown(argv) };
    await sleep(0.05);
  }
  throw new Error('redis-server did not answer within 10 s');
}

/** Both servers answer every route 200 from their cache (X-Cache: hit once primed). */
async function verify(servers: readonly Running[]): Promise<void> {
  for (const route of ROUTES) for (const s of servers) {
    const url = `http://127.0.0.1:${s.port}${route.path}`;
    await fetch(url, { signal: AbortSignal.timeout(5000) }).then((r) => r.arrayBuffer());
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    if (res.status !== 200 || res.headers.get('x-cache') !== 'hit') throw new Error(`${s.spec.key} ${route.path}: ${res.status}, X-Cache ${String(res.headers.get('x-cache'))} (wanted 200, hit)`);
  }
}

async function main(): Promise<void> {
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to pin the servers and the load generator to different cores');
  if (!sh(`test -x ${REDIS}`).ok) throw new Error(`redis-server is not at ${REDIS}: npm run setup:redis, or point SIGNALBOX_REDIS_SERVER at one`);
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen: LoadGen = ensureLoadGenerator(LOAD.core);
  console.log(`load generator: ${gen.version} (${gen.note})`);
  build();
  const redis = await startRedis();
  const servers: Running[] = [];
  for (const spec of SERVERS) {
    const argv = ['taskset', '-c', SERVER_CORE, process.execPath, BUILT_SCRIPT, 'cache', spec.key, '0', ...(spec.key === 'redis' ? [redis.url] : [])];
    servers.push({ spec, ...await startListening(argv, `scale-server cache ${spec.key}`) });
  }
  await verify(servers);
  const random = rng(SEED);
  for (const s of shuffle(servers, random)) for (const route of ROUTES) {
    await runLoad(gen, `http://127.0.0.1:${s.port}${route.path}`, WARMUP, s.child.pid!, LOAD);
    await sleep(PAUSE);
  }
  const cells = servers.flatMap((s) => ROUTES.map((route) => ({ s, route })));
  const { results, orders, repeats } = await runRounds({
    cells, rounds: ROUNDS, gate: GATE, secondsPerRun: DURATION + GATE.sample + PAUSE, pause: PAUSE,
    key: (c) => `${c.s.spec.key}/${c.route.key}`,
    order: (all) => shuffle(all, random),
    measure: ({ s, route }) => runLoad(gen, `http://127.0.0.1:${s.port}${route.path}`, DURATION, s.child.pid!, LOAD),
    report: logLoad(16),
  });
  for (const s of servers) await stopChild(s.child);
  await stopChild(redis.child);
  rmSync(redis.dir, { recursive: true, force: true });

  const get = (server: string, route: string) => results.get(`${server}/${route}`)!;
  const med = (server: string, route: string, field: 'rps' | 'p50' | 'p99' | 'serverCpu') => median(get(server, route).map((r) => r[field]));
  const rows = ROUTES.map((route) => {
    const memory = med('memory', route.key, 'rps');
    const redisRps = med('redis', route.key, 'rps');
    const perRound = get('redis', route.key).map((r, i) => r.rps / get('memory', route.key)[i].rps);
    console.log(`${route.label}: memory ${fmt(memory)} req/s, redis ${fmt(redisRps)} req/s (${(redisRps / memory).toFixed(2)}×)`);
    return `| ${route.label} | ${fmt(memory)} | ${fmt(redisRps)} | **${(redisRps / memory).toFixed(2)}×** (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}) | ${ms(med('memory', route.key, 'p50'))} / ${ms(med('redis', route.key, 'p50'))} | ${ms(med('memory', route.key, 'p99'))} / ${ms(med('redis', route.key, 'p99'))} | ${pct(med('memory', route.key, 'serverCpu'))} / ${pct(med('redis', route.key, 'serverCpu'))} |`;
  });
  const problems = [...results.entries()].flatMap(([k, rs]) => rs.filter((r) => r.errors).map((r) => `${k}: ${r.errors}`));
  const env = envLine(QUICK, ['DURATION', 'WARMUP', 'CONNECTIONS', 'ROUNDS', 'PAUSE', 'SEED', 'LOADGEN', ...GATE_ENV]);
  writeSection('redis-cache', `
## Action cache hits: Redis store against memory store (\`npm run bench:redis-cache\`)

The example blog, production environment, no logging, its post pages action-cached (no page cache), with the cache in the memory store and in a Redis store, same run; every measured request is a hit. Each server is one process pinned to core ${SERVER_CORE}, with redis-server (${sh(`${REDIS} --version`).out.trim().split(' ').slice(0, 3).join(' ')}) pinned to the same core; **the load generator runs on core ${LOAD.core} of the machine's 2 cores**, so it shares the machine with the servers and Redis. After a warm-up (${WARMUP} s per server and route), ${ROUNDS} rounds each run every server × route once, in a shuffled order; ${DURATION} s per run, ${CONNECTIONS} keep-alive connections. Figures are medians of the rounds; the ratio is Redis over memory (per-round range in brackets). CPU server is the Signalbox process alone (Redis's own is not in it).

${machine()}; ${gen.version}; signalbox ${ownVersion()} (${tree}; sources fingerprint ${fingerprint}).

| route | memory req/s | Redis req/s | Redis × memory | p50 ms (memory / Redis) | p99 ms (memory / Redis) | CPU server (memory / Redis) |
|---|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Runs start on a quiet machine; a run during which others (Redis included) took more than ${GATE.maxForeign} cores is repeated (at most ${GATE.retries} times): ${repeats} repeat(s) in this run.${problems.length ? `\nLoad generator reported: ${problems.join('; ')}.` : ''}

Commands (run: \`${env ? `${env} ` : ''}npm run bench:redis-cache\`):
- \`${redis.command}\`
${servers.map((s) => `- \`${s.command}\` (port ${s.port})`).join('\n')}
- load, per run: \`${shown(loadCommand(gen, 'http://127.0.0.1:<port>/posts/1.json', DURATION, LOAD))}\`
- orders: ${orders.map((o, i) => `round ${i + 1}: ${o}`).join('; ')}`);
  console.log('\nwrote the redis-cache section of bench/RESULTS.md');
}

main().then(() => { killAll(); }, (error: unknown) => {
  console.error(error);
  killAll();
  process.exitCode = 1;
});
