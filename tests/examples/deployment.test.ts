/**
 * The example blog deployed as a team would run it: `examples/blog/main.ts`
 * (what `npm start` runs, compiled; here from its sources) with WEB_CONCURRENCY=2 and REDIS_URL naming a real
 * redis-server. Requests are logged from two worker pids; once one GET
 * /posts has filled the action cache, every following GET /posts is a hit
 * whichever worker answers, and Redis holds the entries; a worker killed
 * with SIGKILL is replaced while requests keep getting 200; with Redis
 * stopped, GET /posts still answers 200 at once; SIGTERM drains it all.
 * And without REDIS_URL it still needs nothing installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, startRedis, type RedisServer } from '../support/redis.ts';
import { get, type Answer } from '../transport/support-cluster.ts';

const MAIN = fileURLToPath(new URL('../../examples/blog/main.ts', import.meta.url));
const test = suite('the example blog with WEB_CONCURRENCY=2 and REDIS_URL');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Blog {
  readonly child: ChildProcess;
  readonly port: number;
  /** Log lines (JSON) and the start-up text, in order. */
  readonly lines: Record<string, unknown>[];
  exited(): Promise<number | null>;
  waitFor(test: (line: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
}

const started: ChildProcess[] = [];
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

async function startBlog(env: Record<string, string>): Promise<Blog> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const lines: Record<string, unknown>[] = [];
  const watchers = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    let pending = '';
    stream.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const all = pending.split('\n');
      pending = all.pop()!;
      for (const line of all) {
        if (line.trim() === '') continue;
        try {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          lines.push({ text: line });
        }
      }
      for (const watcher of watchers) watcher();
    });
  }
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const waitFor = (found: (line: Record<string, unknown>) => boolean, ms = 20_000) => new Promise<Record<string, unknown>>((resolve, reject) => {
    const check = () => {
      const line = lines.find(found);
      if (line === undefined) return;
      watchers.delete(check);
      clearTimeout(timer);
      resolve(line);
    };
    const timer = setTimeout(() => {
      watchers.delete(check);
      reject(new Error(`no such line within ${ms} ms: ${JSON.stringify(lines.slice(-15))}`));
    }, ms);
    timer.unref();
    watchers.add(check);
    check();
  });
  const blog: Blog = { child, port, lines, exited: () => exit, waitFor };
  await Promise.race([
    // The last line main.ts prints once it listens.
    waitFor((l) => typeof l.text === 'string' && l.text.startsWith('Admin area')),
    exit.then((code) => { throw new Error(`the blog exited (${code}): ${JSON.stringify(lines)}`); }),
  ]);
  return blog;
}

let redis: RedisServer;
test.before(async () => {
  redis = await startRedis();
});
test.after(async () => {
  await redis?.stop();
});
test.after.each(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

test('two workers, the post list cached in Redis for both, a killed worker replaced, Redis stopped without failing a page, and a clean drain', async () => {
  const blog = await startBlog({ WEB_CONCURRENCY: '2', REDIS_URL: redis.url });
  const pids = (blog.lines.find((l) => typeof l.text === 'string' && l.text.includes('WEB_CONCURRENCY'))!.text as string).match(/\d+/g)!.slice(1).map(Number);
  assert.is(pids.length, 2);
  assert.ok(blog.lines.some((l) => l.text === `Cache and sessions in Redis at ${redis.url}`));

  // One GET fills the action cache; every following one is a hit, whichever worker answers.
  const first = await get(blog.port, '/posts');
  assert.equal([first.status, first.headers['x-cache']], [200, 'miss']);
  const following: Answer[] = [];
  for (let i = 0; i < 30; i++) following.push(await get(blog.port, '/posts'));
  assert.ok(following.every((a) => a.status === 200 && a.headers['x-cache'] === 'hit' && a.body === first.body), 'every following GET /posts is a hit');
  await blog.waitFor(() => blog.lines.filter((l) => l.msg === 'request completed' && l.path === '/posts').length >= 31);
  const completed = blog.lines.filter((l) => l.msg === 'request completed' && l.path === '/posts');
  const answeredBy = new Set(completed.map((l) => l.pid));
  assert.equal([...answeredBy].sort(), [...pids].sort(), 'requests logged from both worker pids');
  for (const pid of pids) assert.ok(completed.some((l) => l.pid === pid && l.cache === 'hit'), `worker ${pid} answered hits`);
  assert.ok(completed.every((l) => typeof l.hostname === 'string'));

  // Redis holds the entries.
  const keys = (await redis.command('KEYS', 'blog:cache:*')) as string[];
  assert.ok(keys.some((k) => k.startsWith('blog:cache:views/') && k.includes('/posts')), JSON.stringify(keys));

  // A worker killed with SIGKILL is replaced while requests keep getting 200.
  const victim = pids[0];
  process.kill(victim, 'SIGKILL');
  const during: (Answer | null)[] = [];
  const deadline = performance.now() + 15_000;
  let replacement: number | null = null;
  while (performance.now() < deadline) {
    during.push(await get(blog.port, '/posts').catch(() => null));
    const line = blog.lines.find((l) => l.role === 'primary' && typeof l.worker_pid === 'number' && !pids.includes(l.worker_pid) && /listening/.test(String(l.msg)));
    if (line !== undefined) {
      replacement = line.worker_pid as number;
      break;
    }
  }
  assert.ok(replacement !== null, 'a new worker listens');
  assert.ok(blog.lines.some((l) => l.worker_pid === victim && l.signal === 'SIGKILL' && /killed by SIGKILL; starting another/.test(String(l.msg))));
  assert.ok(during.filter((a) => a === null).length <= 1, 'at most the request the killed worker held is lost');
  assert.ok(during.every((a) => a === null || a.status === 200));

  // With Redis stopped, GET /posts still answers 200, within a second or two.
  await redis.kill();
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const answer = await get(blog.port, '/posts');
    assert.is(answer.status, 200);
    assert.ok(performance.now() - t < 2_000, `answered in ${Math.round(performance.now() - t)} ms`);
  }
  await blog.waitFor((l) => l.level === 40 && /Redis unreachable: cache reads miss/.test(String(l.msg)));
  await redis.restart();

  // SIGTERM: every worker drains and the primary exits 0.
  blog.child.kill('SIGTERM');
  assert.is(await blog.exited(), 0);
  assert.ok(blog.lines.some((l) => l.msg === 'all workers exited'));
});

test('without REDIS_URL and WEB_CONCURRENCY, npm start needs nothing: one process, the cache in memory, sessions in cookies', async () => {
  const blog = await startBlog({ WEB_CONCURRENCY: '', REDIS_URL: '' });
  assert.ok(blog.lines.some((l) => typeof l.text === 'string' && l.text.startsWith('Cache in memory, sessions in signed cookies')));
  assert.ok(!blog.lines.some((l) => l.role === 'primary'), 'no workers');
  const answer = await get(blog.port, '/posts');
  assert.is(answer.status, 200);
  assert.is((await get(blog.port, '/posts')).headers['x-cache'], 'hit');
  blog.child.kill('SIGTERM');
  assert.is(await blog.exited(), 0);
});

test('a WEB_CONCURRENCY that is no number of workers stops the start with the reason', async () => {
  await startBlog({ WEB_CONCURRENCY: 'lots' }).then(
    () => assert.unreachable('it started'),
    (error: Error) => assert.match(error.message, /WEB_CONCURRENCY must be a positive integer/),
  );
  await sleep(0);
});

test.run();
