/**
 * Reading a simple request's head straight from the bytes, for the fast
 * lane (fast-lane.ts). A head is simple when it cannot be read two ways:
 * an `HTTP/1.1` request line with a known method and an origin-form target
 * of URI characters, then header lines of token names and printable ASCII
 * values, each name once, a Host, and nothing that changes the connection's
 * protocol or waits on the client (Upgrade, Expect, a Connection other than
 * keep-alive/close). A body is framed only by one plain `Content-Length`
 * (`Content-Length: 42`: digits alone, at most 15 of them, after at most one
 * space), never by Transfer-Encoding, and is not a multipart upload (which
 * node:http's side streams). Anything else, however valid, is not read here:
 * `readSimpleHead` answers null and the connection goes to node:http, whose
 * parser decides what it is. So this reader never has to be right about an
 * unusual request, only about these, and where a body ends is never a
 * question two readers could answer differently.
 *
 * @example readSimpleHead('GET /posts HTTP/1.1\r\nHost: a\r\n', 100) // { method: 'GET', url: '/posts', headers: { host: 'a' }, closes: false, bodyLength: 0 }
 */
import { HTTP_TOKEN } from '../core/http/response.ts';

/** What the fast lane needs of a simple request. */
export interface SimpleHead {
  readonly method: string;
  /** The request target as sent (still percent-encoded). */
  readonly url: string;
  /** Lower-cased names, each once. */
  readonly headers: Record<string, string>;
  /** Whether the request asked for the connection to close after its answer. */
  readonly closes: boolean;
  /** The body's length in bytes, from `Content-Length` (0 without one). */
  readonly bodyLength: number;
}

/** Methods whose body-less request both readers take the same way, and the app implements. */
const METHODS: ReadonlyMap<string, string> = new Map(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'].map((method) => [method, method]));

/** Anything but HTAB, CR, LF and printable ASCII: control bytes and non-ASCII leave reading to node:http. */
const UNUSUAL = /[^\t\r\n\x20-\x7e]/;
/** An origin-form target of RFC 3986 characters (no fragment, no quotes or braces). */
const ORIGIN_FORM = /^\/[A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]*$/;
const CONNECTION_OPTION = /^(?:keep-alive|close)$/i;
/**
 * The text after a Content-Length's colon: at most one space, then up to 15 digits and the line's end.
 * Signs, other whitespace, lists (`5, 5`) and lengths too long to be exact as numbers are node:http's to judge.
 */
const PLAIN_LENGTH = /^ ?([0-9]{1,15})$/;

/** A multipart upload, which the HTTP transport streams to the app as it arrives rather than reading it whole. */
export const MULTIPART = /^\s*multipart\/form-data(?:[\s;]|$)/i;

/**
 * Header names as sent, each with its lower-cased form, once checked as a token. The forms handed out
 * are the same string every time, which V8 finds as a property key at once; a name lower-cased anew for
 * each request is a new string that must be looked up in its string table first, at about twice the cost
 * of reading the whole head. Bounded: names past the first NAME_CACHE_SIZE are lower-cased each time.
 */
const NAME_CACHE_SIZE = 512;
const names = new Map<string, string>();

/** The lower-cased name, or null when `name` is no token. */
function headerKey(name: string): string | null {
  let key = names.get(name);
  if (key !== undefined) return key;
  if (!HTTP_TOKEN.test(name)) return null;
  key = name.toLowerCase();
  if (names.size < NAME_CACHE_SIZE) names.set(name, key);
  return key;
}

/**
 * Reads `head` (a request head without its final blank line, as latin1 text) when it is simple;
 * null otherwise. `maxHeaders` is the most header lines taken here (more go to node:http, which refuses them).
 */
export function readSimpleHead(head: string, maxHeaders: number): SimpleHead | null {
  if (UNUSUAL.test(head)) return null;
  let end = lineEnd(head, 0);
  if (end < 0 || end === head.length) return null;
  const space = head.indexOf(' ');
  const second = head.indexOf(' ', space + 1);
  if (space < 0 || second < 0 || second > end || head.slice(second + 1, end) !== 'HTTP/1.1') return null;
  // The method as one shared string, not a new one per request: a request's method is held until its answer is written.
  const method = METHODS.get(head.slice(0, space));
  const url = head.slice(space + 1, second);
  if (method === undefined || !ORIGIN_FORM.test(url)) return null;
  // A plain object (V8 keeps it fast, unlike a prototype-less one); names it inherits are taken as repeats below.
  const headers: Record<string, string> = {};
  let count = 0;
  let closes = false;
  let bodyLength = 0;
  let start = end + 2;
  while (start < head.length) {
    end = lineEnd(head, start);
    if (end < 0) return null;
    const colon = head.indexOf(':', start);
    if (colon < 0 || colon > end || ++count > maxHeaders) return null;
    const key = headerKey(head.slice(start, colon));
    if (key === null || key in headers || key === '__proto__') return null;
    const value = trimmed(head, colon + 1, end);
    switch (key) {
      case 'content-length': {
        // Read from the raw text, not the trimmed value: anything but the plain form goes to node:http.
        const digits = PLAIN_LENGTH.exec(head.slice(colon + 1, end));
        if (digits === null) return null;
        bodyLength = Number(digits[1]);
        break;
      }
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
  if (bodyLength > 0 && MULTIPART.test(headers['content-type'] ?? '')) return null;
  return { method, url, headers, closes, bodyLength };
}

/**
 * Where the line starting at `start` ends: at its CRLF, or at the end of the head for the last line;
 * -1 when a CR or LF stands alone in it (a line end that parsers disagree on).
 */
function lineEnd(head: string, start: number): number {
  const cr = head.indexOf('\r', start);
  const lf = head.indexOf('\n', start);
  if (cr < 0) return lf < 0 ? head.length : -1;
  return lf === cr + 1 ? cr : -1;
}

/** The text between `from` and `to` without the spaces and tabs around it (what HTTP calls optional whitespace). */
function trimmed(head: string, from: number, to: number): string {
  while (from < to && (head.charCodeAt(from) === 32 || head.charCodeAt(from) === 9)) from++;
  while (to > from && (head.charCodeAt(to - 1) === 32 || head.charCodeAt(to - 1) === 9)) to--;
  return head.slice(from, to);
}
