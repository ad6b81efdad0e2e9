/**
 * What caching buys: the example blog with its caches on against the same blog with them off, head
 * to head (bench/support/head-to-head.ts). Run with `npm run bench:cache`; writes the `cache` section
 * of bench/RESULTS.md.
 *
 * Routes: the post page `GET /posts/1` (HTML, action-cached: its forms get each visitor's own
 * authenticity token) and `GET /posts/1.json` (action-cached), and the post list `GET /posts`
 * (page-cached: answered by the transport from the file before the app runs). Servers:
 * bench/servers/blog-server.ts with `caching=pages` (as the blog ships) and `caching=off`.
 */
import { withoutTokens } from './servers/bodies.ts';
import { compare } from './support/head-to-head.ts';

type Server = 'cached' | 'uncached';

await compare<Server>({
  name: 'cache',
  title: 'Page and action caching: cache hits against the whole request path',
  about: `The example blog, in the production environment and without logging, with its caches on (as it ships: the post list \`caches_page\`, written to a temporary directory and answered by the transport from the file before the app runs; the post page and its JSON \`caches_action\` in the default memory store, answered after the before filters) and off (\`perform_caching: false\`). Every request comes without cookies, as a new visitor: the post page's forms then get a fresh session and authenticity token on both servers (the action cache keeps the token's place and fills in each visitor's own), so both send a Set-Cookie with it. Before measuring, both servers answer every route 200 with the same body (tokens aside), the cached one with \`X-Cache: hit\`.`,
  servers: {
    cached: { label: 'caching on (as the blog ships)', args: ['dist/bench/servers/blog-server.js', 'caching=pages'] },
    uncached: { label: 'caching off (`perform_caching: false`)', args: ['dist/bench/servers/blog-server.js', 'caching=off'] },
  },
  routes: [
    { key: 'show', label: 'GET /posts/1 (HTML post page, `caches_action`)', path: '/posts/1' },
    { key: 'show-json', label: 'GET /posts/1.json (`caches_action`)', path: '/posts/1.json' },
    { key: 'index', label: 'GET /posts (HTML post list, `caches_page`)', path: '/posts' },
  ],
  pairs: [['cached', 'cached'], ['cached', 'uncached']],
  check: (server, _route, res) => {
    const cache = res.headers.get('x-cache');
    const wanted = server === 'cached' ? 'hit' : null;
    return res.status === 200 && cache === wanted ? null : `${res.status}, X-Cache ${String(cache)} (wanted 200, ${String(wanted)})`;
  },
  sameBody: withoutTokens,
});
process.exit(0);
