/**
 * Upgrade requests on a server that carries more than one WebSocket
 * endpoint (the request tunnel, the inspector's trace channel): one
 * `'upgrade'` listener routes each by path, refuses a WebSocket handshake at
 * any other path with 404 before a WebSocket exists, and hands other
 * protocols' upgrades (h2c) back as plain requests (plain-upgrade.ts). Also
 * the pieces every endpoint's handshake shares: the refusal answer, the path
 * without its query, what the request says about itself, the Origin check,
 * the close grace. Internal to the transports.
 */
import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from './node-http.ts';
import type { Duplex } from 'node:stream';
import { normaliseHeaders } from '../core/http/message.ts';
import { protocol, rawHostWithPort, type RequestEnv } from '../core/request/env.ts';
import type { App } from '../machines/app.ts';

/** Takes one upgrade request whose path it owns; answers it (101 or a refusal) and owns the socket after. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Routes `server`'s upgrade requests by path (the query string is ignored)
 * to `handlers`. At any other path, a request that does not ask for a
 * WebSocket goes to `plain` (answered as ordinary HTTP), and a WebSocket
 * handshake is answered 404 and its socket destroyed.
 */
export function routeUpgrades(server: Server, app: App, handlers: ReadonlyMap<string, UpgradeHandler>, plain: UpgradeHandler | null = null): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Once a request is upgraded Node stops listening for errors on its socket; a reset must not crash the process.
    socket.on('error', ignore);
    const path = pathOf(req.url);
    const handler = handlers.get(path);
    if (handler !== undefined) return handler(req, socket, head);
    if (plain !== null && !asksForWebSocket(req)) return plain(req, socket, head);
    app.log.info({ remote: req.socket.remoteAddress ?? null, status: 404, path }, 'upgrade refused: no WebSocket endpoint at this path');
    abortHandshake(socket, 404, 'Not Found');
  });
}

export function ignore(): void {}

/** Whether the request's Upgrade header offers WebSocket among its protocols. */
export function asksForWebSocket(req: IncomingMessage): boolean {
  const offered = req.headers.upgrade;
  return offered !== undefined && offered.split(',').some((p) => p.trim().toLowerCase() === 'websocket');
}

/** The request target's path, without the query string. */
export function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** Answers an upgrade with a plain HTTP status and closes the socket. */
export function abortHandshake(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`);
}

/** `scheme://host[:port]` as a browser writes it (lower case, default port dropped), or null. */
export function normalOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

/** Whether the connection itself is TLS (an `https` server's socket). */
export function encryptedSocket(req: IncomingMessage): boolean {
  return 'encrypted' in req.socket && Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

// How long a WebSocket closing at shutdown may take to answer the close frame before it is cut.
export const CLOSE_GRACE_MS = 2_000;

/** What the request says about itself, for the checks the transports make before (or without) the app. */
export interface RequestFacts extends RequestEnv {
  readonly headers: Readonly<Record<string, string>>;
  readonly ssl: boolean;
}

/** Read once per request: an upgrade's host, origin and inherited headers all come from the one normalisation. */
export function requestEnv(req: IncomingMessage, app: App): RequestFacts {
  return { headers: normaliseHeaders(req.headers), ssl: encryptedSocket(req), trustProxy: app.config.trustProxy };
}

/**
 * Whether a handshake's Origin may open a WebSocket: one in `allowed` (normalised origins), or, without a
 * list, the origin a page served by this request's Host would have. Stops cross-site WebSocket hijacking,
 * where a page elsewhere opens the socket with the user's cookies. Without an Origin it is not a browser:
 * allowed.
 */
export function originAllowed(env: RequestFacts, allowed: ReadonlySet<string> | null = null): boolean {
  const origin = env.headers.origin;
  if (origin === undefined) return true;
  const given = normalOrigin(origin);
  return given !== null && (allowed === null ? given === ownOrigin(env) : allowed.has(given));
}

/** The origin a page served by this request's Host would have (proxy headers count with `trustProxy`). */
function ownOrigin(env: RequestEnv): string | null {
  const host = rawHostWithPort(env);
  return host === '' ? null : normalOrigin(`${protocol(env)}${host}`);
}
