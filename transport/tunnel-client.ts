/**
 * The tunnel's client: `fetch`-like requests over one WebSocket, many in
 * flight, matched to their answers by id. Runs in browsers on the native
 * `WebSocket` and in Node on `ws` (loaded only when needed, so a browser
 * bundle never pulls it in). It keeps the cookies responses set, reconnects
 * with backoff when the socket drops, and rejects what was in flight when it
 * does. Imports nothing from Node or the server.
 *
 * @example
 *   const t = await tunnel('ws://127.0.0.1:3000/_tunnel');
 *   const res = await t.request({ method: 'POST', path: '/posts.json', headers: { 'Content-Type': 'application/json' }, body: '{"post":{"title":"Hi"}}' });
 *   console.log(res.status, await res.json());
 *   await t.close();
 */
import { parseCookie, parseSetCookie } from 'cookie';
import { ArgumentError } from '../core/errors.ts';
import { checkOptionNames, shownValue } from '../core/options.ts';
import type { ErrorFrame, FrameId, RequestFrame, ResponseFrame } from './tunnel-frames.ts';
import { answeredAllItRead, COOKIE_NAME, COOKIE_VALUE, TUNNEL_PROTOCOL } from './tunnel-protocol.ts';
import { FrameResponse, toBase64, type TunnelResponse } from './tunnel-response.ts';

export type { TunnelResponse } from './tunnel-response.ts';

/** The part of the W3C WebSocket API the client uses; both the browser's and `ws` have it. */
export interface WebSocketLike {
  readonly readyState: number;
  /** The subprotocol the server chose ('' for none). */
  readonly protocol?: string;
  /** How binary frames arrive: browsers default to 'blob', which the client switches to 'arraybuffer'. */
  binaryType?: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: WebSocketMessageEvent) => void): void;
  addEventListener(type: 'close', listener: (event: WebSocketCloseEvent) => void): void;
  addEventListener(type: 'error', listener: (event: WebSocketErrorEvent) => void): void;
}

/** What the client reads of a message event: the frame, a string or binary data. */
export interface WebSocketMessageEvent {
  readonly data: unknown;
}

/** What the client reads of a close event (the browser's and `ws`'s both carry these). */
export interface WebSocketCloseEvent {
  readonly code?: number;
  readonly reason?: string;
}

/** What the client reads of an error event: `ws` says why (`message`, `error`); browsers say nothing. */
export interface WebSocketErrorEvent {
  readonly message?: string;
  readonly error?: Error;
}

/** The options the client gives a WebSocket class that takes them (`ws`); browsers' take none and ignore them. */
export interface WebSocketOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly origin?: string;
}

/** A WebSocket class: the third argument carries `ws`'s options (`headers`, `origin`); browsers ignore it. */
export type WebSocketClass = new (url: string, protocols?: string | string[], options?: WebSocketOptions) => WebSocketLike;

export interface ReconnectOptions {
  /** First delay, in ms. Default 100. */
  readonly minMs?: number | undefined;
  /** Longest delay, in ms. Default 5000. */
  readonly maxMs?: number | undefined;
  /** Attempts after a drop before giving up. Default 10. */
  readonly retries?: number | undefined;
}

export interface TunnelClientOptions {
  /** Headers for the upgrade request (`Cookie`, `Authorization`): Node only, browsers cannot set them. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The upgrade's `Origin`: Node only (a browser sends its page's). */
  readonly origin?: string | undefined;
  /** Reconnect after the socket drops (default on), or `false`. */
  readonly reconnect?: false | ReconnectOptions | undefined;
  /**
   * How long a request may wait for its answer, in ms, including time spent waiting for a reconnect;
   * also how long opening a socket may take before it counts as unavailable. Default 30 s.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * The WebSocket class: by default `ws` in Node (it can send `headers` and `origin`, and reports the
   * status of a refused handshake) and the global one elsewhere. Node's built-in one works too.
   */
  readonly WebSocket?: WebSocketClass | undefined;
  /**
   * Keep cookies that responses set and send them back (default true). `false` makes every request
   * carry only the headers it is given, like `fetch` with `credentials: 'omit'`.
   */
  readonly cookies?: boolean | undefined;
}

