/**
 * Which files under the public directory may be served, found on disk as
 * they are now: a file added or changed after the app started is served
 * (and one removed is not), without blocking the event loop, since each
 * lookup is an asynchronous `realpath` and `stat`.
 *
 * A path is first read against the names its directories hold, each
 * directory listed at most once a second: a request for a name no directory
 * on its way holds (`/posts/1`, `/users/8812/edit`, every distinct URL of
 * the app itself) is answered from memory, with no file-system call that
 * fails, however many distinct paths arrive. A path whose names are all
 * listed but that answers no file (a directory's own path) is remembered as
 * such for a second (at most 10,000 of them, a million characters in all).
 * A change in the directory (seen by a file watcher where the platform has
 * one) forgets both at once.
 *
 * No request path reaches anything outside the directory: a path with an
 * empty, `.` or `..` segment, a backslash, a NUL or another control
 * character, or a hidden name (dotfiles, `.git/`) is refused before any
 * lookup, and the file's real path (symbolic links resolved) must still lie
 * inside the directory's real path, below no hidden name.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** How long a path no file answers is taken as none, in ms. */
const MISS_TTL_MS = 1_000;
const MAX_MISSES = 10_000;
/**
 * The remembered paths' total length, in characters: a URL may be 16 KB long, and ten thousand of them
 * would hold 160 MB. The oldest are forgotten first.
 */
const MAX_MISS_CHARS = 1_000_000;
/** What a file system can name (Linux's NAME_MAX and PATH_MAX, in bytes): a longer path names no file. */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4_096;
/**
 * Directories whose names are kept, and the most names one may hold to be kept: only directories that
 * exist are listed, so the bound is the public tree's own size, never a client's; a larger directory is
 * looked up on disk, file by file, as before.
 */
const MAX_LISTINGS = 1_000;
const SLASH = 0x2f;
const DOT = 0x2e;
const MAX_LISTED_NAMES = 10_000;

/** A directory's names as last read; null: no directory there, so nothing below it. */
type Listing = ReadonlySet<string> | null;

/** The files of one app's public directory, found on disk per request. */
export class PublicDirectory {
  readonly root: string;
  #real: Promise<string | null> | null = null;
  readonly #misses = new Map<string, number>();
  #missChars = 0;
  /**
   * Listings by directory, relative to the root ('' for the root itself, 'a/b' below it), all forgotten a
   * second after the first was kept (a timer, so that the look-up every request makes reads no clock).
   */
  readonly #listings = new Map<string, Listing>();
  readonly #reading = new Map<string, Promise<Listing | undefined>>();
  #expiry: NodeJS.Timeout | null = null;
  /** Counts the changes seen: a listing read across one is not kept. */
  #generation = 0;
  #watcher: FSWatcher | null = null;

  constructor(root: string) {
    this.root = root;
  }

  /** Whether `path` is known, for now, to name no file: answered without touching the disk. */
  knownMissing(path: string): boolean {
    const until = this.#misses.get(path);
    if (until === undefined) return this.#unlisted(path, true) === true;
    if (performance.now() < until) return true;
    this.#forget(path);
    return false;
  }

