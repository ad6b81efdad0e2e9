/**
 * A cache store in a directory, for caches that outlive the process or are
 * shared by several. Each entry is one file whose name is the SHA-256 of its
 * key (under a two-character subdirectory), so no key, whatever it holds
 * (`..`, slashes, NUL, thousands of characters), names any other path. The
 * file holds the key, the expiry and the value as JSON (bytes in base64);
 * it is replaced atomically (written beside, then renamed), so a reader
 * never sees half an entry. Only files named like entries are read or
 * removed: `clear()` leaves anything else in the directory alone.
 *
 * @example
 *   createApp({ routes, controllers, cache_store: fileStore('tmp/cache') })
 */
import { createHash } from 'node:crypto';
import { open, readdir, readFile, mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ArgumentError } from '../errors.ts';
import { checkOptionNames } from '../options.ts';
import { isTemporaryName, writeFileAtomic } from './atomic.ts';
import { checkKey, expiryOf, fetchThrough, keyMatcher, type CacheFetchOptions, type CacheStore, type CacheValue, type CacheWriteOptions, type MaybePromise } from './store.ts';
import { decodeValue, encodeValue } from './codec.ts';

export interface FileStoreOptions {
  /** The clock, in ms (tests pass their own). */
  readonly now?: () => number;
}

interface Header {
  readonly key: string;
  readonly expires_at: number | null;
}

const SUBDIRECTORY = /^[0-9a-f]{2}$/;
const ENTRY = /^[0-9a-f]{64}$/;
// Enough to hold the header line of any entry with a sane key; longer ones are read whole.
const HEADER_PEEK = 64 * 1024;

export class FileStore implements CacheStore {
  readonly name: string;
  readonly directory: string;
  readonly #now: () => number;

  constructor(directory: string, options: FileStoreOptions = {}) {
    this.directory = resolve(directory);
    this.name = `file:${this.directory}`;
    this.#now = options.now ?? Date.now;
  }

  /** The file that holds `key` (whether or not it exists). */
  pathFor(key: string): string {
    const digest = createHash('sha256').update(checkKey(key)).digest('hex');
    return join(this.directory, digest.slice(0, 2), digest);
  }

  async read(key: string): Promise<CacheValue | undefined> {
    const file = this.pathFor(key);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
    const parsed = parseEntry(text);
    // Not an entry (or not this key's): left alone, and read as absent.
    if (parsed === null || parsed.header.key !== key) return undefined;
    if (parsed.header.expires_at !== null && this.#now() >= parsed.header.expires_at) {
      await rm(file, { force: true });
      return undefined;
    }
    try {
      return decodeValue(JSON.parse(parsed.body) as unknown);
    } catch {
      return undefined;
    }
  }

  async write(key: string, value: CacheValue, options?: CacheWriteOptions): Promise<boolean> {
    const file = this.pathFor(key);
    const header: Header = { key, expires_at: expiryOf(this.#now(), options) };
    const text = `${JSON.stringify(header)}\n${JSON.stringify(encodeValue(value))}`;
    await mkdir(join(file, '..'), { recursive: true });
    await writeFileAtomic(file, text);
    return true;
  }

  async exist(key: string): Promise<boolean> {
    return (await this.read(key)) !== undefined;
  }

  async fetch(key: string, optionsOrCompute: CacheFetchOptions | undefined | (() => MaybePromise<CacheValue>), compute?: () => MaybePromise<CacheValue>): Promise<CacheValue> {
    return fetchThrough(this, key, optionsOrCompute, compute);
  }

  async delete(key: string): Promise<boolean> {
    const file = this.pathFor(key);
    try {
      await rm(file);
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  }

  async delete_matched(pattern: RegExp | string): Promise<number> {
    const matches = keyMatcher(pattern);
    // One buffer for the whole walk, never zero-filled: only the bytes each read fills are looked at.
    const peek = Buffer.allocUnsafe(HEADER_PEEK);
    let removed = 0;
    for (const file of await this.#entryFiles()) {
      const header = await readHeader(file, peek);
      if (header === null || !matches(header.key)) continue;
      await rm(file, { force: true });
      removed++;
    }
    return removed;
  }

  async clear(): Promise<void> {
    for (const file of await this.#entryFiles(true)) await rm(file, { force: true });
  }

  /** Every entry file (and, for `clear`, leftover temporary files), by walking the two-level layout. */
  async #entryFiles(withTemporary = false): Promise<string[]> {
    const files: string[] = [];
    for (const sub of await listDirectory(this.directory)) {
      if (!SUBDIRECTORY.test(sub)) continue;
      for (const name of await listDirectory(join(this.directory, sub))) {
        if (ENTRY.test(name) || (withTemporary && isTemporaryName(name))) files.push(join(this.directory, sub, name));
      }
    }
    return files;
  }
}

/** A cache store in `directory` (created on the first write). */
export function fileStore(directory: string, options: FileStoreOptions = {}): FileStore {
  if (typeof directory !== 'string' || directory === '') throw new ArgumentError(`fileStore needs a directory path, not ${typeof directory === 'string' ? '""' : typeof directory}`);
  checkOptionNames('fileStore', options, FILE_STORE_OPTIONS);
  return new FileStore(directory, options);
}

const FILE_STORE_OPTIONS: ReadonlySet<string> = new Set(['now']);

function missing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function listDirectory(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if (missing(error)) return [];
    throw error;
  }
}

function parseHeader(line: string): Header | null {
  try {
    const header = JSON.parse(line) as Partial<Header> | null;
    if (header === null || typeof header !== 'object' || typeof header.key !== 'string') return null;
    if (header.expires_at !== null && typeof header.expires_at !== 'number') return null;
    return { key: header.key, expires_at: header.expires_at };
  } catch {
    return null;
  }
}

function parseEntry(text: string): { header: Header; body: string } | null {
  const newline = text.indexOf('\n');
  if (newline < 0) return null;
  const header = parseHeader(text.slice(0, newline));
  return header === null ? null : { header, body: text.slice(newline + 1) };
}

/** The header line of an entry file, reading only its start (into `peek`) when that holds the whole line. */
async function readHeader(file: string, peek: Buffer): Promise<Header | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
  try {
    const { bytesRead } = await handle.read(peek, 0, peek.byteLength, 0);
    const newline = peek.subarray(0, bytesRead).indexOf(0x0a);
    if (newline >= 0) return parseHeader(peek.subarray(0, newline).toString('utf8'));
  } finally {
    await handle.close();
  }
  return parseEntry(await readFile(file, 'utf8'))?.header ?? null;
}