export interface TunnelRequestInit {
  /** Default GET; upper-cased, as `fetch` does. */
  readonly method?: string | undefined;
  /** The request target, `/path?query`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: string | Uint8Array | undefined;
}

export type TunnelEvent = 'reconnect' | 'disconnect' | 'close';

export interface Tunnel {
  request(init: TunnelRequestInit): Promise<TunnelResponse>;
  /** Closes the socket for good; whatever is in flight or waiting is rejected (`tunnel_closed`). */
  close(): Promise<void>;
  /**
   * Cookies kept from responses' Set-Cookie (and the upgrade's Cookie header), sent with later requests as changes
   * to the upgrade's cookies: one deleted from the Map, by an answer or by hand, is removed from them too. Like a
   * browser's jar it is bounded: at most 180 cookies (the one made first goes first), each at most 4096 characters.
   */
  readonly cookies: Map<string, string>;
  /** `open`, `reconnecting`, `idle` (the server closed normally; the next request reconnects) or `closed`. */
  readonly state: 'open' | 'reconnecting' | 'idle' | 'closed';
  /**
   * `reconnect` (a new socket is open; `{ attempt }`), `disconnect` (the socket dropped; `{ code, reason }`),
   * `close` (the tunnel is closed for good). Returns a function that removes the listener.
   */
  on(event: TunnelEvent, listener: (info: Record<string, unknown>) => void): () => void;
}

export type TunnelClientErrorCode = ErrorFrame['error']['code'] | 'tunnel_closed' | 'tunnel_timeout' | 'tunnel_unavailable' | 'bad_response';

/** A request the tunnel could not answer: an error frame's code, status and message, or the client's own. */
export class TunnelError extends Error {
  readonly code: TunnelClientErrorCode;
  readonly status: number | undefined;
  readonly id: FrameId | undefined;

  constructor(code: TunnelClientErrorCode, message: string, status?: number, id?: FrameId) {
    super(message);
    this.name = 'TunnelError';
    this.code = code;
    this.status = status;
    this.id = id;
  }
}

const OPEN = 1;
const CLOSING = 2;

/** How `ws` fails a handshake whose answer chooses none of the subprotocols offered. */
const NO_SUBPROTOCOL = 'Server sent no subprotocol';

/**
 * A handshake offering the batching protocol failed, perhaps because the server chose no subprotocol:
 * worth one more try offering none. `certain` when the WebSocket said that was the reason (`ws` does).
 */
class NoSubprotocol extends TunnelError {
  constructor(message: string, readonly certain: boolean) {
    super('tunnel_unavailable', message);
  }
}

/**
 * Opens a tunnel. Rejects (`tunnel_unavailable`, with the HTTP `status`
 * when `ws` reports one, e.g. 403 for a refused Origin) when the first
 * socket cannot open, or has not opened within `timeoutMs`; reconnecting
 * applies once it has.
 */
export async function tunnel(url: string, options: TunnelClientOptions = {}): Promise<Tunnel> {
  checkClientOptions(options);
  const Socket = await chooseWebSocket(options);
  const client = new TunnelClient(url, Socket, options);
  await client.start();
  return client;
}

const CLIENT_OPTIONS: ReadonlySet<string> = new Set(['headers', 'origin', 'reconnect', 'timeoutMs', 'WebSocket', 'cookies']);
const RECONNECT_OPTIONS: ReadonlySet<string> = new Set(['minMs', 'maxMs', 'retries']);

/**
 * Throws an `ArgumentError` for what `tunnel()` cannot use in its options, before any socket opens: a misspelt
 * option was ignored, and a timeout given as text ('5000') made every deadline a string, so no socket opened.
 */
function checkClientOptions(options: TunnelClientOptions): void {
  checkOptionNames('tunnel()', options, CLIENT_OPTIONS);
  const problem = clientValueProblem(options as Readonly<Record<string, unknown>>);
  if (problem !== null) throw new ArgumentError(`tunnel() option ${problem}`);
}

function clientValueProblem(o: Readonly<Record<string, unknown>>): string | null {
  if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === 'number' && o.timeoutMs > 0 && Number.isFinite(o.timeoutMs))) return `timeoutMs must be a positive number of milliseconds, not ${shownValue(o.timeoutMs)}`;
  if (o.cookies !== undefined && typeof o.cookies !== 'boolean') return `cookies must be true or false, not ${shownValue(o.cookies)}`;
  if (o.origin !== undefined && typeof o.origin !== 'string') return 'origin must be a string';
  if (o.WebSocket !== undefined && typeof o.WebSocket !== 'function') return 'WebSocket must be a WebSocket class';
  if (o.headers !== undefined && (o.headers === null || typeof o.headers !== 'object' || Object.values(o.headers).some((v) => typeof v !== 'string'))) return 'headers must be an object of strings';
  if (o.reconnect !== undefined && o.reconnect !== false) {
    if (o.reconnect === null || typeof o.reconnect !== 'object') return 'reconnect must be false or { minMs, maxMs, retries }';
    const r = o.reconnect as Readonly<Record<string, unknown>>;
    checkOptionNames('tunnel() reconnect', r, RECONNECT_OPTIONS);
    for (const key of RECONNECT_OPTIONS) {
      const value = r[key];
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0 && (key !== 'retries' || Number.isInteger(value)))) {
        return `reconnect.${key} must be a ${key === 'retries' ? 'whole number' : 'number of milliseconds'}, 0 or more, not ${shownValue(value)}`;
      }
    }
  }
  return null;
}