  /**
   * The file for a decoded URL path (`/posts/1` also finds `/posts/1.html`, `/` finds `/index.html`,
   * unless `html` is false), or null; never anything outside the directory or below a hidden name.
   */
  async lookup(path: string, html = true): Promise<string | null> {
    // Nothing to look for, nor to remember: no file system holds such a name.
    if (!nameable(path)) return null;
    const root = await this.#realRoot();
    if (root === null) return this.#missed(path);
    // Answered by the listings, which stand for every path below them: nothing to remember one by one.
    if (await this.#unlistedOnDisk(root, path, html)) return null;
    const candidates = !html ? [path] : path === '/' ? ['/index.html'] : [path, `${path}.html`];
    for (const candidate of candidates) {
      const segments = safeSegments(candidate);
      if (segments === null) continue;
      const file = await regularFileUnder(root, join(root, ...segments));
      if (file !== null) return file;
    }
    // Only a path that nothing could answer is remembered as missing: without the `.html` page, one might.
    return html ? this.#missed(path) : null;
  }

  /** Forgets every path remembered as missing (the directory changed). */
  changed(): void {
    this.#misses.clear();
    this.#missChars = 0;
    this.#listings.clear();
    this.#reading.clear();
    this.#generation++;
  }

  /** Stops watching the directory. */
  close(): void {
    this.#watcher?.close();
    this.#watcher = null;
    if (this.#expiry !== null) clearTimeout(this.#expiry);
    this.#expiry = null;
    this.#listings.clear();
  }

  /**
   * Whether a directory on the way to `path` (or the last one, for its name and its `.html` page) lacks the
   * name the path needs, by the listings at hand: true, false, or undefined when one it needs is not at
   * hand or the path is one `lookup` refuses by its shape. Every request asks, so it walks the path in
   * place, without splitting it.
   */
  #unlisted(path: string, html: boolean): boolean | undefined {
    if (path.charCodeAt(0) !== SLASH) return undefined;
    if (path.length === 1) {
      const root = this.#listings.get('');
      if (root === undefined || !html) return undefined;
      return root === null || !root.has('index.html');
    }
    let start = 1;
    let dir = '';
    for (;;) {
      let end = path.indexOf('/', start);
      const last = end < 0;
      if (last) end = path.length;
      // An empty or hidden name: `lookup` refuses the path by its shape.
      if (end === start || path.charCodeAt(start) === DOT) return undefined;
      const names = this.#listings.get(dir);
      if (names === undefined) return undefined;
      if (names === null) return true;
      const name = path.slice(start, end);
      if (!names.has(name) && !(last && html && names.has(`${name}.html`))) return true;
      if (last) return false;
      dir = path.slice(1, end);
      start = end + 1;
    }
  }

  /** `#unlisted`, reading the listings it needs that are not at hand (one read per directory, however many ask at once). */
  async #unlistedOnDisk(root: string, path: string, html: boolean): Promise<boolean> {
    const segments = path === '/' ? [] : safeSegments(path);
    if (segments === null) return false;
    // Every directory on the way, read before the synchronous walk, in order: a missing one ends the walk there.
    let dir = '';
    for (let i = 0; i < segments.length; i++) {
      const names = this.#listings.has(dir) ? this.#listings.get(dir) : await this.#read(root, dir);
      if (names === undefined || names === null || !names.has(segments[i])) break;
      dir = dir === '' ? segments[i] : `${dir}/${segments[i]}`;
    }
    return this.#unlisted(path, html) === true;
  }

  /** The listing of `dir` read from disk, and kept while the bounds allow; undefined when it is not known. */
  #read(root: string, dir: string): Promise<Listing | undefined> {
    let reading = this.#reading.get(dir);
    if (reading === undefined) {
      const generation = this.#generation;
      reading = readdir(dir === '' ? root : join(root, ...dir.split('/'))).then(
        (names): Listing | undefined => (names.length > MAX_LISTED_NAMES ? undefined : new Set(names)),
        // Not a directory, or gone: nothing below it. Any other failure is left to the file-by-file lookup.
        (error: NodeJS.ErrnoException): Listing | undefined => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : undefined),
      ).then((names) => {
        // Read across a change: good for this look-up, not to keep.
        if (generation !== this.#generation) return names;
        this.#reading.delete(dir);
        if (names !== undefined) this.#keep(dir, names);
        return names;
      });
      this.#reading.set(dir, reading);
    }
    return reading;
  }

  #keep(dir: string, names: Listing): void {
    if (this.#listings.size >= MAX_LISTINGS) this.#listings.delete(this.#listings.keys().next().value!);
    this.#listings.set(dir, names);
    if (this.#expiry === null) {
      this.#expiry = setTimeout(() => {
        this.#expiry = null;
        this.#listings.clear();
      }, MISS_TTL_MS);
      this.#expiry.unref();
    }
  }

  #missed(path: string): null {
    this.#forget(path);
    while (this.#misses.size > 0 && (this.#misses.size >= MAX_MISSES || this.#missChars + path.length > MAX_MISS_CHARS)) {
      this.#forget(this.#misses.keys().next().value!);
    }
    this.#misses.set(path, performance.now() + MISS_TTL_MS);
    this.#missChars += path.length;
    return null;
  }

  #forget(path: string): void {
    if (this.#misses.delete(path)) this.#missChars -= path.length;
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

/** Whether a decoded URL path could name a file at all: each name and the whole within the file system's bounds. */
function nameable(path: string): boolean {
  // A character is at most three UTF-8 bytes: most paths are known short enough without counting.
  if (path.length > MAX_PATH_BYTES || (path.length * 3 > MAX_PATH_BYTES && Buffer.byteLength(path) > MAX_PATH_BYTES)) return false;
  let start = 1;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end < 0) end = path.length;
    if ((end - start) * 3 > MAX_NAME_BYTES && Buffer.byteLength(path.slice(start, end)) > MAX_NAME_BYTES) return false;
    start = end + 1;
  }
  return true;
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
