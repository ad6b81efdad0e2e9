/**
 * `serve(() => app, { workers: N })`: N worker processes share the port and
 * each log line says which (pid, hostname); a worker that dies is replaced
 * while requests keep being answered, after a back-off when it keeps dying;
 * SIGTERM to the primary drains every worker and the primary exits 0 once
 * all have (or at the deadline); an app that cannot start fails the start;
 * the tunnel works behind workers; and with the memory store, an expiry made
 * in one worker reaches every other before it is acknowledged, so no worker
 * serves a stale entry.
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tunnel } from '../../transport/index.ts';
import { startRedis } from '../support/redis.ts';
import { eventually, PATIENCE_MS } from '../support/patience.ts';
import { clusterProcess, get, startCluster, type Answer, type ClusterProcess } from './support-cluster.ts';

const test = suite('serve(app, { workers }) runs workers that share the port');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let running: ClusterProcess[] = [];
test.after.each(() => {
  for (const c of running) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  running = [];
});

async function cluster(options: Parameters<typeof clusterProcess>[0], env: Record<string, string> = {}): Promise<ClusterProcess> {
  const c = await clusterProcess(options, env);
  running.push(c);
  return c;
}

/** Requests on fresh connections until `done` says enough, at most `max`. */
async function requestsUntil(c: ClusterProcess, path: string, done: (answers: Answer[]) => boolean, max = 200): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (answers.length < max && !done(answers)) answers.push(await c.get(path));
  return answers;
}

test('two workers answer on one port, and their log lines carry two pids and the hostname', async () => {
  const c = await cluster({ workers: 2 });
  assert.is(c.workers.length, 2);
  const answers = await requestsUntil(c, '/slow/show', (a) => new Set(a.map((x) => x.body)).size === 2, 50);
  assert.ok(answers.every((a) => a.status === 200));
  const pids = new Set(answers.map((a) => Number(/in (\d+)/.exec(a.body)![1])));
  assert.equal([...pids].sort(), [...c.workers].sort(), 'both workers answered');
  await c.waitForLog(() => c.logs.filter((l) => l.msg === 'request completed').length >= answers.length);
  const completed = c.logs.filter((l) => l.msg === 'request completed');
  assert.equal(new Set(completed.map((l) => l.pid)).size, 2);
  assert.ok(completed.every((l) => l.hostname === hostname()));
  assert.ok(c.logs.some((l) => l.role === 'primary' && l.msg === 'starting 2 workers' && typeof l.pid === 'number'));
});

test('a worker killed with SIGKILL is replaced, and requests keep getting 200 meanwhile', async () => {
  const c = await cluster({ workers: 2 });
  const [victim, survivor] = c.workers;
  const answers: Answer[] = [];
  // A request the killed worker was answering dies with it (nothing is left to answer it): those are
  // counted apart; every other request must be answered 200.
  const lost: { at: number }[] = [];
  let stop = false;
  const stream = (async () => {
    while (!stop) {
      try {
        answers.push(await c.get('/slow/show'));
      } catch {
        lost.push({ at: performance.now() });
      }
    }
  })();
  await sleep(100);
  const killed = performance.now();
  process.kill(victim, 'SIGKILL');
  const line = await c.waitForLog((l) => l.worker_pid === victim && l.signal === 'SIGKILL');
  const noticed = performance.now();
  assert.match(String(line.msg), new RegExp(`worker ${victim} killed by SIGKILL; starting another`));
  const replaced = await c.waitForLog((l) => l.role === 'primary' && /listening/.test(String(l.msg)) && l.worker_pid !== victim && l.worker_pid !== survivor && l.port === c.port);
  await sleep(200);
  stop = true;
  await stream;
  assert.ok(answers.length > 10, `${answers.length} requests`);
  assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers.filter((a) => a.status !== 200)));
  assert.ok(lost.length <= 1, `${lost.length} requests lost`);
  assert.ok(lost.every((l) => l.at >= killed && l.at <= noticed + 50), 'only a request in flight at the kill is lost');
  assert.ok(answers.filter((a) => a.at > noticed).length > 5, 'requests after the death are answered');
  const after = await requestsUntil(c, '/slow/show', (a) => a.some((x) => x.body.endsWith(`in ${String(replaced.worker_pid)}`)), 50);
  assert.ok(after.some((x) => x.body.endsWith(`in ${String(replaced.worker_pid)}`)), 'the new worker answers');
});

