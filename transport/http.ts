/**
 * The HTTP transport: `node:http` in, `app.handle` through, bytes out. It
 * enforces what only a transport can (body size while streaming, header
 * counts, slow clients), streams a file from disk when an answer names one
 * (a large public file), and shuts down gracefully. It never routes, and
 * never answers a request for a resource itself: public files and cached
 * pages are the app's answers too (its own answers are refusals, and
 * `OPTIONS *`, which asks about the server). The WebSocket request tunnel
 * (`tunnel.ts`) and the inspector (`inspect/`) share its port; upgrade
 * requests reach them by path (`upgrade.ts`).
 *
 * `serve(app, { workers: N })` runs N processes sharing the port
 * (node:cluster): see workers.ts for the primary and worker.ts for a worker.
 * Pass the app as a function that builds it (`serve(() => createApp(...),
 * { workers })`), so only the workers build it; the primary never calls it.
 *
 * @example const server = await serve(app, { port: 3000 }); ... await server.close()
 * @example await serve(() => createBlogApp(), { port: 3000, workers: webConcurrency(), handleSignals: true })
 */
import cluster from 'node:cluster';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer, METHODS } from './node-http.ts';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import type { App } from '../machines/app.ts';
import type { RequestMessage, ResponseMessage } from '../core/http/message.ts';
import { ACCEPTED_METHODS } from '../core/http/request.ts';
import { ArgumentError, BadRequest, PayloadTooLarge } from '../core/errors.ts';
import { sendFile } from './send-file.ts';
import { createTunnel, type TunnelOptions, type TunnelServer } from './tunnel.ts';
import { encryptedSocket, routeUpgrades, type UpgradeHandler } from './upgrade.ts';
import { WriteBatch } from './write-batch.ts';
import { answerWithoutUpgrade } from './plain-upgrade.ts';
import { checkOptionNames, givenOptions, shownValue } from '../core/options.ts';
import { LONGEST_TIMER_MS } from '../core/util.ts';
import { Connections } from './connections.ts';
import { FastLane } from './fast-lane.ts';
import { MULTIPART } from './request-head.ts';
import { headRefusal } from './head-checks.ts';
import { createInspector, inspectSettings, type InspectOptions, type Inspector } from './inspect/index.ts';
import { servePrimary, type RunningCluster } from './workers.ts';
import { guardProcess } from './process-faults.ts';
import { joinCluster, tellPrimary } from './worker.ts';
import { handleStopSignals } from './stop-signals.ts';

export interface ServeOptions {
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  /** Largest request body accepted, in bytes (413 beyond). Default 10 MB. */
  readonly maxBodyBytes?: number | undefined;
  /** Most header lines accepted (431 beyond). Default 100. */
  readonly maxHeaders?: number | undefined;
  /** Largest header block, in bytes (431 beyond). Default 16 KB. */
  readonly maxHeaderBytes?: number | undefined;
  /** Time allowed to receive the headers, and the whole request, in ms. */
  readonly headersTimeoutMs?: number | undefined;
  readonly requestTimeoutMs?: number | undefined;
  readonly keepAliveTimeoutMs?: number | undefined;
  /** Stop gracefully on SIGTERM/SIGINT (default false; `npm start` turns it on). */
  readonly handleSignals?: boolean | undefined;
  /** Serve files under the app's public directory before routing (default true). */
  readonly staticFiles?: boolean | undefined;
  /** The WebSocket request tunnel on the same port (default on, at `/_tunnel`); `false` for none. */
  readonly tunnel?: false | TunnelOptions | undefined;
  /**
   * The inspector page at `/__inspect` (`{ path }` to move it) and its trace channel. Default: on in the
   * development environment only; `true` turns it on anywhere, `false` off. When off, its path is an ordinary request.
   */
  readonly inspect?: boolean | InspectOptions | undefined;
  /**
   * Hold answers until the event loop has read every request that is ready, then write them back to back
   * (at most 64 at a time): more requests per second and a lower p99 under load (default true; bench/RESULTS.md).
   */
  readonly batchWrites?: boolean | undefined;
  /**
   * Requests of one connection that run at once; a client that pipelines more waits, and its socket is
   * not read until they have started (default 16).
   */
  readonly maxPipelined?: number | undefined;
  /**
   * Read and answer simple requests (a whole head, no upgrade, no body or a small one by Content-Length
   * already received) on the socket itself rather than through node:http's request and response objects:
   * the same answers for less CPU (default true). A
   * connection's first request that is not simple hands it to node:http for good (transport/fast-lane.ts).
   */
  readonly fastLane?: boolean | undefined;
  /**
   * How long `close()` (and a SIGTERM/SIGINT with `handleSignals`) lets requests already received finish,
   * in ms, before cutting the connections left (default 10 s, or `SIGNALBOX_SHUTDOWN_TIMEOUT` seconds).
   */
  readonly shutdownTimeoutMs?: number | undefined;
}

