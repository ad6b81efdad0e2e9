/**
 * Page and action caching, as Rails 2.1's `caches_page` and `caches_action`.
 *
 * Both apply only to GET (and HEAD, read as GET) requests answered 200 after
 * the action ran to its end: a POST, a 404, a 500 or a redirect is never
 * cached, and each format of an action is cached apart from the others.
 *
 * - Page caching writes the body under the page cache directory at the
 *   URL's path plus the format's extension (see page-cache.ts); the
 *   transports answer later requests from that file before the app runs.
 * - Action caching keeps status, body, content type and the headers worth
 *   keeping in the app's cache store, keyed by host + path + format (Rails'
 *   `ActionCachePath`). Every before filter runs first, whatever the order of
 *   declarations (unlike Rails 2.1, where filters declared after
 *   `caches_action` were skipped on a hit): a filter that authenticates can
 *   never be stepped over by where it was declared.
 *
 * What one visitor's response holds for that visitor alone is kept out of
 * the caches: a response rendered while the flash held messages is never
 * cached; a page (served to everyone, session unseen) is not written when it
 * sets a cookie or holds the session's authenticity token; an action cache
 * entry keeps the token's place and fills in each visitor's own on a hit.
 * A request with a query string uses neither cache (unless `cache_path`
 * says what the key covers): the query would otherwise be answered with, or
 * poison, the page of the bare path.
 *
 * An expiry that happens while a request is still rendering keeps that
 * request from storing what it rendered from the data before the change.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { ArgumentError } from '../errors.ts';
import { DEFAULT_CACHE_CONTROL, type Response } from '../http/response.ts';
import type { Request } from '../http/request.ts';
import type { MimeRegistry } from '../mime/types.ts';
import type { RouteSet } from '../routing/index.ts';
import type { CacheStore, CacheValue, CacheWriteOptions, MaybePromise } from '../cache/store.ts';
import type { Controller } from './base.ts';
import { declarationsOf, type CacheCondition, type CacheDeclaration, type CachePath } from './declarations.ts';
import { existingToken } from './forgery.ts';
import { PageCache } from './page-cache.ts';

/** What the caches did for a request: the `X-Cache` header and the log line's `cache`. */
export type CacheStatus = 'hit' | 'miss';

export interface PageCacheOptions {
  readonly if?: CacheCondition;
}

export interface ActionCacheOptions {
  /** Caching applies only when this answers truthy (a method name, or a function of the controller). */
  readonly if?: CacheCondition;
  /** The key's path instead of the request's host and path (a string, or a function giving one or a route hash). */
  readonly cache_path?: CachePath;
  /** Seconds an entry lasts. */
  readonly expires_in?: number;
}

/** A route hash (`{ controller, action, id }`) or a path (`/posts/1`). */
export type CacheTarget = string | Readonly<Record<string, unknown>>;

/** Reads `caches_page(...actions, options?)` / `caches_action(...actions, options?)`. */
export function cacheDeclaration(kind: 'page' | 'action', args: readonly unknown[]): CacheDeclaration {
  const name = kind === 'page' ? 'caches_page' : 'caches_action';
  const rest = [...args];
  const last = rest[rest.length - 1];
  const options = last !== null && typeof last === 'object' && !Array.isArray(last) ? (rest.pop() as Record<string, unknown>) : {};
  const actions = rest.flat().map((a) => {
    if (typeof a !== 'string' || a === '') throw new ArgumentError(`${name} takes action names, got ${JSON.stringify(a)}`);
    return a;
  });
  if (actions.length === 0) throw new ArgumentError(`${name} needs at least one action`);
  const allowed = kind === 'page' ? ['if'] : ['if', 'cache_path', 'expires_in'];
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new ArgumentError(`${name} has no option ${JSON.stringify(key)} (it takes ${allowed.join(', ')})`);
  }
  const { if: condition, cache_path, expires_in } = options;
  if (condition !== undefined && typeof condition !== 'string' && typeof condition !== 'function') throw new ArgumentError(`${name}'s if is a method name or a function`);
  if (cache_path !== undefined && typeof cache_path !== 'string' && typeof cache_path !== 'function') throw new ArgumentError(`${name}'s cache_path is a string or a function`);
  if (expires_in !== undefined && !(typeof expires_in === 'number' && expires_in > 0 && Number.isFinite(expires_in))) {
    throw new ArgumentError(`${name}'s expires_in is a positive number of seconds`);
  }
  return Object.freeze({
    kind, actions: Object.freeze(actions),
    ...(condition !== undefined ? { if: condition as CacheCondition } : {}),
    ...(cache_path !== undefined ? { cache_path: cache_path as CachePath } : {}),
    ...(expires_in !== undefined ? { expires_in: expires_in as number } : {}),
  });
}