async function chooseWebSocket(options: TunnelClientOptions): Promise<WebSocketClass> {
  if (options.WebSocket !== undefined) return options.WebSocket;
  const native = (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  const inNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  // Node's built-in WebSocket (22 and later) can neither send upgrade headers nor say why a handshake was refused; `ws` can.
  if (native !== undefined && !inNode) return native;
  const ws = await import('ws');
  return ws.WebSocket as unknown as WebSocketClass;
}

interface Corkable {
  cork(): void;
  uncork(): void;
}

/** What is wrong with a request's init, or null: checked when it is made, so the error reaches the caller that made it. */
function requestProblem(init: TunnelRequestInit | undefined): string | null {
  if (init === null || typeof init !== 'object') return 'takes { path, method?, headers?, body? }';
  if (typeof init.path !== 'string') return `path must be a string (/path?query), not ${typeof init.path}`;
  if (init.method !== undefined && typeof init.method !== 'string') return `method must be a string, not ${typeof init.method}`;
  if (init.headers !== undefined && (init.headers === null || typeof init.headers !== 'object')) return `headers must be an object, not ${init.headers === null ? 'null' : typeof init.headers}`;
  const body: unknown = init.body;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    return `body must be a string or a Uint8Array, not ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body} (JSON.stringify an object, with a Content-Type)`;
  }
  return null;
}

interface Pending {
  readonly id: number;
  readonly init: TunnelRequestInit;
  readonly resolve: (response: TunnelResponse) => void;
  readonly reject: (error: TunnelError) => void;
  /** When it times out, on `performance.now()`'s clock. */
  readonly deadline: number;
  /** Its frame went out on the current socket: only then can an answer settle it. */
  sent: boolean;
  /** The frame of several requests it went out in, until it is settled. */
  batch: Batch | null;
}

/** A text frame that carried several requests (batching only): if it is refused unread, these are the requests it held. */
interface Batch {
  /** Its ordinal among the text frames sent on the socket, from 1, as the server counts them. */
  readonly ordinal: number;
  readonly members: readonly Pending[];
  /** Its length in UTF-16 units. */
  readonly chars: number;
  /** Members not settled yet: at 0 the batch is forgotten. */
  open: number;
}

class TunnelClient implements Tunnel {
  readonly cookies = new CookieJar();
  readonly #url: string;
  readonly #Socket: WebSocketClass;
  readonly #options: TunnelClientOptions;
  readonly #reconnect: Required<ReconnectOptions> | null;
  readonly #timeout: number;
  readonly #listeners = new Map<TunnelEvent, Set<(info: Record<string, unknown>) => void>>();
  /**
   * Every request not settled yet, sent or waiting, oldest first. All share one timeout, so this is
   * also the order of their deadlines, and one timer (`#deadline`) serves them all.
   */
  readonly #pending = new Map<number, Pending>();
  /** Not sent yet: waiting for a socket. */
  #waiting: Pending[] = [];
  /** Armed for the oldest request's deadline (or earlier) while any request is pending. */
  #deadline: ReturnType<typeof setTimeout> | null = null;
  /** Whether answers' Set-Cookie lines feed the jar, and the jar goes out with requests. */
  readonly #jar: boolean;
  #socket: WebSocketLike | null = null;
  #state: Tunnel['state'] = 'reconnecting';
  #seq = 0;
  #backoff: ReturnType<typeof setTimeout> | null = null;
  #wake: (() => void) | null = null;
  #socketClosed: Promise<void> = Promise.resolve();
  #tcp: Corkable | null = null;
  #corked = false;
  /** The server chose the batching protocol: requests of one turn leave as one frame, answers come as binary records. */
  #batching = false;
  /** Offer the batching protocol in the handshake: until a server is known to refuse a socket that offers it (`ws` says so). */
  #offer = true;
  /** Request frames of this turn, not sent yet, and their requests (batching only). */
  #outbox: string[] = [];
  #outboxMembers: Pending[] = [];
  #outboxChars = 0;
  #outboxScheduled = false;
  /**
   * Most UTF-16 units of requests in one batch. Halved (for this tunnel, reconnects included) when the
   * server refuses a batch as too large, or drops the socket for one (1009): its limits are its own.
   */
  #batchChars = BATCH_CHARS;
  /** Text frames sent on this socket (batching only): the server names a frame it refused by this count. */
  #framesSent = 0;
  /** Frames of several requests sent on this socket with some not settled, by ordinal. */
  readonly #batches = new Map<number, Batch>();
  /** The longest batch sent on this socket, in UTF-16 units (0 for none): what a 1009 close is blamed on. */
  #longestBatch = 0;