/** `serve()`'s options for a cluster: `workers` above 1 forks that many worker processes. */
export interface ClusterOptions extends ServeOptions {
  /**
   * Processes serving the app (1: this one). N forks N workers with node:cluster, sharing the port; a
   * worker that dies is replaced, and closing (or SIGTERM/SIGINT with `handleSignals`) drains them all.
   * Give the app as a function that builds it: only the workers call it.
   */
  readonly workers: number;
}

/** An app, or a function that builds one (what `serve(..., { workers })` wants: only workers build it). */
export type AppSource = App | (() => App | Promise<App>);

export interface RunningServer {
  /** `single` for a process serving on its own, `worker` for one of `serve(app, { workers })`'s workers. */
  readonly role: 'single' | 'worker';
  readonly server: Server;
  readonly port: number;
  readonly host: string;
  readonly url: string;
  /** The request tunnel, or null when `serve({ tunnel: false })`. */
  readonly tunnel: TunnelServer | null;
  /** The inspector, or null when it is off. */
  readonly inspector: Inspector | null;
  /**
   * Stops accepting and drains: requests already received are answered (the last on each connection with
   * `Connection: close`), idle connections close, tunnel sockets close with 1001 once their requests are
   * answered, half-sent requests get 408 at their timeouts; at `shutdownTimeoutMs` whatever is left is cut.
   */
  close(): Promise<void>;
}

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' };

const SERVE_OPTIONS: ReadonlySet<string> = new Set<keyof ClusterOptions>([
  'port', 'host', 'maxBodyBytes', 'maxHeaders', 'maxHeaderBytes', 'headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs',
  'handleSignals', 'staticFiles', 'tunnel', 'inspect', 'batchWrites', 'maxPipelined', 'fastLane', 'shutdownTimeoutMs', 'workers',
]);

/** `SIGNALBOX_SHUTDOWN_TIMEOUT` is in seconds, as process managers state theirs. */
function shutdownTimeout(options: ServeOptions): number {
  const env = process.env.SIGNALBOX_SHUTDOWN_TIMEOUT;
  const ms = options.shutdownTimeoutMs ?? (env === undefined || env === '' ? 10_000 : Number(env) * 1000);
  if (!(ms >= 0) || !Number.isFinite(ms)) {
    throw new ArgumentError(`The shutdown timeout must be a number of ${options.shutdownTimeoutMs === undefined ? 'seconds (SIGNALBOX_SHUTDOWN_TIMEOUT)' : 'ms'}, not ${JSON.stringify(options.shutdownTimeoutMs ?? env)}`);
  }
  // Node fires a longer timer after 1 ms: a shutdown meant to wait weeks would cut every request at once
  // (and a cluster's primary, which waits a second more, would kill its workers).
  if (ms + 1_000 > LONGEST_TIMER_MS) {
    throw new ArgumentError(`The shutdown timeout is at most ${options.shutdownTimeoutMs === undefined ? `${(LONGEST_TIMER_MS - 1_000) / 1000} seconds (SIGNALBOX_SHUTDOWN_TIMEOUT)` : `${LONGEST_TIMER_MS - 1_000} ms`}, the longest timer Node keeps, not ${JSON.stringify(options.shutdownTimeoutMs ?? env)}`);
  }
  return ms;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new ArgumentError(`serve() option ${name} must be a positive integer, not ${String(value)}`);
  return value;
}

