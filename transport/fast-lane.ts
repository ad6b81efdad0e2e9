/**
 * The fast lane: simple HTTP/1.1 requests read and answered on the socket
 * itself, without node:http's request and response objects. Most requests
 * a server sees are simple (a whole head, nothing that changes the protocol,
 * and either no body or a small one framed by a plain Content-Length:
 * request-head.ts says exactly which), and for them node:http's objects,
 * events and per-header checks cost about a third of the CPU of a small
 * answer. Every connection starts here. A body is taken only when all of it
 * is already in the bytes read and it is no larger than `maxBodyBytes` and
 * LANE_MAX_BODY, so the lane never waits for a body and needs no timeout of
 * its own. The first request that is not simple or not taken that way (a
 * body still arriving or too large, an upload, an upgrade, a head that
 * arrives in pieces, anything unusual or malformed) hands the connection to
 * node:http, once the answers owed before it are written, with the bytes
 * not yet answered: from then on node:http reads it as if it had from the
 * start, with its own parser, limits, timeouts and refusals. So nothing
 * unusual is ever read here, and a connection is never read by both.
 *
 * Answers go out in request order, each head written as node:http writes
 * it (response-head.ts), coalesced with the HTTP transport's write batching.
 * What node:http bounds, this bounds too: at most `maxPipelined` requests of
 * a connection run at once, and the socket is not read while they wait or
 * while the client is not reading its answers; an idle connection closes
 * after the keep-alive timeout; a shutdown lets connections go by the same
 * rule as node:http's (connections.ts). Internal to the HTTP transport.
 */
import type { Socket } from 'node:net';
import type { RequestMessage, ResponseMessage } from '../core/http/message.ts';
import { writeBodyUtf8 } from '../core/http/etag.ts';
import type { App } from '../machines/app.ts';
import { forgetGrace, letGoAfterGrace } from './connections.ts';
import { readSimpleHead, type SimpleHead } from './request-head.ts';
import { responseHead, type Head } from './response-head.ts';
import { streamSlice } from './send-file.ts';
import { ownBytes, Slabs } from './slabs.ts';
import { pathOf } from './upgrade.ts';
import { WriteBatch } from './write-batch.ts';

export interface FastLaneOptions {
  readonly maxHeaderBytes: number;
  /** The largest body the app accepts (node:http's side answers 413 beyond it). */
  readonly maxBodyBytes: number;
  readonly maxHeaders: number;
  readonly maxPipelined: number;
  readonly keepAliveTimeoutMs: number;
  readonly staticFiles: boolean;
  readonly batchWrites: boolean;
  /** Whether a request path (no query) is answered outside the app (the inspector's page): node:http takes those. */
  readonly elsewhere: (path: string) => boolean;
  /** Gives a socket to node:http; its unread bytes are back in the socket's buffer. */
  readonly handOver: (socket: Socket) => void;
}

const EMPTY = Buffer.alloc(0);
/**
 * The largest body the lane takes, in bytes. Each body is copied out of the bytes read, so the bound keeps
 * that copy small; larger bodies (and any still arriving) are node:http's, which reads them as they come.
 */
export const LANE_MAX_BODY = 64 * 1024;
const FAILED_BODY = 'Internal Server Error';
const FAILED: ResponseMessage = {
  status: 500,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(FAILED_BODY.length), Connection: 'close' },
  body: FAILED_BODY,
};

/**
 * One request on a fast connection, and its answer once the app gave it. While
 * the answer waits in a write batch it is held as bytes, not as the app's
 * objects: a minor GC in that window copies what is held, and objects held
 * across collections are what make V8 enlarge its young generation (and the
 * process's resident memory) under load.
 */
interface Exchange {
  method: string;
  /** The request asked to close the connection after its answer. */
  closes: boolean;
  /** The answer as the app gave it, until it is written or encoded. */
  response: ResponseMessage | null;
  /** The answer's head and body, encoded while it waits: bytes start..end of a slab shared with other answers; null when not encoded. */
  encoded: Buffer | null;
  start: number;
  end: number;
  /** Whether the encoded head closes the connection. */
  encodedCloses: boolean;
  /** Where the encoded head's own keep-alive lines are (responseHead's keepAliveStart/End; -1 for none). */
  keepAliveStart: number;
  keepAliveEnd: number;
  /** The connection's next request, in arrival order. */
  next: Exchange | null;
}