test('a worker that keeps dying soon after starting is replaced after a growing back-off, with the reason logged', async () => {
  const c = await cluster({ workers: 2 }, { SIGNALBOX_TEST_CRASH_INDEX: '1' });
  const deaths: Record<string, unknown>[] = [];
  for (let n = 1; n <= 3; n++) {
    deaths.push(await c.waitForLog((l) => l.code === 3 && l.quick_deaths === n));
  }
  assert.equal(deaths.map((d) => d.restart_in_ms), [100, 200, 400]);
  assert.match(String(deaths[2].msg), /exited with code 3; starting another in 400 ms \(it died 3 times in a row within 10 s of starting\)/);
  assert.is((await c.get('/slow/show')).status, 200, 'the healthy worker serves meanwhile');
});

test('SIGTERM to the primary drains every worker: requests in flight are answered, then the primary exits 0', async () => {
  // A deadline far beyond the bound below, so that a loaded machine's slowness is not taken for waiting out the deadline.
  const c = await cluster({ workers: 2, shutdownTimeoutMs: 20_000 });
  const slow = [c.get('/slow/show?ms=600'), c.get('/slow/show?ms=600'), c.get('/slow/show?ms=600')];
  await sleep(150);
  const signalled = performance.now();
  c.child.kill('SIGTERM');
  const answers = await Promise.all(slow);
  assert.ok(answers.every((a) => a.status === 200 && a.body.startsWith('slept 600')), JSON.stringify(answers));
  assert.ok(answers.every((a) => a.headers.connection === 'close'));
  const { code, at } = await c.exited();
  assert.is(code, 0);
  assert.ok(at - signalled < 10_000, `exited ${Math.round(at - signalled)} ms after the signal`);
  assert.ok(c.logs.some((l) => l.msg === 'all workers exited'));
  for (const pid of c.workers) assert.throws(() => process.kill(pid, 0), 'every worker is gone');
});

test('a primary killed outright leaves its workers to drain: requests in flight are answered, then each worker exits and the port is free', async () => {
  const c = await cluster({ workers: 2, shutdownTimeoutMs: 20_000 });
  const slow = [c.get('/slow/show?ms=800'), c.get('/slow/show?ms=800'), c.get('/slow/show?ms=800')];
  await sleep(200);
  c.child.kill('SIGKILL');
  const answers = await Promise.all(slow.map((p) => p.catch((error: Error) => error.message)));
  assert.ok(answers.every((a) => typeof a !== 'string' && a.status === 200 && a.body.startsWith('slept 800')), JSON.stringify(answers));
  const gone = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  assert.ok(await eventually(() => c.workers.every(gone)), 'every worker exited');
  assert.is(c.logs.filter((l) => l.msg === 'the primary is gone (its channel closed): draining, then exiting').length, 2, 'both workers said why they drained');
  // Nothing holds the port: a server started again can listen on it.
  const again = createServer();
  await new Promise<void>((resolve, reject) => {
    again.once('error', reject);
    again.listen(c.port, '127.0.0.1', resolve);
  });
  await new Promise((resolve) => again.close(resolve));
});