export interface CachingSettings {
  /** `config.perform_caching`: false turns both caches off (nothing read, written or announced). */
  readonly enabled: boolean;
  readonly store: CacheStore;
  /** Where pages go; null for no page cache. */
  readonly page_cache_dir: string | null;
  readonly mime: MimeRegistry;
  readonly routes: RouteSet;
  readonly log: Logger;
  readonly relative_url_root?: string;
}

/**
 * An app's caches: the store behind action caching, the page cache, and expiry for code inside
 * or outside a request (`app.caching.expire_page('/posts')`). Made once by `createApp`.
 */
export class Caching {
  readonly enabled: boolean;
  readonly store: CacheStore;
  /** The page cache, or null when the app has no directory for one. */
  readonly pages: PageCache | null;
  readonly #mime: MimeRegistry;
  readonly #routes: RouteSet;
  readonly #log: Logger;
  readonly #expiring = new Set<Promise<unknown>>();
  #generation = 0;

  constructor(settings: CachingSettings) {
    this.enabled = settings.enabled;
    this.store = settings.store;
    this.#mime = settings.mime;
    this.#routes = settings.routes;
    this.#log = settings.log;
    this.pages = settings.page_cache_dir === null ? null : new PageCache({
      directory: settings.page_cache_dir, mime: settings.mime, log: settings.log, relative_url_root: settings.relative_url_root,
    });
  }

  /** Grows with every expiry: a request that began before one stores nothing. */
  get generation(): number {
    return this.#generation;
  }

  get log(): Logger {
    return this.#log;
  }