/**
 * A TCP port: a whole number from 0 (any free port) to 65535, or those digits in a string (`PORT` read from
 * the environment). Node would take any other string for the path of a Unix socket to create.
 */
function portOf(value: unknown): number {
  const port = typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : value;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ArgumentError(`serve() option port must be a whole number from 0 to 65535, not ${shownValue(value)}`);
  }
  return port;
}

/**
 * The address to listen on: a host name or address, 127.0.0.1 when none is given. Node would take a number
 * for the listen backlog, and an empty string for no address at all: either way the server would listen on
 * every interface, which only an explicit '0.0.0.0' or '::' should do.
 */
function hostOf(value: unknown): string {
  if (value === undefined || value === null) return '127.0.0.1';
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ArgumentError(`serve() option host must be a host name or address ('0.0.0.0' or '::' for every interface), not ${shownValue(value)}`);
  }
  return value;
}

/** A size limit: a whole number of bytes or headers, 0 or more (0 refuses every body). Anything else would leave a cost unbounded. */
/**
 * A timeout in ms: a whole number from 0 (none) to the longest timer Node keeps, which it otherwise
 * truncates with a warning (a socket's) or fires after 1 ms (any other timer).
 */
function timeoutMs(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > LONGEST_TIMER_MS) {
    throw new ArgumentError(`serve() option ${name} must be a whole number of ms from 0 (none) to ${LONGEST_TIMER_MS}, the longest timer Node keeps, not ${String(value)}`);
  }
  return value;
}

function limit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new ArgumentError(`serve() option ${name} must be a whole number, 0 or more, not ${String(value)}`);
  return value;
}

/**
 * Serves an app over HTTP (and the tunnel, and the inspector) on one port: in this process, or with
 * `workers` above 1, in that many worker processes, this one supervising them.
 */
export function serve(source: AppSource, options: ClusterOptions): Promise<RunningServer | RunningCluster>;
export function serve(source: AppSource, options?: ServeOptions): Promise<RunningServer>;
export function serve(source: AppSource, options: ServeOptions & { readonly workers?: number } = {}): Promise<RunningServer | RunningCluster> {
  let workers: number;
  let shutdownMs: number;
  let host: string;
  try {
    checkOptionNames('serve()', options, SERVE_OPTIONS);
    portOf(options.port ?? 3000);
    host = hostOf(options.host);
    shutdownMs = shutdownTimeout(options);
    workers = positiveInteger('workers', options.workers ?? 1);
  } catch (error) {
    return Promise.reject(error);
  }
  if (workers > 1 && cluster.isPrimary) {
    return servePrimary({ count: workers, host, shutdownMs, handleSignals: options.handleSignals === true });
  }
  const role = workers > 1 ? 'worker' : 'single';
  const serving = Promise.resolve().then(() => (typeof source === 'function' ? source() : source)).then(async (app) => {
    if (app === null || typeof app !== 'object' || typeof app.handle !== 'function') throw new ArgumentError('serve() needs an app made by createApp, or a function that returns one');
    const running = await serveOne(app, options, role);
    if (role === 'worker') joinCluster(app, running.close);
    return running;
  });
  return role === 'worker' ? serving.catch(tellPrimary) : serving;
}

