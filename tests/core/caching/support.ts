/**
 * What the caching suites share: an app served on a free port of 127.0.0.1
 * with its log lines captured, raw HTTP requests (paths sent byte for byte,
 * `..` and all, which `fetch` would normalise), and requests through the
 * WebSocket tunnel. Not a test file itself.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { draw, type Mapper } from '../../../core/index.ts';
import { createApp, type App, type CreateAppOptions } from '../../../machines/index.ts';
import { serve, tunnel, type RunningServer, type Tunnel } from '../../../transport/index.ts';
import type { ControllerClass } from '../pipeline/support.ts';

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
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text.trim() !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  const app = createApp({ routes, controllers, environment: 'test', logger: pino({ level: 'debug' }, sink), ...rest });
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

/** A promise and the function that settles it, to hold an action mid-render. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
