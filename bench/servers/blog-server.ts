/**
 * The example blog (examples/blog) as the cache, workers and Redis benches serve it, in its own
 * process(es), in the production environment and without logging:
 *
 *   node dist/bench/servers/blog-server.js [caching=off|actions|pages] [store=memory|<redis-url>] [workers=N] [port=N]
 *
 * `caching`: `off` (`perform_caching: false`, every request runs the whole request path; the
 * default), `actions` (post pages action-cached, no page cache) or `pages` (as the blog ships: the
 * post list page-cached into a temporary directory, answered by the transport before the app runs,
 * and post pages action-cached). `store`: where the action cache lives, the memory store (the
 * default) or a Redis store at the given `redis://` URL. `workers`: `serve(() => app, { workers })`
 * (1, the default, is one process). Listens on 127.0.0.1 and prints `LISTENING <port>` once ready
 * (the primary, with workers); exits on SIGTERM/SIGINT and when stdin closes, removing its page
 * cache directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisCacheStore } from '../../core/index.ts';
import { serve } from '../../transport/index.ts';
import { createBlogApp } from '../../examples/blog/app.ts';
import { Store } from '../../examples/blog/models.ts';

const USAGE = 'usage: blog-server.ts [caching=off|actions|pages] [store=memory|redis://...] [workers=N] [port=N]';
const options: Record<string, string> = { caching: 'off', store: 'memory', workers: '1', port: '0' };
for (const arg of process.argv.slice(2)) {
  const eq = arg.indexOf('=');
  if (eq < 0 || !(arg.slice(0, eq) in options)) {
    console.error(USAGE);
    process.exit(2);
  }
  options[arg.slice(0, eq)] = arg.slice(eq + 1);
}
const { caching, store } = options;
const workers = Number(options.workers);
const port = Number(options.port);
if (!['off', 'actions', 'pages'].includes(caching!) || !(store === 'memory' || store!.startsWith('redis://'))
  || !Number.isInteger(workers) || workers < 1 || !Number.isInteger(port) || port < 0) {
  console.error(USAGE);
  process.exit(2);
}

// Production refuses to start without a session secret.
process.env.SIGNALBOX_SECRET ??= 'signalbox-bench-secret-0123456789abcdef0123456789abcdef';
const pages = caching === 'pages' ? mkdtempSync(join(tmpdir(), 'signalbox-bench-pages-')) : null;
const blog = () => createBlogApp({
  // A fixed clock: every server holds the very same posts, down to their timestamps.
  store: new Store({ clock: () => Date.UTC(2025, 2, 3, 14, 5) }),
  environment: 'production', logger: false, perform_caching: caching !== 'off', page_cache_directory: pages ?? false,
  ...(store === 'memory' ? {} : { cache_store: redisCacheStore({ url: store, namespace: `bench-${process.pid}` }) }),
});
const running = await serve(blog, { port, host: '127.0.0.1', inspect: false, workers });
if (running.role !== 'worker') {
  process.stdout.write(`LISTENING ${running.port}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    const exit = () => {
      if (pages !== null) rmSync(pages, { recursive: true, force: true });
      process.exit(0);
    };
    // Bounded: exit even if a connection (or a worker) will not close.
    setTimeout(exit, 5000).unref();
    running.close().then(exit, exit);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}
