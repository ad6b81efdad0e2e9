/**
 * The transport-independent message contract. Every transport (HTTP, the
 * WebSocket tunnel) turns what it receives into a `RequestMessage`, calls
 * `app.handle`, and writes back the `ResponseMessage` it gets.
 */

export type HeaderValue = string | readonly string[];

export interface RequestMessage {
  readonly method: string;
  /** The request target: path plus optional `?query`, still percent-encoded. */
  readonly url: string;
  /** Header names in any case. */
  readonly headers: Readonly<Record<string, HeaderValue | undefined>>;
  readonly body?: Uint8Array | string | null;
  readonly remoteAddress?: string;
  /** The server's own address and port on this connection: the host to link to when a request names none. */
  readonly localAddress?: string;
  readonly localPort?: number;
  /** Whether the connection was TLS (the transport knows; headers may also say so behind a proxy). */
  readonly encrypted?: boolean;
  /** Which transport carried it, for logs and traces. */
  readonly transport?: string;
}

export interface ResponseMessage {
  status: number;
  /** A custom reason phrase (`404 Moved`); the standard one when absent. */
  reason?: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array | string;
}

/** Lower-cases header names and joins repeated values the way HTTP allows, skipping unsafe names. */
export function normaliseHeaders(headers: Readonly<Record<string, HeaderValue | undefined>>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined || value === null) continue;
    const key = name.toLowerCase();
    const text = typeof value === 'string' ? value : value.join(key === 'cookie' ? '; ' : ', ');
    out[key] = key in out ? `${out[key]}${key === 'cookie' ? '; ' : ', '}${text}` : text;
  }
  return out;
}
