/**
 * Making apps and talking to them, for every suite that drives whole
 * requests. Not a test file itself.
 *
 * - In process: `appWith` builds an app (Rails' default routes unless told),
 *   `call(app, 'GET /posts/1?x=1')` sends one line through `app.handle`,
 *   `publicAnswer` says whether the public directory answered.
 * - Served: `withServer` serves an app on a free port of 127.0.0.1 for the
 *   length of a test; `serveApp`/`withApp` do so with the log captured and
 *   requests sent byte for byte over HTTP or through the tunnel; `get` and
 *   `upgradeRequest` are raw HTTP requests and handshakes.
 * - Every transport: `TRANSPORTS` carries one request/response contract
 *   through `app.handle` directly, over HTTP and through the tunnel, so a
 *   suite written against `Client` proves the transports interchangeable.
 * - Odds and ends: `captureLogs`, `gate`, `tempDir`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { draw, STATUS_CODES, type ControllerClass, type Mapper, type RequestMessage, type ResponseMessage, type RouteSet } from '../../core/index.ts';
import { createApp, type App, type CreateAppOptions } from '../../machines/index.ts';
import { serve, tunnel, TunnelError, type RunningServer, type ServeOptions, type Tunnel } from '../../transport/index.ts';

// ---------------------------------------------------------------------------
// In process
// ---------------------------------------------------------------------------

export type { ControllerClass };

export interface AppOptions extends Partial<Omit<CreateAppOptions, 'routes' | 'controllers'>> {
  /** Routes to draw; Rails' default `:controller/:action/:id(.:format)` routes when absent. */
  readonly draw?: (map: Mapper) => void;
  readonly routes?: RouteSet;
}

/** Rails' default routes, as `config/routes.rb` ended in 2.1. */
export function defaultRoutes(map: Mapper): void {
  map.connect(':controller/:action/:id.:format');
  map.connect(':controller/:action/:id');
  map.connect(':controller/:action');
}

/** An app in the test environment (quiet, forgery protection off unless configured) over `controllers`. */
export function appWith(controllers: Record<string, ControllerClass>, options: AppOptions = {}): App {
  const { draw: block, routes, ...rest } = options;
  // Longest names first, so `admin/posts` is tried before `admin`.
  const names = Object.keys(controllers).sort((a, b) => b.length - a.length);
  return createApp({
    routes: routes ?? draw(block ?? defaultRoutes, { controllers: names }),
    controllers,
    environment: 'test',
    logger: false,
    ...rest,
  });
}

export interface Reply {
  readonly status: number;
  readonly reason: string | undefined;
  readonly headers: Record<string, string | string[]>;
  /** The body as UTF-8 text. */
  readonly body: string;
  readonly message: ResponseMessage;
  /** A header by any case; repeated values joined with `, `. */
  header(name: string): string | undefined;
}

export interface CallOptions {
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Uint8Array;
  readonly remoteAddress?: string;
  readonly encrypted?: boolean;
}

