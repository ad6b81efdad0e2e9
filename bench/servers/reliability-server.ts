/**
 * The server the reliability scripts probe: the example blog in production
 * (forgery protection on, no logging) behind serve() with signals handled,
 * in its own process. Prints `{"port": n}` once listening, and answers
 * `'rss'` messages on its IPC channel with its resident set size, and
 * `'gc'` messages (run with --expose-gc) with its resident set size and
 * heap in use after a full garbage collection.
 */
import { createBlogApp } from '../../examples/blog/app.ts';
import { serve } from '../../transport/index.ts';

const app = createBlogApp({ environment: 'production', logger: false, secret: 'a reliability-run secret that is long enough' });
const server = await serve(app, { port: 0, host: '127.0.0.1', handleSignals: true, shutdownTimeoutMs: Number(process.env.SHUTDOWN_MS ?? 10_000) });
process.on('message', (message) => {
  if (message === 'gc') (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  if (message === 'rss' || message === 'gc') process.send!({ rss, heapUsed, heapTotal });
});
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
