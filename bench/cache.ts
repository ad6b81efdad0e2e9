/**
 * What caching buys: throughput of the example blog with its caches on and off, in the same run.
 * Run with `npm run bench:cache`; writes the `cache` section of bench/RESULTS.md.
 *
 * Routes: the post page `GET /posts/1` (HTML, action-cached: its forms get each visitor's own
 * authenticity token) and `GET /posts/1.json` (action-cached), and the post list `GET /posts`
 * (page-cached: answered by the transport from the file before the app runs). Two servers from
 * `npm run build` (bench/servers/cache-server.ts): the blog as it ships (caching on) and the same
 * blog with `perform_caching: false`. Each runs in its own process pinned to core 0, the load
 * generator on core 1. After a warm-up, each of ROUNDS rounds runs every (server × route) once in
 * a shuffled order; figures are medians over the rounds, ratios compare the two servers.
 *
 * Environment: DURATION (s per run, default 10), CONNECTIONS (50), ROUNDS (3), WARMUP (s per server
 * and route, 2), PAUSE (s between runs, 0.5), SEED (order shuffle, 1), QUICK=1 (2 s runs, 1 s
 * warm-up, no repeats), LOADGEN=autocannon (skip wrk); QUIET, QUIET_WAIT, MAX_FOREIGN, RETRIES
 * and SLACK gate runs on a shared machine as in bench/http.ts.
 */
import { type ChildProcess } from 'node:child_process';
import { envLine, GATE_ENV, gateSettings, runRounds } from './support/noise.ts';
import { positive, rng, shuffle } from './support/plan.ts';
import { killAll, sh, shown, sleep, startListening, stopChild } from './support/processes.ts';
import { build, ownVersion, sourcesFingerprint, treeState } from './support/provenance.ts';
import { fmt, machine, median, ms, pct, writeSection, logLoad } from './support/results.ts';
import { ensureLoadGenerator, loadCommand, runLoad, type LoadGen, type LoadSetup } from './support/wrk.ts';

const QUICK = process.env.QUICK === '1';
const GATE = gateSettings(QUICK);
const DURATION = positive('DURATION', QUICK ? 2 : 10);
const WARMUP = positive('WARMUP', QUICK ? 1 : 2);
const CONNECTIONS = positive('CONNECTIONS', 50);
const ROUNDS = positive('ROUNDS', 3);
const PAUSE = Number(process.env.PAUSE ?? (QUICK ? 0.25 : 0.5));
const SEED = positive('SEED', 1);
const SERVER_CORE = '0';
const LOAD: LoadSetup = { core: '1', connections: CONNECTIONS, prefix: [] };
const BUILT_SCRIPT = 'dist/bench/servers/cache-server.js';

interface ServerSpec { readonly key: 'uncached' | 'cached'; readonly label: string }
const SERVERS: readonly ServerSpec[] = [
  { key: 'uncached', label: 'caching off (`perform_caching: false`)' },
  { key: 'cached', label: 'caching on (as the blog ships)' },
];
interface RouteSpec { readonly key: string; readonly label: string; readonly path: string; readonly cache: string }
const ROUTES: readonly RouteSpec[] = [
  { key: 'show', label: 'GET /posts/1 (HTML post page)', path: '/posts/1', cache: '`caches_action`' },
  { key: 'show-json', label: 'GET /posts/1.json', path: '/posts/1.json', cache: '`caches_action`' },
  { key: 'index', label: 'GET /posts (HTML post list)', path: '/posts', cache: '`caches_page`' },
];

interface Running { readonly spec: ServerSpec; readonly child: ChildProcess; readonly port: number; readonly command: string }

async function startServer(spec: ServerSpec): Promise<Running> {
  const argv = ['taskset', '-c', SERVER_CORE, process.execPath, BUILT_SCRIPT, spec.key, '0'];
  return { spec, ...await startListening(argv, `cache-server ${spec.key}`) };
}

// Each visitor's page carries its own authenticity token; apart from that, both servers must send the same bytes.
const sameButTokens = (body: string) => body.replace(/name="authenticity_token" value="[^"]*"/g, 'name="authenticity_token" value="…"');

/**
 * Both servers answer every route 200 with the same body (tokens aside) and type; the cached one
 * says `X-Cache: hit` once primed, the other no X-Cache at all.
 */
async function verify(servers: readonly Running[]): Promise<void> {
  for (const route of ROUTES) {
    const seen: Record<string, { body: string; type: string | null }> = {};
    for (const s of servers) {
      const url = `http://127.0.0.1:${s.port}${route.path}`;
      await fetch(url, { signal: AbortSignal.timeout(5000) }).then((r) => r.arrayBuffer());
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const body = sameButTokens(await res.text());
      const cache = res.headers.get('x-cache');
      const wanted = s.spec.key === 'cached' ? 'hit' : null;
      if (res.status !== 200 || cache !== wanted) throw new Error(`${s.spec.key} ${route.path}: ${res.status}, X-Cache ${String(cache)} (wanted 200, ${String(wanted)})`);
      seen[s.spec.key] = { body, type: res.headers.get('content-type') };
    }
    if (seen.cached.body !== seen.uncached.body || seen.cached.type !== seen.uncached.type) throw new Error(`${route.path}: the cached answer differs from the uncached one`);
  }
}

