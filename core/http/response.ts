/**
 * The response an action builds: status, headers, body, content type and
 * charset. It becomes a `ResponseMessage` only in the respond stage, which
 * is the one place that decides what bytes go out.
 */

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

  constructor(defaultCharset = 'utf-8') {
    this.charset = defaultCharset;
  }

  /** Reads a header by any case. */
  header(name: string): string | string[] | undefined {
    if (Object.hasOwn(this.headers, name)) return this.headers[name];
    const lower = name.toLowerCase();
    for (const key in this.headers) if (key.length === lower.length && key.toLowerCase() === lower) return this.headers[key];
    return undefined;
  }

  /** Sets a header, replacing it under any other spelling. */
  set_header(name: string, value: string | string[]): void {
    this.delete_header(name);
    this.headers[name] = value;
  }

  delete_header(name: string): void {
    let lower: string | null = null;
    for (const key in this.headers) {
      // Only names of the same length can match; most headers are skipped without a lower-case copy.
      if (key.length !== name.length) continue;
      lower ??= name.toLowerCase();
      if (key === name || key.toLowerCase() === lower) delete this.headers[key];
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
  get body_bytes(): number {
    return typeof this.body === 'string' ? Buffer.byteLength(this.body) : this.body.byteLength;
  }
}