test('SIGTERM while the workers are still starting: each drains once it listens, and the primary exits 0 at once, not at the deadline', async () => {
  // A deadline far beyond the workers' start, however loaded the machine: exiting before it shows nobody waited for it.
  const { starting: c, listening } = startCluster({ workers: 2, shutdownTimeoutMs: 40_000 }, { SIGNALBOX_TEST_START_DELAY_MS: '800' });
  listening.catch(() => undefined);
  await c.waitForLog((l) => l.msg === 'starting 2 workers');
  await sleep(100);
  const signalled = performance.now();
  c.child.kill('SIGTERM');
  const { code, at } = await c.exited();
  assert.is(code, 0);
  assert.ok(at - signalled < 40_000, `exited ${Math.round(at - signalled)} ms after the signal`);
  assert.not.ok(c.logs.some((l) => typeof l.msg === 'string' && l.msg.startsWith('shutdown timeout')), 'no worker was left to be killed at the deadline');
  assert.is(c.logs.filter((l) => l.msg === 'shutting down at the primary\'s request').length, 2, 'both workers drained');
});

test('the primary exits 0 at the shutdown deadline when a worker cannot finish in time', async () => {
  const c = await cluster({ workers: 2, shutdownTimeoutMs: 500 });
  const stuck = c.get('/slow/show?ms=10000').catch(() => null);
  await sleep(150);
  const signalled = performance.now();
  c.child.kill('SIGTERM');
  const { code, at } = await c.exited();
  assert.is(code, 0);
  assert.ok(at - signalled < 500 + 1_000 + 1_000, `exited ${Math.round(at - signalled)} ms after the signal`);
  assert.is(await stuck, null, 'the request still running was cut');
});

test('an app that cannot be built in the workers fails the start: the primary exits non-zero and says so', async () => {
  const failing = clusterProcess({ workers: 2 }, { SIGNALBOX_TEST_FAIL_START: '1' });
  await failing.then(
    () => assert.unreachable('it started'),
    (error: Error) => assert.match(error.message, /exited \(1\)/),
  );
});

test('a port another server holds fails the start with the workers\' own reason: the primary\'s serve() rejects with its message and code, as one process\'s does', async () => {
  const holder = createServer();
  await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
  const { port } = holder.address() as AddressInfo;
  try {
    const { starting, listening } = startCluster({ workers: 2, port });
    await listening.then(() => assert.unreachable('it started'), () => undefined);
    const failed = starting.logs.find((line) => line.test_start_failed !== undefined)?.test_start_failed as { message: string; code: unknown } | undefined;
    assert.ok(failed !== undefined, JSON.stringify(starting.logs));
    assert.is(failed.code, 'EADDRINUSE');
    // A worker's listen goes through the primary, whose bind names the address: `bind EADDRINUSE 127.0.0.1:<port>`.
    assert.match(failed.message, new RegExp(`^A worker could not start: .*EADDRINUSE.* 127\\.0\\.0\\.1:${port}$`));
  } finally {
    holder.close();
  }
});

test('an app whose build throws fails the start with the error\'s message, not only an exit code', async () => {
  const { starting, listening } = startCluster({ workers: 2 }, { SIGNALBOX_TEST_FAIL_START: '1' });
  await listening.then(() => assert.unreachable('it started'), () => undefined);
  const failed = starting.logs.find((line) => line.test_start_failed !== undefined)?.test_start_failed as { message: string; code: unknown } | undefined;
  assert.equal(failed, { message: 'A worker could not start: this app cannot start', code: null });
});

/**
 * A cluster whose workers read their code's version from a file as they build the app (`X-Version`), as a
 * deploy's code: `deploy(version)` changes what the workers started next load.
 */
async function deployedCluster(options: Parameters<typeof clusterProcess>[0]): Promise<{ c: ClusterProcess; deploy: (version: string) => void }> {
  const file = join(mkdtempSync(join(tmpdir(), 'signalbox-reload-')), 'version');
  writeFileSync(file, 'one');
  return { c: await cluster(options, { SIGNALBOX_TEST_VERSION_FILE: file }), deploy: (version) => writeFileSync(file, version) };
}

