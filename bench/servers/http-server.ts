/**
 * One server of `bench/http.ts`, in its own process:
 *
 *   node --import tsx bench/servers/http-server.ts <mode> [port]
 *
 * mode: `signalbox-compiled` | `signalbox-xstate` (the full pipeline: `serve` → `app.handle` →
 * parse → negotiate → forgery check → recognize over the ~670-route Rails table → dispatch →
 * respond_to → render/ETag → respond with X-Runtime), `node` (bare node:http, a tiny if/else) or
 * `fastify` (one route per path), or `signalbox-transport` (diagnostic: the HTTP transport around a
 * stub app.handle that answers at once with the same response). All listen on 127.0.0.1 only and print `LISTENING <port>` once
 * ready. A mode with `:log` (`signalbox-compiled:log`, `fastify:log`, `node:log`) logs one pino line per
 * request to the file SIGNALBOX_BENCH_LOG names (default bench/.tmp/<mode>-<pid>.log): Signalbox its own
 * "request completed" line, Fastify its own completion line (its `onResponse` log, with its
 * "incoming request" line off so both write one line a request), node:http a line of the same fields. They exit on SIGTERM/SIGINT and when stdin closes (the
 * parent went away).
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { RequestMessage, ResponseMessage } from '../../core/index.ts';
import type { App } from '../../machines/index.ts';
import { serve } from '../../transport/index.ts';
import { HTML_TYPE, JSON_TYPE, PATHS, POST, page } from './bodies.ts';
import { benchApp } from './signalbox-app.ts';

const BENCH_TMP = fileURLToPath(new URL('../.tmp', import.meta.url));

const MODES = ['signalbox-compiled', 'signalbox-xstate', 'node', 'fastify', 'signalbox-transport'] as const;
type Mode = (typeof MODES)[number];

const [modeName = '', logSuffix] = (process.argv[2] ?? '').split(':');
const mode = modeName as Mode;
const logging = logSuffix === 'log';
if (logSuffix !== undefined && !logging) {
  console.error(`a mode takes :log or nothing after it, not :${logSuffix}`);
  process.exit(2);
}
const logFile = process.env.SIGNALBOX_BENCH_LOG ?? join(BENCH_TMP, `${modeName}-${process.pid}.log`);
/** pino to a file, as both sides log when logging is on (asynchronous writes, pino's own default for files is sync). */
const logger = () => {
  mkdirSync(dirname(logFile), { recursive: true });
  return pino({ level: 'info' }, pino.destination({ dest: logFile, sync: false }));
};
const port = Number(process.argv[3] ?? 0);
const HOST = '127.0.0.1';
if (!MODES.includes(mode)) {
  console.error(`usage: http-server.ts <${MODES.join('|')}> [port]`);
  process.exit(2);
}

let close: () => Promise<void>;

if (mode === 'signalbox-compiled' || mode === 'signalbox-xstate') {
  const app = benchApp(mode === 'signalbox-compiled' ? 'compiled' : 'xstate', logging ? logger() : false);
  const running = await serve(app, { port, host: HOST });
  close = running.close;
  ready(running.port);
} else if (mode === 'signalbox-transport') {
  // Diagnostic: transport/http.ts around a stub app whose handle() answers at once with what the
  // real app sends (same headers, the JSON serialised per request), so the transport's share shows.
  const stub = {
    log: { error() {}, info() {} },
    publicDir: null,
    handle(message: RequestMessage): Promise<ResponseMessage> {
      const json = !message.url.endsWith('.html');
      const body = json ? JSON.stringify(POST) : page(POST);
      return Promise.resolve({
        status: 200,
        headers: {
          ETag: `"${createHash('md5').update(body).digest('hex')}"`,
          'Cache-Control': 'private, max-age=0, must-revalidate',
          'Content-Type': json ? JSON_TYPE : HTML_TYPE,
          'X-Runtime': '0.00004',
          'Content-Length': String(Buffer.byteLength(body)),
        },
        body,
      });
    },
  } as unknown as App;
  const running = await serve(stub, { port, host: HOST });
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
      res.end(JSON.stringify(POST));
    } else if (req.url === PATHS.html) {
      res.setHeader('Content-Type', HTML_TYPE);
      res.end(page(POST));
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
  app.get(PATHS.json, (_req, reply) => { reply.header('Content-Type', JSON_TYPE).send(POST); });
  app.get(PATHS.html, (_req, reply) => { reply.header('Content-Type', HTML_TYPE).send(page(POST)); });
  await app.listen({ port, host: HOST });
  close = () => app.close();
  ready((app.server.address() as { port: number }).port);
}

function ready(p: number): void {
  process.stdout.write(`LISTENING ${p}\n`);
}

// Profiling on demand (bench/support/profile.ts), with SIGNALBOX_BENCH_PROFILE=<prefix>. Each SIGUSR2
// moves one step: start V8's CPU profiler → write <prefix>.cpuprofile and start the sampling heap
// profiler (collected objects included) → write <prefix>.heapprofile. Each step prints its name.
const profilePrefix = process.env.SIGNALBOX_BENCH_PROFILE;
if (profilePrefix) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  let step = 0;
  let busy = Promise.resolve();
  process.on('SIGUSR2', () => {
    busy = busy.then(async () => {
      if (step === 0) {
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 250 });
        await session.post('Profiler.start');
        process.stdout.write('CPU-PROFILING\n');
      } else if (step === 1) {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(`${profilePrefix}.cpuprofile`, JSON.stringify(profile));
        await session.post('HeapProfiler.enable');
        await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
        process.stdout.write('HEAP-PROFILING\n');
      } else if (step === 2) {
        const { profile } = await session.post('HeapProfiler.stopSampling');
        writeFileSync(`${profilePrefix}.heapprofile`, JSON.stringify(profile));
        process.stdout.write('PROFILED\n');
      }
      step++;
    });
  });
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
