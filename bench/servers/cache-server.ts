/**
 * One server of `bench/cache.ts`, in its own process:
 *
 *   node dist/bench/servers/cache-server.js <cached|uncached> [port]
 *
 * The example blog (examples/blog) in the production environment, without logging (the other
 * benches' servers log nothing either): `cached` as it ships, its post list page-cached into a
 * temporary directory and its post pages action-cached in memory; `uncached` the same app with
 * `perform_caching: false`. Listens on 127.0.0.1 and prints `LISTENING <port>` once ready; exits
 * on SIGTERM/SIGINT and when stdin closes, removing its page cache directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../transport/index.ts';
import { createBlogApp } from '../../examples/blog/app.ts';
import { Store } from '../../examples/blog/models.ts';

const [mode, portArg] = process.argv.slice(2);
if (mode !== 'cached' && mode !== 'uncached') {
  console.error('usage: cache-server.ts <cached|uncached> [port]');
  process.exit(2);
}

// Production refuses to start without a session secret.
process.env.SIGNALBOX_SECRET ??= 'signalbox-bench-secret-0123456789abcdef0123456789abcdef';
const pages = mkdtempSync(join(tmpdir(), 'signalbox-bench-pages-'));
const app = createBlogApp({
  // A fixed clock: both servers then hold the very same posts, down to their timestamps.
  store: new Store({ clock: () => Date.UTC(2025, 2, 3, 14, 5) }),
  environment: 'production', logger: false, perform_caching: mode === 'cached', page_cache_directory: mode === 'cached' ? pages : false,
});
const running = await serve(app, { port: Number(portArg ?? 0), host: '127.0.0.1', inspect: false });
process.stdout.write(`LISTENING ${running.port}\n`);

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  const exit = () => {
    rmSync(pages, { recursive: true, force: true });
    process.exit(0);
  };
  // Bounded: exit even if a connection will not close.
  setTimeout(exit, 2000).unref();
  running.close().then(exit, exit);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
