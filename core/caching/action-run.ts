/**
 * What caching does for one request to an action that declares a cache:
 * look up after the before filters, render a hit, store a miss once the
 * session is committed (see caching.ts for what is never cached, and why).
 */
import { contentTypeHeader, DEFAULT_CACHE_CONTROL, type Response } from '../http/response.ts';
import { addBodyEtag } from '../http/etag.ts';
import type { CacheValue } from './store.ts';
import type { Caching } from './caching.ts';
import type { CacheDeclaration } from './declarations.ts';
import type { CacheHost } from './host.ts';
import { actionCacheKey, urlFormat } from './keys.ts';
import { isThenable } from '../util.ts';

/** Where a cached body had the session's authenticity token: each hit fills in its visitor's own. */
const TOKEN_HOLE = '\u0000signalbox:authenticity_token\u0000';
/** Headers that describe this one response or this one client, never kept in an entry. */
const NOT_KEPT: ReadonlySet<string> = new Set(['set-cookie', 'x-runtime', 'content-length', 'content-type', 'date', 'x-cache', 'connection', 'keep-alive', 'transfer-encoding']);

interface ActionCacheEntry {
  readonly status: 200;
  readonly body: string | Uint8Array;
  readonly content_type: string;
  readonly charset: string | null;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** The ETag the render stage would compute, computed once; null when the body varies per visitor. */
  readonly etag: string | null;
  /** Whether the body has the token's hole. */
  readonly token: boolean;
}

/**
 * What caching does for one request to an action that declares a cache: made by dispatch when
 * the chain starts, asked to look up after the before filters, told when the chain completed,
 * and asked to store once the session is committed. Internal.
 */
export class CacheRun {
  readonly #c: CacheHost;
  readonly #caching: Caching;
  #page: CacheDeclaration | null;
  #action: CacheDeclaration | null;
  #key: string | null = null;
  #generation = 0;
  #active = false;
  #completed = false;
  #hit = false;
  /** Not yet worked out while undefined. */
  #token: string | null | undefined = undefined;

  private constructor(c: CacheHost, caching: Caching, page: CacheDeclaration | null, action: CacheDeclaration | null) {
    this.#c = c;
    this.#caching = caching;
    this.#page = page;
    this.#action = action;
  }

  /** The run for this action of a controller declaring `caches`, or null when it caches nothing (or the app does not cache). */
  static begin(c: CacheHost, caching: Caching | undefined, caches: readonly CacheDeclaration[], action: string): CacheRun | null {
    if (caches.length === 0) return null;
    if (caching === undefined || !caching.enabled) return null;
    let page: CacheDeclaration | null = null;
    let act: CacheDeclaration | null = null;
    for (const d of caches) {
      if (!d.actions.includes(action)) continue;
      if (d.kind === 'page') page = d;
      else act = d;
    }
    if (page === null && act === null) return null;
    c.cacheStatus('miss');
    return new CacheRun(c, caching, page, act);
  }

