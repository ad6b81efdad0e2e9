/**
 * The page cache's directory (Rails 2.1's `page_cache_directory`): which
 * file a request path's page is, writing it atomically, removing it, and
 * reading it back for the transports, which answer cached pages before the
 * app runs.
 *
 * Nothing is ever written or removed outside the directory, whatever the
 * URL: a path with an encoded slash, backslash or NUL, a control character,
 * an empty, `.` or `..` segment, or a hidden name is refused, and so is any
 * directory on the way that is a symbolic link (checked component by
 * component as directories are made, then once more on the resolved path).
 * A refusal is logged and the response is simply not cached.
 *
 * Only pages this process wrote are served (a restart starts cold), so a
 * stray file in the directory is never mistaken for a cached page.
 */
import { constants, lstatSync, mkdirSync, realpathSync, rmSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Logger } from 'pino';
import type { MimeRegistry } from '../mime/types.ts';
import { etagOf } from '../http/etag.ts';
import { writeFileAtomicSync } from './atomic.ts';
import { sameVersion, stampOf, type FileStamp } from './file-stamp.ts';
import { registeredExtension } from './keys.ts';
import { withoutTrailingSlashes } from '../util.ts';

export interface PageCacheSettings {
  /** Where pages go (created on the first write). */
  readonly directory: string;
  /** Names extensions, and reads Accept headers the way the app does. */
  readonly mime: MimeRegistry;
  readonly log: Logger;
  /** The app's mount point (`config.relative_url_root`), stripped from request paths before lookup. */
  readonly relative_url_root?: string;
}

/** How the app answered when it rendered a page, so that a request the page answers gets the same. */
export interface PageInfo {
  /** Which action rendered it, for the log line. */
  readonly controller: string | null;
  readonly action: string | null;
  /**
   * The Content-Type header the app sent with it (`application/rss+xml; charset=utf-8`): an
   * extension cannot say the charset. Null when not known; the type then follows the extension.
   */
  readonly content_type: string | null;
}

/** A page read back for a transport. */
export interface CachedPage extends PageInfo {
  readonly extension: string;
  readonly body: Buffer;
  /** The ETag the app gives the same body (an MD5 of it, quoted). */
  readonly etag: string;
}

const UNKNOWN_PAGE: PageInfo = Object.freeze({ controller: null, action: null, content_type: null });

/** A page this process wrote, and the ETag of its file as last read. */
interface PageEntry {
  readonly info: PageInfo;
  etag: StampedEtag | null;
}

/** An ETag and the version of the file it was computed from. */
interface StampedEtag {
  readonly stamp: FileStamp;
  readonly etag: string;
}

export type PageFile = { readonly url: string } | { readonly refused: string };

const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_LENGTH = 1024;
const EXTENSION = /^[A-Za-z0-9_+-]+$/;

/**
 * Rails' `page_cache_file`: the file (as a URL path under the cache directory) for a request
 * path, percent-encoded as received, plus `extension` (null when the path already ends in it);
 * `/` is `/index`. Or why it may not be cached.
 * @example pageCacheFile('/posts/1', 'html') // { url: '/posts/1.html' }
 * @example pageCacheFile('/posts/%2e%2e/x', 'html') // { refused: 'a "." or ".." segment' }
 */
export function pageCacheFile(path: string, extension: string | null): PageFile {
  if (!path.startsWith('/')) return { refused: 'not an absolute path' };
  if (/%(?:2f|5c|00)/i.test(path)) return { refused: 'an encoded slash, backslash or NUL' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return { refused: 'malformed percent-encoding' };
  }
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return { refused: 'a control character or backslash' };
  const trimmed = decoded.length > 1 && decoded.endsWith('/') ? decoded.slice(0, -1) : decoded;
  const segments = trimmed === '/' ? ['index'] : trimmed.slice(1).split('/');
  for (const segment of segments) {
    if (segment === '') return { refused: 'an empty segment' };
    if (segment === '.' || segment === '..') return { refused: 'a "." or ".." segment' };
    if (segment.startsWith('.')) return { refused: 'a hidden name' };
  }
  if (extension !== null) {
    if (!EXTENSION.test(extension)) return { refused: 'an unusable extension' };
    segments[segments.length - 1] += `.${extension}`;
  } else if (!segments[segments.length - 1].includes('.')) {
    return { refused: 'no extension' };
  }
  if (segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) return { refused: 'a name too long for the file system' };
  const url = `/${segments.join('/')}`;
  return url.length > MAX_PATH_LENGTH ? { refused: 'a path too long' } : { url };
}

