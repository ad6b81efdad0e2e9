/**
 * What the HTTP transport knows about each connection: the requests it has
 * received and not yet answered, a bound on how many of them run at once
 * (pipelining), and how a connection is let go when the server shuts down.
 * Internal to the HTTP transport.
 *
 * Pipelining. A client may send requests without waiting for answers, and
 * Node parses every request in what it has read before any is answered. At
 * most `maxPipelined` requests of one connection run at a time; the rest wait
 * their turn in order, and the socket is not read again until the waiting
 * ones have started, so a client that writes 50,000 requests and reads
 * nothing costs a bounded amount of memory, and the kernel's own flow
 * control holds it back.
 *
 * Shutdown. Once draining, a connection's last answer says `Connection:
 * close`; a connection with nothing to answer is closed at once, unless its
 * last answer left only just now: its client may be sending the next request
 * at this moment, and that request is answered (with `Connection: close`)
 * rather than met by a reset. "Just now" is three times the longest pause
 * this client has taken between an answer and its next request (so a busy
 * client's next request is awaited, and an idle one is not), at least
 * `GRACE_MIN_MS` and at most `GRACE_MAX_MS`. A connection holding half a
 * request is left to the header and request timeouts, which answer 408.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Bounds on how long a connection that has just been answered may take to send one more once a shutdown
 * began. The least covers a client held up for a moment by its own GC or a busy host: a keep-alive client
 * that reads its answer late writes its next request before it sees the close, and meets a reset.
 */
export const GRACE_MIN_MS = 250;
export const GRACE_MAX_MS = 1_000;

/** What the drain's grace rule reads of a connection, and the timers it keeps on it. */
export interface GracedConnection {
  readonly socket: Socket;
  /** Whether any request has been answered on it. */
  readonly answered: boolean;
  /** The longest pause its client took between an answer and its next request, in ms. */
  readonly longestPause: number;
  /** When its last answer left (or it opened), from `performance.now()`. */
  readonly idleSince: number;
  graceTimer: NodeJS.Timeout | null;
  /** The look, once the event loop has read its sockets, that precedes closing. */
  lastLook: NodeJS.Immediate | null;
  /** When that look last found it idle, from `performance.now()` (-1: never). */
  lookedAt: number;
}

/**
 * Lets a draining connection with nothing owed go by the grace rule: it may still send a request for
 * three times the longest pause its client took (within the bounds; none if it was never answered),
 * counted from its last answer. Past that it is closed, else `again` runs once the grace is over, to
 * decide afresh. Shared with the fast lane (fast-lane.ts), whose connections drain by the same rule.
 *
 * Closing waits for one look after the event loop has read its sockets: a timer runs before the loop
 * reads, so when the loop was held (a CPU-bound action, a long GC pause, the signal's own turn) a
 * request that arrived meanwhile would still be unread in the socket, and closing would meet it with a
 * reset. `again` runs after that look; if the connection is still idle it is closed then.
 */
export function letGoAfterGrace(connection: GracedConnection, again: () => void): void {
  const grace = connection.answered ? Math.min(GRACE_MAX_MS, Math.max(GRACE_MIN_MS, 3 * connection.longestPause)) : 0;
  const left = grace - (performance.now() - connection.idleSince);
  if (left > 0) {
    connection.graceTimer ??= setTimeout(() => {
      connection.graceTimer = null;
      again();
    }, left);
    connection.graceTimer.unref();
    return;
  }
  // A look taken since its last answer saw nothing arrive.
  if (connection.lookedAt >= connection.idleSince) {
    connection.socket.destroy();
    return;
  }
  connection.lastLook ??= setImmediate(() => {
    connection.lastLook = null;
    connection.lookedAt = performance.now();
    again();
  });
}

/** Clears a closed connection's grace timers. */
export function forgetGrace(connection: GracedConnection): void {
  if (connection.graceTimer !== null) clearTimeout(connection.graceTimer);
  if (connection.lastLook !== null) clearImmediate(connection.lastLook);
}

class Connection {
  /** Requests received and not yet answered, running or waiting. */
  unanswered = 0;
  /** Responses of the requests running now. */
  readonly running = new Set<ServerResponse>();
  /** Requests parsed but not started, in arrival order. */
  readonly waiting: (() => void)[] = [];
  /** Whether this side stopped reading the socket (too many requests waiting). */
  holding = false;
  /** The socket's byte count when its last request arrived: bytes read beyond it make no whole request (yet). */
  bytesAtRequest = 0;
  /** When the last request was answered (or the connection opened). */
  idleSince = performance.now();
  /** The longest pause seen between an answer and the client's next request on this connection. */
  longestPause = 0;
  graceTimer: NodeJS.Timeout | null = null;
  lastLook: NodeJS.Immediate | null = null;
  lookedAt = -1;
  /** Whether any request has been answered here (before that, `idleSince` is when it opened). */
  answered = false;

