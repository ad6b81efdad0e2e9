/**
 * Reading a simple request's head straight from the bytes, for the fast
 * lane (fast-lane.ts). A head is simple when it cannot be read two ways:
 * an `HTTP/1.1` request line with a known method and an origin-form target
 * of URI characters, then header lines of token names and printable ASCII
 * values, each name once, a Host, and nothing that frames a body or changes
 * the connection's protocol (Content-Length, Transfer-Encoding, Upgrade,
 * Expect, a Connection other than keep-alive/close). Anything else, however
 * valid, is not read here: `readSimpleHead` answers null and the connection
 * goes to node:http, whose parser decides what it is. So this reader never
 * has to be right about an unusual request, only about these.
 *
 * @example readSimpleHead('GET /posts HTTP/1.1\r\nHost: a\r\n', 100) // { method: 'GET', url: '/posts', headers: { host: 'a' }, closes: false }
 */

/** What the fast lane needs of a simple request. */
export interface SimpleHead {
  readonly method: string;
  /** The request target as sent (still percent-encoded). */
  readonly url: string;
  /** Lower-cased names, each once. */
  readonly headers: Record<string, string>;
  /** Whether the request asked for the connection to close after its answer. */
  readonly closes: boolean;
}

/** Methods whose body-less request both readers take the same way, and the app implements. */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);

/** Anything but HTAB, CR, LF and printable ASCII: control bytes and non-ASCII leave reading to node:http. */
const UNUSUAL = /[^\t\r\n\x20-\x7e]/;
/** A CR or LF left inside a line once lines are split at CRLF: a line end that parsers disagree on. */
const LINE_BREAK = /[\r\n]/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** An origin-form target of RFC 3986 characters (no fragment, no quotes or braces). */
const ORIGIN_FORM = /^\/[A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]*$/;
const CONNECTION_OPTION = /^(?:keep-alive|close)$/i;

/**
 * Reads `head` (a request head without its final blank line, as latin1 text) when it is simple;
 * null otherwise. `maxHeaders` is the most header lines taken here (more go to node:http, which refuses them).
 */
export function readSimpleHead(head: string, maxHeaders: number): SimpleHead | null {
  if (UNUSUAL.test(head)) return null;
  let end = head.indexOf('\r\n');
  if (end < 0) return null;
  const line = head.slice(0, end);
  const space = line.indexOf(' ');
  const second = line.indexOf(' ', space + 1);
  if (space < 0 || second < 0 || line.slice(second + 1) !== 'HTTP/1.1') return null;
  const method = line.slice(0, space);
  const url = line.slice(space + 1, second);
  if (!METHODS.has(method) || !ORIGIN_FORM.test(url)) return null;
  // A plain object (V8 keeps it fast, unlike a prototype-less one); names it inherits are taken as repeats below.
  const headers: Record<string, string> = {};
  let count = 0;
  let closes = false;
  let start = end + 2;
  while (start < head.length) {
    end = head.indexOf('\r\n', start);
    if (end < 0) end = head.length;
    const colon = head.indexOf(':', start);
    if (colon < 0 || colon > end || ++count > maxHeaders) return null;
    const name = head.slice(start, colon);
    if (!TOKEN.test(name)) return null;
    const key = name.toLowerCase();
    if (key in headers || key === '__proto__') return null;
    const value = head.slice(colon + 1, end).trim();
    // The request line and names are checked whole above; a bare CR or LF can only hide in a value.
    if (LINE_BREAK.test(value)) return null;
    switch (key) {
      case 'content-length':
      case 'transfer-encoding':
      case 'upgrade':
      case 'expect':
        return null;
      case 'connection':
        for (const option of value.split(',')) if (!CONNECTION_OPTION.test(option.trim())) return null;
        closes = /\bclose\b/i.test(value);
        break;
    }
    headers[key] = value;
    start = end + 2;
  }
  if (headers.host === undefined) return null;
  return { method, url, headers, closes };
}
