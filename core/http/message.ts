/**
 * The transport-independent message contract. Every transport (HTTP, the
 * WebSocket tunnel) turns what it receives into a `RequestMessage`, calls
 * `app.handle`, and writes back the `ResponseMessage` it gets.
 */
import { shownValue } from '../options.ts';
import { bareRecord } from '../util.ts';

export type HeaderValue = string | readonly string[];

export interface RequestMessage {
  readonly method: string;
  /** The request target: path plus optional `?query`, still percent-encoded. */
  readonly url: string;
  /** Header names in any case. */
  readonly headers: Readonly<Record<string, HeaderValue | undefined>>;
  /**
   * The body: bytes, or chunks still arriving (the HTTP transport streams multipart uploads, so a
   * large one is never held whole; the parse stage reads it once).
   */
  readonly body?: Uint8Array | string | null | AsyncIterable<Uint8Array>;
  readonly remoteAddress?: string;
  /** The server's own address and port on this connection: the host to link to when a request names none. */
  readonly localAddress?: string;
  readonly localPort?: number;
  /** Whether the connection was TLS (the transport knows; headers may also say so behind a proxy). */
  readonly encrypted?: boolean;
  /** Which transport carried it, for logs and traces. */
  readonly transport?: string;
  /** False keeps files under the app's public directory (and cached pages) from answering it: `serve({ staticFiles: false })`. */
  readonly staticFiles?: boolean;
}

/** Bytes `start` to `end` (inclusive) of the file at `path`, to be sent from disk. */
export interface FileSlice {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

export interface ResponseMessage {
  status: number;
  /** A custom reason phrase (`404 Moved`); the standard one when absent. */
  reason?: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array | string;
  /**
   * When set, the body is this slice of a file (and `body` is empty): a public file too large to
   * hold in memory, which the transport sends from disk (HTTP streams it; the tunnel, whose frames
   * carry whole bodies, reads it up to its `maxFileBytes`).
   */
  file?: FileSlice;
}

/**
 * What is wrong with `message` as a `RequestMessage`, or null: a transport always builds a good one, but
 * `app.handle` is public, and a message made by hand (a test, a transport of one's own) may lack its
 * `url` or carry a header value of another type. Only the shape is read, not the headers one by one.
 * @example messageProblem({ method: 'GET', path: '/' }) // 'its url must be a string (the path and query), not undefined'
 */
export function messageProblem(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return `it must be an object, not ${shownValue(message)}`;
  const m = message as Partial<Record<keyof RequestMessage, unknown>>;
  if (typeof m.method !== 'string') return `its method must be a string, not ${shownValue(m.method)}`;
  if (typeof m.url !== 'string') return `its url must be a string (the path and query), not ${shownValue(m.url)}`;
  if (typeof m.headers !== 'object' || m.headers === null) return `its headers must be an object, not ${shownValue(m.headers)}`;
  return null;
}

/**
 * The message without a fragment on its target. A `#` never belongs to a request target (RFC 9112
 * §3.2; a literal one is sent as `%23`), but some clients send the URL they were given whole (Node's
 * `http.request({ path })` does): Rails' servers (Mongrel, Puma) set the fragment aside, so the path
 * and query parameters never see it, and neither do public files, routes or logs here.
 * @example withoutFragment({ method: 'GET', url: '/posts/1?x=1#top', headers: {} }).url // '/posts/1?x=1'
 */
export function withoutFragment(message: RequestMessage): RequestMessage {
  const hash = message.url.indexOf('#');
  return hash < 0 ? message : { ...message, url: message.url.slice(0, hash) };
}

/** Lower-cases header names and joins repeated values the way HTTP allows, into a record that inherits nothing. */
export function normaliseHeaders(headers: Readonly<Record<string, HeaderValue | undefined>>): Record<string, string> {
  // A bare record, in V8's fast mode: one made by Object.create(null) is a dictionary, slow at every read of a
  // header the request lacks (and a request lacks most of the headers the pipeline asks about).
  const out = bareRecord<string>();
  let folded = false;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined || value === null) continue;
    let key = name;
    // Node hands over names already lower-cased: only others need a copy.
    if (!isLowerCase(name)) {
      key = name.toLowerCase();
      folded = true;
    }
    // A list is joined; a value of another type (a number, from a message made by hand) is read as its text.
    const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(key === 'cookie' ? '; ' : ', ') : String(value);
    // Distinct names can only meet once one of them has been lower-cased.
    if (folded && Object.hasOwn(out, key)) out[key] = `${out[key]}${key === 'cookie' ? '; ' : ', '}${text}`;
    // Object.prototype's `__proto__` setter would take the value for a prototype: the name is a plain key here.
    else if (key === '__proto__') Object.defineProperty(out, key, { value: text, writable: true, enumerable: true, configurable: true });
    else out[key] = text;
  }
  return out;
}

/** True when `name` has no upper-case ASCII letter and nothing outside ASCII (which `toLowerCase` might change). */
function isLowerCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c > 127) return false;
  }
  return true;
}
