/**
 * The WebSocket request tunnel: HTTP-style requests as JSON frames over one
 * socket, each run through `app.handle` exactly as an HTTP request is, many
 * in flight at once, answered in completion order. It lives on the HTTP
 * server's port (the `'upgrade'` event, `ws` in `noServer` mode), checks
 * the upgrade's Origin, and bounds what a client can cost: frame size,
 * requests in flight, idle time, dead peers, unread answers. The protocol is
 * documented in `transport/README.md`; the frame grammar is in
 * `tunnel-frames.ts`.
 *
 * @example
 *   const server = createServer(handler).listen(3000);
 *   const tunnel = attachTunnel(server, app, { origins: ['https://app.example'] });
 *   // ... later
 *   await tunnel.close();
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createRequire } from 'node:module';
import type { WebSocketServer, RawData, WebSocket } from 'ws';
import { ArgumentError } from '../core/errors.ts';
import type { ResponseMessage } from '../core/http/message.ts';
import type { App } from '../machines/app.ts';
import { sliceLength, withFileBytes } from './send-file.ts';
import { ownBytes } from './slabs.ts';
import { headRefusal } from './head-checks.ts';
import { checkOptionNames } from '../core/options.ts';
import { abortHandshake, CLOSE_GRACE_MS, ignore, normalOrigin, originAllowed, pathOf, requestEnv, type RequestFacts } from './upgrade.ts';

// Loaded with the tunnel's first socket, not with the transport: ws is some 10 MB of a process's memory.
const requireHere = createRequire(import.meta.url);
const webSocketServer = (): typeof WebSocketServer => (requireHere('ws') as typeof import('ws')).WebSocketServer;
import {
  DRAINED_REASON, errorFrame, IDLE_REASON, INHERITED_HEADERS, readRequestBatch, readRequestFrame, recordHead, recordsFrame, responseFrameBytes, sniffId,
  TUNNEL_PROTOCOL, type ErrorFrame, type FrameId, type ReadFrame,
} from './tunnel-frames.ts';

export interface TunnelOptions {
  /** Where the tunnel answers upgrades. Default `/_tunnel`. */
  readonly path?: string | undefined;
  /**
   * Origins allowed to open the tunnel, exactly (`https://app.example`).
   * Default: the request's own origin only. An upgrade without `Origin` (not a browser) is always allowed.
   */
  readonly origins?: readonly string[] | undefined;
  /** Largest frame read, in bytes; a larger one is answered `frame_too_large` and the socket stays open. Default 1 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** Past this many bytes `ws` closes the socket (1009) before reading the frame. Default 4 × `maxFrameBytes`. */
  readonly maxPayloadBytes?: number | undefined;
  /** Requests in flight per socket; beyond it `too_many_requests`. Default 1024. */
  readonly maxInFlight?: number | undefined;
  /** Close (1000) a socket that has sent nothing and has nothing in flight for this long. Default 120 s. */
  readonly idleTimeoutMs?: number | undefined;
  /** Ping interval; a peer that has not answered the last ping by the next is dropped. Default 30 s. */
  readonly heartbeatMs?: number | undefined;
  /** Stop reading from a socket while more than this many bytes of answers wait to be sent. Default 1 MiB. */
  readonly backpressureBytes?: number | undefined;
  /** Most header lines in the upgrade request (431 beyond). Default 100; `serve()` passes its own `maxHeaders`. */
  readonly maxHeaders?: number | undefined;
  /** Answer GET and HEAD for files under the app's public directory before routing, as over HTTP. Default true; `serve()` passes its own `staticFiles`. */
  readonly staticFiles?: boolean | undefined;
  /**
   * Largest public file (or range of one) sent through the tunnel; a larger one is answered `file_too_large`
   * and is to be fetched over HTTP, which streams it. A frame holds its whole body, so this bounds what one request can make the server hold. Default 4 MiB.
   */
  readonly maxFileBytes?: number | undefined;
  /**
   * Choose the batching protocol (`signalbox-tunnel.2`) for a client that offers it. Default true;
   * `false` chooses no subprotocol, so every client speaks JSON text frames, one request or answer each.
   */
  readonly batching?: boolean | undefined;
}