  constructor(url: string, Socket: WebSocketClass, options: TunnelClientOptions) {
    this.#url = url;
    this.#Socket = Socket;
    this.#options = options;
    this.#timeout = options.timeoutMs ?? 30_000;
    this.#jar = options.cookies !== false;
    this.#reconnect = options.reconnect === false ? null : {
      minMs: options.reconnect?.minMs ?? 100,
      maxMs: options.reconnect?.maxMs ?? 5_000,
      retries: options.reconnect?.retries ?? 10,
    };
    const cookie = Object.entries(options.headers ?? {}).find(([name]) => name.toLowerCase() === 'cookie')?.[1];
    if (cookie !== undefined) {
      // Seeded from the upgrade's cookies so that a request carrying the jar still carries them.
      const given = parseCookie(cookie, { decode: (v) => v });
      for (const name of Object.keys(given)) if (given[name] !== undefined) this.cookies.set(name, given[name]!);
    }
  }

  get state(): Tunnel['state'] {
    return this.#state;
  }

  async start(): Promise<void> {
    this.#attach(await this.#open());
    this.#state = 'open';
  }

  on(event: TunnelEvent, listener: (info: Record<string, unknown>) => void): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set!.delete(listener);
  }

  request(init: TunnelRequestInit): Promise<TunnelResponse> {
    return new Promise<TunnelResponse>((resolve, reject) => {
      if (this.#state === 'closed') {
        reject(new TunnelError('tunnel_closed', 'The tunnel is closed'));
        return;
      }
      const problem = requestProblem(init);
      if (problem !== null) {
        reject(new TunnelError('bad_frame', `request(): ${problem}`, 400));
        return;
      }
      const pending: Pending = { id: ++this.#seq, init, resolve, reject, deadline: performance.now() + this.#timeout, sent: false, batch: null };
      this.#pending.set(pending.id, pending);
      this.#deadline ??= setTimeout(this.#expire, this.#timeout);
      if (this.#state === 'open' && this.#socket !== null && this.#socket.readyState === OPEN) {
        this.#send(pending);
        return;
      }
      this.#waiting.push(pending);
      if (this.#state === 'idle') void this.#reconnectLoop();
    });
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return this.#socketClosed;
    this.#state = 'closed';
    if (this.#backoff !== null) clearTimeout(this.#backoff);
    this.#wake?.();
    this.#failAll('The tunnel was closed');
    const socket = this.#socket;
    if (socket !== null && socket.readyState < CLOSING) socket.close(1000, 'client closed');
    await this.#socketClosed;
    this.#emit('close', {});
  }

  /**
   * One socket, open; rejects with `tunnel_unavailable` when it cannot open, or does not within `timeoutMs`.
   * A WebSocket fails the handshake when the server chooses none of the subprotocols offered (one of an
   * earlier release, or with batching off): then it is tried once more offering none. `ws` says when
   * that was the reason, and then this tunnel offers none from then on. Browsers and Node's built-in
   * WebSocket do not: with them any failure without a status is tried again, and the offer stands for
   * the next socket, since a server that was down and came back between the two tries looks the same.
   */
  async #open(): Promise<WebSocketLike> {
    const deadline = performance.now() + this.#timeout;
    if (!this.#offer) return this.#handshake(false, deadline);
    try {
      return await this.#handshake(true, deadline);
    } catch (error) {
      if (!(error instanceof NoSubprotocol)) throw error;
      // Only a server that then accepts shows that the offer was the reason (a server that is down fails both).
      const socket = await this.#handshake(false, deadline);
      if (error.certain) this.#offer = false;
      return socket;
    }
  }

  #handshake(offer: boolean, deadline: number): Promise<WebSocketLike> {
    return new Promise((resolve, reject) => {
      const nodeOptions = {
        ...(this.#options.headers !== undefined ? { headers: this.#options.headers } : {}),
        ...(this.#options.origin !== undefined ? { origin: this.#options.origin } : {}),
      };
      let socket: WebSocketLike;
      try {
        socket = new this.#Socket(this.#url, offer ? [TUNNEL_PROTOCOL] : [], nodeOptions);
      } catch (error) {
        reject(new TunnelError('tunnel_unavailable', `Cannot open ${this.#url}: ${(error as Error).message}`));
        return;
      }
      let status: number | undefined;
      let reason = '';
      const emitter = socket as unknown as { on?: (event: string, fn: (...args: never[]) => void) => void };
      if (typeof emitter.on === 'function') {
        // `ws` reports the status of a refused handshake (403 for a foreign Origin); browsers do not.
        emitter.on('unexpected-response', (req: { destroy(error: Error): void }, res: { statusCode?: number; resume(): void }) => {
          status = res.statusCode;
          res.resume();
          req.destroy(new Error(`Unexpected server response: ${status}`));
        });
      }
      let settled = false;
      // `ws` says why a handshake failed; browsers and Node's built-in WebSocket say nothing, and fail it too when the server chose no subprotocol.
      const saysWhy = typeof emitter.on === 'function';
      const unavailable = (why: string, timedOut = false): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // A browser says nothing of a refused handshake: say where the reason is, and the usual one.
        const message = `Cannot open ${this.#url}${why ? `: ${why}` : saysWhy ? '' : BROWSER_SILENT}`;
        const refusedOffer = offer && !timedOut && (saysWhy ? why === NO_SUBPROTOCOL : status === undefined);
        reject(refusedOffer ? new NoSubprotocol(message, saysWhy) : new TunnelError('tunnel_unavailable', message, status));
      };
      // A server that accepts the connection and never answers the upgrade would otherwise hold tunnel() forever.
      const timer = setTimeout(() => {
        unavailable(`no handshake within ${this.#timeout} ms`, true);
        socket.close();
      }, Math.max(0, deadline - performance.now()));
      socket.addEventListener('error', (event: { message?: string; error?: Error }) => {
        reason = event.error?.message || event.message || reason;
        // An error before `open` ends the attempt: Node 22's built-in WebSocket reports a refused
        // handshake with `error` alone and never `close`; `ws` and browsers follow with `close`.
        unavailable(reason);
      });
      socket.addEventListener('open', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(socket);
      });
      socket.addEventListener('close', () => { unavailable(reason); });
    });
  }

  #attach(socket: WebSocketLike): void {
    this.#socket = socket;
    // `ws` in Node keeps its TCP socket in `_socket` (not typed, stable across versions); a browser's WebSocket has none.
    const tcp = (socket as { _socket?: Corkable })._socket;
    this.#tcp = typeof process !== 'undefined' && typeof process.nextTick === 'function' && typeof tcp?.cork === 'function' ? tcp : null;
    this.#corked = false;
    // A server that does not know the batching protocol chooses none: JSON text frames, one request each.
    this.#batching = socket.protocol === TUNNEL_PROTOCOL;
    if (socket.binaryType === 'blob') socket.binaryType = 'arraybuffer';
    this.#outbox = [];
    this.#outboxMembers = [];
    this.#outboxChars = 0;
    this.#framesSent = 0;
    this.#batches.clear();
    this.#longestBatch = 0;
    let closed!: () => void;
    this.#socketClosed = new Promise((r) => {
      closed = r;
    });
    socket.addEventListener('message', (event: { data: unknown }) => this.#onMessage(event.data));
    socket.addEventListener('close', (event: { code?: number; reason?: string }) => {
      if (this.#socket === socket) this.#socket = null;
      closed();
      this.#onClose(event.code ?? 1006, event.reason ?? '');
    });
    for (const pending of this.#waiting.splice(0)) this.#send(pending);
  }

  /** Rejects every request whose deadline has passed, oldest first, and arms the timer for the next one. */
  readonly #expire = (): void => {
    this.#deadline = null;
    const now = performance.now();
    for (const pending of this.#pending.values()) {
      if (pending.deadline > now) {
        this.#deadline = setTimeout(this.#expire, pending.deadline - now);
        return;
      }
      this.#forget(pending);
      pending.reject(new TunnelError('tunnel_timeout', `No answer within ${this.#timeout} ms`, undefined, pending.id));
    }
  };

  #send(pending: Pending): void {
    let text: string;
    try {
      text = this.#frameText(pending);
    } catch (error) {
      // Only this request fails (a body that cannot be serialised, say): the others sent with it go on.
      this.#forget(pending);
      pending.reject(new TunnelError('bad_frame', `request(): ${(error as Error).message}`, 400));
      return;
    }
    pending.sent = true;
    if (this.#batching) {
      this.#enqueue(text, pending);
      return;
    }
    const tcp = this.#tcp;
    if (tcp !== null && !this.#corked) {
      // Requests made in the same turn leave in one write instead of one system call each.
      this.#corked = true;
      tcp.cork();
      process.nextTick(() => {
        this.#corked = false;
        tcp.uncork();
      });
    }
    this.#socket!.send(text);
  }

  /** The request frame as JSON text, with the jar's changes to the upgrade's cookies when it carries no Cookie of its own. */
  #frameText(pending: Pending): string {
    const { init } = pending;
    const headers = ownHeaders(init.headers);
    const frame: { -readonly [K in keyof RequestFrame]: RequestFrame[K] } = {
      id: pending.id,
      method: init.method === undefined ? 'GET' : init.method.toUpperCase(),
      path: init.path,
    };
    if (headers !== undefined) frame.headers = headers;
    if (this.#jar && (this.cookies.size > 0 || this.cookies.removed.size > 0) && (headers === undefined || !hasCookie(headers))) {
      // Changes, not the whole Cookie: in a browser the upgrade carried cookies a script cannot see (an HttpOnly session).
      const cookies = Object.create(null) as Record<string, string | null>;
      for (const name of this.cookies.removed) cookies[name] = null;
      for (const [name, value] of this.cookies) cookies[name] = value;
      frame.cookies = cookies;
    }
    if (typeof init.body === 'string') frame.body = init.body;
    else if (init.body !== undefined) frame.bodyBase64 = toBase64(init.body);
    return JSON.stringify(frame);
  }

  /** Adds a request frame to this turn's batch; the batch leaves when the turn ends or reaches `#batchChars`. */
  #enqueue(text: string, pending: Pending): void {
    if (text.length > this.#batchChars) {
      this.#sendAlone(text);
      return;
    }
    if (this.#outboxChars + text.length > this.#batchChars) this.#flushOutbox();
    this.#outbox.push(text);
    this.#outboxMembers.push(pending);
    this.#outboxChars += text.length + 1;
    if (!this.#outboxScheduled) {
      this.#outboxScheduled = true;
      defer(this.#endTurn);
    }
  }

  readonly #endTurn = (): void => {
    this.#outboxScheduled = false;
    this.#flushOutbox();
  };

  /** One request as its own frame, after the batch waiting (so frames keep the order of their requests). */
  #sendAlone(text: string): void {
    this.#flushOutbox();
    const socket = this.#socket;
    if (socket === null || socket.readyState !== OPEN) return;
    // Refused as too large, it is still named by its id, which the server reads from the frame's start.
    this.#framesSent++;
    socket.send(text);
  }

  #flushOutbox(): void {
    const texts = this.#outbox;
    if (texts.length === 0) return;
    const members = this.#outboxMembers;
    this.#outbox = [];
    this.#outboxMembers = [];
    this.#outboxChars = 0;
    const socket = this.#socket;
    // A socket that closed meanwhile has already rejected these requests.
    if (socket === null || socket.readyState !== OPEN) return;
    const ordinal = ++this.#framesSent;
    if (texts.length === 1) {
      socket.send(texts[0]);
      return;
    }
    const text = `[${texts.join(',')}]`;
    const batch: Batch = { ordinal, members, chars: text.length, open: members.length };
    for (const pending of members) pending.batch = batch;
    this.#batches.set(ordinal, batch);
    if (text.length > this.#longestBatch) this.#longestBatch = text.length;
    socket.send(text);
  }

  /**
   * The server refused the frame `ordinal` unread. A batch too large for the server is its own doing, not
   * its requests' (each may well fit alone, and none of them reached the app): they go again, each alone,
   * and later batches are at most half as long. Any other refusal rejects them with its error.
   */
  #refusedFrame(ordinal: number, error: ErrorFrame['error']): void {
    const batch = this.#batches.get(ordinal);
    if (batch === undefined) return;
    this.#batches.delete(ordinal);
    const members = batch.members.filter((pending) => this.#pending.get(pending.id) === pending);
    for (const pending of members) pending.batch = null;
    if (error.code === 'frame_too_large') {
      this.#batchChars = Math.min(this.#batchChars, Math.floor(batch.chars / 2));
      for (const pending of members) this.#sendAlone(this.#frameText(pending));
      return;
    }
    for (const pending of members) {
      this.#forget(pending);
      pending.reject(new TunnelError(error.code, error.message, error.status, pending.id));
    }
  }

  #onMessage(data: unknown): void {
    if (typeof data !== 'string') {
      if (this.#batching) this.#onRecords(data);
      return;
    }
    let frame: Partial<ResponseFrame & ErrorFrame> | null;
    try {
      frame = JSON.parse(data) as Partial<ResponseFrame & ErrorFrame>;
    } catch {
      return;
    }
    this.#settle(frame, null);
  }

  /** A binary frame of the batching protocol: records of a head's and a body's length, the head (JSON), the body. */
  #onRecords(data: unknown): void {
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
    if (bytes === null) return;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    while (at + 8 <= bytes.byteLength) {
      const bodyStart = at + 8 + view.getUint32(at);
      const end = bodyStart + view.getUint32(at + 4);
      if (end > bytes.byteLength) return;
      let frame: Partial<ResponseFrame & ErrorFrame> | null;
      try {
        frame = JSON.parse(utf8.decode(bytes.subarray(at + 8, bodyStart))) as Partial<ResponseFrame & ErrorFrame>;
      } catch {
        frame = null;
      }
      at = end;
      if (frame !== null) this.#settle(frame, bytes.subarray(bodyStart, end));
    }
  }

  /** Settles the request an answer names: `body` is the record's body bytes, or null for a JSON text frame. */
  #settle(frame: Partial<ResponseFrame & ErrorFrame> | null, body: Uint8Array | null): void {
    if (frame === null || typeof frame !== 'object') return;
    if (typeof frame.id !== 'number') {
      if (frame.id === undefined && typeof frame.frame === 'number' && frame.error !== undefined) this.#refusedFrame(frame.frame, frame.error);
      return;
    }
    const pending = this.#pending.get(frame.id);
    if (pending === undefined || !pending.sent) return;
    this.#forget(pending);
    if (frame.error !== undefined) {
      const { code, message, status } = frame.error;
      pending.reject(new TunnelError(code, message, status, frame.id));
      return;
    }
    if (typeof frame.status !== 'number' || frame.headers === null || typeof frame.headers !== 'object') {
      pending.reject(new TunnelError('bad_response', 'The answer is not a response frame', undefined, frame.id));
      return;
    }
    const response = new FrameResponse(frame as ResponseFrame, body);
    if (this.#jar) this.#keepCookies(response.headers.getSetCookie());
    pending.resolve(response);
  }

  #forget(pending: Pending): void {
    this.#pending.delete(pending.id);
    const batch = pending.batch;
    if (batch !== null) {
      pending.batch = null;
      if (--batch.open === 0) this.#batches.delete(batch.ordinal);
    }
    if (!pending.sent) {
      const waiting = this.#waiting.indexOf(pending);
      if (waiting >= 0) this.#waiting.splice(waiting, 1);
    }
    if (this.#pending.size === 0 && this.#deadline !== null) {
      // Nothing left to time out: no timer keeps the process alive.
      clearTimeout(this.#deadline);
      this.#deadline = null;
    }
  }

  #onClose(code: number, reason: string): void {
    // 1009: a frame was over the server's maxPayloadBytes. Blame the longest batch, so that the next socket's fit.
    if (code === 1009 && this.#longestBatch > 0) this.#batchChars = Math.min(this.#batchChars, Math.floor(this.#longestBatch / 2));
    // A server draining, or closing an idle socket, answered every request it read first: the others never reached the app.
    const unread = answeredAllItRead(reason);
    const again: Pending[] = [];
    // An answer can no longer arrive on another socket: the server forgot these ids with this one.
    for (const pending of [...this.#pending.values()]) {
      if (!pending.sent) continue;
      if (unread && this.#reconnect !== null && this.#state !== 'closed') {
        pending.sent = false;
        pending.batch = null;
        again.push(pending);
        continue;
      }
      this.#forget(pending);
      const why = unread ? 'before the server read it; it was not run' : 'before the answer arrived';
      pending.reject(new TunnelError('tunnel_closed', `The socket closed (${code}${reason ? ` ${reason}` : ''}) ${why}`, undefined, pending.id));
    }
    // Oldest first, ahead of those made since: the next socket sends them in the order they were made.
    if (again.length > 0) this.#waiting = [...again, ...this.#waiting];
    if (this.#state === 'closed') return;
    this.#emit('disconnect', { code, reason });
    if (this.#reconnect === null) {
      this.#state = 'closed';
      this.#failAll(`The socket closed (${code})`);
      this.#emit('close', {});
    } else if (code === 1000 && this.#waiting.length === 0) {
      // A deliberate close (the server's idle timeout): reconnect when there is something to send.
      this.#state = 'idle';
    } else void this.#reconnectLoop();
  }

  async #reconnectLoop(): Promise<void> {
    if (this.#state === 'reconnecting' || this.#state === 'closed') return;
    this.#state = 'reconnecting';
    const { minMs, maxMs, retries } = this.#reconnect!;
    for (let attempt = 1; attempt <= retries; attempt++) {
      // Exponential with jitter, so clients dropped together do not come back together.
      const ceiling = Math.min(maxMs, minMs * 2 ** (attempt - 1));
      await new Promise<void>((wake) => {
        this.#wake = wake;
        this.#backoff = setTimeout(wake, ceiling / 2 + Math.random() * (ceiling / 2));
      });
      this.#backoff = null;
      this.#wake = null;
      if (this.#closedForGood()) return;
      let socket: WebSocketLike;
      try {
        socket = await this.#open();
      } catch {
        continue;
      }
      if (this.#closedForGood()) {
        socket.close(1000, 'client closed');
        return;
      }
      this.#state = 'open';
      this.#attach(socket);
      this.#emit('reconnect', { attempt });
      return;
    }
    if (this.#closedForGood()) return;
    this.#state = 'closed';
    this.#failAll(`Could not reconnect after ${retries} attempts`);
    this.#emit('close', {});
  }

  // A method, not a field read, because close() may run while the loop awaits.
  #closedForGood(): boolean {
    return this.#state === 'closed';
  }

  #failAll(message: string): void {
    for (const pending of [...this.#pending.values()]) {
      this.#forget(pending);
      pending.reject(new TunnelError('tunnel_closed', message, undefined, pending.id));
    }
  }

  #keepCookies(lines: readonly string[]): void {
    for (const line of lines) {
      // Raw values, as the server wrote them: they go back exactly so (the server decodes).
      const cookie = parseSetCookie(line, { decode: (v) => v });
      if (cookie.name === '' || !COOKIE_NAME.test(cookie.name)) continue;
      const expired = cookie.maxAge !== undefined ? cookie.maxAge <= 0 : cookie.expires !== undefined && cookie.expires.getTime() <= Date.now();
      if (expired) {
        this.cookies.delete(cookie.name);
      } else if (cookie.value !== undefined && cookie.name.length + cookie.value.length <= MAX_COOKIE_CHARS && COOKIE_VALUE.test(cookie.value)) {
        // Set again, a cookie keeps its place (RFC 6265 keeps its creation time): a full jar forgets the one made first.
        this.cookies.set(cookie.name, cookie.value);
        if (this.cookies.size > MAX_COOKIES) this.cookies.delete(this.cookies.keys().next().value!);
      }
    }
  }

  #emit(event: TunnelEvent, info: Record<string, unknown>): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        listener(info);
      } catch {
        // A listener's failure is its own; the tunnel goes on.
      }
    }
  }
}