/**
 * A connection's requests not yet answered, in arrival order, linked through
 * the exchanges themselves: an array would get a new backing store whenever
 * it empties and fills again, once per request on a keep-alive connection.
 */
class ExchangeQueue {
  first: Exchange | null = null;
  #last: Exchange | null = null;
  length = 0;

  push(exchange: Exchange): void {
    if (this.#last === null) this.first = exchange;
    else this.#last.next = exchange;
    this.#last = exchange;
    this.length++;
  }

  shift(): void {
    const first = this.first;
    if (first === null) return;
    this.first = first.next;
    first.next = null;
    if (this.first === null) this.#last = null;
    this.length--;
  }

  clear(): void {
    this.first = null;
    this.#last = null;
    this.length = 0;
  }
}

/** What the answers of a connection that closes say in place of their keep-alive lines. */
const CLOSING = 'Connection: close\r\n';

class LaneConnection {
  /** Bytes read and not yet taken as a request. */
  pending: Buffer = EMPTY;
  /** Requests taken and not yet answered, in arrival order: answers leave from the front. */
  readonly exchanges = new ExchangeQueue();
  /** An exchange written and done with, for the next request. */
  spare: Exchange | null = null;
  /** A file is being piped into the socket: later answers wait for it. */
  streaming = false;
  /** This side stopped reading the socket (requests or answers waiting). */
  holding = false;
  /** The next request is not for this lane: node:http takes the connection once the answers owed are out. */
  leaving = false;
  /** The client ended its side. */
  ended = false;
  /** An answer closes the connection: nothing after it is read. */
  closing = false;
  idleSince = performance.now();
  longestPause = 0;
  answered = false;
  graceTimer: NodeJS.Timeout | null = null;
  lastLook: NodeJS.Immediate | null = null;
  lookedAt = -1;
  readonly remoteAddress: string;
  readonly localAddress: string | undefined;
  readonly localPort: number | undefined;
  readonly encrypted: boolean;
  onData: (chunk: Buffer) => void = () => {};
  onEnd: () => void = () => {};
  onDrain: () => void = () => {};
  onClose: () => void = () => {};

  constructor(readonly socket: Socket) {
    this.remoteAddress = socket.remoteAddress ?? '';
    this.localAddress = socket.localAddress;
    this.localPort = socket.localPort;
    this.encrypted = 'encrypted' in socket && Boolean((socket as { encrypted?: boolean }).encrypted);
  }

  get idle(): boolean {
    return this.exchanges.length === 0 && !this.streaming;
  }
}

export class FastLane {
  readonly #app: App;
  readonly #options: FastLaneOptions;
  readonly #all = new Map<Socket, LaneConnection>();
  readonly #batch: WriteBatch<LaneConnection, null> | null;
  readonly #keepAliveSeconds: number;
  readonly #maxBody: number;
  #draining = false;
  /**
   * Where answers waiting in the write batch are encoded: held as bytes outside the JS heap, with no
   * object of their own. A slab is freed once every answer in it is written, so an answer stuck behind a
   * slow reader keeps at most one slab (or its own bytes, when larger than a quarter slab) alive.
   */
  readonly #slabs = new Slabs(32 * 1024);
  #sweep: NodeJS.Timeout | null = null;

  constructor(app: App, options: FastLaneOptions) {
    this.#app = app;
    this.#options = options;
    // serve() has checked maxBodyBytes is a whole number, 0 or more.
    this.#maxBody = Math.min(options.maxBodyBytes, LANE_MAX_BODY);
    // As node:http: no Keep-Alive header, and no idle timeout, when the keep-alive timeout is 0.
    this.#keepAliveSeconds = options.keepAliveTimeoutMs > 0 ? Math.floor(options.keepAliveTimeoutMs / 1000) : -1;
    this.#batch = options.batchWrites ? new WriteBatch<LaneConnection, null>((connection) => this.#flush(connection)) : null;
  }

  /** Open connections the lane still reads. */
  get size(): number {
    return this.#all.size;
  }