export interface TunnelServer {
  readonly path: string;
  /**
   * Answers one upgrade request (refusing it when its path is not the
   * tunnel's): for a server that routes its upgrades itself, as `serve()` does.
   */
  readonly handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Open tunnel sockets. */
  readonly connections: number;
  /**
   * Refuses new upgrades, lets each socket's requests in flight finish, then
   * closes the sockets with `code` (default 1001, going away).
   */
  close(code?: number): Promise<void>;
  /** Cuts every socket now (a shutdown past its deadline); returns how many requests were still in flight. */
  terminate(): number;
}

export const TUNNEL_DEFAULTS = Object.freeze({
  path: '/_tunnel',
  maxFrameBytes: 1024 * 1024,
  maxInFlight: 1024,
  idleTimeoutMs: 120_000,
  heartbeatMs: 30_000,
  backpressureBytes: 1024 * 1024,
  maxHeaders: 100,
  maxFileBytes: 4 * 1024 * 1024,
  batching: true,
});

interface Settings {
  readonly path: string;
  readonly origins: ReadonlySet<string> | null;
  readonly maxFrameBytes: number;
  readonly maxPayloadBytes: number;
  readonly maxInFlight: number;
  readonly idleTimeoutMs: number;
  readonly heartbeatMs: number;
  readonly backpressureBytes: number;
  readonly maxHeaders: number;
  readonly staticFiles: boolean;
  readonly maxFileBytes: number;
  readonly batching: boolean;
}

/**
 * Serves the tunnel on `server` at `options.path`. Every upgrade request the
 * server receives comes here; one at another path is answered 404 and its
 * socket destroyed, so attach one tunnel per server (or route upgrades
 * yourself to `createTunnel(...).handleUpgrade`).
 */
export function attachTunnel(server: Server, app: App, options: TunnelOptions = {}): TunnelServer {
  const tunnel = createTunnel(app, options);
  server.on('upgrade', tunnel.handleUpgrade);
  return tunnel;
}

/** The tunnel without a server: hand it upgrade requests through `handleUpgrade`. */
export function createTunnel(app: App, options: TunnelOptions = {}): TunnelServer {
  const settings = settle(options);
  // Made with the first upgrade accepted: a server whose clients never open the tunnel never loads ws.
  let wss: WebSocketServer | null = null;
  const sockets = (): WebSocketServer => (wss ??= new (webSocketServer())({
    noServer: true,
    clientTracking: false,
    maxPayload: settings.maxPayloadBytes,
    // Compression would let a small frame inflate past every limit here.
    perMessageDeflate: false,
    // The batching protocol for a client that offers it; any other gets JSON text frames, one request each.
    handleProtocols: (offered: Set<string>) => (settings.batching && offered.has(TUNNEL_PROTOCOL) ? TUNNEL_PROTOCOL : false),
  }));
  const live = new Set<TunnelConnection>();
  let closing: Promise<void> | null = null;

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Once a request is upgraded Node stops listening for errors on its socket; a reset must not crash the process.
    socket.on('error', ignore);
    const env = requestEnv(req, app);
    const refusal = closing !== null ? [503, 'The server is shutting down'] as const : refuseUpgrade(req, env, settings);
    if (refusal !== null) {
      app.log.info({ transport: 'tunnel', remote: req.socket.remoteAddress ?? null, status: refusal[0], path: pathOf(req.url), ...refusalDetail(req, refusal[0], refusal[1]) }, 'tunnel upgrade refused');
      abortHandshake(socket, refusal[0], refusal[1]);
      return;
    }
    sockets().handleUpgrade(req, socket, head, (ws) => {
      if (closing !== null) {
        ws.close(1001, DRAINED_REASON);
        return;
      }
      const connection = new TunnelConnection(ws, req, env, app, settings, () => live.delete(connection));
      live.add(connection);
    });
  };

  return {
    path: settings.path,
    handleUpgrade: onUpgrade,
    get connections() {
      return live.size;
    },
    close(code = 1001) {
      // The codes an endpoint may send (RFC 6455 7.4); `ws` throws on the others.
      if (!(code === 1000 || code === 1001 || (Number.isInteger(code) && code >= 3000 && code <= 4999))) {
        return Promise.reject(new ArgumentError(`Not a close code the server may send: ${code}`));
      }
      closing ??= Promise.all([...live].map((c) => c.shutdown(code))).then(() => {
        wss?.close();
      });
      return closing;
    },
    terminate() {
      let cut = 0;
      for (const connection of live) cut += connection.terminate();
      return cut;
    },
  };
}

