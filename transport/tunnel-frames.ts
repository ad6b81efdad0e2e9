/**
 * The tunnel's frame grammar (internal to the tunnel server; the types are
 * public through `transport/index.ts`): reading a request frame into the
 * pieces of a `RequestMessage`, or into an error with a stable code, and
 * writing a `ResponseMessage` back as a response frame. Pure functions, no
 * sockets, so every rule can be checked on its own. `transport/README.md`
 * documents the protocol these functions implement.
 */
import type { HeaderValue, ResponseMessage } from '../core/http/message.ts';
import { writeBodyUtf8 } from '../core/http/etag.ts';
import { HTTP_TOKEN } from '../core/http/response.ts';
import { bareRecord } from '../core/util.ts';
import { Slabs } from './slabs.ts';
import { COOKIE_NAME, COOKIE_VALUE } from './tunnel-protocol.ts';

export { DRAINED_REASON, IDLE_REASON, TUNNEL_PROTOCOL } from './tunnel-protocol.ts';

/** The client's correlation id, echoed in the answer. */
export type FrameId = string | number;

/** What a client sends: one HTTP-style request. */
export interface RequestFrame {
  readonly id: FrameId;
  readonly method: string;
  /** The request target: path plus optional `?query`, percent-encoded, starting with `/`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  /**
   * The client's cookie jar: cookies answers on this tunnel set (a value) or removed (null). They change
   * the upgrade's `Cookie` name by name, as the browser's own jar would have; a page's script cannot
   * see the cookies the browser sent with the upgrade (its HttpOnly session among them) to send them
   * itself. A frame with a `Cookie` header of its own ignores them.
   */
  readonly cookies?: Readonly<Record<string, string | null>>;
  /** The body as text (sent as UTF-8); or `bodyBase64` for bytes. Not both. */
  readonly body?: string;
  readonly bodyBase64?: string;
}

/** The answer to a request frame: the `ResponseMessage`, its body as text or base64. */
export type ResponseFrame = {
  readonly id: FrameId;
  readonly status: number;
  /** Present only when the app chose a custom reason phrase (`404 Moved`). */
  readonly reason?: string;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
} & ({ readonly body: string; readonly bodyBase64?: never } | { readonly bodyBase64: string; readonly body?: never });

export type TunnelErrorCode =
  | 'bad_json'
  | 'bad_frame'
  | 'unknown_method'
  | 'frame_too_large'
  | 'binary_frame'
  | 'too_many_requests'
  | 'duplicate_id'
  | 'file_too_large';

/**
 * A frame the tunnel refused. `id` is there when it could be read; `frame`, in the batching
 * protocol, when a whole text frame was refused unread (its ordinal on the socket, from 1).
 */
export interface ErrorFrame {
  readonly id?: FrameId;
  readonly frame?: number;
  readonly error: { readonly code: TunnelErrorCode; readonly message: string; readonly status: number };
}

/** One status per code, so a client can treat an error frame like an HTTP answer. */
export const TUNNEL_ERROR_STATUS: Readonly<Record<TunnelErrorCode, number>> = Object.freeze({
  bad_json: 400,
  bad_frame: 400,
  unknown_method: 501,
  frame_too_large: 413,
  binary_frame: 400,
  too_many_requests: 429,
  duplicate_id: 400,
  // The tunnel does not carry it; HTTP does.
  file_too_large: 501,
});

/** The methods the request layer accepts (Rails 2.1's ACCEPTED_HTTP_METHODS, upper-case as on the wire). */
export const TUNNEL_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']);

export function errorFrame(code: TunnelErrorCode, message: string, id?: FrameId, frame?: number): ErrorFrame {
  const error = { code, message, status: TUNNEL_ERROR_STATUS[code] };
  if (frame !== undefined) return id === undefined ? { frame, error } : { id, frame, error };
  return id === undefined ? { error } : { id, error };
}

/** A request frame read into what `app.handle` needs, or the reason it was refused. */
export type ReadFrame =
  | { readonly ok: true; readonly id: FrameId; readonly method: string; readonly path: string; readonly headers: Record<string, string | string[]>; readonly body: Buffer }
  | { readonly ok: false; readonly error: ErrorFrame };

// Printable ASCII after the leading slash: no space, no control character, nothing a request line could not carry.
const PATH = /^\/[\x21-\x7e]*$/;
// CR, LF and NUL would split or truncate a header on any HTTP hop the value is copied to.
const BAD_VALUE = /[\r\n\0]/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const UNSAFE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
// HTTP framing that does not exist on the tunnel: the body is exactly what the frame carries.
const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding']);
/** The upgrade request's headers that every tunnelled request inherits unless its frame sets its own. */
export const INHERITED_HEADERS = ['cookie', 'authorization', 'host'] as const;