/** Keep-alive clients requesting without pause until `stop()`; each answer or error is kept. */
function steadyClients(c: ClusterProcess, count: number): { answers: Answer[]; errors: string[]; stop(): Promise<void> } {
  const answers: Answer[] = [];
  const errors: string[] = [];
  let stopping = false;
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  const loops = Array.from({ length: count }, async () => {
    while (!stopping) {
      try {
        answers.push(await get(c.port, '/slow/show?ms=2', 'GET', {}, agent));
      } catch (error) {
        errors.push((error as NodeJS.ErrnoException).code ?? String(error));
      }
    }
  });
  return {
    answers, errors,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

test('SIGHUP replaces the workers one at a time with ones that load the app afresh, and neither keep-alive nor tunnel clients lose a request meanwhile', async () => {
  const { c, deploy } = await deployedCluster({ workers: 2, shutdownTimeoutMs: 10_000 });
  const clients = steadyClients(c, 6);
  const t = await tunnel(`ws://127.0.0.1:${c.port}/_tunnel`, { reconnect: { minMs: 10, maxMs: 50, retries: 100 }, timeoutMs: PATIENCE_MS });
  const tunnelled: string[] = [];
  let tunnelling = true;
  const tunnelLoops = Array.from({ length: 4 }, async () => {
    while (tunnelling) {
      try {
        const answer = await t.request({ path: '/slow/show?ms=2' });
        tunnelled.push(`${answer.status} ${answer.headers.get('x-version') ?? ''}`);
      } catch (error) {
        tunnelled.push((error as { code?: string }).code ?? String(error));
      }
    }
  });
  try {
    assert.ok(await eventually(() => clients.answers.length >= 100), 'under way');
    deploy('two');
    c.child.kill('SIGHUP');
    await c.waitForLog((l) => l.msg === 'reload complete');
    const replaced = c.logs.filter((l) => typeof l.replaced_pid === 'number').map((l) => l.replaced_pid);
    assert.equal(replaced.sort(), [...c.workers].sort(), 'each worker replaced once');
    const after = clients.answers.length;
    assert.ok(await eventually(() => clients.answers.slice(after).filter((a) => a.headers['x-version'] === 'two').length >= 100), 'the new workers answer');
    assert.ok(await eventually(() => tunnelled.at(-1) === '200 two'), 'the tunnel reconnected to a new worker');
  } finally {
    tunnelling = false;
    await Promise.all(tunnelLoops);
    await t.close();
    await clients.stop();
  }
  assert.equal(clients.errors, [], 'no request failed');
  assert.equal([...new Set(tunnelled)].sort(), ['200 one', '200 two'], 'no tunnelled request failed');
  assert.ok(clients.answers.every((a) => a.status === 200));
  assert.ok(await eventually(() => c.workers.every((pid) => { try { process.kill(pid, 0); return false; } catch { return true; } })), 'the old workers exited');
  const answers = await requestsUntil(c, '/slow/show', (a) => a.length >= 20);
  assert.ok(answers.every((a) => a.headers['x-version'] === 'two'), 'only the new code answers');
  c.child.kill('SIGTERM');
  assert.is((await c.exited()).code, 0);
});

test('a reload starts its workers through the link the primary was started in, so a deploy that points current at a new release serves from it', async () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'signalbox-releases-')));
  const [first, second, current] = ['releases/1', 'releases/2', 'current'].map((name) => join(base, name));
  mkdirSync(first, { recursive: true });
  mkdirSync(second, { recursive: true });
  symlinkSync(first, current);
  const file = join(base, 'version');
  writeFileSync(file, 'one');
  // As a shell started in current/ runs it: the process is in the release, and PWD names the link.
  const c = await clusterProcess({ workers: 2 }, { SIGNALBOX_TEST_VERSION_FILE: file, PWD: current }, current);
  running.push(c);
  assert.equal([...new Set((await requestsUntil(c, '/slow/show', (a) => a.length >= 10)).map((a) => a.headers['x-cwd']))], [first]);
  // The deploy: the link now leads to the new release.
  renameSync(current, join(base, 'previous'));
  symlinkSync(second, current);
  c.child.kill('SIGHUP');
  await c.waitForLog((l) => l.msg === 'reload complete');
  assert.equal([...new Set((await requestsUntil(c, '/slow/show', (a) => a.length >= 10)).map((a) => a.headers['x-cwd']))], [second]);
});