function serveOne(app: App, options: ServeOptions, role: RunningServer['role']): Promise<RunningServer> {
  let shutdownMs: number;
  let maxPipelined: number;
  let maxBody: number;
  let maxHeaders: number;
  let maxHeaderBytes: number;
  let requestTimeout: number;
  let headersTimeout: number;
  let keepAliveTimeout: number;
  let port: number;
  let host: string;
  try {
    port = portOf(options.port ?? 3000);
    host = hostOf(options.host);
    shutdownMs = shutdownTimeout(options);
    maxPipelined = positiveInteger('maxPipelined', options.maxPipelined ?? 16);
    maxBody = limit('maxBodyBytes', options.maxBodyBytes ?? 10 * 1024 * 1024);
    maxHeaders = positiveInteger('maxHeaders', options.maxHeaders ?? 100);
    maxHeaderBytes = positiveInteger('maxHeaderBytes', options.maxHeaderBytes ?? 16 * 1024);
    requestTimeout = timeoutMs('requestTimeoutMs', options.requestTimeoutMs ?? 30_000);
    // Unless given, the head's time is the default's or the whole request's, whichever is shorter.
    headersTimeout = timeoutMs('headersTimeoutMs', options.headersTimeoutMs ?? (requestTimeout > 0 ? Math.min(10_000, requestTimeout) : 10_000));
    keepAliveTimeout = timeoutMs('keepAliveTimeoutMs', options.keepAliveTimeoutMs ?? 5_000);
    // The whole request includes its head: Node refuses the reverse, with a message that names neither option.
    if (requestTimeout > 0 && headersTimeout > requestTimeout) {
      throw new ArgumentError(`serve() option headersTimeoutMs (${headersTimeout}) must not be longer than requestTimeoutMs (${requestTimeout}), the time allowed for the whole request`);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  const sendNow = (res: ServerResponse, response: ResponseMessage): void => {
    try {
      write(res, response, connections.closesAfter(res));
    } catch (error) {
      transportFailed(app, res, error);
    }
  };
  const batch = options.batchWrites === false ? null : new WriteBatch(sendNow);
  const send = batch === null ? sendNow : (res: ServerResponse, response: ResponseMessage) => batch.add(res, response);
  const handling: Handling = {
    maxBody, maxHeaders, staticFiles: options.staticFiles !== false, send, failed: (res, error) => transportFailed(app, res, error),
  };
  // `inspector` is set below, before the server listens.
  const onRequest = (req: IncomingMessage, res: ServerResponse, body: Readable = req, invite = false): void => {
    if (inspector !== null && inspector.handleRequest(req, res)) return;
    connections.received(req, res, () => {
      try {
        handleRequest(app, req, res, handling, body, invite);
      } catch (error) {
        transportFailed(app, res, error);
      }
    });
  };
  const server = createServer({
    maxHeaderSize: maxHeaderBytes,
    requestTimeout,
    headersTimeout,
    // How often Node looks for connections past those timeouts (its default, 30 s, lets a slow client hang on three times longer).
    connectionsCheckingInterval: 1_000,
  }, onRequest);
  server.keepAliveTimeout = keepAliveTimeout;
  // `Expect: 100-continue`: Node would write 100 before anyone looked at the head, inviting a body the head
  // already refuses (a Content-Length over maxBodyBytes). The 100 goes out only once the head is accepted.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, req, true));
  // A client may end its side once its request is sent (HTTP/1.0 tools, `nc`, some health checks). node:http's
  // default takes that end for an abort of every request not yet answered, so an action still running or an upload
  // still being parsed lost its answer (the fast lane answers such clients). Node's own switch for it: the answers
  // owed are sent, then the connection closes after the last one.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  const connections = new Connections(maxPipelined);
  const nodeReads = takeConnectionListener(server);
  const toNode = (socket: Socket): void => {
    nodeReads.call(server, socket);
    // After node:http's own listeners: on 'resume', a hold of ours must come after Node restarts reading.
    connections.open(socket);
  };
  const lane = options.fastLane === false ? null : new FastLane(app, {
    maxHeaderBytes,
    maxBodyBytes: maxBody,
    maxHeaders,
    maxPipelined,
    keepAliveTimeoutMs: server.keepAliveTimeout,
    staticFiles: handling.staticFiles,
    batchWrites: options.batchWrites !== false,
    // `inspector` is set below, before the server listens.
    elsewhere: (path) => inspector !== null && inspector.owns(path),
    handOver: toNode,
  });
  server.on('connection', lane === null ? toNode : (socket: Socket) => lane.adopt(socket));
  // CONNECT asks for a tunnel to another host, which this server never opens; without a listener Node drops
  // the connection unanswered. It is a method the server does not implement: 501, then the socket closes.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    app.log.info({ method: req.method, remote: req.socket.remoteAddress ?? null, transport: 'http' }, 'CONNECT refused');
    socket.on('error', () => socket.destroy());
    socket.end(`HTTP/1.1 501 Not Implemented\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  // Node answers malformed requests itself; make sure the answer is a clean 4xx and the socket goes away.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // Malformed or slow requests never reach the app, so this line is their only record.
    app.log.info({ code: error.code ?? null, remote: (socket as Socket).remoteAddress ?? null, transport: 'http' }, 'request refused by the HTTP parser');
    // Inside an answer already on its way, a status line would corrupt it: only closing is left.
    if (!socket.writable || connections.answering(socket as Socket)) return socket.destroy();
    socket.end(`HTTP/1.1 ${refusalStatus(error)}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });

  let tunnel: TunnelServer | null;
  let inspector: Inspector | null;
  try {
    tunnel = options.tunnel === false ? null : createTunnel(app, { maxHeaders, staticFiles: options.staticFiles !== false, ...givenOptions(options.tunnel) });
    const inspect = inspectSettings(app, options.inspect);
    inspector = inspect === null ? null : createInspector(app, inspect);
    if (tunnel !== null && inspector !== null && tunnel.path === inspector.tracePath) throw new ArgumentError(`The tunnel and the inspector's trace channel cannot share the path ${tunnel.path}`);
  } catch (error) {
    return Promise.reject(error);
  }
  // No WebSocket endpoint, no 'upgrade' listener: Node then hands upgrade requests to the app like any other.
  const upgrades = new Map<string, UpgradeHandler>();
  if (tunnel !== null) upgrades.set(tunnel.path, tunnel.handleUpgrade);
  if (inspector !== null) upgrades.set(inspector.tracePath, inspector.handleUpgrade);
  // Other upgrades (h2c from `curl --http2`, say) are plain requests to the app, as without the listener.
  const plain: UpgradeHandler = (req, socket, head) => answerWithoutUpgrade(req, socket, head, onRequest, requestTimeout);
  if (upgrades.size > 0) routeUpgrades(server, app, upgrades, plain);

  let closing: Promise<void> | null = null;
  /** Takes the server out of the process's fault handling (transport/process-faults.ts) once it has closed. */
  let unguard = (): void => {};
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolveClose) => {
      signals.off();
      const started = performance.now();
      // Not `server.close()`: that also closes idle connections at once (racing a client's next request into
      // a reset) and stops Node enforcing the header and request timeouts, leaving half-sent requests to
      // hang the drain. The net server's close only stops accepting; the drain does the rest.
      const drained = new Promise<void>((resolveDrained) => net.Server.prototype.close.call(server, () => resolveDrained()));
      connections.drain();
      lane?.drain();
      const tunnelled = tunnel?.close(1001);
      const deadline = setTimeout(() => {
        const cut = connections.cut() + (lane?.cut() ?? 0) + (tunnel?.terminate() ?? 0);
        app.log.warn({ requestsCut: cut, timeoutMs: shutdownMs }, `shutdown timeout: cut ${cut} requests`);
      }, shutdownMs);
      void Promise.all([drained, tunnelled, inspector?.close(1001)]).then(() => {
        clearTimeout(deadline);
        // Now with no connection left: stops Node's timeout checks (and the lane's) for good.
        server.close();
        lane?.stop();
        app.log.info({ ms: Math.round(performance.now() - started) }, 'server closed');
        unguard();
        resolveClose();
      });
    });
    return closing;
  };
  const signals = handleStopSignals(options.handleSignals === true, app.log, close, (signal) => {
    app.log.warn({ signal, requestsCut: connections.unanswered + (lane?.unanswered ?? 0) }, 'second signal: exiting now');
  });

  return new Promise((resolveServe, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      if (closing === null) unguard = guardProcess({ log: app.log, close });
      resolveServe({ role, server, port: address.port, host: address.address, url: `http://${host}:${address.port}`, tunnel, inspector, close });
    });
  });
}

