/**
 * What keeping the action cache in Redis costs: the hit path of `caches_action` with the Redis store
 * against the memory store, head to head (bench/support/head-to-head.ts). Run with
 * `npm run bench:redis-cache`; writes the `redis-cache` section of bench/RESULTS.md. Needs
 * redis-server (`npm run setup:redis`, or SIGNALBOX_REDIS_SERVER).
 *
 * Routes: `GET /posts/1.json` and `GET /posts/1` (HTML; its forms get each visitor's own token), both
 * action-cached hits once primed. Servers: bench/servers/blog-server.ts with `caching=actions` and
 * the memory store or a Redis store; a redis-server started here on a free port, pinned to the
 * servers' core, its CPU counted as the Redis-backed server's.
 */
import { startRedis } from '../tests/support/redis.ts';
import { withoutTokens } from './servers/bodies.ts';
import { compare } from './support/head-to-head.ts';
import { sh } from './support/processes.ts';

type Server = 'memory' | 'redis';

const redis = await startRedis();
try {
  const pid = redis.pid!;
  if (!sh(`taskset -p -c 0 ${pid}`).ok) throw new Error(`could not pin redis-server (pid ${pid}) to core 0`);
  const info = await redis.command('INFO', 'server');
  const redisVersion = /redis_version:(\S+)/.exec(String(info))?.[1] ?? 'unknown';
  const BLOG = 'dist/bench/servers/blog-server.js';
  await compare<Server>({
    name: 'redis-cache',
    title: 'Action cache hits: Redis store against memory store',
    about: `The example blog, production environment, no logging, its post pages action-cached (no page cache), with the cache in the memory store (\`memoryStore()\`, the default) and in a Redis store (\`redisCacheStore()\`); every measured request is a hit (checked: \`X-Cache: hit\`, and the same body on both servers, tokens aside). redis-server ${redisVersion} runs pinned to core 0 beside the two servers, and its CPU counts as the Redis-backed server's: per CPU-second is requests over the CPU of Signalbox and Redis together.`,
    servers: {
      memory: { label: 'memory store', args: [BLOG, 'caching=actions', 'store=memory'] },
      redis: { label: 'Redis store', args: [BLOG, 'caching=actions', `store=${redis.url}`], alsoCounts: [pid] },
    },
    routes: [
      { key: 'show-json', label: 'GET /posts/1.json (action cache hit)', path: '/posts/1.json' },
      { key: 'show', label: 'GET /posts/1 (HTML post page, action cache hit)', path: '/posts/1' },
    ],
    pairs: [['memory', 'memory'], ['redis', 'memory']],
    check: (_server, _route, res) => (res.status === 200 && res.headers.get('x-cache') === 'hit' ? null : `${res.status}, X-Cache ${String(res.headers.get('x-cache'))} (wanted 200, hit)`),
    sameBody: withoutTokens,
    versions: [`redis-server ${redisVersion}`],
    commands: [`redis-server --port <port> --bind 127.0.0.1 --save '' --appendonly no (tests/support/redis.ts), then taskset -p -c 0 <pid>`],
  });
} finally {
  await redis.stop();
}
process.exit(0);
