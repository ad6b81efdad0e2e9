/**
 * The cache store interface, after Rails' `ActiveSupport::Cache::Store`:
 * `read`, `write` (with `expires_in`, in seconds), `delete`,
 * `delete_matched` and `clear`. The action cache keeps its entries in one;
 * `createApp({ cache_store })` names it (an in-memory store by default).
 *
 * A store answers synchronously when it can (the memory store always does)
 * and with a promise when it cannot (the file store), so a cache hit in
 * memory costs the request no promise hop.
 *
 * @example
 *   const store = memoryStore({ maxBytes: 8 * 1024 * 1024 });
 *   store.write('views/example.com/posts/1.json', '{"id":1}', { expires_in: 300 });
 *   store.read('views/example.com/posts/1.json'); // '{"id":1}'
 *   store.delete_matched(/^views\/[^/]*\/posts\/1\b/);
 */
import { ArgumentError } from '../errors.ts';

/** What a store keeps: JSON-like data, plus bytes. */
export type CacheValue =
  | string | number | boolean | null | Uint8Array
  | readonly CacheValue[]
  | { readonly [key: string]: CacheValue };

export interface CacheWriteOptions {
  /** Seconds until the entry expires (a positive number); without it, it lasts until evicted or deleted. */
  readonly expires_in?: number;
}

/** A value now, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

export interface CacheStore {
  /** What the store is, for logs (`memory`, `file:/var/cache/app`). */
  readonly name: string;
  /** The value under `key`, or undefined when absent or expired. */
  read(key: string): MaybePromise<CacheValue | undefined>;
  /** Stores `value` under `key`; false when the store refused it (larger than the store, say). */
  write(key: string, value: CacheValue, options?: CacheWriteOptions): MaybePromise<boolean>;
  /** Removes one entry; true when there was one. */
  delete(key: string): MaybePromise<boolean>;
  /** Removes every entry whose key matches `pattern` (a RegExp, or a string the key contains); how many went. */
  delete_matched(pattern: RegExp | string): MaybePromise<number>;
  /** Removes every entry. */
  clear(): MaybePromise<void>;
}

/** A test of keys against a `delete_matched` pattern; a global or sticky RegExp is not left with a `lastIndex`. */
export function keyMatcher(pattern: RegExp | string): (key: string) => boolean {
  if (typeof pattern === 'string') return (key) => key.includes(pattern);
  if (!(pattern instanceof RegExp)) throw new ArgumentError('delete_matched takes a RegExp or a string');
  const plain = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
  return (key) => plain.test(key);
}

/** When an entry written at `now` (ms) expires, or null for never; throws on a nonsensical `expires_in`. */
export function expiryOf(now: number, options: CacheWriteOptions | undefined): number | null {
  const seconds = options?.expires_in;
  if (seconds === undefined || seconds === null) return null;
  return now + checkExpiresIn(seconds) * 1000;
}

/**
 * An `expires_in` (a positive, finite number of seconds), or an ArgumentError naming `label`: the
 * stores and `caches_action` refuse the same values, so a declaration fails where it is made.
 */
export function checkExpiresIn(seconds: unknown, label = 'expires_in'): number {
  if (typeof seconds !== 'number' || !(seconds > 0) || !Number.isFinite(seconds)) {
    throw new ArgumentError(`${label} must be a positive number of seconds, not ${String(seconds)}`);
  }
  return seconds;
}

/** Keys are non-empty strings; anything else is a programming error, refused at once. */
export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key === '') throw new ArgumentError(`A cache key is a non-empty string, not ${JSON.stringify(key)}`);
  return key;
}
