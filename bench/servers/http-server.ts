/**
 * One server of the head-to-head and tunnel benches, in its own process:
 *
 *   node dist/bench/servers/http-server.js <mode>[:log][:inspect] [port]
 *
 * mode: `signalbox-compiled` | `signalbox-xstate` (the full pipeline: `serve` → `app.handle` →
 * parse → negotiate → forgery check → recognize over the ~670-route Rails table → dispatch →
 * respond_to → render/ETag → respond with X-Runtime), `node` (bare node:http, a tiny if/else) or
 * `fastify` (one route per path). All listen on 127.0.0.1 only and print `LISTENING <port>` once
 * ready. `:log` logs one pino line per request to the file SIGNALBOX_BENCH_LOG names (default
 * bench/.tmp/<mode>-<pid>.log): Signalbox its own "request completed" line, Fastify its own
 * completion line (its `onResponse` log, with its "incoming request" line off so both write one line
 * a request), node:http a line of the same fields. `:inspect` (Signalbox only) serves with
 * `inspect: true`: the inspector's page at /__inspect and its trace channel at /__inspect/trace,
 * tracing only while a viewer is connected; without it, `inspect: false`. They exit on
 * SIGTERM/SIGINT and when stdin closes (the parent went away).
 */
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { serve } from '../../transport/index.ts';
import { HTML_TYPE, JSON_TYPE, PATHS, POST, findPost, page } from './bodies.ts';
import { benchApp } from './signalbox-app.ts';

const BENCH_TMP = fileURLToPath(new URL('../.tmp', import.meta.url));

const MODES = ['signalbox-compiled', 'signalbox-xstate', 'node', 'fastify'] as const;
type Mode = (typeof MODES)[number];

const [modeName = '', ...flags] = (process.argv[2] ?? '').split(':');
const mode = modeName as Mode;
const logging = flags.includes('log');
const inspect = flags.includes('inspect');
const port = Number(process.argv[3] ?? 0);
const HOST = '127.0.0.1';
if (!MODES.includes(mode) || flags.some((f) => f !== 'log' && f !== 'inspect') || (inspect && !mode.startsWith('signalbox'))) {
  console.error(`usage: http-server.ts <${MODES.join('|')}>[:log][:inspect] [port] (:inspect for Signalbox only)`);
  process.exit(2);
}
const logFile = process.env.SIGNALBOX_BENCH_LOG ?? join(BENCH_TMP, `${modeName}-${process.pid}.log`);
/** pino to a file, as both sides log when logging is on (asynchronous writes, pino's own default for files is sync). */
const logger = () => {
  mkdirSync(dirname(logFile), { recursive: true });
  return pino({ level: 'info' }, pino.destination({ dest: logFile, sync: false }));
};

let close: () => Promise<void>;

if (mode === 'signalbox-compiled' || mode === 'signalbox-xstate') {
  const app = benchApp(mode === 'signalbox-compiled' ? 'compiled' : 'xstate', logging ? logger() : false);
  const running = await serve(app, { port, host: HOST, inspect });
  close = running.close;
  ready(running.port);
} else if (mode === 'node') {
  const log = logging ? logger() : null;
  const server = createServer((req, res) => {
    if (log !== null) {
      const started = performance.now();
      res.once('finish', () => log.info({ method: req.method, path: req.url, status: res.statusCode, ms: Math.round((performance.now() - started) * 100) / 100 }, 'request completed'));
    }
    // setHeader + end (not writeHead) so that node:http adds Content-Length instead of chunking.
    if (req.url === PATHS.json) {
      res.setHeader('Content-Type', JSON_TYPE);
      res.end(JSON.stringify(findPost(POST.id)));
    } else if (req.url === PATHS.html) {
      res.setHeader('Content-Type', HTML_TYPE);
      res.end(page(findPost(POST.id)!));
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not Found');
    }
  });
  await new Promise<void>((done) => server.listen(port, HOST, done));
  close = () => new Promise((done) => { server.close(() => done()); server.closeAllConnections(); });
  ready((server.address() as { port: number }).port);
} else {
  const { default: Fastify } = await import('fastify');
  type FastifyBaseLogger = import('fastify').FastifyBaseLogger;
  // Fastify logs two lines a request by default; one here, its own completion line, as Signalbox writes one.
  const app = Fastify(logging ? { loggerInstance: logger() as FastifyBaseLogger, disableRequestLogging: true } : { logger: false });
  if (logging) app.addHook('onResponse', (request, reply, done) => { request.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed'); done(); });
  // Fastify serialises the object with JSON.stringify (no schema), as the others do.
  app.get(PATHS.json, (_req, reply) => { reply.header('Content-Type', JSON_TYPE).send(findPost(POST.id)); });
  app.get(PATHS.html, (_req, reply) => { reply.header('Content-Type', HTML_TYPE).send(page(findPost(POST.id)!)); });
  await app.listen({ port, host: HOST });
  close = () => app.close();
  ready((app.server.address() as { port: number }).port);
}

function ready(p: number): void {
  process.stdout.write(`LISTENING ${p}\n`);
}

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  // Bounded: exit even if a connection will not close.
  setTimeout(() => process.exit(0), 2000).unref();
  close().then(() => process.exit(0), () => process.exit(0));
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
