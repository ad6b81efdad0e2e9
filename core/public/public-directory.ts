/**
 * Which files under the public directory may be served, found on disk as
 * they are now: a file added or changed after the app started is served
 * (and one removed is not), without blocking the event loop, since each
 * lookup is an asynchronous `realpath` and `stat`. A path no file answers
 * is remembered as such for a second (at most 10,000 of them, a million
 * characters in all), so the app's own URLs cost one lookup a second, not
 * one a request; a change in the directory (seen by a file watcher where
 * the platform has one) forgets them at once.
 *
 * A path is first read against the names its directories hold, each
 * directory listed once a second (or until a change is seen): a request for
 * a name no directory on its way holds (`/posts/1`, `/users/8812/edit`,
 * every distinct URL of the app itself) is answered from memory, with no
 * file-system call that fails, however many distinct paths arrive.
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
const MAX_LISTED_NAMES = 10_000;

/** A directory's names as last read (null: no directory there), until when they stand. */
interface Listing {
  readonly names: ReadonlySet<string> | null;
  readonly until: number;
}

/** The files of one app's public directory, found on disk per request. */
export class PublicDirectory {
  readonly root: string;
  #real: Promise<string | null> | null = null;
  readonly #misses = new Map<string, number>();
  #missChars = 0;
  /** Listings by directory, relative to the root ('' for the root itself, 'a/b' below it). */
  readonly #listings = new Map<string, Listing>();
  readonly #reading = new Map<string, Promise<Listing | null>>();
  /** Counts the changes seen: a listing read across one is not kept. */
  #generation = 0;
  #watcher: FSWatcher | null = null;

  constructor(root: string) {
    this.root = root;
  }

  /** Whether `path` is known, for now, to name no file: answered without touching the disk. */
  knownMissing(path: string): boolean {
    const until = this.#misses.get(path);
    if (until === undefined) return this.#unlisted(path, true, (dir) => this.#freshListing(dir)) === true;
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
  }

  /**
   * Whether a directory on the way to `path` (or the last one, for its name and its `.html` page) lacks the
   * name the path needs: true, false, or undefined when a listing it needs is not at hand (`listing` gives
   * the listing of a directory, relative to the root, or undefined).
   */
  #unlisted(path: string, html: boolean, listing: (dir: string) => Listing | undefined): boolean | undefined {
    const segments = path === '/' ? (html ? ['index.html'] : null) : safeSegments(path);
    if (segments === null) return undefined;
    let dir = '';
    for (let i = 0; i < segments.length; i++) {
      const known = listing(dir);
      if (known === undefined) return undefined;
      if (known.names === null) return true;
      const name = segments[i];
      const last = i === segments.length - 1;
      if (!known.names.has(name) && !(last && html && known.names.has(`${name}.html`))) return true;
      dir = dir === '' ? name : `${dir}/${name}`;
    }
    return false;
  }

  /** `#unlisted`, reading the listings it needs that are not at hand (one read per directory, however many ask at once). */
  async #unlistedOnDisk(root: string, path: string, html: boolean): Promise<boolean> {
    const segments = path === '/' ? [] : safeSegments(path);
    if (segments === null) return false;
    // Every directory on the way, read before the synchronous walk, in order: a missing one ends the walk there.
    let dir = '';
    for (let i = 0; i < segments.length; i++) {
      const listing = this.#freshListing(dir) ?? (await this.#read(root, dir));
      if (listing === null || listing.names === null || !listing.names.has(segments[i])) break;
      dir = dir === '' ? segments[i] : `${dir}/${segments[i]}`;
    }
    return this.#unlisted(path, html, (d) => this.#freshListing(d)) === true;
  }

  #freshListing(dir: string): Listing | undefined {
    const listing = this.#listings.get(dir);
    if (listing === undefined) return undefined;
    if (performance.now() < listing.until) return listing;
    this.#listings.delete(dir);
    return undefined;
  }

  /** The listing of `dir` read from disk, kept when the bounds allow; null when it could not be kept. */
  #read(root: string, dir: string): Promise<Listing | null> {
    let reading = this.#reading.get(dir);
    if (reading === undefined) {
      const generation = this.#generation;
      reading = readdir(dir === '' ? root : join(root, ...dir.split('/'))).then(
        (names): Listing | null => (names.length > MAX_LISTED_NAMES ? null : { names: new Set(names), until: 0 }),
        // Not a directory, or gone: nothing below it. Any other failure is left to the file-by-file lookup.
        (error: NodeJS.ErrnoException): Listing | null => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? { names: null, until: 0 } : null),
      ).then((listing) => {
        if (generation !== this.#generation) return listing;
        this.#reading.delete(dir);
        if (listing === null) return null;
        const kept = { names: listing.names, until: performance.now() + MISS_TTL_MS };
        if (this.#listings.size >= MAX_LISTINGS) this.#listings.delete(this.#listings.keys().next().value!);
        this.#listings.set(dir, kept);
        return kept;
      });
      this.#reading.set(dir, reading);
    }
    return reading;
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
