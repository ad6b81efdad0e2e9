/**
 * One request/response contract, every way of carrying it. A suite written
 * against `Client` runs unchanged through `app.handle` directly, through a
 * real `serve()` over HTTP, and through the WebSocket tunnel: the transports
 * are interchangeable parts, and the same tests prove it.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { App } from '../../machines/index.ts';
import { TunnelError, serve, tunnel, type RunningServer } from '../../transport/index.ts';
import { STATUS_CODES } from '../../core/index.ts';

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
    const server: RunningServer = await serve(app, { port: 0, host: '127.0.0.1', staticFiles: false });
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
    const server: RunningServer = await serve(app, { port: 0, host: '127.0.0.1', staticFiles: false });
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