/**
 * node:http's own reader of new connections, taken off the server so that the transport decides who reads
 * each one (the fast lane first, node:http from the first request the lane does not take).
 */
function takeConnectionListener(server: Server): (this: Server, socket: Socket) => void {
  const listeners = server.listeners('connection');
  if (listeners.length !== 1) throw new Error(`Expected node:http's one connection listener, found ${listeners.length}`);
  const listener = listeners[0] as (this: Server, socket: Socket) => void;
  server.removeListener('connection', listener);
  return listener;
}

/**
 * The status line for what Node's parser refused. 501 only for a request line whose method the parser
 * does not know: the same parser error also comes from bytes left after a request's body that are no
 * request at all (a chunk extension that smuggles a second "request", say), and that is a framing error.
 */
function refusalStatus(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): string {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return '431 Request Header Fields Too Large';
    // As Node's own answer to the chunk-extension flood of CVE-2024-22019.
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return '413 Payload Too Large';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return '408 Request Timeout';
    case 'HPE_INVALID_METHOD':
      return unknownMethodLine(error.rawPacket) ? '501 Not Implemented' : '400 Bad Request';
    default:
      return '400 Bad Request';
  }
}

/** Whether `packet` opens with `TOKEN SP target SP HTTP/d.d`, TOKEN being no method the parser knows. */
function unknownMethodLine(packet: Buffer | undefined): boolean {
  if (packet === undefined) return false;
  // Bounded: a request line longer than this is refused as a bad request anyway.
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) [!-~]{1,8192} HTTP\/\d\.\d\r?\n/.exec(packet.toString('latin1', 0, 8300));
  return line !== null && !METHODS.includes(line[1]);
}

