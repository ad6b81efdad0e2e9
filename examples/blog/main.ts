/**
 * `npm start` (compiled to build/ by scripts/start.js) and `npm run dev` (these sources through tsx): serves the example blog on PORT (default 3000) and HOST (default 127.0.0.1).
 * BLOG_ADMIN_USER and BLOG_ADMIN_PASSWORD guard /admin; in development they default to admin/admin.
 * Production also needs SIGNALBOX_SECRET (30+ characters) to sign session cookies.
 * In development, routes.helpers.d.ts (the route helpers' types) is rewritten whenever routes.ts changes.
 *
 * Deployment settings, all optional:
 * - WEB_CONCURRENCY: how many worker processes serve the port (default 1, this process alone).
 * - REDIS_URL (`redis://host:6379/0`): keep the cache and the sessions in Redis, shared by every
 *   worker and machine (the ioredis package must be installed); without it, the cache is in each
 *   process's memory and sessions are in signed cookies, so nothing else is needed.
 * - SIGNALBOX_SHUTDOWN_TIMEOUT: seconds a SIGTERM lets requests finish (default 10).
 *
 * Without REDIS_URL the post list's cached pages go to examples/blog/tmp/pages (git-ignored), emptied
 * at each start. With it there is no page cache: behind a load balancer each machine would keep its
 * own files and expire only its own, so the list is action-cached in Redis instead.
 *
 * The blog's posts and comments live in each process's memory (it is an example, not a database):
 * every worker starts from the same seeded posts, and what one worker is sent stays in that worker.
 */
import cluster from 'node:cluster';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redisCacheStore, redisSessionStore } from '../../core/index.ts';
import { serve, webConcurrency } from '../../transport/index.ts';
import { createBlogApp } from './app.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
// createApp refuses a NODE_ENV that names no environment (a staging server runs as production).
const environment = process.env.NODE_ENV || 'development';
// Compiled (npm start) the modules are .js files; run from the sources (npm run dev) they are .ts through tsx.
const fromSources = import.meta.url.endsWith('.ts');
// The first line says how this process runs (workers run this script again and say nothing).
if (cluster.isPrimary) console.log(`Signalbox blog starting in ${environment} mode, from ${fromSources ? 'the TypeScript sources (tsx)' : 'compiled JavaScript'}, Node ${process.version}, pid ${process.pid}`);
// Git-ignored. A page cache serves only the pages its own process wrote, so an earlier run's files are
// never served; they are removed at start only so the directory does not collect pages no run will read.
const PAGE_CACHE_DIR = join(HERE, 'tmp', 'pages');

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

const production = environment === 'production';
const user = process.env.BLOG_ADMIN_USER || (production ? undefined : 'admin');
const password = process.env.BLOG_ADMIN_PASSWORD || (production ? undefined : 'admin');
const admin = user !== undefined && password !== undefined ? { user, password } : undefined;
const redisUrl = process.env.REDIS_URL || undefined;

let workers: number;
try {
  workers = webConcurrency();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

// This script runs in the primary and again in every worker; only the primary empties the directory
// (a worker started later, to replace one that died, must not remove the pages the others wrote).
if (cluster.isPrimary && redisUrl === undefined) rmSync(PAGE_CACHE_DIR, { recursive: true, force: true });

/** Builds the app: in this process, or with WEB_CONCURRENCY above 1, in each worker. */
const blog = () => createBlogApp({
  admin,
  ...(redisUrl === undefined
    ? { page_cache_directory: PAGE_CACHE_DIR }
    : {
      cache_store: redisCacheStore({ url: redisUrl, namespace: 'blog:cache' }),
      session_store: redisSessionStore({ url: redisUrl, namespace: 'blog:session', key: '_blog_session' }),
    }),
});

let server;
try {
  server = await serve(blog, { port, host: process.env.HOST || '127.0.0.1', handleSignals: true, workers });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
if (server.role !== 'worker') {
  console.log(`Signalbox blog (${environment}) listening on ${server.url}/ - press Ctrl-C to stop`);
  if (server.role === 'primary') console.log(`${workers} workers (WEB_CONCURRENCY), pids ${server.workerPids().join(', ')}`);
  console.log(redisUrl === undefined ? 'Cache in memory, sessions in signed cookies (set REDIS_URL to keep both in Redis)' : `Cache and sessions in Redis at ${redisUrl.replace(/\/\/[^@/]*@/, '//***@')}`);
  if (server.role === 'single' && server.inspector) console.log(`Inspector (development only): ${server.url}${server.inspector.path}`);
  if (environment === 'development' && fromSources && existsSync(join(HERE, 'routes.ts'))) {
    // The server keeps the routes it started with; the types follow the file, so the editor knows new helpers at once.
    // Loaded only here: production never reads the route-types writer.
    const { watchRouteTypes } = await import('../../bin/route-types.ts');
    const watcher = watchRouteTypes(join(HERE, 'routes.ts'), join(HERE, 'routes.helpers.d.ts'), {
      onWrite: () => console.log('routes.helpers.d.ts: rewritten from routes.ts (restart to serve the new routes)'),
    });
    if (server.role === 'single') server.server.once('close', () => watcher.close());
  }
  console.log(admin ? `Admin area: ${server.url}/admin (user ${admin.user})` : 'Admin area disabled: set BLOG_ADMIN_USER and BLOG_ADMIN_PASSWORD');
}
