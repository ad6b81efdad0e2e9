/**
 * `npm start`: serves the example blog on PORT (default 3000) and HOST (default 127.0.0.1).
 * BLOG_ADMIN_USER and BLOG_ADMIN_PASSWORD guard /admin; in development they default to admin/admin.
 * Production also needs SIGNALBOX_SECRET (30+ characters) to sign session cookies.
 * The post list's cached pages go to examples/blog/tmp/pages (git-ignored), emptied at each start.
 * In development, routes.helpers.d.ts (the route helpers' types) is rewritten whenever routes.ts changes.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchRouteTypes } from '../../bin/route-types.ts';
import { serve } from '../../transport/index.ts';
import { createBlogApp } from './app.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
// Git-ignored. A page cache serves only the pages its own process wrote, so an earlier run's files are
// never served; they are removed at start only so the directory does not collect pages no run will read.
const PAGE_CACHE_DIR = join(HERE, 'tmp', 'pages');

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

const production = process.env.NODE_ENV === 'production';
const user = process.env.BLOG_ADMIN_USER || (production ? undefined : 'admin');
const password = process.env.BLOG_ADMIN_PASSWORD || (production ? undefined : 'admin');
const admin = user !== undefined && password !== undefined ? { user, password } : undefined;

let app;
try {
  rmSync(PAGE_CACHE_DIR, { recursive: true, force: true });
  app = createBlogApp({ admin, page_cache_directory: PAGE_CACHE_DIR });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const server = await serve(app, { port, host: process.env.HOST || '127.0.0.1', handleSignals: true });
console.log(`Signalbox blog (${app.config.environment}) listening on ${server.url}/ - press Ctrl-C to stop`);
if (server.inspector) console.log(`Inspector (development only): ${server.url}${server.inspector.path}`);
if (app.config.environment === 'development') {
  // The server keeps the routes it started with; the types follow the file, so the editor knows new helpers at once.
  const watcher = watchRouteTypes(join(HERE, 'routes.ts'), join(HERE, 'routes.helpers.d.ts'), {
    onWrite: () => console.log('routes.helpers.d.ts: rewritten from routes.ts (restart to serve the new routes)'),
  });
  server.server.once('close', () => watcher.close());
}
console.log(admin ? `Admin area: ${server.url}/admin (user ${admin.user})` : 'Admin area disabled: set BLOG_ADMIN_USER and BLOG_ADMIN_PASSWORD');