/** Reads a header of a response message by any case. */
export function headerOf(message: Pick<ResponseMessage, 'headers'>, name: string): string | undefined {
  const key = Object.keys(message.headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : message.headers[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function reply(message: ResponseMessage): Reply {
  return {
    status: message.status,
    reason: message.reason,
    headers: message.headers,
    body: typeof message.body === 'string' ? message.body : Buffer.from(message.body).toString('utf8'),
    message,
    header: (name) => headerOf(message, name),
  };
}

/** The message for `'<METHOD> <target>'`, with Host `test.host` unless the headers name one. */
export function messageFor(line: string, options: CallOptions = {}): RequestMessage {
  const space = line.indexOf(' ');
  const headers: Record<string, string | string[]> = { ...(options.headers ?? {}) };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'host')) headers.host = 'test.host';
  return {
    method: line.slice(0, space),
    url: line.slice(space + 1),
    headers,
    body: options.body ?? null,
    remoteAddress: options.remoteAddress ?? '10.0.0.1',
    ...(options.encrypted !== undefined ? { encrypted: options.encrypted } : {}),
  };
}

/** Sends `'<METHOD> <target>'` through `app.handle`. Remote (10.0.0.1) unless told otherwise. */
export async function call(app: App, line: string, options: CallOptions = {}): Promise<Reply> {
  return reply(await app.handle(messageFor(line, options)));
}

/** A url-encoded form body with its Content-Type. */
export function form(fields: Record<string, string>): CallOptions {
  return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}

/** A fresh directory under the OS temp dir, and a function that removes it. */
export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `signalbox-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface PublicRequest {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The app's answer to `url` when a public file or a cached page gave it (the request went from
 * `servingPublic` straight to `responding`), or null when anything else answered it.
 */
export async function publicAnswer(app: App, url: string, request: PublicRequest = {}): Promise<ResponseMessage | null> {
  const states: string[] = [];
  const stop = app.trace((e) => {
    if (e.kind === 'state') states.push(e.state);
  });
  try {
    const response = await app.handle({ method: request.method ?? 'GET', url, headers: { host: 'test.host', ...request.headers } });
    return states[1] === 'responding' ? response : null;
  } finally {
    stop();
  }
}

/** An app's log, captured: a pino logger at `level` writing into `lines`, one parsed object per line. */
export function captureLogs(level = 'info'): { readonly logger: Logger; readonly lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text.trim() !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** A promise and the function that settles it, to hold an action mid-render. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

// ---------------------------------------------------------------------------
// Served
// ---------------------------------------------------------------------------

/** Serves `app` on a free port of 127.0.0.1 while `body` runs, then closes it. */
export async function withServer(app: App, options: ServeOptions, body: (server: RunningServer) => Promise<void>): Promise<void> {
  const server = await serve(app, { port: 0, host: '127.0.0.1', ...options });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

export interface Got { status: number; headers: Record<string, string | string[] | undefined>; body: string }

export function get(server: RunningServer, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', reject).end();
  });
}

/** An upgrade handshake with these headers: the status it gets (101 when accepted). */
export async function handshake(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<number> {
  return (await upgradeRequest(server, path, headers)).status;
}

/** An upgrade handshake with exactly these headers: the status it gets (101 when accepted), and the body of a refusal. */
export function upgradeRequest(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1', port: server.port, path, agent: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', ...headers },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Served {
  readonly app: App;
  readonly server: RunningServer;
  /** Every log line, parsed. */
  readonly lines: Record<string, unknown>[];
  /** The `request completed` lines. */
  completed(): Record<string, unknown>[];
  send(method: string, path: string, headers?: Record<string, string>, body?: string): Promise<Answer>;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** The same request through the WebSocket tunnel. */
  viaTunnel(method: string, path: string, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

export interface ServeAppOptions extends Partial<Omit<CreateAppOptions, 'routes' | 'controllers'>> {
  readonly draw?: (map: Mapper) => void;
}

/** Serves `controllers` over `draw` (default: `map.resources` for each, and a root) in the test environment, logging into memory. */
export async function serveApp(controllers: Record<string, ControllerClass>, options: ServeAppOptions = {}): Promise<Served> {
  const { draw: block, ...rest } = options;
  const names = Object.keys(controllers);
  const routes = draw(block ?? ((map) => {
    for (const name of names) map.resources(name);
    map.root({ controller: names[0] });
  }), { controllers: names });
  const { logger, lines } = captureLogs('debug');
  const app = createApp({ routes, controllers, environment: 'test', logger, ...rest });
  const server = await serve(app, { port: 0, host: '127.0.0.1' });
  let socket: Tunnel | null = null;
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) => new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers: { ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
  return {
    app, server, lines,
    completed: () => lines.filter((l) => l.msg === 'request completed'),
    send,
    get: (path, headers = {}) => send('GET', path, headers),
    async viaTunnel(method, path, headers = {}) {
      socket ??= await tunnel(`ws://127.0.0.1:${server.port}${server.tunnel!.path}`, { cookies: false, reconnect: false });
      const res = await socket.request({ method, path, headers });
      const lower: IncomingHttpHeaders = {};
      for (const [name, value] of Object.entries(res.headers.raw)) lower[name.toLowerCase()] = value as string;
      return { status: res.status, headers: lower, body: await res.text() };
    },
    async close() {
      await socket?.close();
      await server.close();
    },
  };
}

/** Runs `body` against a served app, closing it afterwards. */
export async function withApp(controllers: Record<string, ControllerClass>, options: ServeAppOptions, body: (s: Served) => Promise<void>): Promise<void> {
  const served = await serveApp(controllers, options);
  try {
    await body(served);
  } finally {
    await served.close();
  }
}

