/**
 * One server of `bench/workers.ts` and `bench/redis-cache.ts`, in its own process(es):
 *
 *   node dist/bench/servers/scale-server.js workers <N> [port]
 *   node dist/bench/servers/scale-server.js cache <memory|redis> [port] [redis-url]
 *
 * The example blog (examples/blog) in the production environment, without logging. `workers N`:
 * caching off, so every request runs the whole request path, served by `serve(() => app, { workers:
 * N })` (N = 1 is the single process). `cache memory|redis`: one process with caching on, post pages
 * action-cached in the memory store or in a Redis store at `redis-url`, no page cache. Listens on
 * 127.0.0.1 and prints `LISTENING <port>` once ready (the primary, with workers); exits on
 * SIGTERM/SIGINT and when stdin closes.
 */
import { redisCacheStore } from '../../core/index.ts';
import { serve } from '../../transport/index.ts';
import { createBlogApp } from '../../examples/blog/app.ts';
import { Store } from '../../examples/blog/models.ts';

const [mode, arg, portArg, redisUrl] = process.argv.slice(2);
const usage = () => {
  console.error('usage: scale-server.ts workers <N> [port] | cache <memory|redis> [port] [redis-url]');
  process.exit(2);
};
if (mode !== 'workers' && mode !== 'cache') usage();
if (mode === 'cache' && arg !== 'memory' && !(arg === 'redis' && redisUrl)) usage();
const workers = mode === 'workers' ? Number(arg) : 1;
if (!Number.isInteger(workers) || workers < 1) usage();

// Production refuses to start without a session secret.
process.env.SIGNALBOX_SECRET ??= 'signalbox-bench-secret-0123456789abcdef0123456789abcdef';
const blog = () => createBlogApp({
  // A fixed clock: every server holds the very same posts, down to their timestamps.
  store: new Store({ clock: () => Date.UTC(2025, 2, 3, 14, 5) }),
  environment: 'production', logger: false, perform_caching: mode === 'cache', page_cache_directory: false,
  ...(arg === 'redis' ? { cache_store: redisCacheStore({ url: redisUrl, namespace: `bench-${process.pid}` }) } : {}),
});
const running = await serve(blog, { port: Number(portArg ?? 0), host: '127.0.0.1', inspect: false, workers });
if (running.role !== 'worker') {
  process.stdout.write(`LISTENING ${running.port}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    // Bounded: exit even if a connection will not close.
    setTimeout(() => process.exit(0), 5000).unref();
    running.close().then(() => process.exit(0), () => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}
