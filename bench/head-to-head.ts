/**
 * Signalbox against Fastify and bare node:http on the pages users run: a real view and JSON, each
 * with logging off and on. Run with `npm run bench:h2h`; writes the `h2h` section of
 * bench/RESULTS.md, by the head-to-head method of bench/support/head-to-head.ts.
 *
 * Every server (bench/servers/http-server.ts) must answer each route 200 with the expected
 * Content-Type and a body byte-identical to the one in bench/servers/bodies.ts (for HTML, the page
 * Signalbox renders from its templates and the peers from a template literal) before it is measured.
 * Servers: the modes of http-server.ts (`signalbox-compiled`, `signalbox-xstate`, `fastify`, `node`,
 * each also with `:log`), for PAIRS.
 */
import { ROUTES } from './servers/bodies.ts';
import { compare, type ServerSpec } from './support/head-to-head.ts';
import { version } from './support/provenance.ts';

const NAMES = {
  'signalbox-compiled': 'Signalbox, compiled engine (default)', 'signalbox-xstate': 'Signalbox, XState engine', fastify: 'Fastify', node: 'bare node:http',
} as const;
type Mode = keyof typeof NAMES | `${keyof typeof NAMES}:log`;

/** A mode's server: `:log` means one pino line per request written to a file, on every side alike. */
const server = (mode: Mode): ServerSpec => {
  const [name, log] = mode.split(':') as [keyof typeof NAMES, string | undefined];
  return { label: `${NAMES[name]}, ${log ? 'logging each request (pino to a file)' : 'no logging'}`, args: ['dist/bench/servers/http-server.js', mode, '0'] };
};
const MODES = (Object.keys(NAMES) as (keyof typeof NAMES)[]).flatMap((name): Mode[] => [name, `${name}:log`]);
const BY_PATH = new Map(ROUTES.map((r) => [r.path, r]));

await compare<Mode>({
  name: 'h2h',
  title: 'Head to head: Signalbox, Fastify and bare node:http on a real page and JSON',
  about: `Rows: JSON (\`GET /posts/1\`, the post serialised per request) and HTML (\`GET /posts/1.html\`: Signalbox renders \`posts/show.html\` in \`layouts/application.html\` with two partials, route helpers and escaping; the peers render the same page from a template literal with the same escaping; bodies checked byte-identical before measuring), each without logging and with one pino line per request written to a file on both sides. Signalbox runs its whole pipeline (the ~670-route table of \`bench/fixtures/rails-table.ts\`, \`PostsController#show\` with \`respond_to\`, MD5 ETag, X-Runtime) in the production environment, from the benches' build (\`bench/servers/http-server.ts\`).`,
  servers: Object.fromEntries(MODES.map((m) => [m, server(m)])) as Record<Mode, ServerSpec>,
  routes: ROUTES,
  // The control first; then Fastify without logging and with it, and bare node:http.
  pairs: [['signalbox-compiled', 'signalbox-compiled'], ['signalbox-compiled', 'fastify'], ['signalbox-compiled:log', 'fastify:log'], ['signalbox-compiled', 'node']],
  check: (_server, route, res, body) => {
    const want = BY_PATH.get(route.path)!;
    return res.status === 200 && res.headers.get('content-type') === want.type && body === want.body ? null
      : `${res.status} ${res.headers.get('content-type')} ${JSON.stringify(body.slice(0, 120))} is not the expected 200 ${want.type} body`;
  },
  versions: [`fastify ${version('fastify')}`, `pino ${version('pino')}`],
  notes: 'With half a core each, a server reads more requests per turn of its event loop than it would alone, which suits Signalbox\'s batched writes a little: read these as the cost of a request.',
});
process.exit(0);