// ---------------------------------------------------------------------------
// Every transport
// ---------------------------------------------------------------------------

export interface ClientRequest {
  readonly method: string;
  /** The request target, still percent-encoded. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

export interface ClientResponse {
  readonly status: number;
  /** The status line's reason phrase (a custom one like `404 Moved` included), when the transport carries it. */
  readonly reason?: string;
  /** Header names lower-cased; repeated headers (Set-Cookie) as arrays. */
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer;
}

export interface Client {
  request(req: ClientRequest): Promise<ClientResponse>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The client address the app sees; only an in-process transport can choose it (sockets report their own). */
  readonly remoteAddress?: string;
}

export interface Transport {
  readonly name: string;
  /** Whether `OpenOptions.remoteAddress` is honoured. */
  readonly chooses_remote_address: boolean;
  /** Starts whatever the transport needs for `app` (a server, a socket) and returns a client for it. */
  open(app: App, options?: OpenOptions): Promise<Client>;
}

function lowerCased(headers: Readonly<Record<string, string | string[] | number | undefined>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

/** Calls `app.handle` in-process, as a transport would. */
export const handleTransport: Transport = {
  name: 'handle',
  chooses_remote_address: true,
  async open(app, options = {}) {
    return {
      async request(req) {
        const headers: Record<string, string> = { ...req.headers };
        if (!Object.keys(headers).some((h) => h.toLowerCase() === 'host')) headers.host = 'test.host';
        const res = await app.handle({ method: req.method, url: req.path, headers, body: req.body ?? null, remoteAddress: options.remoteAddress ?? '127.0.0.1', transport: 'handle' });
        return { status: res.status, reason: res.reason ?? STATUS_CODES[res.status], headers: lowerCased(res.headers), body: Buffer.from(res.body) };
      },
      close: async () => {},
    };
  },
};

/** A real `serve()` on 127.0.0.1 and keep-alive HTTP/1.1 requests to it. */
export const httpTransport: Transport = {
  name: 'http',
  chooses_remote_address: false,
  async open(app) {
    const server: RunningServer = await serve(app, { port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    return {
      request(req) {
        return new Promise((resolveRequest, reject) => {
          const body = req.body === undefined ? undefined : Buffer.from(req.body);
          const headers: Record<string, string> = { ...req.headers };
          if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['Content-Length'] = String(body.length);
          const r = httpRequest({ host: '127.0.0.1', port: server.port, method: req.method, path: req.path, headers, agent }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolveRequest({ status: res.statusCode ?? 0, reason: res.statusMessage, headers: lowerCased(res.headers), body: Buffer.concat(chunks) }));
            res.on('error', reject);
          });
          r.on('error', reject);
          r.end(body);
        });
      },
      async close() {
        agent.destroy();
        await server.close();
      },
    };
  },
};

/**
 * A real `serve()` and the WebSocket tunnel on it: one socket, the tunnel client, no cookie jar
 * (suites send the cookies they mean to, as they do over HTTP).
 */
export const tunnelTransport: Transport = {
  name: 'tunnel',
  chooses_remote_address: false,
  async open(app) {
    const server: RunningServer = await serve(app, { port: 0, host: '127.0.0.1' });
    const t = await tunnel(`ws://127.0.0.1:${server.port}${server.tunnel!.path}`, { cookies: false, reconnect: false });
    return {
      async request(req) {
        const headers: Record<string, string> = { ...req.headers };
        let res;
        try {
          res = await t.request({ method: req.method, path: req.path, headers, body: req.body });
        } catch (error) {
          // The tunnel answers requests it refuses to carry (an unknown method, say) with an error frame: its status is the answer.
          if (error instanceof TunnelError && error.status !== undefined) return { status: error.status, headers: {}, body: Buffer.from(error.message) };
          throw error;
        }
        return { status: res.status, reason: res.statusText || undefined, headers: lowerCased(res.headers.raw), body: Buffer.from(res.body) };
      },
      async close() {
        await t.close();
        await server.close();
      },
    };
  },
};

/** Every transport; suites loop over these. */
export const TRANSPORTS: readonly Transport[] = [handleTransport, httpTransport, tunnelTransport];