interface Handling {
  readonly maxBody: number;
  readonly maxHeaders: number;
  /** Whether the app may answer from its public directory (`staticFiles`), passed on in each message. */
  readonly staticFiles: boolean;
  /** Writes an answer from the app (its body may be a file on disk), now or in the next batch; never throws. */
  readonly send: (res: ServerResponse, response: ResponseMessage) => void;
  /** Answers 500 (or drops the connection) when something in the transport itself failed. */
  readonly failed: (res: ServerResponse, error: unknown) => void;
}

/**
 * Starts answering one request whose body comes from `body` (the request itself, but for an upgrade
 * request answered plainly); anything that fails later reaches `handling.failed`, never a rejected promise.
 */
function handleRequest(app: App, req: IncomingMessage, res: ServerResponse, handling: Handling, body: Readable, invite = false): void {
  const { maxBody, maxHeaders, send } = handling;
  // Node's parser takes `GET /` with no version as HTTP/0.9, and any HTTP/d.d; this server speaks HTTP/1.x.
  if (req.httpVersionMajor !== 1) {
    const [status, message] = req.httpVersionMajor === 0 ? BAD_VERSION : OTHER_VERSION;
    return refuse(res, status, message);
  }
  const refusal = headRefusal(req.rawHeaders, maxHeaders);
  if (refusal !== null) return refuse(res, refusal[0], refusal[1]);
  // The asterisk form names the server itself, not a resource (RFC 9112 §3.2.4): no route, no forgery check.
  if (req.url === '*') {
    if (req.method !== 'OPTIONS') return refuse(res, 400, 'Only OPTIONS may name the server as "*"');
    return send(res, { status: 200, headers: { Allow: SERVER_METHODS, 'Content-Length': '0' }, body: '' });
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBody) return refuseBody(body, res);
  // A request that declares no body has none to wait for (Node discards anything unread once the response ends).
  if (declared === 0 && req.headers['transfer-encoding'] === undefined) return answer(app, req, res, EMPTY, handling);
  // The head is accepted: a client waiting on `Expect: 100-continue` may send its body now.
  if (invite) res.writeContinue();
  // Uploads are parsed as they arrive (large files go to temporary files), never held whole here.
  if (MULTIPART.test(req.headers['content-type'] ?? '')) return answer(app, req, res, streamedBody(body, maxBody, res), handling);
  readBody(body, maxBody).then((bytes) => (bytes === null ? refuseBody(body, res) : answer(app, req, res, bytes, handling))).then(undefined, (error: unknown) => handling.failed(res, error));
}