const EMPTY = Buffer.alloc(0);

/**
 * Reads one text frame. JSON that does not parse (including nesting so deep
 * that the parser gives up with a RangeError) is `bad_json`; a well-formed
 * frame with a missing or ill-typed field is `bad_frame`.
 */
export function readRequestFrame(text: string, inherited: Readonly<Record<string, string>>): ReadFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('bad_json', 'The frame is not valid JSON', sniffId(text));
  }
  return readRequestValue(value, inherited);
}

/**
 * Reads one text frame of the batching protocol (`TUNNEL_PROTOCOL`): a
 * request frame, or a JSON array of them, each read (and refused) on its own.
 */
export function readRequestBatch(text: string, inherited: Readonly<Record<string, string>>): ReadFrame | ReadFrame[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('bad_json', 'The frame is not valid JSON', sniffId(text));
  }
  if (!Array.isArray(value)) return readRequestValue(value, inherited);
  const reads: ReadFrame[] = [];
  for (const member of value as unknown[]) reads.push(readRequestValue(member, inherited));
  return reads;
}

function readRequestValue(value: unknown, inherited: Readonly<Record<string, string>>): ReadFrame {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return refuse('bad_json', 'The frame is not a JSON object');
  const frame = value as Record<string, unknown>;
  const id = frame.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    return refuse('bad_frame', '"id" must be a string or a finite number');
  }
  const method = frame.method;
  if (typeof method !== 'string' || !HTTP_TOKEN.test(method)) return refuse('bad_frame', '"method" must be an HTTP method token', id);
  if (!TUNNEL_METHODS.has(method)) return refuse('unknown_method', `Unknown HTTP method ${JSON.stringify(method.slice(0, 40))}`, id);
  const path = frame.path;
  if (typeof path !== 'string' || !PATH.test(path)) {
    return refuse('bad_frame', '"path" must start with "/" and hold only printable ASCII (no spaces, no absolute URL)', id);
  }
  const headers = readHeaders(frame.headers, inherited, frame.cookies);
  if (typeof headers === 'string') return refuse('bad_frame', headers, id);
  const body = readBody(frame.body, frame.bodyBase64);
  if (typeof body === 'string') return refuse('bad_frame', body, id);
  return { ok: true, id, method, path, headers, body };
}

function refuse(code: TunnelErrorCode, message: string, id?: FrameId): ReadFrame {
  return { ok: false, error: errorFrame(code, message, id) };
}

/**
 * The frame's headers, lower-cased, over the inherited ones, in a record
 * that inherits nothing. Names that are not tokens, or that would mean something
 * to a JavaScript object (`__proto__`...), are dropped; a value that is not a
 * string or a list of strings, or that holds CR, LF or NUL, refuses the frame.
 * Only own enumerable keys are read, so nothing comes from a prototype.
 * Without a Cookie of its own, the frame's `cookies` change the inherited one.
 */
function readHeaders(raw: unknown, inherited: Readonly<Record<string, string>>, cookies: unknown): Record<string, string | string[]> | string {
  const out = bareRecord<string | string[]>();
  if (raw !== undefined && raw !== null) {
    if (typeof raw !== 'object' || Array.isArray(raw)) return '"headers" must be an object';
    const given = raw as Record<string, unknown>;
    for (const name of Object.keys(given)) {
      if (UNSAFE_NAMES.has(name) || !HTTP_TOKEN.test(name)) continue;
      const key = name.toLowerCase();
      if (UNSAFE_NAMES.has(key) || FRAMING_HEADERS.has(key)) continue;
      const value = given[name];
      let values: string[];
      if (typeof value === 'string') values = [value];
      else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) values = value as string[];
      else return `header ${JSON.stringify(name)} must be a string or an array of strings`;
      if (values.some((v) => BAD_VALUE.test(v))) return `header ${JSON.stringify(name)} holds CR, LF or NUL`;
      if (values.length === 0) continue;
      const before = out[key];
      // Two spellings of one name (`Accept`, `accept`) are one header with both values, as HTTP repeats a line.
      out[key] = before === undefined ? (values.length === 1 ? values[0] : values) : [...(typeof before === 'string' ? [before] : before), ...values];
    }
  }
  const jar = out.cookie === undefined && cookies !== undefined && cookies !== null;
  if (jar) {
    const cookie = changedCookie(inherited.cookie, cookies);
    if (cookie === null) return '"cookies" must be an object of cookie names to cookie values or null';
    if (cookie !== '') out.cookie = cookie;
  }
  for (const name of INHERITED_HEADERS) {
    // A jar that removed every cookie leaves none to inherit.
    if (out[name] === undefined && inherited[name] !== undefined && !(jar && name === 'cookie')) out[name] = inherited[name];
  }
  return out;
}