const TUNNEL_OPTIONS: ReadonlySet<string> = new Set<keyof TunnelOptions>([
  'path', 'origins', 'maxFrameBytes', 'maxPayloadBytes', 'maxInFlight', 'idleTimeoutMs', 'heartbeatMs', 'backpressureBytes',
  'maxHeaders', 'staticFiles', 'maxFileBytes', 'batching',
]);

function settle(options: TunnelOptions): Settings {
  checkOptionNames('tunnel', options, TUNNEL_OPTIONS);
  const path = options.path ?? TUNNEL_DEFAULTS.path;
  if (typeof path !== 'string' || !path.startsWith('/') || path.includes('?')) throw new ArgumentError(`The tunnel path must start with "/" and have no query: ${JSON.stringify(path)}`);
  const positive = (name: keyof typeof TUNNEL_DEFAULTS | 'maxPayloadBytes', fallback: number): number => {
    const value = (options as Record<string, unknown>)[name] ?? fallback;
    if (typeof value !== 'number' || !(value > 0)) throw new ArgumentError(`Tunnel option ${name} must be a positive number, not ${String(value)}`);
    return value;
  };
  const maxFrame = positive('maxFrameBytes', TUNNEL_DEFAULTS.maxFrameBytes);
  const maxPayload = positive('maxPayloadBytes', 4 * maxFrame);
  if (maxPayload < maxFrame) throw new ArgumentError('Tunnel option maxPayloadBytes must be at least maxFrameBytes');
  const batching = options.batching ?? TUNNEL_DEFAULTS.batching;
  if (typeof batching !== 'boolean') throw new ArgumentError(`Tunnel option batching must be true or false, not ${String(batching)}`);
  return {
    path,
    origins: options.origins === undefined ? null : new Set(options.origins.map((o) => {
      const normal = normalOrigin(o);
      if (normal === null) throw new ArgumentError(`Not an origin: ${JSON.stringify(o)} (write scheme://host[:port])`);
      return normal;
    })),
    maxFrameBytes: maxFrame,
    maxPayloadBytes: maxPayload,
    maxInFlight: positive('maxInFlight', TUNNEL_DEFAULTS.maxInFlight),
    idleTimeoutMs: positive('idleTimeoutMs', TUNNEL_DEFAULTS.idleTimeoutMs),
    heartbeatMs: positive('heartbeatMs', TUNNEL_DEFAULTS.heartbeatMs),
    backpressureBytes: positive('backpressureBytes', TUNNEL_DEFAULTS.backpressureBytes),
    maxHeaders: positive('maxHeaders', TUNNEL_DEFAULTS.maxHeaders),
    staticFiles: options.staticFiles !== false,
    maxFileBytes: positive('maxFileBytes', TUNNEL_DEFAULTS.maxFileBytes),
    batching,
  };
}

/**
 * What the log says of a refusal. A browser tells its page nothing of a refused handshake, so the
 * server's log is where a developer learns why; a page served from another origin (a front-end dev
 * server on its own port) is the usual case, and the line names the origin and the option that admits it.
 */
function refusalDetail(req: IncomingMessage, status: number, reason: string): Record<string, string> {
  const origin = req.headers.origin;
  if (status !== 403 || typeof origin !== 'string') return { reason };
  return { reason, origin: origin.slice(0, 200), hint: `a page of another origin than the app's own; to admit it: serve(app, { tunnel: { origins: [${JSON.stringify(origin.slice(0, 200))}] } })` };
}