/**
 * A body's chunks as they arrive, for the app to read once. Past `max` bytes it fails with a 413
 * (the connection then closes after the answer, the rest of the body unread); a client that goes
 * away mid-body fails it too.
 */
async function* streamedBody(body: Readable, max: number, res: ServerResponse): AsyncIterable<Uint8Array> {
  let size = 0;
  let aborted = false;
  const onAborted = (): void => {
    aborted = true;
  };
  body.once('aborted', onAborted);
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > max) {
        res.shouldKeepAlive = false;
        throw new PayloadTooLarge('maxBodyBytes', max, 'Request body too large');
      }
      yield chunk as Buffer;
    }
    if (aborted) throw new BadRequest('The client closed the connection before the body ended');
  } finally {
    body.off('aborted', onAborted);
    // Whatever is left unread is drained, not left to fill buffers.
    if (!body.readableEnded) body.resume();
  }
}

const EMPTY = Buffer.alloc(0);

function answer(app: App, req: IncomingMessage, res: ServerResponse, body: Buffer | AsyncIterable<Uint8Array>, { send, failed, staticFiles }: Handling): void {
  const message: RequestMessage = {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers as Record<string, string | string[] | undefined>,
    body,
    remoteAddress: req.socket.remoteAddress ?? '',
    localAddress: req.socket.localAddress,
    localPort: req.socket.localPort,
    encrypted: encryptedSocket(req),
    transport: 'http',
    staticFiles,
  };
  // One hop per request: the app never rejects, and `send` never throws, so `failed` is for the transport's own bugs.
  app.handle(message).then((response) => send(res, response), (error: unknown) => failed(res, error));
}

function transportFailed(app: App, res: ServerResponse, error: unknown): void {
  app.log.error({ err: error }, 'transport failed');
  if (!res.headersSent) {
    // A writeHead that threw leaves parts of its headers' state behind (a length, a reason): this answer states each one again.
    res.writeHead(500, 'Internal Server Error', { ...TEXT, 'Content-Length': String(FAILED.length), Connection: 'close' });
    res.end(FAILED);
  } else res.destroy();
}

const FAILED = 'Internal Server Error';

/** The methods a Signalbox app implements, as `OPTIONS *` states them. */
const SERVER_METHODS = [...ACCEPTED_METHODS].map((m) => m.toUpperCase()).join(', ');

const BAD_VERSION = [400, 'A request line needs an HTTP version'] as const;
const OTHER_VERSION = [505, 'This server speaks HTTP/1.1'] as const;

/** A transport-level refusal, on a connection that closes after it. */
function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...TEXT, Connection: 'close' });
  res.end(message);
}

function refuseBody(body: Readable, res: ServerResponse): void {
  refuse(res, 413, 'Request body too large');
  // Stop reading what the client still sends; the connection closes after the answer.
  body.resume();
}

/** The whole body, or null once it passes `max` bytes. */
function readBody(req: Readable, max: number): Promise<Buffer | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        resolveBody(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolveBody(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    req.on('error', reject);
    req.on('aborted', () => resolveBody(null));
  });
}

function write(res: ServerResponse, response: ResponseMessage, closes: boolean): void {
  // Setting it is what makes Node close the connection after this answer.
  if (closes) res.setHeader('Connection', 'close');
  const writeHead = (): void => {
    if (response.reason !== undefined) res.writeHead(response.status, response.reason, response.headers);
    else res.writeHead(response.status, response.headers);
  };
  // A large public file comes from disk, its head written once it is open; for HEAD, Node sends no body anyway.
  if (response.file !== undefined && res.req.method !== 'HEAD') return sendFile(res, response.file, writeHead);
  writeHead();
  res.end(response.body);
}
