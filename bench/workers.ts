/**
 * What workers buy: the example blog served by `serve(() => app, { workers: 2 })` against the same
 * app in one process, by the alternating form of the head-to-head method
 * (bench/support/head-to-head.ts): two workers need both of the machine's cores, so neither server
 * is pinned, and the load generator shares the cores with them. Run with `npm run bench:workers`;
 * writes the `workers` section of bench/RESULTS.md.
 *
 * Routes: the post page `GET /posts/1` (HTML) and `GET /posts/1.json`, caching off, so every request
 * runs the whole request path. Servers: bench/servers/blog-server.ts with `workers=1` and `workers=2`.
 */
import { withoutTokens } from './servers/bodies.ts';
import { compare } from './support/head-to-head.ts';

type Server = 'one' | 'two';
const BLOG = 'dist/bench/servers/blog-server.js';

await compare<Server>({
  name: 'workers',
  title: 'Two workers against one process',
  about: 'The example blog, production environment, no logging, caching off (every request runs the whole request path), served by `serve(() => app, { workers: 2 })` and by the same app in one process (`workers: 1`). **The load generator shares the machine\'s 2 cores with the servers**: the two workers and the client compete for the same two cores, so the ratio is what a second worker gives on such a machine, not the doubling a machine with cores to spare would show.',
  servers: {
    one: { label: 'one process (`workers: 1`)', args: [BLOG, 'workers=1'] },
    two: { label: 'two workers (`workers: 2`)', args: [BLOG, 'workers=2'] },
  },
  routes: [
    { key: 'show', label: 'GET /posts/1 (HTML post page)', path: '/posts/1' },
    { key: 'show-json', label: 'GET /posts/1.json', path: '/posts/1.json' },
  ],
  pairs: [['one', 'one'], ['two', 'one']],
  check: (_server, _route, res) => (res.status === 200 && res.headers.get('x-cache') === null ? null : `${res.status}, X-Cache ${String(res.headers.get('x-cache'))} (wanted 200, none)`),
  sameBody: withoutTokens,
  together: false,
});
process.exit(0);