/** Why an upgrade is refused before any WebSocket exists, or null. */
function refuseUpgrade(req: IncomingMessage, env: RequestFacts, settings: Settings): readonly [number, string] | null {
  const refusal = headRefusal(req.rawHeaders, settings.maxHeaders);
  if (refusal !== null) return refusal;
  if (pathOf(req.url) !== settings.path) return [404, 'Not Found'];
  return originAllowed(env, settings.origins) ? null : [403, 'Origin not allowed'];
}

/** What a request gets when the transport itself failed, as over HTTP. */
const FAILED = { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Internal Server Error' };

/**
 * How much of a turn's answers is held back at most before writing (about 8 KiB). Answers held until the
 * turn ends leave in one write, but then the client idles until the last is ready and the server idles
 * while the client works through all of them; writing every 8 KiB keeps both sides busy (bench/RESULTS.md).
 */
const FLUSH_BYTES = 8 * 1024;
/**
 * The same bound for the batching protocol's record frames (about 32 KiB). Its frames already carry a
 * turn's answers together, and each frame costs a write and a wake-up of the reader: at 8 KiB a turn of
 * 17 JSON answers often left as two frames, which cost about 4% more server CPU per request (bench/RESULTS.md).
 */
const RECORDS_FLUSH_BYTES = 32 * 1024;
/** Frames go out as text frames, whether given as a string or as its UTF-8 bytes. */
const TEXT_FRAME = { binary: false } as const;
const BINARY_FRAME = { binary: true } as const;
const EMPTY_BODY = new Uint8Array(0);

/** One tunnel socket: its requests in flight, its timers, its back-pressure. Internal. */
class TunnelConnection {
  readonly #ws: WebSocket;
  readonly #app: App;
  readonly #settings: Settings;
  readonly #onGone: () => void;
  readonly #remote: string;
  readonly #localAddress: string | undefined;
  readonly #localPort: number | undefined;
  readonly #encrypted: boolean;
  readonly #inherited: Record<string, string>;
  readonly #inFlight = new Set<FrameId>();
  readonly #idle: NodeJS.Timeout;
  readonly #beat: NodeJS.Timeout;
  #alive = true;
  #pausedForBackpressure = false;
  #draining = false;
  #drained: (() => void) | null = null;
  #closed: Promise<void>;
  #requests = 0;
  /** The TCP socket under `ws`, for corking; `ws` keeps it in `_socket` (stable across ws 1–8, not typed). */
  readonly #socket: Duplex | null;
  #corked = false;
  /** Whether bytes were still waiting for the reader when this turn's writes began. */
  #behind = false;
  /** Bytes (or characters) of answers written since the socket was corked. */
  #corkedBytes = 0;
  /** The client chose the batching protocol: arrays of requests in, binary frames of answer records out. */
  readonly #batching: boolean;
  /** Answer records waiting for the end of the turn (or RECORDS_FLUSH_BYTES) to leave as one binary frame. */
  #heads: string[] = [];
  #bodies: (string | Uint8Array)[] = [];
  #queuedBytes = 0;
  #flushScheduled = false;
  /**
   * Text frames read so far (batching only). A frame refused unread is named by its ordinal, which the
   * client counts too: that is how it learns which requests of a batch were refused.
   */
  #textFrames = 0;

  constructor(ws: WebSocket, req: IncomingMessage, env: RequestFacts, app: App, settings: Settings, onGone: () => void) {
    this.#ws = ws;
    this.#app = app;
    this.#settings = settings;
    this.#onGone = onGone;
    const socket = (ws as unknown as { _socket?: Duplex })._socket;
    this.#socket = socket !== undefined && typeof socket.cork === 'function' ? socket : null;
    // Read once: a destroyed socket no longer knows its addresses.
    this.#remote = req.socket.remoteAddress ?? '';
    this.#localAddress = req.socket.localAddress;
    this.#localPort = req.socket.localPort;
    this.#encrypted = env.ssl;
    this.#batching = ws.protocol === TUNNEL_PROTOCOL;
    this.#inherited = Object.create(null) as Record<string, string>;
    for (const name of INHERITED_HEADERS) {
      if (Object.hasOwn(env.headers, name)) this.#inherited[name] = env.headers[name];
    }

    this.#idle = setTimeout(() => this.#onIdle(), settings.idleTimeoutMs);
    this.#idle.unref();
    this.#beat = setInterval(() => this.#heartbeat(), settings.heartbeatMs);
    this.#beat.unref();

    this.#closed = new Promise((resolveClosed) => {
      ws.on('close', (code: number) => {
        clearTimeout(this.#idle);
        clearInterval(this.#beat);
        // Requests still running answer into nothing: their results are dropped when they arrive.
        this.#inFlight.clear();
        this.#heads = [];
        this.#bodies = [];
        this.#drained = null;
        this.#onGone();
        app.log.info({ transport: 'tunnel', remote: this.#remote, code, requests: this.#requests }, 'tunnel connection closed');
        resolveClosed();
      });
    });
    ws.on('error', (error: Error & { code?: string }) => {
      app.log.info({ transport: 'tunnel', remote: this.#remote, code: error.code ?? null, err: error.message }, 'tunnel socket error');
    });
    ws.on('pong', () => {
      this.#alive = true;
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        this.#onMessage(data as Buffer, isBinary);
      } catch (error) {
        // A bug here must cost one socket, not the process (this runs inside the socket's data event).
        app.log.error({ transport: 'tunnel', remote: this.#remote, err: error }, 'tunnel frame handling failed');
        ws.close(1011, 'internal error');
      }
    });
    app.log.info({ transport: 'tunnel', remote: this.#remote }, 'tunnel connection opened');
  }

  /** Reads no more requests, lets those in flight answer, then closes with `code` and `reason` (one of answeredAllItRead's). */
  shutdown(code: number, reason = DRAINED_REASON): Promise<void> {
    if (!this.#draining) {
      this.#draining = true;
      // Frames not yet read stay unread: nothing new starts once shutdown begins.
      this.#ws.pause();
      const finish = () => {
        this.#drained = null;
        this.#flush(false);
        this.#ws.resume();
        this.#ws.close(code, reason);
        setTimeout(() => this.#ws.terminate(), CLOSE_GRACE_MS).unref();
      };
      if (this.#inFlight.size === 0) finish();
      else this.#drained = finish;
    }
    return this.#closed;
  }

  /** Cuts the socket now; returns how many requests were in flight on it. */
  terminate(): number {
    const cut = this.#inFlight.size;
    this.#ws.terminate();
    return cut;
  }

  #onMessage(data: Buffer, isBinary: boolean): void {
    if (this.#draining) return;
    this.#idle.refresh();
    if (isBinary) {
      this.#refuse(errorFrame('binary_frame', 'Binary frames are not accepted; send JSON text frames'));
      return;
    }
    const ordinal = this.#batching ? ++this.#textFrames : undefined;
    if (data.length > this.#settings.maxFrameBytes) {
      const id = sniffId(data.subarray(0, 400).toString('utf8'));
      this.#refuse(errorFrame('frame_too_large', `Frames are limited to ${this.#settings.maxFrameBytes} bytes`, id, ordinal));
      return;
    }
    const text = data.toString('utf8');
    if (!this.#batching) {
      this.#start(readRequestFrame(text, this.#inherited));
      return;
    }
    const read = readRequestBatch(text, this.#inherited);
    // Each request of a batch is its own: its own limits, its own refusal.
    if (Array.isArray(read)) for (const one of read) this.#start(one);
    else this.#start(read);
  }

  #start(frame: ReadFrame): void {
    if (!frame.ok) {
      this.#refuse(frame.error);
      return;
    }
    const { id } = frame;
    if (this.#inFlight.has(id)) {
      this.#refuse(errorFrame('duplicate_id', `A request with id ${JSON.stringify(id)} is already in flight`, id));
      return;
    }
    if (this.#inFlight.size >= this.#settings.maxInFlight) {
      this.#refuse(errorFrame('too_many_requests', `At most ${this.#settings.maxInFlight} requests may be in flight`, id));
      return;
    }
    this.#inFlight.add(id);
    this.#requests++;
    const { path } = frame;
    let handled: Promise<ResponseMessage>;
    try {
      // Written out in the HTTP transport's order: one message shape keeps the pipeline's property reads monomorphic.
      handled = this.#app.handle({
        method: frame.method, url: path, headers: frame.headers, body: frame.body,
        remoteAddress: this.#remote, localAddress: this.#localAddress, localPort: this.#localPort, encrypted: this.#encrypted, transport: 'tunnel',
        staticFiles: this.#settings.staticFiles,
      });
    } catch (error) {
      handled = Promise.reject(error);
    }
    // One reaction per request: an answer whose body is in memory (nearly all) goes out at once; a file slice is read in first.
    handled.then(
      (response) => (response.file === undefined ? this.#answer(id, response) : this.#answerFile(id, path, response)),
      (error: unknown) => this.#failed(id, error),
    );
  }

  #answerFile(id: FrameId, path: string, response: ResponseMessage): void {
    let whole: ResponseMessage | null | Promise<ResponseMessage>;
    try {
      whole = this.#withBody(id, path, response);
    } catch (error) {
      this.#failed(id, error);
      return;
    }
    if (whole === null) return;
    Promise.resolve(whole).then((read) => this.#answer(id, read), (error: unknown) => this.#failed(id, error));
  }

  #failed(id: FrameId, error: unknown): void {
    // `app.handle` never rejects; if it does anyway, answer like the HTTP transport does.
    this.#app.log.error({ err: error, transport: 'tunnel' }, 'transport failed');
    this.#answer(id, FAILED);
  }

  /**
   * The answer with its whole body, as a frame carries it: a file slice (a large public file) is read
   * in without blocking, unless it is over `maxFileBytes`, which is refused (null) with `file_too_large`.
   */
  #withBody(id: FrameId, path: string, response: ResponseMessage): ResponseMessage | null | Promise<ResponseMessage> {
    if (response.file === undefined) return response;
    if (sliceLength(response.file) > this.#settings.maxFileBytes) {
      if (this.#inFlight.has(id)) {
        this.#refuse(errorFrame('file_too_large', `${path.slice(0, 200)} is larger than the tunnel carries (${this.#settings.maxFileBytes} bytes); request it over HTTP`, id));
        this.#settled(id);
      }
      return null;
    }
    return withFileBytes(response);
  }

  #answer(id: FrameId, response: ResponseMessage): void {
    // A closed socket has already forgotten its requests; this answer has nowhere to go.
    if (!this.#inFlight.has(id)) return;
    if (this.#batching) {
      let answer = response;
      let head: string;
      try {
        head = recordHead(id, answer);
      } catch (error) {
        this.#app.log.error({ err: error, transport: 'tunnel' }, 'transport failed');
        answer = FAILED;
        head = recordHead(id, answer);
      }
      this.#queue(head, answer.body);
    } else {
      let frame: Buffer | string;
      try {
        frame = responseFrameBytes(id, response);
      } catch (error) {
        this.#app.log.error({ err: error, transport: 'tunnel' }, 'transport failed');
        frame = JSON.stringify({ id, ...FAILED });
      }
      this.#send(frame);
    }
    this.#settled(id);
  }

  /** `id` is answered: once nothing is in flight, a close in progress may finish, or the idle clock restarts. */
  #settled(id: FrameId): void {
    this.#inFlight.delete(id);
    if (this.#inFlight.size === 0) {
      if (this.#drained !== null) this.#drained();
      else this.#idle.refresh();
    }
  }

  #refuse(frame: ErrorFrame): void {
    this.#app.log.debug({ transport: 'tunnel', remote: this.#remote, code: frame.error.code, id: frame.id ?? null }, 'tunnel frame refused');
    if (this.#batching) this.#queue(JSON.stringify(frame), EMPTY_BODY);
    else this.#send(JSON.stringify(frame));
  }

  /** Holds an answer record until the turn ends, or until about RECORDS_FLUSH_BYTES wait: answers of one turn leave as one frame. */
  #queue(head: string, body: string | Uint8Array): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    this.#heads.push(head);
    this.#bodies.push(body);
    this.#queuedBytes += 8 + head.length + (typeof body === 'string' ? body.length : body.byteLength);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      process.nextTick(this.#flushTurn);
    }
    if (this.#queuedBytes >= RECORDS_FLUSH_BYTES) this.#flush(false);
  }

  readonly #flushTurn = (): void => this.#flush(true);

  #flush(turnEnded: boolean): void {
    if (turnEnded) this.#flushScheduled = false;
    if (this.#heads.length === 0) return;
    const frame = recordsFrame(this.#heads, this.#bodies);
    this.#heads = [];
    this.#bodies = [];
    this.#queuedBytes = 0;
    this.#send(frame, BINARY_FRAME);
  }

  /** Sends a frame: text (a string, or its UTF-8 bytes), or a binary frame of records. */
  #send(text: string | Buffer, kind: typeof TEXT_FRAME | typeof BINARY_FRAME = TEXT_FRAME): void {
    const ws = this.#ws;
    if (ws.readyState !== ws.OPEN) return;
    // Bytes still waiting when a turn's writes begin: the reader is behind, and what is sent now will wait too.
    if (!this.#corked) this.#behind = ws.bufferedAmount > 0;
    // With batching, the record queue already makes a turn's answers one frame per RECORDS_FLUSH_BYTES: nothing is left to cork.
    if (!this.#batching && !this.#corked && this.#socket !== null) {
      // Answers finishing in the same turn leave together (writev), in pieces of about FLUSH_BYTES, not one system call each.
      this.#corked = true;
      this.#socket.cork();
      process.nextTick(this.#uncork);
    }
    // A frame cut from a slab would keep the whole slab alive while it waits: it waits as bytes of its own.
    ws.send(this.#behind && typeof text !== 'string' ? ownBytes(text) : text, kind, this.#sent);
    if (this.#corked && (this.#corkedBytes += text.length) >= FLUSH_BYTES) {
      // A long run of answers leaves in pieces, so the client can start on the first while the rest are serialised.
      this.#corkedBytes = 0;
      this.#socket!.uncork();
      this.#socket!.cork();
    }
    // A client that does not read its answers must not make the server buffer without bound: stop reading its requests.
    if (!this.#pausedForBackpressure && ws.bufferedAmount > this.#settings.backpressureBytes) {
      this.#pausedForBackpressure = true;
      this.#app.log.debug({ transport: 'tunnel', remote: this.#remote, buffered: ws.bufferedAmount }, 'tunnel reading paused (back-pressure)');
      ws.pause();
    }
  }

  readonly #uncork = (): void => {
    this.#corked = false;
    this.#corkedBytes = 0;
    this.#socket!.uncork();
  };

  // Called as each answer leaves for the kernel; the last one to leave sees the buffer drained.
  readonly #sent = (): void => {
    if (!this.#pausedForBackpressure || this.#ws.bufferedAmount > this.#settings.backpressureBytes) return;
    this.#pausedForBackpressure = false;
    if (!this.#draining) this.#ws.resume();
  };

  #onIdle(): void {
    // Still working for the client: the idle clock restarts when the last answer goes out.
    if (this.#inFlight.size > 0 || this.#draining) return;
    // As a drain does: a request that came while the loop was held is in the socket, unread, when this timer
    // runs; it stays unread, and the close's reason tells the client to send it again on its next socket.
    void this.shutdown(1000, IDLE_REASON);
  }

  #heartbeat(): void {
    if (!this.#alive) {
      this.#app.log.info({ transport: 'tunnel', remote: this.#remote }, 'tunnel peer stopped answering pings');
      this.#ws.terminate();
      return;
    }
    this.#alive = false;
    this.#ws.ping();
  }
}