  /** Requests taken and not yet answered, over all the lane's connections. */
  get unanswered(): number {
    let count = 0;
    for (const connection of this.#all.values()) count += connection.exchanges.length;
    return count;
  }

  /** Starts reading a new connection. */
  adopt(socket: Socket): void {
    const connection = new LaneConnection(socket);
    this.#all.set(socket, connection);
    connection.onData = (chunk) => this.#read(connection, chunk);
    connection.onEnd = () => this.#ended(connection);
    connection.onDrain = () => this.#release(connection);
    connection.onClose = () => this.#closed(connection);
    socket.on('data', connection.onData);
    socket.on('end', connection.onEnd);
    socket.on('drain', connection.onDrain);
    socket.on('error', ignore);
    socket.on('close', connection.onClose);
    this.#sweep ??= setInterval(() => this.#closeIdle(), 1_000).unref();
  }

  /** Begins the drain: connections are let go as they run out of requests; answers owed end with `Connection: close`. */
  drain(): void {
    this.#draining = true;
    for (const connection of this.#all.values()) if (connection.idle) this.#letGo(connection);
  }

  /** Destroys every connection left; returns how many requests they still owed answers to. */
  cut(): number {
    let cut = 0;
    for (const connection of this.#all.values()) {
      cut += connection.exchanges.length;
      connection.socket.destroy();
    }
    return cut;
  }

  /** Stops the keep-alive sweep (the server has closed). */
  stop(): void {
    if (this.#sweep !== null) clearInterval(this.#sweep);
    this.#sweep = null;
  }

  #read(connection: LaneConnection, chunk: Buffer): void {
    connection.pending = connection.pending.length === 0 ? chunk : Buffer.concat([connection.pending, chunk]);
    this.#take(connection);
  }

  /** Takes every whole simple request (head and body) in the bytes read, as far as the bounds allow. */
  #take(connection: LaneConnection): void {
    const { maxHeaderBytes, maxHeaders, maxPipelined } = this.#options;
    const bytes = connection.pending;
    let at = 0;
    while (at < bytes.length && !connection.closing && !connection.leaving) {
      if (connection.exchanges.length >= maxPipelined || connection.socket.writableNeedDrain) {
        this.#hold(connection);
        break;
      }
      const end = bytes.indexOf('\r\n\r\n', at, 'latin1');
      const head = end < 0 || end + 4 - at > maxHeaderBytes ? null : readSimpleHead(bytes.toString('latin1', at, end), maxHeaders);
      const bodyEnd = head === null ? -1 : end + 4 + head.bodyLength;
      // A body too large for the lane, or not all here yet, is node:http's to read (and refuse, or wait for).
      if (head === null || head.bodyLength > this.#maxBody || bodyEnd > bytes.length || this.#options.elsewhere(pathOf(head.url))) {
        connection.leaving = true;
        break;
      }
      // A copy: the app may keep the body, and must not keep the whole read (or see it change) with it.
      const body = head.bodyLength === 0 ? EMPTY : Buffer.from(bytes.subarray(end + 4, bodyEnd));
      at = bodyEnd;
      this.#start(connection, head, body);
    }
    // Whatever follows a closing request is never read (as node:http drops it).
    connection.pending = connection.closing || at >= bytes.length ? EMPTY : at === 0 ? bytes : bytes.subarray(at);
    if (connection.leaving) {
      this.#hold(connection);
      if (connection.idle) this.#leave(connection);
    }
  }

  #start(connection: LaneConnection, head: SimpleHead, body: Buffer): void {
    if (connection.exchanges.length === 0 && connection.answered) connection.longestPause = Math.max(connection.longestPause, performance.now() - connection.idleSince);
    if (head.closes) connection.closing = true;
    // The connection's last exchange, written and so answered, is used again: under load, a new one per request is what a minor GC finds held in the batch.
    const exchange = connection.spare ?? newExchange();
    connection.spare = null;
    exchange.method = head.method;
    exchange.closes = head.closes;
    connection.exchanges.push(exchange);
    const message: RequestMessage = {
      method: head.method,
      url: head.url,
      headers: head.headers,
      body,
      remoteAddress: connection.remoteAddress,
      localAddress: connection.localAddress,
      localPort: connection.localPort,
      encrypted: connection.encrypted,
      transport: 'http',
      staticFiles: this.#options.staticFiles,
    };
    // The app never rejects; a rejection here is a bug, answered as the HTTP transport answers its own failures.
    this.#app.handle(message).then(
      (response) => this.#answered(connection, exchange, response),
      (error: unknown) => {
        this.#app.log.error({ err: error }, 'transport failed');
        this.#answered(connection, exchange, FAILED);
      },
    );
  }

