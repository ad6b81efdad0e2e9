/**
 * The response an action builds: status, headers, body, content type and
 * charset. It becomes a `ResponseMessage` only in the respond stage, which
 * is the one place that decides what bytes go out.
 */
import type { FileSlice } from './message.ts';

/** Rails' default: responses are not cacheable unless an ETag or explicit header says otherwise. */
export const DEFAULT_CACHE_CONTROL = 'no-cache';

export class Response {
  status = 200;
  /** A custom reason phrase (`render({ status: '404 Moved' })`); null for the standard one. */
  reason: string | null = null;
  body: string | Uint8Array = '';
  /** The MIME type string; null until something renders. */
  content_type: string | null = null;
  charset: string | null;
  /** Where a redirect pointed, for tests and logs. */
  redirected_to: unknown = null;
  /** Headers as set, names in the case given; `header()` reads them case-insensitively. */
  readonly headers: Record<string, string | string[]> = { 'Cache-Control': DEFAULT_CACHE_CONTROL };
  /** Cookies to send, already serialised for `Set-Cookie`. */
  readonly cookies: string[] = [];
  /** The file slice the body is, for a public file too large to hold (`body` is then empty). */
  file: FileSlice | null = null;

  /** The app's charset: what a render puts back when the charset was set to null before it, as Rails does. */
  readonly default_charset: string | null;

  constructor(defaultCharset: string | null = 'utf-8') {
    this.charset = defaultCharset;
    this.default_charset = defaultCharset;
  }

  /** Reads a header by any case. */
  header(name: string): string | string[] | undefined {
    const headers = this.headers;
    if (Object.hasOwn(headers, name)) return headers[name];
    const lower = lowerNameOf(name);
    for (const key in headers) if (key.length === lower.length && sameNameIgnoringCase(key, lower)) return headers[key];
    return undefined;
  }

  /**
   * Sets a header, replacing it under any other spelling. `Content-Type` sets `content_type` (and
   * `charset` when the value names one), which the respond stage writes as that header: set as a
   * header alone, it would be overwritten there.
   */
  set_header(name: string, value: string | string[]): void {
    if (isContentType(name)) {
      this.#removeSpellings(name, false);
      this.#takeContentType(Array.isArray(value) ? String(value[0] ?? '') : String(value));
      return;
    }
    // The same spelling is overwritten in place: deleting it first would turn the object into a slow dictionary.
    this.#removeSpellings(name, true);
    // The headers the framework sets on most responses are stored by name: each of these stores then
    // sees the few shapes those responses have, where one store by key for every name goes to V8's
    // generic (megamorphic) path, costly above all when it adds the property.
    switch (name) {
      case 'ETag':
        this.headers.ETag = value;
        return;
      case 'Cache-Control':
        this.headers['Cache-Control'] = value;
        return;
      default:
        this.headers[name] = value;
    }
  }

  delete_header(name: string): void {
    this.#removeSpellings(name, false);
    if (isContentType(name)) this.content_type = null;
  }

  /** `text/csv; charset=latin1` as `content_type` `text/csv` and `charset` `latin1`; other parameters stay with the type. */
  #takeContentType(value: string): void {
    const parts = value.split(';');
    const kept = [parts[0].trim()];
    for (let i = 1; i < parts.length; i++) {
      const param = parts[i].trim();
      const eq = param.indexOf('=');
      if (eq > 0 && param.slice(0, eq).trim().toLowerCase() === 'charset') this.charset = param.slice(eq + 1).trim().replace(/^"|"$/g, '') || null;
      else if (param !== '') kept.push(param);
    }
    this.content_type = kept[0] === '' ? null : kept.join('; ');
  }

  #removeSpellings(name: string, keepExact: boolean): void {
    for (const key in this.headers) {
      // Only names of the same length can match; most headers are skipped without a comparison.
      if (key.length !== name.length) continue;
      if (key === name) {
        if (!keepExact) delete this.headers[key];
        continue;
      }
      if (sameNameIgnoringCase(key, name)) delete this.headers[key];
    }
  }

  get location(): string | undefined {
    const v = this.header('Location');
    return Array.isArray(v) ? v[0] : v;
  }

  set location(url: string | undefined) {
    if (url === undefined) this.delete_header('Location');
    else this.set_header('Location', url);
  }

  get etag(): string | undefined {
    const v = this.header('ETag');
    return Array.isArray(v) ? v[0] : v;
  }

  /** True once a body, a redirect or a bare status has been produced. */
  get bodyBytes(): number {
    return typeof this.body === 'string' ? Buffer.byteLength(this.body) : this.body.byteLength;
  }
}

const isContentType = (name: string): boolean => name.length === 12 && sameNameIgnoringCase(name, 'content-type');

/** Names asked for, lower-cased: code asks for the same few names again and again (ETag, Last-Modified). */
const LOWER_NAMES = new Map<string, string>();
const LOWER_NAMES_KEPT = 256;

function lowerNameOf(name: string): string {
  let lower = LOWER_NAMES.get(name);
  if (lower === undefined) {
    if (LOWER_NAMES.size >= LOWER_NAMES_KEPT) LOWER_NAMES.clear();
    LOWER_NAMES.set(name, (lower = name.toLowerCase()));
  }
  return lower;
}

/**
 * Whether two names of the same length are equal once lower-cased: ASCII letters are folded in
 * place, with no lower-case copies; any other character leaves it to `toLowerCase`, as before.
 */
function sameNameIgnoringCase(a: string, b: string): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x > 127 || y > 127) return a.toLowerCase() === b.toLowerCase();
    const folded = x | 0x20;
    if (folded !== (y | 0x20) || folded < 0x61 || folded > 0x7a) return false;
  }
  return true;
}

