/**
 * The inspector's trace channel: a WebSocket (`<inspect path>/trace`) that
 * pushes every request's trace events, sanitised, to the pages watching.
 *
 * The app's trace listener is attached only while at least one page is
 * connected, so with nobody watching the engines skip tracing entirely
 * (`Tracer.active` is false). Events are batched (one frame per
 * `flush_ms`) and a page that does not keep up loses events rather than
 * making the server buffer them: past `max_buffered` bytes unsent, its
 * batches are dropped and counted, and it is told how many.
 *
 * Frames, server to page (JSON text; the page sends nothing):
 *   { "type": "hello", "protocol": 1, "engine": "compiled", "machines": ["request"], "recent": [event, ...] }
 *   { "type": "events", "events": [event, ...] }
 *   { "type": "dropped", "events": 120 }
 * Events are `WireTraceEvent`s (sanitise.ts): request, state, transition,
 * done, in the order they happened, one `id` per request. `recent` holds the
 * events of the last requests seen while any page was watching. Events of a
 * request that began before anyone watched are not sent.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createRequire } from 'node:module';
import type { WebSocketServer, WebSocket } from 'ws';
import type { App } from '../../machines/app.ts';
import type { TraceEvent } from '../../machines/trace.ts';
import { abortHandshake, CLOSE_GRACE_MS, ignore, originAllowed, pathOf, requestEnv } from '../upgrade.ts';
import { inspectorHostAllowed } from './host-check.ts';
import { sanitiseTraceEvent, type WireTraceEvent } from './sanitise.ts';

// Loaded when the inspector is made (development only), not with the transport.
const requireHere = createRequire(import.meta.url);
const webSocketServer = (): typeof WebSocketServer => (requireHere('ws') as typeof import('ws')).WebSocketServer;

export const TRACE_PROTOCOL = 1;
export interface TraceChannelLimits {
  /** How long events gather before they are sent, in ms. */
  readonly flush_ms: number;
  /** Bytes a page may leave unread before its batches are dropped. */
  readonly max_buffered: number;
  readonly max_viewers: number;
  /** Requests whose events a newly connected page receives in `hello`. */
  readonly recent_requests: number;
  /** Ping interval; a page that has not answered the last ping by the next is dropped. */
  readonly heartbeatMs: number;
}

export const TRACE_CHANNEL_DEFAULTS: TraceChannelLimits = Object.freeze({
  flush_ms: 40,
  max_buffered: 4 * 1024 * 1024,
  max_viewers: 16,
  recent_requests: 100,
  heartbeatMs: 30_000,
});

interface Viewer {
  readonly ws: WebSocket;
  alive: boolean;
  dropped: number;
}

export interface TraceChannelOptions {
  readonly path: string;
  /** Machine ids announced in `hello`. */
  readonly machines: readonly string[];
  /** The limits, `TRACE_CHANNEL_DEFAULTS` unless given (tests shorten them). */
  readonly limits?: Partial<TraceChannelLimits>;
}

export class TraceChannel {
  readonly path: string;
  readonly #app: App;
  readonly #machines: readonly string[];
  readonly #limits: TraceChannelLimits;
  readonly #wss: WebSocketServer;
  readonly #viewers = new Set<Viewer>();
  /** Events of the requests being followed, by request id, oldest first (a Map keeps insertion order). */
  readonly #recent = new Map<string, WireTraceEvent[]>();
  #pending: WireTraceEvent[] = [];
  #flushTimer: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;
  #beat: NodeJS.Timeout | null = null;
  #closing: Promise<void> | null = null;

  constructor(app: App, options: TraceChannelOptions) {
    this.#app = app;
    this.path = options.path;
    this.#machines = options.machines;
    this.#limits = { ...TRACE_CHANNEL_DEFAULTS, ...options.limits };
    // Pages send nothing; a small payload limit bounds what a stray client can make the server read.
    this.#wss = new (webSocketServer())({ noServer: true, clientTracking: false, maxPayload: 4096, perMessageDeflate: false });
  }

  /** Pages connected now. */
  get viewers(): number {
    return this.#viewers.size;
  }

