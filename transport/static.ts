/**
 * Files under the app's `public/` directory, served before routing (as the
 * web server in front of a Rails app would): assets, error pages, and
 * cached pages (`/posts/1` is served from `public/posts/1.html`). Pages the
 * page cache wrote (`caches_page`) are looked up first, in its own
 * directory: they are answered as the app answered them (Content-Type, ETag,
 * revalidation with If-None-Match, X-Runtime) plus `X-Cache: hit`, and
 * since the app never sees them, their `request completed` log line is
 * written here.
 *
 * A cached page is read without blocking the event loop, as are public files.
 * Public files are found on disk as they are now, so a file added or
 * changed after the server started is served (and one removed is not),
 * without blocking the event loop: each lookup is an asynchronous `realpath`
 * and `stat`. A path no file answers is remembered as such for a second (at
 * most 10,000 of them), so the app's own URLs cost one lookup a second, not
 * one a request; a change in the directory (seen by a file watcher where
 * the platform has one) forgets them at once.
 *
 * No request path reaches anything outside the directory: a path with an
 * empty, `.` or `..` segment, a backslash, a NUL or another control
 * character, or a hidden name (dotfiles, `.git/`) is refused before any
 * lookup, and the file's real path (symbolic links resolved) must still lie
 * inside the directory's real path, below no hidden name.
 *
 * Content types come from the app's MIME registry, then from the mime-db
 * database (`mime-types`), which knows every registered extension (`.mjs`,
 * `.wasm`, `.woff2`, `.mp4`...); text types carry `charset=utf-8`.
 * Cache-Control is short by default (`public, max-age=60`, `no-cache` in
 * development, so edits show at once), and a year, `immutable`, for a
 * Rails-style asset URL that names the file's version in its query
 * (`/stylesheets/app.css?1700000000`).
 *
 * Public files themselves (validators, ranges, memory or disk) are
 * `public-file.ts`'s.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import mimeTypes from 'mime-types';
import type { App } from '../machines/app.ts';
import type { ResponseMessage } from '../core/http/message.ts';
import { ifNoneMatchNames, REVALIDATE } from '../core/http/etag.ts';
import { runtimeHeader } from '../core/http/response.ts';
import type { CachedPage, PageCache } from '../core/caching/page-cache.ts';
import { fileAnswer, headerOf, type FileRequest, type StaticResponse } from './public-file.ts';

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|manifest\+json))/;
/** How long a path no file answers is taken as none, in ms. */
const MISS_TTL_MS = 1_000;
const MAX_MISSES = 10_000;
/** Cache-Control for an asset URL whose query names its version (Rails' asset ids: `?1700000000`). */
export const VERSIONED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const DEFAULT_CACHE_CONTROL = 'public, max-age=60';
export const DEVELOPMENT_CACHE_CONTROL = 'no-cache';

/** The files of one app's public directory, found on disk per request. */
export class PublicFiles {
  readonly root: string;
  #real: Promise<string | null> | null = null;
  readonly #misses = new Map<string, number>();
  #watcher: FSWatcher | null = null;

  constructor(root: string) {
    this.root = root;
  }

  /** Whether `path` is known, for now, to name no file: answered without touching the disk. */
  knownMissing(path: string): boolean {
    const until = this.#misses.get(path);
    if (until === undefined) return false;
    if (performance.now() < until) return true;
    this.#misses.delete(path);
    return false;
  }

  /**
   * The file for a decoded URL path (`/posts/1` also finds `/posts/1.html`, `/` finds `/index.html`),
   * or null; never anything outside the directory or below a hidden name.
   */
  async lookup(path: string): Promise<string | null> {
    const root = await this.#realRoot();
    if (root === null) return this.#missed(path);
    for (const candidate of path === '/' ? ['/index.html'] : [path, `${path}.html`]) {
      const segments = safeSegments(candidate);
      if (segments === null) continue;
      const file = await regularFileUnder(root, join(root, ...segments));
      if (file !== null) return file;
    }
    return this.#missed(path);
  }

  /** Forgets every path remembered as missing (the directory changed). */
  changed(): void {
    this.#misses.clear();
  }

  /** Stops watching the directory. */
  close(): void {
    this.#watcher?.close();
    this.#watcher = null;
  }

  #missed(path: string): null {
    if (this.#misses.size >= MAX_MISSES) this.#misses.delete(this.#misses.keys().next().value!);
    this.#misses.set(path, performance.now() + MISS_TTL_MS);
    return null;
  }

  #realRoot(): Promise<string | null> {
    this.#real ??= realpath(this.root).then((real) => {
      this.#watch(real);
      return real;
    }, () => {
      // No directory yet: looked for again once the remembered misses expire.
      this.#real = null;
      return null;
    });
    return this.#real;
  }

  #watch(real: string): void {
    try {
      // Where the platform watches whole trees; elsewhere the one-second memory of misses still bounds the wait.
      this.#watcher = watch(real, { recursive: true, persistent: false }, () => this.changed());
      this.#watcher.on('error', () => this.close());
    } catch {
      try {
        this.#watcher = watch(real, { persistent: false }, () => this.changed());
        this.#watcher.on('error', () => this.close());
      } catch {
        this.#watcher = null;
      }
    }
  }
}

