/**
 * The in-memory cache store, the default: bounded by entries and by bytes,
 * evicting the least recently used entry first. Values are kept as given
 * (frozen, not copied), so a hit costs one map lookup. Every method answers
 * synchronously. Each process has its own: under several workers, expiries
 * through `app.caching` (and `expire_action`, `expire_fragment`) reach every
 * worker's store.
 *
 * @example
 *   const store = memoryStore({ maxEntries: 1000, maxBytes: 16 * 1024 * 1024 });
 */
import { ArgumentError } from '../errors.ts';
import { checkOptionNames } from '../options.ts';
import { checkKey, expiryOf, fetchThrough, keyMatcher, type CacheFetchOptions, type CacheStore, type CacheValue, type CacheWriteOptions, type MaybePromise } from './store.ts';

export interface MemoryStoreOptions {
  /** Most entries kept (default 10,000). */
  readonly maxEntries?: number | undefined;
  /** Most bytes kept, keys and values as UTF-8 plus a little per field (default 32 MiB); a larger value is not stored. */
  readonly maxBytes?: number | undefined;
  /** The clock, in ms (tests pass their own). */
  readonly now?: (() => number) | undefined;
}

export const MEMORY_STORE_DEFAULTS = Object.freeze({ maxEntries: 10_000, maxBytes: 32 * 1024 * 1024 });

interface Entry {
  readonly value: CacheValue;
  readonly size: number;
  readonly expires_at: number | null;
}

export class MemoryStore implements CacheStore {
  readonly name = 'memory';
  readonly local = true;
  readonly maxEntries: number;
  readonly maxBytes: number;
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  #bytes = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxEntries = bound('maxEntries', options.maxEntries, MEMORY_STORE_DEFAULTS.maxEntries);
    this.maxBytes = bound('maxBytes', options.maxBytes, MEMORY_STORE_DEFAULTS.maxBytes);
    this.#now = options.now ?? Date.now;
  }

  /** Entries held (expired ones included until something reads or evicts them). */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes held, as the bound counts them. */
  get bytes(): number {
    return this.#bytes;
  }

  read(key: string): CacheValue | undefined {
    const entry = this.#entries.get(checkKey(key));
    if (entry === undefined) return undefined;
    if (entry.expires_at !== null && this.#now() >= entry.expires_at) {
      this.#remove(key, entry);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  write(key: string, value: CacheValue, options?: CacheWriteOptions): boolean {
    checkKey(key);
    const expires_at = expiryOf(this.#now(), options);
    const size = sizeOf(key) + sizeOf(value);
    const old = this.#entries.get(key);
    if (old !== undefined) this.#remove(key, old);
    if (size > this.maxBytes) return false;
    this.#entries.set(key, { value: freeze(value), size, expires_at });
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#remove(oldest, entry);
    }
    return true;
  }

  exist(key: string): boolean {
    return this.read(key) !== undefined;
  }

  fetch(key: string, optionsOrCompute: CacheFetchOptions | undefined | (() => MaybePromise<CacheValue>), compute?: () => MaybePromise<CacheValue>): MaybePromise<CacheValue> {
    return fetchThrough(this, key, optionsOrCompute, compute);
  }

  delete(key: string): boolean {
    const entry = this.#entries.get(checkKey(key));
    if (entry === undefined) return false;
    this.#remove(key, entry);
    return true;
  }

  delete_matched(pattern: RegExp | string): number {
    const matches = keyMatcher(pattern);
    let removed = 0;
    for (const [key, entry] of this.#entries) {
      if (!matches(key)) continue;
      this.#remove(key, entry);
      removed++;
    }
    return removed;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #remove(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }
}

/** An in-memory store (the default `cache_store`). */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  checkOptionNames('memoryStore', options, MEMORY_STORE_OPTIONS);
  return new MemoryStore(options);
}

const MEMORY_STORE_OPTIONS: ReadonlySet<string> = new Set(['maxEntries', 'maxBytes', 'now']);

function bound(name: string, given: number | undefined, fallback: number): number {
  if (given === undefined) return fallback;
  if (!Number.isInteger(given) || given < 1) throw new ArgumentError(`memoryStore ${name} must be a positive integer, not ${String(given)}`);
  return given;
}

/** Roughly what a value costs to keep: UTF-8 bytes of its text and bytes, plus a little per field. */
function sizeOf(value: CacheValue): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value === null || typeof value !== 'object') return 8;
  if (value instanceof Uint8Array) return value.byteLength;
  let size = 16;
  if (Array.isArray(value)) {
    for (const item of value as readonly CacheValue[]) size += 8 + sizeOf(item);
  } else {
    for (const [k, v] of Object.entries(value)) size += 8 + Buffer.byteLength(k) + sizeOf(v);
  }
  return size;
}

// Frozen so that no reader can change what the next one gets. Byte arrays cannot be frozen; they are kept as given.
function freeze(value: CacheValue): CacheValue {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) freeze(v as CacheValue);
  return Object.freeze(value);
}