const BROWSER_SILENT = ' (the WebSocket does not say why: the server may be down, or it refused the handshake, as it does a page of another origin than its own unless serve(app, { tunnel: { origins } }) lists that origin; the server\'s log names the reason)';

/**
 * Most UTF-16 units of request frames batched into one frame (at most three times as many bytes of
 * UTF-8): far below any sensible `maxFrameBytes`, and enough for a hundred requests without bodies.
 */
const BATCH_CHARS = 4096;

const utf8 = new TextDecoder();

/** Runs `fn` once the current turn's work is done: after every microtask in Node, as a microtask elsewhere. */
const defer: (fn: () => void) => void =
  typeof process !== 'undefined' && typeof process.nextTick === 'function' ? (fn) => process.nextTick(fn) : (fn) => queueMicrotask(fn);

/** A request's own headers as the frame carries them: undefined when there are none. */
function ownHeaders(headers: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | undefined {
  if (headers === undefined) return undefined;
  const proto = Object.getPrototypeOf(headers) as unknown;
  // A plain object goes into the frame as it is; anything else is copied to its own enumerable keys first, as before.
  const plain = proto === Object.prototype || proto === null ? headers : { ...headers };
  for (const name in plain) if (Object.hasOwn(plain, name)) return plain;
  return undefined;
}

function hasCookie(headers: Readonly<Record<string, string>>): boolean {
  for (const name of Object.keys(headers)) if (name.length === 6 && name.toLowerCase() === 'cookie') return true;
  return false;
}

/**
 * The client's cookies, a Map that remembers what it no longer holds: a cookie deleted (by an answer,
 * by the jar's bound, or by hand) is removed from the upgrade's cookies too on later requests, until
 * it is set again. Removals are bounded as the cookies are, the oldest forgotten first.
 */
class CookieJar extends Map<string, string> {
  readonly removed = new Set<string>();

  override set(name: string, value: string): this {
    // Called by Map's constructor before the field exists; the jar is made empty, so only later calls count.
    this.removed?.delete(name);
    return super.set(name, value);
  }

  override delete(name: string): boolean {
    this.removed.add(name);
    if (this.removed.size > MAX_COOKIES) this.removed.delete(this.removed.values().next().value!);
    return super.delete(name);
  }

  override clear(): void {
    for (const name of this.keys()) this.delete(name);
  }
}

/**
 * The jar's bounds, a browser's (RFC 6265 asks for at least 50 cookies of 4096 bytes per domain; browsers keep
 * 150-180): every cookie kept goes out with every request, so a server setting new names on each answer would
 * otherwise grow the client's memory and its frames until the server refused them.
 */
const MAX_COOKIES = 180;
const MAX_COOKIE_CHARS = 4096;