/**
 * The upgrade's Cookie header changed by a client's jar: its pairs whose names the jar holds are left
 * out, then the jar's values follow (a null removes). Null when the jar is not such an object.
 * Linear in the two, and nothing is decoded: values go on as the server wrote them.
 */
function changedCookie(upgrade: string | undefined, jar: unknown): string | null {
  if (typeof jar !== 'object' || Array.isArray(jar)) return null;
  const changes = jar as Record<string, unknown>;
  const pairs: string[] = [];
  if (upgrade !== undefined) {
    for (const piece of upgrade.split(';')) {
      const pair = piece.trim();
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      if (!Object.hasOwn(changes, (equals < 0 ? pair : pair.slice(0, equals)).trim())) pairs.push(pair);
    }
  }
  for (const name of Object.keys(changes)) {
    const value = changes[name];
    if (!COOKIE_NAME.test(name) || (value !== null && (typeof value !== 'string' || !COOKIE_VALUE.test(value)))) return null;
    if (value !== null) pairs.push(`${name}=${value}`);
  }
  return pairs.join('; ');
}

function readBody(text: unknown, base64: unknown): Buffer | string {
  const hasText = text !== undefined && text !== null;
  const hasBase64 = base64 !== undefined && base64 !== null;
  if (hasText && hasBase64) return 'a frame carries "body" or "bodyBase64", not both';
  if (hasText) {
    if (typeof text !== 'string') return '"body" must be a string';
    return text === '' ? EMPTY : Buffer.from(text, 'utf8');
  }
  if (hasBase64) {
    if (typeof base64 !== 'string' || base64.length % 4 === 1 || !BASE64.test(base64)) return '"bodyBase64" must be base64';
    return Buffer.from(base64, 'base64');
  }
  return EMPTY;
}

// `{"id": 12` or `{"id":"abc"` at the very start, as the client writes it: enough to name the request an oversized or broken frame belonged to.
const ID_PREFIX = /^\s*\{\s*"id"\s*:\s*(?:(-?\d{1,16}(?:\.\d{1,16})?)|"([^"\\\x00-\x1f]{0,256})")/;

/**
 * The id at the start of a frame that will not be parsed, without parsing
 * it (bounded work whatever the frame's size).
 */
export function sniffId(text: string): FrameId | undefined {
  const match = ID_PREFIX.exec(text.length > 400 ? text.slice(0, 400) : text);
  if (match === null) return undefined;
  return match[2] !== undefined ? match[2] : Number(match[1]);
}

const TEXT_TYPES: ReadonlySet<string> = new Set([
  'application/json', 'application/xml', 'application/javascript', 'application/ecmascript',
  'application/x-www-form-urlencoded', 'application/rss+xml', 'application/atom+xml', 'image/svg+xml',
]);
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Whether a Content-Type names text (so a body in it travels as a JSON string). */
export function isTextual(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semi = contentType.indexOf(';');
  const essence = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return essence.startsWith('text/') || TEXT_TYPES.has(essence) || essence.endsWith('+json') || essence.endsWith('+xml');
}

function contentTypeOf(headers: Readonly<Record<string, HeaderValue>>): string | undefined {
  const direct = headers['Content-Type'] ?? headers['content-type'];
  if (direct !== undefined) return typeof direct === 'string' ? direct : direct[0];
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === 'content-type') {
      const value = headers[name];
      return typeof value === 'string' ? value : value[0];
    }
  }
  return undefined;
}

/** A response message as a frame: bytes go as text when they are textual and valid UTF-8, else as base64. */
export function responseFrame(id: FrameId, response: ResponseMessage): ResponseFrame {
  const body = response.body;
  if (typeof body === 'string') return textFrame(id, response, body);
  if (body.byteLength === 0) return textFrame(id, response, '');
  if (isTextual(contentTypeOf(response.headers))) {
    try {
      return textFrame(id, response, UTF8.decode(body));
    } catch {
      // Not UTF-8 after all: base64 keeps the bytes exact.
    }
  }
  const base64 = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64');
  const { status, headers, reason } = response;
  return reason !== undefined ? { id, status, reason, headers, bodyBase64: base64 } : { id, status, headers, bodyBase64: base64 };
}