class Refused extends Error {}

export class PageCache {
  readonly directory: string;
  readonly #mime: MimeRegistry;
  readonly #log: Logger;
  readonly #root: string;
  /** URL paths of the pages this process wrote and has not expired. */
  readonly #pages = new Map<string, PageEntry>();
  #real: string | null = null;
  // Clients send the same Accept header again and again: the last answer is kept.
  #lastAccept: string | undefined = undefined;
  #lastTakesHtml = true;

  constructor(settings: PageCacheSettings) {
    this.directory = resolve(settings.directory);
    this.#mime = settings.mime;
    this.#log = settings.log;
    this.#root = withoutTrailingSlashes(settings.relative_url_root ?? '');
  }

  /** Pages written and not expired. */
  get size(): number {
    return this.#pages.size;
  }

  /**
   * Writes the page for a request path (percent-encoded, no query) atomically; false when the
   * path is refused or the file system fails (logged either way).
   */
  write(path: string, extension: string | null, body: string | Uint8Array, info: PageInfo = UNKNOWN_PAGE): boolean {
    const file = pageCacheFile(path, extension);
    if ('refused' in file) return this.#refuse(path, file.refused);
    try {
      const target = this.#file(file.url, true)!;
      writeFileAtomicSync(target, body);
      this.#pages.set(file.url, { info, etag: null });
      return true;
    } catch (error) {
      return this.#refuse(path, error instanceof Refused ? error.message : (error as Error).message);
    }
  }