  #answered(connection: LaneConnection, exchange: Exchange, response: ResponseMessage): void {
    exchange.response = response;
    if (this.#batch === null) {
      if (connection.exchanges.first === exchange) this.#flush(connection);
      return;
    }
    this.#encode(exchange, response);
    if (connection.exchanges.first === exchange) this.#batch.add(connection, null);
  }

  /** Encodes an answer that will wait before it is written: a string body, sent whole (no file, no chunks). */
  #encode(exchange: Exchange, response: ResponseMessage): void {
    const body = response.body;
    if (response.file !== undefined || typeof body !== 'string') return;
    const hasBody = answersWithBody(exchange.method, response.status);
    let head: Head;
    try {
      head = responseHead(response, { closes: exchange.closes, keepAliveSeconds: this.#keepAliveSeconds, hasBody, body });
    } catch {
      // Written unencoded, where the same error is answered 500.
      return;
    }
    // Latin-1 heads and chunked bodies are written in parts; they stay as they are.
    if (head.wide || head.chunked) return;
    const text = head.text;
    const sent = hasBody ? body : '';
    // Written in two parts, so the head and body are never joined into one string.
    const out = this.#slabs.room(text.length + sent.length * 3, () => text.length + Buffer.byteLength(sent));
    const start = this.#slabs.at;
    let end = start + out.write(text, start, 'latin1');
    if (sent.length > 0) end += writeBodyUtf8(out, sent, end);
    this.#slabs.used(out, end);
    exchange.encoded = out;
    exchange.start = start;
    exchange.end = end;
    exchange.encodedCloses = head.closes;
    exchange.keepAliveStart = head.keepAliveStart;
    exchange.keepAliveEnd = head.keepAliveEnd;
    exchange.response = null;
  }

  /** Writes the answers ready at the front, in order. Never throws. */
  #flush(connection: LaneConnection): void {
    const { socket, exchanges } = connection;
    if (connection.streaming) return;
    if (socket.destroyed || !socket.writable) {
      exchanges.clear();
      return;
    }
    let corked = false;
    // Bytes still waiting from earlier writes: the reader is behind, and what is written now will wait too.
    const behind = socket.writableLength > 0;
    for (let exchange = exchanges.first; exchange !== null && answered(exchange); exchange = exchanges.first) {
      exchanges.shift();
      if (!corked && exchanges.first !== null && answered(exchanges.first)) {
        socket.cork();
        corked = true;
      }
      const written = exchange.encoded !== null ? this.#writeEncoded(connection, exchange, exchange.encoded.subarray(exchange.start, exchange.end), behind) : this.#write(connection, exchange, exchange.response!);
      // Its request's promise has settled, so nothing else can reach it: it serves the connection's next request.
      exchange.response = null;
      exchange.encoded = null;
      connection.spare = exchange;
      if (!written) break;
    }
    if (corked) socket.uncork();
    this.#afterWrites(connection);
  }

  /** Writes one answer; false when nothing more can follow it now (a file streams, or the connection closes). */
  #write(connection: LaneConnection, exchange: Exchange, response: ResponseMessage): boolean {
    const { socket } = connection;
    const hasBody = answersWithBody(exchange.method, response.status);
    const closes = exchange.closes || (this.#draining && connection.exchanges.length === 0);
    let head: Head;
    try {
      head = responseHead(response, { closes, keepAliveSeconds: this.#keepAliveSeconds, hasBody, body: response.body });
    } catch (error) {
      this.#app.log.error({ err: error }, 'transport failed');
      return this.#write(connection, exchange, FAILED);
    }
    if (head.closes) {
      connection.closing = true;
      connection.pending = EMPTY;
    }
    if (response.file !== undefined && hasBody) {
      this.#stream(connection, head, response);
      return false;
    }
    const body = hasBody ? response.body : '';
    if (typeof body === 'string' && !head.wide && !head.chunked) socket.write(body.length === 0 ? head.text : head.text + body);
    else {
      socket.cork();
      socket.write(head.wide ? Buffer.from(head.text, 'latin1') : head.text);
      if (head.chunked) writeChunked(socket, body);
      else if (body.length > 0) socket.write(body);
      socket.uncork();
    }
    if (head.closes) socket.end();
    return !head.closes;
  }

  /**
   * Writes an answer encoded while it waited, closing the connection if it must close now though the answer did not say so.
   * `behind`: the socket already had bytes waiting, so these wait too, as bytes of their own rather than a piece of a slab.
   */
  #writeEncoded(connection: LaneConnection, exchange: Exchange, slabBytes: Buffer, behind: boolean): boolean {
    const { socket } = connection;
    const bytes = behind ? ownBytes(slabBytes) : slabBytes;
    const closes = exchange.encodedCloses || (this.#draining && connection.exchanges.length === 0);
    if (closes) {
      connection.closing = true;
      connection.pending = EMPTY;
    }
    if (closes && !exchange.encodedCloses && exchange.keepAliveStart >= 0) {
      // A shutdown began after the answer was made: its keep-alive lines become Connection: close (the head is ASCII, so characters are bytes).
      socket.cork();
      socket.write(bytes.subarray(0, exchange.keepAliveStart));
      socket.write(CLOSING);
      socket.write(bytes.subarray(exchange.keepAliveEnd));
      socket.uncork();
    } else socket.write(bytes);
    if (closes) socket.end();
    return !closes;
  }

  /** Pipes a file slice after its head; the answers behind it wait until it is out. */
  #stream(connection: LaneConnection, head: Head, response: ResponseMessage): void {
    const { socket } = connection;
    connection.streaming = true;
    let wrote = false;
    const done = (): void => {
      connection.streaming = false;
      this.#flush(connection);
    };
    streamSlice({
      writeHead: () => {
        wrote = true;
        socket.write(head.wide ? Buffer.from(head.text, 'latin1') : head.text);
      },
      body: socket,
      finish: () => {
        if (head.closes) socket.end();
        done();
      },
      cut: () => socket.destroy(),
      get committed() {
        return wrote || socket.destroyed;
      },
      instead: (answer) => {
        connection.closing = true;
        connection.pending = EMPTY;
        const text = responseHead(answer, { closes: true, keepAliveSeconds: -1, hasBody: true, body: answer.body }).text;
        socket.end(text + String(answer.body));
        done();
      },
      onGone: (listener) => {
        socket.once('close', listener);
        return () => socket.off('close', listener);
      },
    }, response.file!);
  }

  #afterWrites(connection: LaneConnection): void {
    if (connection.closing || connection.socket.destroyed) return;
    // Room again: take the requests already read before anything else.
    if (connection.holding) this.#release(connection);
    if (!connection.idle) return;
    connection.idleSince = performance.now();
    connection.answered = true;
    if (connection.leaving) return this.#leave(connection);
    if (connection.ended) return this.#endAfterAnswers(connection);
    if (this.#draining) this.#letGo(connection);
  }

  #hold(connection: LaneConnection): void {
    if (connection.holding) return;
    connection.holding = true;
    connection.socket.pause();
  }

  /** Reads again once the requests and answers waiting leave room (and takes the requests already read). */
  #release(connection: LaneConnection): void {
    if (!connection.holding || connection.leaving || connection.closing) return;
    if (connection.exchanges.length >= this.#options.maxPipelined || connection.socket.writableNeedDrain) return;
    connection.holding = false;
    if (connection.pending.length > 0) this.#take(connection);
    if (!connection.holding) connection.socket.resume();
  }

  /** Gives the connection to node:http with the bytes not yet answered, as if node:http had read it from the start. */
  #leave(connection: LaneConnection): void {
    const { socket } = connection;
    if (!this.#all.has(socket)) return;
    this.#forget(connection);
    const pending = connection.pending;
    connection.pending = EMPTY;
    if (connection.ended) {
      // The stream has ended, so its bytes cannot go back into it: node:http's listeners get them, and the end, as events.
      this.#options.handOver(socket);
      if (pending.length > 0) socket.emit('data', pending);
      socket.emit('end');
      return;
    }
    socket.pause();
    if (pending.length > 0) socket.unshift(pending);
    this.#options.handOver(socket);
    socket.resume();
  }

  #ended(connection: LaneConnection): void {
    connection.ended = true;
    if (connection.idle && !connection.socket.destroyed) this.#endAfterAnswers(connection);
  }

  /** The client has ended its side and every answer is out: end ours, or let node:http judge what is left unread. */
  #endAfterAnswers(connection: LaneConnection): void {
    if (connection.pending.length > 0 && !connection.closing) this.#leave(connection);
    else connection.socket.end();
  }

  #closed(connection: LaneConnection): void {
    this.#forget(connection);
    connection.exchanges.clear();
    connection.pending = EMPTY;
  }

  /** Stops the lane's own listening to a connection (it closed, or node:http takes it). */
  #forget(connection: LaneConnection): void {
    const { socket } = connection;
    this.#all.delete(socket);
    forgetGrace(connection);
    socket.off('data', connection.onData);
    socket.off('end', connection.onEnd);
    socket.off('drain', connection.onDrain);
    socket.off('error', ignore);
    socket.off('close', connection.onClose);
  }

  /** A draining connection with nothing owed: closed now, after its grace, or by node:http if half a request is in. */
  #letGo(connection: LaneConnection): void {
    const { socket } = connection;
    if (socket.destroyed || !this.#all.has(socket)) return;
    if (connection.pending.length > 0) {
      // Half a request: node:http's header and request timeouts answer it (408), and its drain lets it go.
      connection.leaving = true;
      return this.#leave(connection);
    }
    letGoAfterGrace(connection, () => {
      if (connection.idle) this.#letGo(connection);
    });
  }

  /** Closes connections idle past the keep-alive timeout (as node:http's socket timeout does). */
  #closeIdle(): void {
    const now = performance.now();
    const timeout = this.#options.keepAliveTimeoutMs;
    if (timeout <= 0) return;
    let expired: LaneConnection[] | null = null;
    for (const connection of this.#all.values()) {
      if (!connection.idle || connection.pending.length > 0) continue;
      // Answers still on their way to a slow reader: as with node:http, the idle time starts once they are out.
      if (connection.socket.writableLength > 0) connection.idleSince = now;
      else if (now - connection.idleSince > timeout) (expired ??= []).push(connection);
    }
    if (expired === null) return;
    // This sweep is a timer, and timers run before the loop reads its sockets: after a held loop (a CPU-bound
    // action, a long GC pause), a request that arrived meanwhile would still be unread, and closing would meet it
    // with a reset. The connections are closed once the loop has read what came, if still idle.
    setImmediate(() => {
      const later = performance.now();
      for (const connection of expired) if (this.#idleFor(connection, timeout, later) && connection.socket.writableLength === 0) connection.socket.destroy();
    });
  }

  /** Whether a connection of the lane has had nothing to answer, and nothing half read, for longer than `ms`. */
  #idleFor(connection: LaneConnection, ms: number, now: number): boolean {
    return this.#all.has(connection.socket) && !connection.socket.destroyed && connection.idle && connection.pending.length === 0 && now - connection.idleSince > ms;
  }
}

/** A body sent with the app's own `Transfer-Encoding: chunked`: one chunk, then the last. */
function writeChunked(socket: Socket, body: string | Uint8Array): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (length > 0) {
    socket.write(`${length.toString(16)}\r\n`);
    socket.write(body);
    socket.write('\r\n');
  }
  socket.write('0\r\n\r\n');
}

function ignore(): void {}

function newExchange(): Exchange {
  return { method: '', closes: false, response: null, encoded: null, start: 0, end: 0, encodedCloses: false, keepAliveStart: -1, keepAliveEnd: -1, next: null };
}

/** Whether the app's answer to this exchange is in. */
function answered(exchange: Exchange): boolean {
  return exchange.response !== null || exchange.encoded !== null;
}

/** Whether bytes of a body follow the head (not for HEAD, 1xx, 204 or 304), as node:http decides. */
function answersWithBody(method: string, status: number): boolean {
  return method !== 'HEAD' && status >= 200 && status !== 204 && status !== 304;
}
