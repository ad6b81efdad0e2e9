/**
 * The head of an answer written straight to a socket (the fast lane), as
 * node:http would write it for `res.writeHead(status, headers); res.end(body)`:
 * the app's headers in its order, then Date, Connection and Keep-Alive
 * unless the app set them, then a Content-Length when the app gave none and
 * a body goes out. The same checks as Node's too: a status outside 100–999,
 * or a header name that is no token, or a value or reason with a control
 * character (a CR/LF would split the response) throws before a byte is
 * written, so the caller can answer 500 instead.
 */
import { STATUS_CODES } from './node-http.ts';
import type { ResponseMessage } from '../core/http/message.ts';
import { isHeaderName } from '../core/http/response.ts';

/** How the connection goes on after this answer. */
export interface HeadOptions {
  /** The answer closes the connection (`Connection: close`), or keeps it (`keep-alive`). */
  readonly closes: boolean;
  /** Seconds announced in `Keep-Alive: timeout=N` (negative: no such header). */
  readonly keepAliveSeconds: number;
  /** Whether bytes of the body follow (not for HEAD, 1xx, 204 or 304). */
  readonly hasBody: boolean;
  /** The body, measured only for a Content-Length the app did not give. */
  readonly body: string | Uint8Array;
}

export interface Head {
  readonly text: string;
  /** Whether the head has characters above U+007F, which go out as latin1 bytes (as Node writes heads). */
  readonly wide: boolean;
  /** Whether the connection closes after this answer (asked by the caller, or by the app's own Connection header). */
  readonly closes: boolean;
  /** Whether the app's Transfer-Encoding says chunked: the body then goes out as one chunk and a last one. */
  readonly chunked: boolean;
  /**
   * Where the keep-alive lines this writer added (`Connection: keep-alive`, `Keep-Alive`) start and end in
   * `text`; both -1 when it added none (the answer closes, or the app set its own Connection). An answer
   * made before a shutdown began can then be sent closing, with `Connection: close` in their place.
   */
  readonly keepAliveStart: number;
  readonly keepAliveEnd: number;
}

/** What Node refuses in a header value or reason phrase. */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const WIDE = /[^\t\x20-\x7e]/;

export class InvalidHeader extends TypeError {
  constructor(readonly code: 'ERR_HTTP_INVALID_STATUS_CODE' | 'ERR_INVALID_HTTP_TOKEN' | 'ERR_INVALID_CHAR', message: string) {
    super(message);
    this.name = 'InvalidHeader';
  }
}

/** The head of `response`, ending with its blank line. */
export function responseHead(response: ResponseMessage, options: HeadOptions): Head {
  const status = response.status;
  if (!Number.isInteger(status) || status < 100 || status > 999) throw new InvalidHeader('ERR_HTTP_INVALID_STATUS_CODE', `Invalid status code: ${String(status)}`);
  const reason = response.reason ?? STATUS_CODES[status] ?? 'unknown';
  let wide = WIDE.test(reason);
  if (wide && INVALID_VALUE.test(reason)) throw new InvalidHeader('ERR_INVALID_CHAR', 'Invalid character in statusMessage');
  let text = `HTTP/1.1 ${status} ${reason}\r\n`;
  let date = false;
  let connection = false;
  let closes = options.closes;
  let length = false;
  let chunked = false;
  const headers = response.headers;
  for (const name in headers) {
    const value = headers[name];
    if (!isHeaderName(name)) throw new InvalidHeader('ERR_INVALID_HTTP_TOKEN', `Header name must be a valid HTTP token ["${name}"]`);
    if (typeof value === 'string') {
      if (WIDE.test(value)) wide = checked(name, value) || wide;
      text += `${name}: ${value}\r\n`;
    } else {
      for (const item of value) {
        const line = String(item);
        if (WIDE.test(line)) wide = checked(name, line) || wide;
        text += `${name}: ${line}\r\n`;
      }
    }
    // Names that change what Node adds; the length and first letter come first, so the others (ETag...) are not lower-cased.
    switch (name.length) {
      case 4:
        date ||= (name.charCodeAt(0) | 0x20) === 0x64 && name.toLowerCase() === 'date';
        break;
      case 10:
        if (name.toLowerCase() === 'connection') {
          connection = true;
          closes ||= /\bclose\b/i.test(String(value));
        }
        break;
      case 14:
        length ||= name.toLowerCase() === 'content-length';
        break;
      case 17:
        chunked ||= name.toLowerCase() === 'transfer-encoding' && /\bchunked\b/i.test(String(value));
        break;
    }
  }
  if (!date) text += `Date: ${utcDate()}\r\n`;
  let keepAliveStart = -1;
  let keepAliveEnd = -1;
  if (!connection) {
    if (closes) text += 'Connection: close\r\n';
    else {
      keepAliveStart = text.length;
      text += options.keepAliveSeconds >= 0 ? `Connection: keep-alive\r\nKeep-Alive: timeout=${options.keepAliveSeconds}\r\n` : 'Connection: keep-alive\r\n';
      keepAliveEnd = text.length;
    }
  }
  if (!length && !chunked && options.hasBody) text += `Content-Length: ${typeof options.body === 'string' ? Buffer.byteLength(options.body) : options.body.byteLength}\r\n`;
  return { text: `${text}\r\n`, wide, closes, chunked, keepAliveStart, keepAliveEnd };
}

/** Throws for a value Node would refuse; true (it is wide) otherwise. */
function checked(name: string, value: string): true {
  if (INVALID_VALUE.test(value)) throw new InvalidHeader('ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
  return true;
}

let dateText = '';
let dateUntil = 0;

/** The Date header's value, made once a second. */
export function utcDate(): string {
  const now = Date.now();
  if (now >= dateUntil) {
    dateText = new Date(now).toUTCString();
    dateUntil = now - (now % 1000) + 1000;
  }
  return dateText;
}