  /**
   * Removes the page for a path: exactly that file when the path ends in a registered format
   * (`/posts.json`), else its `.html` file and every other format of it this process wrote
   * (`/posts` → posts.html, posts.xml...). How many files went.
   */
  expire(path: string): number {
    const exact = registeredExtension(path, this.#mime) !== null;
    const file = pageCacheFile(path, exact ? null : 'html');
    if ('refused' in file) {
      this.#refuse(path, file.refused, 'page not expired');
      return 0;
    }
    const urls = [file.url];
    if (!exact) {
      const stem = `${file.url.slice(0, -'.html'.length)}.`;
      for (const url of this.#pages.keys()) if (url !== file.url && url.startsWith(stem) && !url.includes('/', stem.length)) urls.push(url);
    }
    let removed = 0;
    for (const url of urls) {
      this.#pages.delete(url);
      try {
        const target = this.#file(url, false);
        if (target !== null && exists(target)) {
          rmSync(target, { force: true });
          removed++;
        }
      } catch (error) {
        this.#refuse(url, error instanceof Refused ? error.message : (error as Error).message, 'page not expired');
      }
    }
    return removed;
  }

  /** Removes every page this process wrote; how many. */
  expireAll(): number {
    let removed = 0;
    for (const url of [...this.#pages.keys()]) removed += this.expire(url);
    return removed;
  }

  /**
   * The cached page for a decoded request path, or null. A path without an extension finds its
   * `.html` page (`/` finds `/index.html`) only for a client that takes HTML first: with no
   * Accept header, or one led by an HTML type or `*\/*`. Null at once when this process wrote no
   * page for the path; otherwise a promise, the file being read without blocking the event loop.
   */
  read(path: string, accept: string | undefined): Promise<CachedPage | null> | null {
    if (this.#pages.size === 0) return null;
    const local = this.#local(path);
    let url: string | null = this.#pages.has(local) ? local : null;
    if (url === null && this.#takesHtml(accept)) {
      const html = htmlPage(local);
      if (this.#pages.has(html)) url = html;
    }
    if (url === null) return null;
    const entry = this.#pages.get(url)!;
    const found = url;
    return readRegularFile(join(this.directory, ...url.split('/'))).then((file) => {
      if (file === null) {
        // Removed behind this process's back (another process expired it): answered by the app from now on.
        if (this.#pages.get(found) === entry) this.#pages.delete(found);
        return null;
      }
      const { info } = entry;
      const etag = stampedEtag(entry, file);
      return { extension: found.slice(found.lastIndexOf('.') + 1), body: file.body, etag, controller: info.controller, action: info.action, content_type: info.content_type };
    });
  }

  /**
   * Whether this process wrote the `.html` page a decoded path without an extension is answered from
   * (`/posts/1` → posts/1.html): such a page is served by `read`'s rules alone, so when `read` declines
   * it (a query string, a client that does not take HTML first) nothing else may serve its file.
   */
  wroteHtmlFor(path: string): boolean {
    return this.#pages.size > 0 && this.#pages.has(htmlPage(this.#local(path)));
  }

  /** A request path as the directory knows it: without the app's mount point or a trailing slash. */
  #local(path: string): string {
    let local = path;
    if (this.#root !== '' && (local === this.#root || local.startsWith(`${this.#root}/`))) local = local.slice(this.#root.length) || '/';
    if (local.length > 1 && local.endsWith('/')) local = local.slice(0, -1);
    return local;
  }

  #takesHtml(accept: string | undefined): boolean {
    if (accept === undefined || accept.trim() === '') return true;
    if (accept !== this.#lastAccept) {
      const first = this.#mime.parse(accept)[0];
      this.#lastTakesHtml = first === undefined || first.html;
      this.#lastAccept = accept;
    }
    return this.#lastTakesHtml;
  }

  /** The real directory (made on first need), or null when it does not exist and `create` is false. */
  #realRoot(create: boolean): string | null {
    if (this.#real !== null) return this.#real;
    if (create) mkdirSync(this.directory, { recursive: true });
    else if (!exists(this.directory)) return null;
    return (this.#real = realpathSync(this.directory));
  }

  /**
   * The absolute file for a URL path under the directory, walking it one directory at a time
   * (making missing ones when `create`) and refusing symbolic links and non-directories on the
   * way; null when a directory is missing and `create` is false.
   */
  #file(url: string, create: boolean): string | null {
    const root = this.#realRoot(create);
    if (root === null) return null;
    const segments = url.slice(1).split('/');
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      dir = join(dir, segment);
      let stat = lstatOrNull(dir);
      if (stat === null) {
        if (!create) return null;
        try {
          mkdirSync(dir);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        stat = lstatOrNull(dir);
      }
      if (stat === null || stat.isSymbolicLink()) throw new Refused('a symbolic link on the way');
      if (!stat.isDirectory()) throw new Refused('a file where a directory should be');
    }
    const real = realpathSync(dir);
    if (real !== root && !real.startsWith(root + sep)) throw new Refused('outside the page cache directory');
    const file = join(dir, segments[segments.length - 1]);
    const stat = lstatOrNull(file);
    if (stat !== null && (stat.isSymbolicLink() || !stat.isFile())) throw new Refused('not a regular file');
    return file;
  }

  #refuse(path: string, reason: string, msg = 'page not cached'): false {
    this.#log.info({ path: path.slice(0, 200), reason, page_cache_directory: this.directory }, msg);
    return false;
  }
}

/** The `.html` page of a path without an extension: `/` is `/index.html`. */
function htmlPage(local: string): string {
  return local === '/' ? '/index.html' : `${local}.html`;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

function exists(path: string): boolean {
  return lstatOrNull(path) !== null;
}

/** A regular file's bytes and its stat, without following a symbolic link in its place; null when it is not one. */
async function readRegularFile(file: string): Promise<{ readonly body: Buffer; readonly stat: Stats } | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return null;
  }
  try {
    // Stat before reading: a change between the two then shows as a new stat next time, never as a stale ETag kept.
    const stat = await handle.stat();
    return stat.isFile() ? { body: await handle.readFile(), stat } : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/**
 * The ETag of the page's file, digested again only when the file is not the one last digested:
 * another process sharing the directory may have rewritten it.
 */
function stampedEtag(entry: PageEntry, file: { readonly body: Buffer; readonly stat: Stats }): string {
  const { stat, body } = file;
  const known = entry.etag;
  if (known !== null && sameVersion(known.stamp, stat)) return known.etag;
  const etag = etagOf(body);
  entry.etag = { stamp: stampOf(stat), etag };
  return etag;
}