test('a SIGHUP during a reload runs another once it ends, so the workers end with the code of the last signal', async () => {
  const { c, deploy } = await deployedCluster({ workers: 2 });
  deploy('two');
  c.child.kill('SIGHUP');
  // The first worker replaced has the code as it was; the code changes again before the second is.
  await c.waitForLog((l) => typeof l.replaced_pid === 'number');
  deploy('three');
  c.child.kill('SIGHUP');
  c.child.kill('SIGHUP');
  assert.ok(await eventually(() => c.logs.filter((l) => l.msg === 'reload complete').length === 2), 'two reloads, the second shared');
  assert.is(c.logs.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('reloading 2 workers')).length, 2);
  const after = await requestsUntil(c, '/slow/show', (a) => a.length >= 20);
  assert.ok(after.every((a) => a.status === 200 && a.headers['x-version'] === 'three'), JSON.stringify(after.map((a) => a.headers['x-version'])));
});

test('a reload whose new workers cannot start leaves the running ones serving and says why; the next reload goes through', async () => {
  const { c, deploy } = await deployedCluster({ workers: 2 });
  deploy('broken');
  c.child.kill('SIGHUP');
  const failed = await c.waitForLog((l) => typeof l.msg === 'string' && l.msg.startsWith('reload failed'));
  assert.is(failed.msg, 'reload failed: A worker could not start: this version of the app cannot start; the workers running keep serving');
  const during = await requestsUntil(c, '/slow/show', (a) => a.length >= 20);
  assert.ok(during.every((a) => a.status === 200 && a.headers['x-version'] === 'one'), JSON.stringify(during.map((a) => [a.status, a.headers['x-version']])));
  assert.ok(c.workers.every((pid) => { try { process.kill(pid, 0); return true; } catch { return false; } }), 'the workers it would have replaced still run');
  deploy('three');
  c.child.kill('SIGHUP');
  await c.waitForLog((l) => l.msg === 'reload complete');
  const after = await requestsUntil(c, '/slow/show', (a) => a.length >= 20);
  assert.ok(after.every((a) => a.status === 200 && a.headers['x-version'] === 'three'));
});

test('SIGHUP while the workers are still starting is refused with a warning, and the cluster starts as it would have', async () => {
  const { starting: c, listening } = startCluster({ workers: 2 }, { SIGNALBOX_TEST_START_DELAY_MS: '800' });
  listening.catch(() => undefined);
  await c.waitForLog((l) => l.msg === 'starting 2 workers');
  c.child.kill('SIGHUP');
  await c.waitForLog((l) => l.msg === 'reload refused: the cluster is still starting, and its workers load the code as it is now');
  const { workers } = await listening;
  assert.is(workers.length, 2);
  assert.not.ok(c.logs.some((l) => typeof l.replaced_pid === 'number'), 'no worker replaced');
  c.child.kill('SIGTERM');
  assert.is((await c.exited()).code, 0);
});

test('the WebSocket tunnel works behind workers, each socket staying with the worker that accepted it', async () => {
  const c = await cluster({ workers: 2 });
  const t = await tunnel(`ws://127.0.0.1:${c.port}/_tunnel`, { reconnect: false, cookies: false });
  try {
    const bodies = await Promise.all([1, 2, 3].map(async () => (await t.request({ method: 'GET', path: '/slow/show' })).text()));
    assert.is(new Set(bodies).size, 1, 'one socket, one worker');
    assert.match(bodies[0], /^slept 0 in \d+$/);
  } finally {
    await t.close();
  }
});

