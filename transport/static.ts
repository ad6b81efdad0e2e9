/**
 * Files under the app's `public/` directory, served before routing (as the
 * web server in front of a Rails app would): assets, error pages, and
 * cached pages (`/posts/1` is served from `public/posts/1.html`).
 *
 * Only files listed in an index of the directory are ever served, so no
 * request path, however encoded (`..`, `%2e%2e`, `%2f`, backslashes, NUL),
 * can name anything outside it. The index is built once and kept current by
 * whoever writes into the directory (the page cache).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { App } from '../machines/app.ts';
import type { ResponseMessage } from '../core/http/message.ts';

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
    index = app.public_dir ? new PublicIndex(app.public_dir) : null;
    indexes.set(app, index);
  }
  return index;
}

/** A response for a public file at this request target, or null to let the app handle it. */
export function serveStatic(app: App, url: string): ResponseMessage | null {
  const index = publicIndex(app);
  if (index === null || index.size === 0) return null;
  const q = url.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(q < 0 ? url : url.slice(0, q));
  } catch {
    return null;
  }
  const file = index.lookup(path);
  if (file === null) return null;
  let body: Buffer;
  try {
    if (!statSync(file).isFile()) return null;
    body = readFileSync(file);
  } catch {
    return null;
  }
  const ext = extname(file).toLowerCase();
  const type = app.mime.lookup_by_extension(ext.slice(1))?.string ?? FALLBACK_TYPES[ext] ?? 'application/octet-stream';
  return {
    status: 200,
    headers: { 'Content-Type': TEXT_TYPES.test(type) ? `${type}; charset=utf-8` : type, 'Content-Length': String(body.byteLength) },
    body,
  };
}
