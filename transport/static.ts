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
 * Only files listed in an index of the directory are ever served, so no
 * request path, however encoded (`..`, `%2e%2e`, `%2f`, backslashes, NUL),
 * can name anything outside it. The index is built once and kept current by
 * whoever writes into the directory (the page cache).
 *
 * Public files themselves (validators, ranges, memory or disk) are
 * `public-file.ts`'s.
 */
import { readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { App } from '../machines/app.ts';
import type { ResponseMessage } from '../core/http/message.ts';
import { ifNoneMatchNames, REVALIDATE } from '../core/http/etag.ts';
import { runtimeHeader } from '../core/http/response.ts';
import type { PageCache } from '../core/caching/page-cache.ts';
import { fileAnswer, headerOf, type FileRequest, type StaticResponse } from './public-file.ts';

const FALLBACK_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json', '.xml': 'application/xml',
  '.txt': 'text/plain', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.webp': 'image/webp', '.woff2': 'font/woff2', '.map': 'application/json',
};
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript))/;
const MAX_FILES = 10_000;

export class PublicIndex {
  readonly root: string;
  readonly #files = new Set<string>();

  constructor(root: string) {
    this.root = root;
    this.#scan(root, 0);
  }

  #scan(dir: string, depth: number): void {
    if (depth > 16 || this.#files.size >= MAX_FILES) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) this.#scan(full, depth + 1);
      else if (e.isFile()) this.add(full);
    }
  }

  /** Records a file written under the root (ignored when outside it). */
  add(file: string): void {
    const rel = relative(this.root, file);
    if (rel === '' || rel.startsWith('..') || rel.split(sep).some((p) => p.startsWith('.'))) return;
    this.#files.add(`/${rel.split(sep).join('/')}`);
  }

  remove(file: string): void {
    this.#files.delete(`/${relative(this.root, file).split(sep).join('/')}`);
  }

  /** The file for a decoded URL path (`/posts/1` also finds `/posts/1.html`, `/` finds `/index.html`). */
  lookup(path: string): string | null {
    for (const candidate of path === '/' ? ['/index.html'] : [path, `${path}.html`]) {
      if (this.#files.has(candidate)) return join(this.root, ...candidate.split('/'));
    }
    return null;
  }

  get size(): number {
    return this.#files.size;
  }
}

const indexes = new WeakMap<App, PublicIndex | null>();

/** The app's public index (built on first use). */
export function publicIndex(app: App): PublicIndex | null {
  let index = indexes.get(app);
  if (index === undefined) {
    index = app.publicDir ? new PublicIndex(app.publicDir) : null;
    indexes.set(app, index);
  }
  return index;
}

/** What static answers need of a request: a public file's (method, headers), Accept for cached pages, and for the log line, the transport. */
export interface StaticRequest extends FileRequest {
  readonly transport?: string;
}

/** A response for a cached page or a public file at this request target, or null to let the app handle it. */
export function serveStatic(app: App, url: string, request: StaticRequest = {}): StaticResponse | null {
  // `?.`: transports are also run around stand-in apps that have no caches.
  const pages = app.caching?.pages ?? null;
  const index = publicIndex(app);
  // Most apps serve most requests from neither: they pay for nothing more.
  if ((pages === null || pages.size === 0) && (index === null || index.size === 0)) return null;
  const q = url.indexOf('?');
  const target = q < 0 ? url : url.slice(0, q);
  let path: string;
  try {
    path = decodeURIComponent(target);
  } catch {
    return null;
  }
  // The page cache never writes a page for a query, which might change it: such requests go to the app.
  if (pages !== null && (q < 0 || q === url.length - 1)) {
    const page = cachedPage(app, pages, target, path, request);
    if (page !== null) return page;
  }
  if (index === null || index.size === 0) return null;
  const file = index.lookup(path);
  if (file === null) return null;
  return fileAnswer(file, request, contentTypeFor(app, extname(file).toLowerCase()));
}

function cachedPage(app: App, pages: PageCache, target: string, path: string, request: StaticRequest): ResponseMessage | null {
  const started = performance.now();
  const page = pages.read(path, headerOf(request, 'accept'));
  if (page === null) return null;
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

function contentTypeFor(app: App, ext: string): string {
  const type = app.mime.lookup_by_extension(ext.slice(1))?.string ?? FALLBACK_TYPES[ext] ?? 'application/octet-stream';
  return TEXT_TYPES.test(type) ? `${type}; charset=utf-8` : type;
}

function bodyResponse(contentType: string, body: Buffer): ResponseMessage {
  return { status: 200, headers: { 'Content-Type': contentType, 'Content-Length': String(body.byteLength) }, body };
}