/** The segments of a URL path that may name a public file, or null (empty, `.`, `..`, hidden, backslash, control characters). */
function safeSegments(path: string): string[] | null {
  if (!path.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(path)) return null;
  const segments = path.slice(1).split('/');
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('.')) return null;
  }
  return segments;
}

/** `file` when it is a regular file whose real path lies inside `root` below no hidden name; else null. */
async function regularFileUnder(root: string, file: string): Promise<string | null> {
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    return null;
  }
  if (!real.startsWith(root + sep)) return null;
  if (real.slice(root.length + 1).split(sep).some((s) => s.startsWith('.'))) return null;
  try {
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

const registry = new WeakMap<App, PublicFiles | null>();

/** The app's public files (null when it has no public directory). */
export function publicFiles(app: App): PublicFiles | null {
  let files = registry.get(app);
  if (files === undefined) {
    files = app.publicDir ? new PublicFiles(app.publicDir) : null;
    registry.set(app, files);
  }
  return files;
}

/** What static answers need of a request: a public file's (method, headers), Accept for cached pages, and for the log line, the transport. */
export interface StaticRequest extends FileRequest {
  readonly transport?: string;
}

/**
 * A response for a cached page or a public file at this request target, or null to let the app
 * handle it: null at once when there is no page of this process's and no file to look for (a path
 * known to name none), else a promise.
 */
export function serveStatic(app: App, url: string, request: StaticRequest = {}): StaticResponse | null | Promise<StaticResponse | null> {
  // `?.`: transports are also run around stand-in apps that have no caches.
  const pages = app.caching?.pages ?? null;
  const files = publicFiles(app);
  // Most apps serve most requests from neither: they pay for nothing more.
  if ((pages === null || pages.size === 0) && files === null) return null;
  const q = url.indexOf('?');
  const target = q < 0 ? url : url.slice(0, q);
  let path: string;
  try {
    path = decodeURIComponent(target);
  } catch {
    return null;
  }
  const query = q < 0 ? '' : url.slice(q + 1);
  // The page cache never writes a page for a query, which might change it: such requests go to the app.
  if (pages !== null && (q < 0 || q === url.length - 1)) {
    const page = cachedPage(app, pages, target, path, request);
    if (page !== null) return page.then((found) => found ?? publicFile(app, files, path, query, request));
  }
  return publicFile(app, files, path, query, request);
}

/** The public file at `path`: null at once when there is none to look for, else a promise. */
function publicFile(app: App, files: PublicFiles | null, path: string, query: string, request: StaticRequest): Promise<StaticResponse | null> | null {
  if (files === null || files.knownMissing(path)) return null;
  return files.lookup(path).then((file) => (file === null ? null : fileAnswer(file, request, contentTypeFor(app, extname(file).toLowerCase()), cacheControlFor(app, query))));
}

/** Far-future for a versioned asset URL (`?1700000000`, as Rails' asset tags write), else the short default. */
function cacheControlFor(app: App, query: string): string {
  if (/^\d+$/.test(query)) return VERSIONED_CACHE_CONTROL;
  return app.config?.environment === 'development' ? DEVELOPMENT_CACHE_CONTROL : DEFAULT_CACHE_CONTROL;
}

/** The answer from a page this process cached: null at once when it has none for the path, else a promise (null if the file is gone). */
function cachedPage(app: App, pages: PageCache, target: string, path: string, request: StaticRequest): Promise<ResponseMessage | null> | null {
  const started = performance.now();
  const reading = pages.read(path, headerOf(request, 'accept'));
  if (reading === null) return null;
  return reading.then((page) => (page === null ? null : pageAnswer(app, page, target, request, started)));
}

function pageAnswer(app: App, page: CachedPage, target: string, request: StaticRequest, started: number): ResponseMessage {
  const fresh = ifNoneMatchNames(headerOf(request, 'if-none-match'), page.etag);
  let response: ResponseMessage;
  if (fresh) response = { status: 304, headers: {}, body: '' };
  // The type the app sent, charset and all; an extension alone cannot say it.
  else if (page.content_type !== null) response = bodyResponse(page.content_type, page.body);
  else response = bodyResponse(contentTypeFor(app, `.${page.extension}`), page.body);
  response.headers.ETag = page.etag;
  response.headers['Cache-Control'] = REVALIDATE;
  const ms = performance.now() - started;
  response.headers['X-Runtime'] = runtimeHeader(ms);
  if (app.config.cacheHeader) response.headers['X-Cache'] = 'hit';
  if (app.log.isLevelEnabled('info')) {
    app.log.info({
      method: request.method ?? 'GET', path: target, status: response.status, ms: Math.round(ms * 100) / 100,
      controller: page.controller, action: page.action, transport: request.transport ?? 'http', cache: 'hit',
    }, 'request completed');
  }
  return response;
}

/** The app's registered type for the extension, else mime-db's, else `application/octet-stream`; text types with their charset. */
function contentTypeFor(app: App, ext: string): string {
  const type = app.mime.lookup_by_extension(ext.slice(1))?.string || mimeTypes.lookup(ext) || 'application/octet-stream';
  return TEXT_TYPES.test(type) ? `${type}; charset=utf-8` : type;
}

function bodyResponse(contentType: string, body: Buffer): ResponseMessage {
  return { status: 200, headers: { 'Content-Type': contentType, 'Content-Length': String(body.byteLength) }, body };
}