// Literal objects rather than spreads: every answer frame then has one of two shapes, which keeps serialising them fast.
function textFrame(id: FrameId, response: ResponseMessage, body: string): ResponseFrame {
  const { status, headers, reason } = response;
  return reason !== undefined ? { id, status, reason, headers, body } : { id, status, headers, body };
}

/**
 * The response frame as the UTF-8 bytes of a text frame: exactly
 * `Buffer.from(JSON.stringify(responseFrame(id, response)))`, made in parts.
 * One non-Latin-1 character in a body (an em dash) makes the whole
 * serialised frame a two-byte string, which then costs a pass to measure its
 * UTF-8 length and a slow pass to encode it; in parts, only the body is
 * two-byte, and it is encoded once, straight into the frame's bytes.
 */
export function responseFrameBytes(id: FrameId, response: ResponseMessage): Buffer {
  const frame = responseFrame(id, response);
  const { status, headers, reason } = response;
  // Anything but the plain shape is serialised whole, so that its bytes cannot differ from JSON.stringify's.
  if (typeof status !== 'number' || (reason !== undefined && typeof reason !== 'string') || typeof headers !== 'object' || headers === null || 'toJSON' in headers) {
    return Buffer.from(JSON.stringify(frame));
  }
  const head = `{"id":${JSON.stringify(id)},"status":${JSON.stringify(status)}${reason !== undefined ? `,"reason":${JSON.stringify(reason)}` : ''},"headers":${JSON.stringify(headers)}`;
  return frame.body !== undefined
    ? joinUtf8(head, ',"body":', JSON.stringify(frame.body))
    : joinUtf8(head, ',"bodyBase64":', JSON.stringify(frame.bodyBase64));
}

/**
 * The head of an answer's record in the batching protocol: the response frame
 * without its body, as JSON text. The body goes into the record as its exact
 * bytes (a string body as UTF-8, encoded once, straight into the frame: recordsFrame).
 */
export function recordHead(id: FrameId, response: ResponseMessage): string {
  const { status, headers, reason } = response;
  return JSON.stringify(reason !== undefined ? { id, status, reason, headers } : { id, status, headers });
}

/**
 * Records as one binary frame: for each, its head's length in UTF-8 bytes and
 * its body's length (32-bit unsigned, big-endian), then the head, then the body.
 */
export function recordsFrame(heads: readonly string[], bodies: readonly (string | Uint8Array)[]): Buffer {
  // At most three bytes of UTF-8 per UTF-16 unit: room enough to write each string once, without measuring it first.
  let most = 0;
  for (let i = 0; i < heads.length; i++) {
    const body = bodies[i];
    most += 8 + heads[i].length * 3 + (typeof body === 'string' ? body.length * 3 : body.byteLength);
  }
  const out = slabs.room(most, () => {
    let size = 0;
    for (let i = 0; i < heads.length; i++) {
      const body = bodies[i];
      size += 8 + Buffer.byteLength(heads[i]) + (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    }
    return size;
  });
  const start = slabs.at;
  let at = start;
  for (let i = 0; i < heads.length; i++) {
    const headLength = out.write(heads[i], at + 8);
    const body = bodies[i];
    let bodyLength: number;
    if (typeof body === 'string') bodyLength = body === '' ? 0 : writeBodyUtf8(out, body, at + 8 + headLength);
    else {
      out.set(body, at + 8 + headLength);
      bodyLength = body.byteLength;
    }
    out.writeUInt32BE(headLength, at);
    out.writeUInt32BE(bodyLength, at + 4);
    at += 8 + headLength + bodyLength;
  }
  return slabs.cut(out, start, at);
}

/**
 * Frames' bytes are cut from slabs, with no pass to measure them first. A piece may take a quarter of a
 * slab, counting three bytes per UTF-16 unit: 256 KiB slabs hold a turn of 17 answers of a real page
 * (about 17,000 units), which otherwise cost a pass to measure and a buffer of their own, 12–15% of the
 * server's CPU per request on the page (bench/RESULTS.md).
 */
const slabs = new Slabs(256 * 1024);

/** `head + key + value + '}'` as UTF-8 bytes (none of the strings holds a lone surrogate: they come from JSON.stringify). */
function joinUtf8(head: string, key: string, value: string): Buffer {
  // At most three bytes per UTF-16 unit.
  const most = (head.length + key.length + value.length) * 3 + 1;
  const out = slabs.room(most, () => Buffer.byteLength(head) + key.length + Buffer.byteLength(value) + 1);
  const start = slabs.at;
  let at = start + out.write(head, start);
  at += out.write(key, at, 'latin1');
  at += out.write(value, at);
  out[at++] = 0x7d;
  return slabs.cut(out, start, at);
}