async function main(): Promise<void> {
  if (!sh('command -v taskset').ok) throw new Error('taskset (util-linux) is needed to pin the server and the load generator to different cores');
  const tree = treeState();
  const fingerprint = sourcesFingerprint();
  const gen: LoadGen = ensureLoadGenerator(LOAD.core);
  console.log(`load generator: ${gen.version} (${gen.note})`);
  build();
  console.log(`${SERVERS.length} servers × ${ROUTES.length} routes × ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections, warm-up ${WARMUP} s each`);

  const servers: Running[] = [];
  for (const spec of SERVERS) servers.push(await startServer(spec));
  await verify(servers);
  console.log('both servers answer every route alike; the cached one from its caches');

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
    report: logLoad(18),
  });
  for (const s of servers) await stopChild(s.child);
  const fingerprintAfter = sourcesFingerprint();
  if (fingerprintAfter !== fingerprint) console.warn(`warning: the framework's sources changed during the rounds (${fingerprint} → ${fingerprintAfter}); running servers kept the code they started with`);

  const get = (server: string, route: string) => results.get(`${server}/${route}`)!;
  const med = (server: string, route: string, field: 'rps' | 'p50' | 'p99' | 'serverCpu') => median(get(server, route).map((r) => r[field]));
  const rows = ROUTES.map((route) => {
    const off = med('uncached', route.key, 'rps');
    const on = med('cached', route.key, 'rps');
    const perRound = get('cached', route.key).map((r, i) => r.rps / get('uncached', route.key)[i].rps);
    const rounds = (server: string) => get(server, route.key).map((r) => fmt(r.rps)).join(' / ');
    const foreign = Math.max(...[...get('cached', route.key), ...get('uncached', route.key)].map((r) => r.foreign));
    console.log(`${route.label}: uncached ${fmt(off)} req/s, cached ${fmt(on)} req/s (${(on / off).toFixed(2)}×)`);
    return `| ${route.label} | ${route.cache} | ${fmt(off)} | ${fmt(on)} | **${(on / off).toFixed(2)}×** (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}) | ${ms(med('uncached', route.key, 'p50'))} / ${ms(med('cached', route.key, 'p50'))} | ${ms(med('uncached', route.key, 'p99'))} / ${ms(med('cached', route.key, 'p99'))} | ${rounds('uncached')}; ${rounds('cached')} | ${pct(med('uncached', route.key, 'serverCpu'))} / ${pct(med('cached', route.key, 'serverCpu'))} | ${foreign.toFixed(2)} |`;
  });
  const problems = [...results.entries()].flatMap(([k, rs]) => rs.filter((r) => r.errors).map((r) => `${k}: ${r.errors}`));
  const exampleLoad = shown(loadCommand(gen, 'http://127.0.0.1:<port>/posts/1', DURATION, LOAD));
  const env = envLine(QUICK, ['DURATION', 'WARMUP', 'CONNECTIONS', 'ROUNDS', 'PAUSE', 'SEED', 'LOADGEN', ...GATE_ENV]);

  writeSection('cache', `
## Page and action caching (\`npm run bench:cache\`)

The example blog, in the production environment and without logging, with its caches on (as it ships: the post list \`caches_page\`, written to a temporary directory and answered by the transport from the file before the app runs; the post page \`caches_action\` in the default memory store, answered after the before filters) and off (\`perform_caching: false\`), same run. Every request comes without cookies, as a new visitor: the post page's forms then get a fresh session and authenticity token on both servers (the action cache keeps the token's place and fills in each visitor's own), so both send a Set-Cookie with it. Before measuring, both servers are checked to answer every route 200 with the same body (tokens aside) and type, the cached one with \`X-Cache: hit\`.
Both servers run from \`npm run build\`, each in its own process on core ${SERVER_CORE}, the load generator on core ${LOAD.core}. After a warm-up (${WARMUP} s per server and route), ${ROUNDS} rounds each run every server × route once, in a shuffled order; ${DURATION} s per run, ${CONNECTIONS} keep-alive connections. Figures are medians of the ${ROUNDS} rounds; the ratio is cached over uncached (the per-round range in brackets).

${machine()}; ${gen.version}; signalbox ${ownVersion()} (${tree}; sources fingerprint ${fingerprint}, sha1 of core/, machines/, transport/).${gen.kind === 'autocannon' ? `\n**Load generator: autocannon, not wrk** — ${gen.note}` : ` ${gen.note}`}

| route | cache | uncached req/s | cached req/s | cached × uncached | p50 ms (off / on) | p99 ms (off / on) | req/s per round (off; on) | CPU server (off / on) | others, max (cores) |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Runs start on a quiet machine (under ${GATE.quiet} cores busy, waiting at most ${GATE.quietWait} s); a run during which others took more than ${GATE.maxForeign} cores is repeated (at most ${GATE.retries} times, ${GATE.slack} s in all), keeping the least disturbed: ${repeats} repeat(s) in this run.${problems.length ? `\nLoad generator reported: ${problems.join('; ')}.` : ''}

Commands (run: \`${env ? `${env} ` : ''}npm run bench:cache\`):
${servers.map((s) => `- \`${s.command}\` (port ${s.port})`).join('\n')}
- load, per run: \`${exampleLoad}\`, \`<port>\` as above, path ${ROUTES.map((r) => `\`${r.path}\``).join(', ')}
- orders: ${orders.map((o, i) => `round ${i + 1}: ${o}`).join('; ')}`);
  console.log('\nwrote the cache section of bench/RESULTS.md');
}

main().then(() => { killAll(); }, (error: unknown) => {
  console.error(error);
  killAll();
  process.exitCode = 1;
});