/** The Content-Type header for a type and charset, as the respond stage sends it. @example contentTypeHeader('text/html', 'utf-8') // 'text/html; charset=utf-8' */
export function contentTypeHeader(type: string, charset: string | null): string {
  if (!charset) return type;
  // Consecutive responses mostly share their type: the last pair is compared before the maps are asked.
  if (type === lastType && charset === lastCharset) return lastHeader;
  let byType = TYPE_HEADERS.get(charset);
  if (byType === undefined) {
    if (TYPE_HEADERS.size >= HEADERS_KEPT) TYPE_HEADERS.clear();
    TYPE_HEADERS.set(charset, (byType = new Map()));
  }
  let header = byType.get(type);
  if (header === undefined) {
    if (byType.size >= HEADERS_KEPT) byType.clear();
    // Joined once: a string joined per response is a new rope, which Node's header check copies flat every time.
    header = `${type}; charset=${charset}`;
    byType.set(type, header);
  }
  lastType = type;
  lastCharset = charset;
  lastHeader = header;
  return header;
}

let lastType = '';
let lastCharset = '';
let lastHeader = '';

/** Content-Type values already joined, by charset then type: an app sends a handful of each. */
const TYPE_HEADERS = new Map<string, Map<string, string>>();
const HEADERS_KEPT = 64;

const ZEROS = ['00000', '0000', '000', '00', '0', ''];
/** `0.` and the zeros before a fraction of each length: a response under a second (nearly all) joins two strings, not four. */
const UNDER_A_SECOND = ZEROS.map((zeros) => `0.${zeros}`);

/**
 * The X-Runtime value for `ms` milliseconds: seconds with five decimals, as Rails writes it.
 * Integer arithmetic rather than `toFixed`, which costs twice as much on every response.
 * @example runtimeHeader(12.5) // '0.01250'
 */
export function runtimeHeader(ms: number): string {
  const tens = Math.round(Math.max(0, ms) * 100);
  const whole = Math.floor(tens / 100_000);
  // A template converts the number in place, where String() is a call.
  const fraction = `${tens - whole * 100_000}`;
  return whole === 0 ? UNDER_A_SECOND[fraction.length] + fraction : `${whole}.${ZEROS[fraction.length]}${fraction}`;
}

/** RFC 9110's token: what a method or a header name is made of. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Header values may hold visible ASCII, spaces, tabs and obs-text, never CR, LF or NUL.
const UNSAFE_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Texts already found safe, one set per rule. Most responses repeat the same few names and values
 * (`Cache-Control`, `no-cache`, `utf-8`, a content type), and a Set lookup costs less than a pattern test.
 * Short texts only; a set starts afresh when it fills.
 */
class SafeTexts {
  readonly #seen = new Set<string>();
  constructor(readonly pattern: RegExp, readonly safeWhenMatched: boolean) {}

  has(text: string): boolean {
    if (this.#seen.has(text)) return true;
    if (this.pattern.test(text) !== this.safeWhenMatched) return false;
    if (text.length <= 256) {
      if (this.#seen.size >= 1024) this.#seen.clear();
      this.#seen.add(text);
    }
    return true;
  }
}

const safeNames = new SafeTexts(HTTP_TOKEN, true);
const safeValues = new SafeTexts(UNSAFE_VALUE, false);
const unsafeText = (text: string): boolean => !safeValues.has(text);

/** Whether `name` is a token, so a header line may carry it (names seen before are found in a set). */
export const isHeaderName = (name: string): boolean => safeNames.has(name);

const unsafeValue = (value: string | readonly string[]): boolean =>
  Array.isArray(value) ? value.some((v) => unsafeText(String(v))) : unsafeText(typeof value === 'string' ? value : String(value));

/**
 * A header value set by hand, as text: a finite number as its digits (`headers['X-Count'] = 5`), a list of
 * strings and numbers as a list of strings; null for what no header can carry (an object, a BigInt, a boolean).
 */
function headerText(value: unknown): string | string[] | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (!Array.isArray(value)) return null;
  const texts: string[] = [];
  for (const item of value as unknown[]) {
    if (typeof item === 'string') texts.push(item);
    else if (typeof item === 'number' && Number.isFinite(item)) texts.push(String(item));
    else return null;
  }
  return texts;
}

/**
 * The first header of `res` that HTTP cannot carry, by name (`Content-Type` for a bad type or charset,
 * `Set-Cookie` for a bad cookie line), or null when every one is safe to send. Values set by hand are
 * brought to text first, so both transports write the same: a number as its digits, and a header set to
 * undefined or null is not sent; a value of any other type is unsafe.
 * @example res.set_header('X-Note', 'a\r\nb'); unsafeHeader(res) // 'X-Note'
 */
export function unsafeHeader(res: Response): string | null {
  const headers = res.headers as Record<string, unknown>;
  for (const name in headers) {
    let value = headers[name];
    if (typeof value !== 'string') {
      if (value === undefined || value === null) {
        delete headers[name];
        continue;
      }
      value = headerText(value);
      if (value === null) return name;
      headers[name] = value;
    }
    if (!safeNames.has(name) || unsafeValue(value as string | string[])) return name;
  }
  if ((res.content_type !== null && unsafeText(res.content_type)) || (res.charset !== null && unsafeText(res.charset))) return 'Content-Type';
  if (res.cookies.length > 0 && unsafeValue(res.cookies)) return 'Set-Cookie';
  if (res.reason !== null && unsafeText(res.reason)) return 'Status';
  return null;
}