test('with the memory store, an expiry made in one worker reaches the other before it is acknowledged: no stale hit anywhere', async () => {
  const c = await cluster({ workers: 2 });
  // Both workers cache the page: each answers a miss, then hits.
  const warm = await requestsUntil(c, '/pages/show/1', (a) => new Set(a.filter((x) => x.headers['x-cache'] === 'hit').map((x) => x.headers['x-worker'])).size === 2);
  const cached = new Set(warm.filter((x) => x.headers['x-cache'] === 'hit').map((x) => x.body));
  assert.is(cached.size, 2, 'each worker has its own entry');
  const expired = await c.get('/pages/update/1', 'PUT');
  assert.is(expired.body, 'expired 1');
  const after = await requestsUntil(c, '/pages/show/1', (a) => new Set(a.map((x) => x.headers['x-worker'])).size === 2);
  for (const answer of after) assert.ok(!cached.has(answer.body), `a stale entry was served by ${String(answer.headers['x-worker'])}`);
  const firstOfEach = new Map<string, Answer>();
  for (const answer of after) if (!firstOfEach.has(String(answer.headers['x-worker']))) firstOfEach.set(String(answer.headers['x-worker']), answer);
  assert.equal([...firstOfEach.values()].map((a) => a.headers['x-cache']), ['miss', 'miss']);
});

test('with the Redis store, two workers share one cache: an expiry in one is seen by both, and Redis killed and restarted during a stream of requests fails none', async () => {
  const redis = await startRedis();
  try {
    const c = await cluster({ workers: 2 }, { SIGNALBOX_TEST_REDIS_URL: redis.url });
    const first = await c.get('/pages/show/7');
    assert.is(first.headers['x-cache'], 'miss');
    const shared = await requestsUntil(c, '/pages/show/7', (a) => new Set(a.map((x) => x.headers['x-worker'])).size === 2);
    assert.ok(shared.every((a) => a.headers['x-cache'] === 'hit' && a.body === first.body), 'one entry, hit from both workers');
    assert.ok(((await redis.command('KEYS', 'cluster-test:views/*')) as string[]).length >= 1, 'the entry is in Redis');
    assert.is((await c.get('/pages/update/7', 'PUT')).body, 'expired 1');
    const after = await requestsUntil(c, '/pages/show/7', (a) => a.length >= 4);
    assert.is(after[0].headers['x-cache'], 'miss');
    assert.ok(after.every((a) => a.body !== first.body), 'the expired entry is gone for both');

    // A stream of requests while Redis is killed and, a moment later, started again.
    const answers: Answer[] = [];
    let stop = false;
    const stream = (async () => {
      while (!stop) answers.push(await c.get('/pages/show/7'));
    })();
    await sleep(150);
    await redis.kill();
    await sleep(400);
    await redis.restart();
    // Back once the stores have reconnected: their retry timers and a loaded machine decide when, so the wait is the suite's patience.
    const deadline = performance.now() + PATIENCE_MS;
    while (!answers.slice(-4).every((a) => a.headers['x-cache'] === 'hit') && performance.now() < deadline) await sleep(50);
    stop = true;
    await stream;
    assert.ok(answers.every((a) => a.status === 200), 'every request answered 200');
    const slowest = Math.max(...answers.slice(1).map((a, i) => a.at - answers[i].at));
    assert.ok(slowest < 1_500, `the longest gap between answers was ${Math.round(slowest)} ms`);
    assert.ok(answers.some((a) => a.headers['x-cache'] === 'miss'), 'misses while Redis was away');
    assert.ok(answers.slice(-4).every((a) => a.headers['x-cache'] === 'hit'), 'hits again once it is back');
    const warnings = c.logs.filter((l) => l.level === 40 && l.store === 'cache' && /Redis unreachable/.test(String(l.msg)));
    assert.ok(warnings.length >= 1 && warnings.length <= 2, `one warning per worker for the outage, not per request: ${warnings.length}`);
  } finally {
    await redis.stop();
  }
});

/** The session id a response sets, if it sets one. */
function sessionCookie(answer: Answer): string | null {
  const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('_cluster_session='));
  return set === undefined ? null : set.split(';', 1)[0];
}

