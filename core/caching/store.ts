/**
 * The cache store interface, after Rails' `ActiveSupport::Cache::Store`:
 * `read`, `write` (with `expires_in`, in seconds), `delete`,
 * `delete_matched`, `exist` (Rails' `exist?`), `fetch` and `clear`. The
 * action and fragment caches keep their entries in one; `createApp({
 * cache_store })` names it (an in-memory store by default).
 *
 * The interface is asynchronous: every method may answer with a promise
 * (the file and Redis stores always do), so callers `await` what they get.
 * A store may answer synchronously when it can (the memory store always
 * does), so a cache hit in memory costs the request no promise hop.
 *
 * @example
 *   const store = memoryStore({ maxBytes: 8 * 1024 * 1024 });
 *   await store.write('views/example.com/posts/1.json', '{"id":1}', { expires_in: 300 });
 *   await store.read('views/example.com/posts/1.json'); // '{"id":1}'
 *   await store.fetch('stats', { expires_in: 60 }, () => computeStats());
 *   await store.delete_matched(/^views\/[^/]*\/posts\/1\b/);
 */
import type { Logger } from 'pino';
import { ArgumentError } from '../errors.ts';
import { isThenable } from '../util.ts';

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

export interface CacheFetchOptions extends CacheWriteOptions {
  /** Compute and write even when an entry exists (Rails' `:force`). */
  readonly force?: boolean;
}

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
  /** Whether an entry exists under `key` (Rails' `exist?`). */
  exist(key: string): MaybePromise<boolean>;
  /**
   * The value under `key`; on a miss (or with `force`), the value `compute` gives, written with
   * `options` first. Rails' `fetch(name, options) { block }`.
   */
  fetch<T extends CacheValue>(key: string, compute: () => MaybePromise<T>): MaybePromise<CacheValue>;
  fetch<T extends CacheValue>(key: string, options: CacheFetchOptions | undefined, compute: () => MaybePromise<T>): MaybePromise<CacheValue>;
  /** Removes every entry. */
  clear(): MaybePromise<void>;
  /**
   * True when entries live in this process only (the memory store): under several workers, each has
   * its own, and expiries are carried to every worker. Shared stores (file, Redis) leave it unset.
   */
  readonly local?: boolean;
  /** Hands the store the app's logger when it has none of its own (`createApp` calls it). */
  useLogger?(log: Logger): void;
  /** Lets go of connections and timers (a Redis client, say); the store is not used afterwards. */
  close?(): MaybePromise<void>;
}

/**
 * `fetch` for any store, from its `read` and `write`: the arguments as `fetch` takes them (options
 * optional), synchronous when the store and `compute` are.
 */
export function fetchThrough(
  store: Pick<CacheStore, 'read' | 'write'>,
  key: string,
  optionsOrCompute: CacheFetchOptions | undefined | (() => MaybePromise<CacheValue>),
  maybeCompute?: () => MaybePromise<CacheValue>,
): MaybePromise<CacheValue> {
  const options = typeof optionsOrCompute === 'function' ? undefined : optionsOrCompute;
  const compute = typeof optionsOrCompute === 'function' ? optionsOrCompute : maybeCompute;
  if (typeof compute !== 'function') throw new ArgumentError('fetch needs a function that computes the value on a miss');
  checkKey(key);
  if (options?.expires_in !== undefined) checkExpiresIn(options.expires_in);
  const write = { ...(options?.expires_in === undefined ? {} : { expires_in: options.expires_in }) };
  const computeAndWrite = (): MaybePromise<CacheValue> => {
    const value = compute();
    const store = (v: CacheValue): MaybePromise<CacheValue> => {
      const written = storeWrite(v);
      return isThenable(written) ? Promise.resolve(written).then(() => v) : v;
    };
    return isThenable(value) ? Promise.resolve(value).then(store) : store(value);
  };
  const storeWrite = (v: CacheValue) => store.write(key, v, write);
  if (options?.force) return computeAndWrite();
  const found = store.read(key);
  if (isThenable(found)) return Promise.resolve(found).then((v) => (v === undefined ? computeAndWrite() : v));
  return found === undefined ? computeAndWrite() : found;
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