  /** Whether the app's trace listener is attached (exactly while a page is connected). */
  get listening(): boolean {
    return this.#unsubscribe !== null;
  }

  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', ignore);
    const refusal = this.#refusal(req);
    if (refusal !== null) {
      this.#app.log.info({ transport: 'inspect', remote: req.socket.remoteAddress ?? null, status: refusal[0] }, 'inspector trace channel refused');
      abortHandshake(socket, refusal[0], refusal[1]);
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#open(ws));
  };

  /** Why an upgrade is refused before any WebSocket exists, or null. */
  #refusal(req: IncomingMessage): readonly [number, string] | null {
    if (this.#closing !== null) return [503, 'The server is shutting down'];
    if (pathOf(req.url) !== this.path) return [404, 'Not Found'];
    const env = requestEnv(req, this.#app);
    if (!inspectorHostAllowed(env, this.#app)) return [403, 'Blocked host'];
    if (!originAllowed(env)) return [403, 'Origin not allowed'];
    if (this.#viewers.size >= this.#limits.max_viewers) return [503, 'Too many inspector pages are open'];
    return null;
  }

  #open(ws: WebSocket): void {
    if (this.#closing !== null) {
      ws.close(1001, 'server shutting down');
      return;
    }
    const viewer: Viewer = { ws, alive: true, dropped: 0 };
    this.#viewers.add(viewer);
    ws.on('pong', () => {
      viewer.alive = true;
    });
    ws.on('error', ignore);
    ws.on('close', () => this.#leave(viewer));
    const recent = [...this.#recent.values()].flat();
    ws.send(JSON.stringify({ type: 'hello', protocol: TRACE_PROTOCOL, engine: this.#app.engine, machines: this.#machines, recent }));
    if (this.#unsubscribe === null) {
      this.#unsubscribe = this.#app.trace(this.#onEvent);
      this.#beat = setInterval(() => this.#heartbeat(), this.#limits.heartbeatMs);
      this.#beat.unref();
    }
  }

  #leave(viewer: Viewer): void {
    if (!this.#viewers.delete(viewer) || this.#viewers.size > 0) return;
    // The last page went away: stop tracing, so requests cost what they cost unwatched.
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#beat !== null) clearInterval(this.#beat);
    this.#beat = null;
    if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    this.#pending = [];
    this.#recent.clear();
  }

  readonly #onEvent = (event: TraceEvent): void => {
    let events = this.#recent.get(event.id);
    if (event.kind === 'request') {
      events = [];
      this.#recent.set(event.id, events);
      if (this.#recent.size > this.#limits.recent_requests) this.#recent.delete(this.#recent.keys().next().value!);
    } else if (events === undefined) {
      // A request that started before anyone watched, or one long forgotten: half a trace would mislead.
      return;
    }
    const wire = sanitiseTraceEvent(event);
    if (wire === null) return;
    events.push(wire);
    this.#pending.push(wire);
    if (this.#flushTimer === null) {
      this.#flushTimer = setTimeout(this.#flush, this.#limits.flush_ms);
      this.#flushTimer.unref();
    }
  };

  readonly #flush = (): void => {
    this.#flushTimer = null;
    const events = this.#pending;
    this.#pending = [];
    if (events.length === 0) return;
    const frame = JSON.stringify({ type: 'events', events });
    for (const viewer of this.#viewers) {
      const { ws } = viewer;
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > this.#limits.max_buffered) {
        viewer.dropped += events.length;
        continue;
      }
      if (viewer.dropped > 0) {
        ws.send(JSON.stringify({ type: 'dropped', events: viewer.dropped }));
        viewer.dropped = 0;
      }
      ws.send(frame);
    }
  };

  #heartbeat(): void {
    for (const viewer of this.#viewers) {
      if (!viewer.alive) {
        viewer.ws.terminate();
        continue;
      }
      viewer.alive = false;
      viewer.ws.ping();
    }
  }

  /** Refuses new pages, sends what is pending, and closes every page's socket with `code`. */
  close(code = 1001): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#flushTimer !== null) {
        clearTimeout(this.#flushTimer);
        this.#flush();
      }
      await Promise.all([...this.#viewers].map((viewer) => new Promise<void>((resolveClosed) => {
        const { ws } = viewer;
        if (ws.readyState === ws.CLOSED) return resolveClosed();
        ws.once('close', () => resolveClosed());
        ws.close(code, 'server shutting down');
        // A page that never answers the close frame is cut off.
        setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
      })));
      this.#wss.close();
    })();
    return this.#closing;
  }
}