  /**
   * Removes a cached page: a path (`/posts`, every format of it; `/posts.json`, that one) or a
   * route hash naming its controller. How many files went.
   * @example app.caching.expire_page({ controller: 'posts', action: 'index' })
   */
  expire_page(target: CacheTarget): number {
    this.#generation++;
    return this.pages === null ? 0 : this.pages.expire(this.#pathOf(target));
  }

  /**
   * Removes an action's cached responses, in every format and for every host: a path or a
   * route hash naming its controller. How many entries went (a promise with an asynchronous store).
   * @example app.caching.expire_action({ controller: 'posts', action: 'show', id: 1 })
   */
  expire_action(target: CacheTarget): MaybePromise<number> {
    const base = pathBase(this.#pathOf(target), this.#mime);
    return this.#expire(new RegExp(`^views/[^/]*${escapeRegExp(base)}${FORMAT_SUFFIX}$`, 's'));
  }

  /**
   * Removes action cache entries by the path a `cache_path` gave (every format of it), or by a
   * RegExp tested against whole keys (`views/<host><path>.<format>`).
   */
  expire_fragment(key: string | RegExp): MaybePromise<number> {
    if (key instanceof RegExp) return this.#expire(key);
    return this.#expire(new RegExp(`^views/${escapeRegExp(key)}${FORMAT_SUFFIX}$`, 's'));
  }

  /** An entry, once any expiry under way has finished (so nothing it removes is read meanwhile). */
  read(key: string): MaybePromise<CacheValue | undefined> {
    if (this.#expiring.size > 0) return Promise.all(this.#expiring).then(() => this.store.read(key));
    return this.store.read(key);
  }

  /** Stores an entry; a store failure is logged, never raised into the request. */
  write(key: string, value: CacheValue, options?: CacheWriteOptions): MaybePromise<void> {
    const failed = (error: unknown) => {
      this.#log.error({ err: error, key, store: this.store.name }, 'action cache write failed');
    };
    try {
      const written = this.store.write(key, value, options);
      if (written instanceof Promise) return written.then(() => undefined, failed);
    } catch (error) {
      failed(error);
    }
  }

  #expire(pattern: RegExp): MaybePromise<number> {
    this.#generation++;
    const removed = this.store.delete_matched(pattern);
    if (!(removed instanceof Promise)) return removed;
    const tracked = removed.finally(() => this.#expiring.delete(tracked));
    // Readers wait for it, but must not fail with it: a failed expiry is the caller's to see.
    this.#expiring.add(tracked.catch(() => undefined));
    return tracked;
  }

  #pathOf(target: CacheTarget): string {
    const path = typeof target === 'string' ? target : this.#routes.generate({ ...target });
    const q = path.indexOf('?');
    const bare = q < 0 ? path : path.slice(0, q);
    if (!bare.startsWith('/')) throw new ArgumentError(`A cached path starts with "/": ${JSON.stringify(bare.slice(0, 100))}`);
    return bare;
  }
}

/** Where a cached body had the session's authenticity token: each hit fills in its visitor's own. */
const TOKEN_HOLE = '\u0000signalbox:authenticity_token\u0000';
/** After the path in a key: `.json` for a format named in the URL, `;accept=html,xml,all` for one negotiated from Accept. */
const FORMAT_SUFFIX = '(?:\\.[^/;]*|;accept=.*)?';
/** Longer keys (a huge Accept header, say) are not cached: the store stays bounded in key size too. */
export const MAX_KEY_LENGTH = 1024;

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
 * The action cache key for this request (Rails' `ActionCachePath`), or null when it is not to be
 * cached: `views/<host><path>` and the format (see `FORMAT_SUFFIX`).
 * @example 'views/example.com/posts/1.json', 'views/example.com/posts/1;accept=html,xml,all'
 */
export function actionCacheKey(c: Controller, declaration: CacheDeclaration): string | null {
  const request = c.request;
  let base: string;
  if (declaration.cache_path !== undefined) {
    const given = typeof declaration.cache_path === 'function' ? declaration.cache_path(c) : declaration.cache_path;
    if (typeof given === 'string') base = given;
    else if (given !== null && typeof given === 'object') base = request.host_with_port + c.routes.url_for({ ...given, only_path: true });
    else throw new ArgumentError('cache_path must give a string or a route hash');
  } else {
    if (request.query_string !== '') return null;
    base = request.host_with_port + requestBase(request);
  }
  const key = `views/${base}${formatSuffix(request)}`;
  return key.length > MAX_KEY_LENGTH ? null : key;
}

/** The request's path without the format extension its route took, `/` ending in `index`. */
function requestBase(request: Request): string {
  const format = request.path_parameters.format;
  let path = request.path;
  if (typeof format === 'string' && format !== '' && path.endsWith(`.${format}`)) path = path.slice(0, -format.length - 1);
  return path.endsWith('/') ? `${path}index` : path;
}

// Everything respond_to and the implicit render choose by: the format parameter, else the Accept list.
function formatSuffix(request: Request): string {
  const format = request.parameters.format;
  if (typeof format === 'string' && format !== '') return `.${request.mime.lookup_by_extension(format)?.name ?? format}`;
  return `;accept=${request.accepts.map((t) => t.name).join(',')}`;
}

/** A path as `expire_action` keys it: no registered format extension, `/` ending in `index`. */
function pathBase(path: string, mime: MimeRegistry): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  const bare = dot > 0 && mime.lookup_by_extension(last.slice(dot + 1)) !== undefined ? path.slice(0, path.length - last.length + dot) : path;
  return bare.endsWith('/') ? `${bare}index` : bare;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * What caching does for one request to an action that declares a cache: made by dispatch when
 * the chain starts, asked to look up after the before filters, told when the chain completed,
 * and asked to store once the session is committed. Internal.
 */
export class CacheRun {
  readonly #c: Controller;
  readonly #caching: Caching;
  #page: CacheDeclaration | null;
  #action: CacheDeclaration | null;
  #key: string | null = null;
  #generation = 0;
  #active = false;
  #completed = false;
  #hit = false;

  private constructor(c: Controller, caching: Caching, page: CacheDeclaration | null, action: CacheDeclaration | null) {
    this.#c = c;
    this.#caching = caching;
    this.#page = page;
    this.#action = action;
  }

  /** The run for this action, or null when it caches nothing (or the app does not cache). */
  static begin(c: Controller, klass: object, action: string): CacheRun | null {
    const caches = declarationsOf(klass).caches;
    if (caches.length === 0) return null;
    const caching = c._wiring.caching;
    if (caching === undefined || !caching.enabled) return null;
    let page: CacheDeclaration | null = null;
    let act: CacheDeclaration | null = null;
    for (const d of caches) {
      if (!d.actions.includes(action)) continue;
      if (d.kind === 'page') page = d;
      else act = d;
    }
    if (page === null && act === null) return null;
    c._wiring.cache_status?.('miss');
    return new CacheRun(c, caching, page, act);
  }

  /** After the before filters: whether this request uses the caches; renders a hit. */
  lookup(): void | Promise<void> {
    const c = this.#c;
    if (c.request.method !== 'get') return;
    if (this.#page !== null && !passes(c, this.#page.if)) this.#page = null;
    if (this.#action !== null && !passes(c, this.#action.if)) this.#action = null;
    this.#generation = this.#caching.generation;
    this.#active = true;
    if (this.#action === null) return;
    this.#key = actionCacheKey(c, this.#action);
    if (this.#key === null) return;
    const found = this.#caching.read(this.#key);
    if (!(found instanceof Promise)) return this.#serve(found);
    return found.then((value) => this.#serve(value), (error: unknown) => {
      this.#caching.log.error({ err: error, key: this.#key, store: this.#caching.store.name }, 'action cache read failed');
    });
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
    const flash = c._wiring.session.loaded_flash;
    if (flash !== null && !flash.empty) return this.#skip('it was rendered with a flash');
    if (this.#page !== null) this.#writePage();
    if (this.#action !== null && this.#key !== null) return this.#writeAction(this.#action, this.#key);
  }

  #serve(value: CacheValue | undefined): void {
    if (!isEntry(value)) return;
    renderEntry(this.#c, value);
    this.#hit = true;
    this.#c._wiring.cache_status?.('hit');
  }

  #writePage(): void {
    const pages = this.#caching.pages;
    if (pages === null) return;
    const c = this.#c;
    const { request, response } = c;
    if (request.query_string !== '') return this.#skip('a query string', 'page');
    if (response.cookies.length > 0) return this.#skip('it sets a cookie', 'page');
    const token = existingToken(c, declarationsOf(c.constructor).forgery);
    if (token !== null && bodyHolds(response.body, token)) return this.#skip("it holds the session's authenticity token", 'page');
    const format = request.path_parameters.format;
    let extension: string | null = null;
    if (!(typeof format === 'string' && format !== '' && request.path.endsWith(`.${format}`))) {
      // A URL without an extension is answered from its .html file, so only HTML may go there.
      if (request.mime.lookup(response.content_type ?? 'text/html').symbol !== 'html') return this.#skip('an extension-less URL is page-cached only as HTML', 'page');
      extension = 'html';
    }
    pages.write(request.path, extension, response.body, { controller: c.controller_path, action: c.action_name });
  }

  #writeAction(declaration: CacheDeclaration, key: string): void | Promise<void> {
    const c = this.#c;
    const response = c.response;
    let body = response.body;
    let token = false;
    const held = existingToken(c, declarationsOf(c.constructor).forgery);
    if (held !== null && bodyHolds(body, held)) {
      const encoded = encodeURIComponent(held);
      // Only a token in one exact spelling can be swapped for each visitor's own.
      if (typeof body !== 'string' || body.includes(TOKEN_HOLE) || (encoded !== held && body.includes(encoded))) {
        return this.#skip("it holds the session's authenticity token where it cannot be replaced", 'action');
      }
      body = body.split(held).join(TOKEN_HOLE);
      token = true;
    }
    const explicit = response.etag !== undefined || response.header('Last-Modified') !== undefined;
    const entry: ActionCacheEntry = {
      status: 200,
      body,
      content_type: response.content_type ?? 'text/html',
      charset: response.charset,
      headers: keptHeaders(response),
      etag: explicit || token || response.body_bytes === 0 ? null : `"${createHash('md5').update(response.body).digest('hex')}"`,
      token,
    };
    return this.#caching.write(key, entry as unknown as CacheValue, declaration.expires_in === undefined ? undefined : { expires_in: declaration.expires_in });
  }

  #skip(reason: string, cache?: 'page' | 'action'): void {
    this.#caching.log.debug({ path: this.#c.request.path, reason, ...(cache ? { cache } : {}) }, 'response not cached');
  }
}

function passes(c: Controller, condition: CacheCondition | undefined): boolean {
  if (condition === undefined) return true;
  if (typeof condition === 'function') return Boolean(condition(c));
  const method = (c as unknown as Record<string, unknown>)[condition];
  if (typeof method !== 'function') throw new TypeError(`${c.constructor.name} has no method ${condition} (named as a cache condition)`);
  return Boolean((method as () => unknown).call(c));
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
function renderEntry(c: Controller, entry: ActionCacheEntry): void {
  c._claimRender();
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
  response.body = entry.token && typeof entry.body === 'string' ? entry.body.split(TOKEN_HOLE).join(c.form_authenticity_token()) : entry.body;
}