  /** After the before filters: whether this request uses the caches; renders a hit. */
  lookup(): void | Promise<void> {
    const c = this.#c;
    if (c.request.method !== 'get') return;
    const page = this.#page?.if === undefined ? true : c.passes(this.#page.if);
    const action = this.#action?.if === undefined ? true : c.passes(this.#action.if);
    // An asynchronous `if` is waited for: nothing is read or stored before it has answered.
    if (isThenable(page) || isThenable(action)) return Promise.all([page, action]).then(([p, a]) => this.#decided(p, a));
    return this.#decided(page, action);
  }

  /** Once the `if` conditions have answered: whether this request uses each cache, and a hit rendered. */
  #decided(page: boolean, action: boolean): void | Promise<void> {
    if (!page) this.#page = null;
    if (!action) this.#action = null;
    const c = this.#c;
    this.#generation = this.#caching.generation;
    this.#active = true;
    if (this.#action === null) return;
    this.#key = actionCacheKey(c, this.#action);
    if (this.#key === null) return;
    let found: ReturnType<Caching['read']>;
    try {
      found = this.#caching.read(this.#key);
    } catch (error) {
      // A synchronous store fails by throwing: a miss, as a rejected read is.
      return this.#readFailed(error);
    }
    if (!isThenable(found)) return this.#serve(found);
    return Promise.resolve(found).then((value) => this.#serve(value), (error: unknown) => this.#readFailed(error));
  }

  #readFailed(error: unknown): void {
    this.#caching.log.error({ err: error, key: this.#key, store: this.#caching.store.name }, 'action cache read failed');
  }

  /** The action and its after filters ran to the end. */
  complete(): void {
    this.#completed = true;
  }

  /** Once the session is committed: stores a 200 GET response the action rendered. */
  store(): void | Promise<void> {
    if (!this.#active || !this.#completed || this.#hit) return;
    const c = this.#c;
    if (c.response.status !== 200) return;
    if (this.#caching.generation !== this.#generation) return this.#skip('a cache was expired while it rendered');
    if (c.flashHeld()) return this.#skip('it was rendered with a flash');
    // The body is on disk, sent as the transport reads it (send_file): there is nothing here to keep.
    if (c.response.file !== null) return this.#skip('it sends a file from disk');
    if (this.#page !== null) this.#writePage();
    if (this.#action !== null && this.#key !== null) return this.#writeAction(this.#action, this.#key);
  }

  /** The session's authenticity token, if it has one: an HMAC with the app's secret, so worked out once for both caches, and only when asked. */
  #heldToken(): string | null {
    if (this.#token === undefined) this.#token = this.#c.heldToken();
    return this.#token;
  }

  #serve(value: CacheValue | undefined): void {
    if (!isEntry(value)) return;
    renderEntry(this.#c, value);
    this.#hit = true;
    this.#c.cacheStatus('hit');
  }

  #writePage(): void {
    const pages = this.#caching.pages;
    if (pages === null) return;
    const c = this.#c;
    const { request, response } = c;
    if (request.query_string !== '') return this.#skip('a query string', 'page');
    if (response.cookies.length > 0) return this.#skip('it sets a cookie', 'page');
    const token = this.#heldToken();
    if (token !== null && bodyHolds(response.body, token)) return this.#skip("it holds the session's authenticity token", 'page');
    const type = response.content_type ?? 'text/html';
    let extension: string | null = null;
    if (urlFormat(request) === null) {
      // A URL without an extension is answered from its .html file, so only HTML may go there.
      if (request.mime.lookup(type).symbol !== 'html') return this.#skip('an extension-less URL is page-cached only as HTML', 'page');
      extension = 'html';
    }
    pages.write(request.path, extension, response.body, { controller: c.controller_path, action: c.action_name, content_type: contentTypeHeader(type, response.charset) });
  }

  #writeAction(declaration: CacheDeclaration, key: string): void | Promise<void> {
    const response = this.#c.response;
    let body = response.body;
    let token = false;
    const held = this.#heldToken();
    if (held !== null && bodyHolds(body, held)) {
      const encoded = encodeURIComponent(held);
      // Only a token in one exact spelling can be swapped for each visitor's own.
      if (typeof body !== 'string' || body.includes(TOKEN_HOLE) || (encoded !== held && body.includes(encoded))) {
        return this.#skip("it holds the session's authenticity token where it cannot be replaced", 'action');
      }
      body = body.split(held).join(TOKEN_HOLE);
      token = true;
    }
    // Taken before the ETag is added below: the entry keeps that in its own field.
    const headers = keptHeaders(response);
    const entry: ActionCacheEntry = {
      status: 200,
      body,
      content_type: response.content_type ?? 'text/html',
      charset: response.charset,
      headers,
      // A body with the token differs per visitor: its ETag is the render stage's to give each one.
      etag: token ? null : addBodyEtag(response),
      token,
    };
    return this.#caching.write(key, entry as unknown as CacheValue, declaration.expires_in === undefined ? undefined : { expires_in: declaration.expires_in });
  }

  #skip(reason: string, cache?: 'page' | 'action'): void {
    this.#caching.log.debug({ path: this.#c.request.path, reason, ...(cache ? { cache } : {}) }, 'response not cached');
  }
}

function bodyHolds(body: string | Uint8Array, text: string): boolean {
  return typeof body === 'string' ? body.includes(text) : Buffer.from(body.buffer, body.byteOffset, body.byteLength).includes(text);
}

function keptHeaders(response: Response): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const name in response.headers) {
    const lower = name.toLowerCase();
    const value = response.headers[name];
    if (NOT_KEPT.has(lower) || (lower === 'cache-control' && value === DEFAULT_CACHE_CONTROL)) continue;
    Object.defineProperty(kept, name, { value: Array.isArray(value) ? [...value] : value, enumerable: true, writable: true, configurable: true });
  }
  return kept;
}

function isEntry(value: CacheValue | undefined): value is CacheValue & ActionCacheEntry {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) return false;
  const e = value as Record<string, CacheValue>;
  const headers = e.headers;
  return e.status === 200
    && (typeof e.body === 'string' || e.body instanceof Uint8Array)
    && typeof e.content_type === 'string'
    && (e.charset === null || typeof e.charset === 'string')
    && (e.etag === null || typeof e.etag === 'string')
    && typeof e.token === 'boolean'
    && headers !== null && typeof headers === 'object' && !Array.isArray(headers) && !(headers instanceof Uint8Array)
    && Object.values(headers).every((h) => typeof h === 'string' || (Array.isArray(h) && h.every((x) => typeof x === 'string')));
}

/** Answers the request from an entry, as if the action had rendered it. */
function renderEntry(c: CacheHost, entry: ActionCacheEntry): void {
  c.claimRender();
  const response = c.response;
  response.status = 200;
  response.reason = null;
  response.content_type = entry.content_type;
  response.charset = entry.charset;
  for (const name of Object.keys(entry.headers)) {
    const value = entry.headers[name];
    response.set_header(name, typeof value === 'string' ? value : [...value]);
  }
  if (entry.etag !== null) response.set_header('ETag', entry.etag);
  response.body = entry.token && typeof entry.body === 'string' ? entry.body.split(TOKEN_HOLE).join(c.token()) : entry.body;
}