  constructor(readonly socket: Socket) {}
}

export class Connections {
  readonly #all = new Map<Socket, Connection>();
  readonly #maxPipelined: number;
  #draining = false;

  constructor(maxPipelined: number) {
    this.#maxPipelined = maxPipelined;
  }

  /** Open connections. */
  get size(): number {
    return this.#all.size;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** Requests received and not yet answered, over all connections. */
  get unanswered(): number {
    let count = 0;
    for (const connection of this.#all.values()) count += connection.unanswered;
    return count;
  }

  /** Starts `start` for a request now, or once its connection's earlier requests leave room for it. */
  received(req: IncomingMessage, res: ServerResponse, start: () => void): void {
    const connection = this.#all.get(req.socket);
    // An upgrade request answered as plain HTTP, on a socket no longer counted here: nothing to bound.
    if (connection === undefined) return start();
    if (connection.unanswered === 0 && connection.answered) connection.longestPause = Math.max(connection.longestPause, performance.now() - connection.idleSince);
    connection.unanswered++;
    connection.bytesAtRequest = req.socket.bytesRead;
    const run = (): void => {
      connection.running.add(res);
      res.once('close', () => {
        connection.running.delete(res);
        connection.unanswered--;
        this.#next(connection);
      });
      start();
    };
    if (connection.running.size < this.#maxPipelined && connection.waiting.length === 0) run();
    else {
      connection.waiting.push(run);
      this.#hold(connection);
    }
  }

  /** Whether an answer about to be written should close its connection: the last one owed while draining. */
  closesAfter(res: ServerResponse): boolean {
    if (!this.#draining) return false;
    const connection = this.#all.get(res.req.socket);
    return connection === undefined || connection.unanswered <= 1;
  }

  /** Whether an answer has begun on `socket` (a raw error written now would land inside it). */
  answering(socket: Socket): boolean {
    const connection = this.#all.get(socket);
    if (connection === undefined) return false;
    for (const res of connection.running) if (res.headersSent && !res.writableFinished) return true;
    return false;
  }

  /** Begins the drain: from now on connections are let go as they run out of requests. */
  drain(): void {
    this.#draining = true;
    for (const connection of this.#all.values()) if (connection.unanswered === 0) this.#letGo(connection);
  }

  /** Destroys every connection left; returns how many requests they still owed answers to. */
  cut(): number {
    let cut = 0;
    for (const connection of this.#all.values()) {
      cut += connection.unanswered;
      connection.socket.destroy();
    }
    return cut;
  }

  /** Starts counting a connection node:http reads (from its start, or once the fast lane hands it over). */
  open(socket: Socket): void {
    const connection = new Connection(socket);
    this.#all.set(socket, connection);
    // No 'data' listener: one would take the socket's reads away from Node's parser, which otherwise
    // consumes them without a JavaScript call per chunk. Half a request shows in the byte count instead.
    // Node resumes a socket it paused for its own reasons (its write buffer drained); a hold of ours outlasts that.
    socket.on('resume', () => {
      if (connection.holding) socket.pause();
    });
    socket.once('close', () => {
      this.#all.delete(socket);
      connection.waiting.length = 0;
      forgetGrace(connection);
    });
  }

  #next(connection: Connection): void {
    while (connection.running.size < this.#maxPipelined && connection.waiting.length > 0) connection.waiting.shift()!();
    if (connection.waiting.length === 0) this.#release(connection);
    if (connection.unanswered === 0) {
      connection.idleSince = performance.now();
      connection.answered = true;
      if (this.#draining) this.#letGo(connection);
    }
  }

  #hold(connection: Connection): void {
    if (connection.holding) return;
    connection.holding = true;
    connection.socket.pause();
  }

  #release(connection: Connection): void {
    if (!connection.holding) return;
    connection.holding = false;
    // Node pauses a socket itself while its answers wait to be written, and must be the one to resume it
    // (it then resumes its parser too); `_paused` is its flag for that.
    if (!(connection.socket as Socket & { _paused?: boolean })._paused) connection.socket.resume();
  }

  /** A draining connection with nothing owed: closed now, after its grace, or by the timeouts if half a request is in. */
  #letGo(connection: Connection): void {
    if (connection.socket.destroyed || connection.socket.bytesRead > connection.bytesAtRequest) return;
    letGoAfterGrace(connection, () => {
      if (connection.unanswered === 0) this.#letGo(connection);
    });
  }
}