test('with Redis sessions, a session one worker started is read and updated by the other, and visitors at once never see each other\'s', async () => {
  const redis = await startRedis();
  try {
    const c = await cluster({ workers: 2 }, { SIGNALBOX_TEST_REDIS_URL: redis.url });
    const first = await c.get('/visits?who=ada');
    const cookie = sessionCookie(first)!;
    assert.match(cookie, /^_cluster_session=[0-9a-f]{32}$/);
    // One visitor's requests, one after another on fresh connections, until both workers have answered.
    const answers = [first];
    while (answers.length < 60 && new Set(answers.map((a) => a.body.split(' ')[2])).size < 2) answers.push(await c.get('/visits', 'GET', { cookie }));
    assert.is(new Set(answers.map((a) => a.body.split(' ')[2])).size, 2, 'both workers answered the visitor');
    assert.equal(answers.map((a) => a.body.split(' ').slice(0, 2).join(' ')), answers.map((_, i) => `${i + 1} ada`), 'each worker read the count the other wrote');
    assert.ok(answers.slice(1).every((a) => sessionCookie(a) === null), 'the id stays the same');

    // Eight visitors at once, each one request after another.
    const visitors = await Promise.all(Array.from({ length: 8 }, async (_, v) => {
      const start = await c.get(`/visits?who=v${v}`);
      const own = sessionCookie(start)!;
      const seen = [start.body];
      for (let i = 0; i < 10; i++) seen.push((await c.get('/visits', 'GET', { cookie: own })).body);
      return seen.map((body) => body.split(' ').slice(0, 2).join(' '));
    }));
    visitors.forEach((seen, v) => assert.equal(seen, seen.map((_, i) => `${i + 1} v${v}`), `visitor ${v} saw only their own session`));
  } finally {
    await redis.stop();
  }
});

test('with Redis sessions, a Redis that holds its connections without answering: every request is answered 503, no worker dies, the outage is logged once per worker, and sessions are served again once it answers', async () => {
  const redis = await startRedis();
  try {
    const c = await cluster({ workers: 2 }, { SIGNALBOX_TEST_REDIS_URL: redis.url });
    const cookie = sessionCookie(await c.get('/visits?who=ada'))!;
    // Writes only, which a session read is (it renews the ttl), so that UNPAUSE still gets through; ended by it.
    await redis.command('CLIENT', 'PAUSE', '60000', 'WRITE');
    let during: Answer[] = [];
    try {
      const streams = await Promise.all(Array.from({ length: 6 }, async () => {
        const got: Answer[] = [];
        for (let i = 0; i < 25; i++) got.push(await c.get('/visits', 'GET', { cookie }));
        return got;
      }));
      during = streams.flat();
    } finally {
      await redis.command('CLIENT', 'UNPAUSE');
    }
    assert.ok(during.every((a) => a.status === 503 && a.headers['retry-after'] === '5'), JSON.stringify(during.map((a) => a.status)));
    const deadline = performance.now() + 10_000;
    let after = await c.get('/visits', 'GET', { cookie });
    while (after.status !== 200) {
      assert.ok(performance.now() < deadline, 'sessions served again within 10 s');
      await sleep(100);
      after = await c.get('/visits', 'GET', { cookie });
    }
    assert.match(after.body, /^2 ada /, 'the session was kept as it was');
    assert.not.ok(c.logs.some((l) => l.role === 'primary' && typeof l.msg === 'string' && /starting another/.test(l.msg)), 'no worker died');
    const warnings = c.logs.filter((l) => l.level === 40 && l.store === 'session' && /Redis unreachable/.test(String(l.msg)));
    assert.ok(warnings.length >= 1 && warnings.length <= 2, `one warning per worker for the outage, not per request: ${warnings.length}`);
  } finally {
    await redis.stop();
  }
});

test('workers must be a positive integer', async () => {
  const { serve } = await import('../../transport/index.ts');
  type ClusterOptions = import('../../transport/index.ts').ClusterOptions;
  const { appWith } = await import('../support/harness.ts');
  for (const workers of [0, 1.5, -2]) {
    await serve(appWith({}), { workers, port: 0 } as ClusterOptions).then(
      () => assert.unreachable(`workers: ${workers} was accepted`),
      (error: Error) => assert.match(error.message, /workers must be a positive integer/),
    );
  }
});

test.run();
