/**
 * A cache store in Redis, shared by every worker and every machine that
 * names the same Redis (Rails 2.1's `mem_cache_store` role; Rails' own
 * `redis_cache_store` today). Keys are `<namespace>:<key>`; values are JSON
 * (bytes in base64), with `expires_in` as Redis's own expiry.
 *
 * The cache is never what fails a request. While Redis cannot be reached
 * (down, restarting, too slow to answer within `read_timeout`) reads miss,
 * writes are skipped, and pages are rendered as if nothing were cached; the
 * outage is logged once. An expiry that cannot reach Redis is remembered
 * and carried out as soon as the connection is back, before this process
 * reads from the cache again, so what it expired is never served from here
 * (at most 1,000 are remembered; past that the whole namespace is cleared
 * on reconnection).
 *
 * @example
 *   createApp({ routes, controllers, cache_store: redisCacheStore({ url: process.env.REDIS_URL, namespace: 'blog' }) })
 */
import type { Logger } from 'pino';
import { ArgumentError } from '../errors.ts';
import { checkOptionNames } from '../options.ts';
import { REDIS_CONNECTION_OPTIONS, RedisConnection, globLiteral, type RedisClient, type RedisConnectionOptions } from '../redis/connection.ts';
import { decodeValue, encodeValue } from './codec.ts';
import { checkExpiresIn, checkKey, fetchThrough, keyMatcher, type CacheFetchOptions, type CacheStore, type CacheValue, type CacheWriteOptions, type MaybePromise } from './store.ts';

export interface RedisCacheStoreOptions extends RedisConnectionOptions {
  /** Prefix of every key (`<namespace>:<key>`), so several apps or caches can share a database. Default `cache`. */
  readonly namespace?: string | undefined;
  /** Seconds every entry lasts unless its write says otherwise (default: until deleted, or evicted by Redis's own policy). */
  readonly expires_in?: number | undefined;
  /** Largest value kept, in bytes of its JSON (default 1 MiB); a larger one is not written. */
  readonly maxValueBytes?: number | undefined;
}

/** Expiries remembered through an outage; past this many, the namespace is cleared on reconnection. */
const MAX_PENDING_EXPIRIES = 1_000;
/** Keys asked for per SCAN step, and deleted per UNLINK. */
const SCAN_COUNT = 1_000;

export class RedisCacheStore implements CacheStore {
  readonly name: string;
  readonly namespace: string;
  readonly maxValueBytes: number;
  readonly #connection: RedisConnection;
  readonly #prefix: string;
  readonly #expiresIn: number | undefined;
  /** Expiries that could not reach Redis, to carry out once it is back. */
  readonly #pending: ({ readonly key: string } | { readonly pattern: RegExp | string })[] = [];
  #clearPending = false;
  #replaying: Promise<void> | null = null;

  constructor(options: RedisCacheStoreOptions = {}) {
    const namespace = options.namespace ?? 'cache';
    if (typeof namespace !== 'string' || namespace === '') throw new ArgumentError('A Redis cache namespace is a non-empty string');
    this.namespace = namespace;
    this.#prefix = `${namespace}:`;
    this.#expiresIn = options.expires_in === undefined ? undefined : checkExpiresIn(options.expires_in);
    const max = options.maxValueBytes ?? 1024 * 1024;
    if (!Number.isInteger(max) || max < 1) throw new ArgumentError(`maxValueBytes must be a positive integer, not ${String(max)}`);
    this.maxValueBytes = max;
    this.#connection = new RedisConnection(options, { role: 'cache', meanwhile: 'cache reads miss and writes are skipped', refused: 'the cache goes on without what Redis refuses' });
    this.name = `redis:${this.#connection.url}/${namespace}`;
    this.#connection.onReady(() => {
      if (this.#pending.length > 0 || this.#clearPending) void this.#replay();
    });
  }

  useLogger(log: Logger): void {
    this.#connection.useLogger(log);
  }

  /** Whether an outage is under way (reads miss, writes are skipped). */
  get down(): boolean {
    return this.#connection.down;
  }

  async read(key: string): Promise<CacheValue | undefined> {
    const full = this.#key(key);
    // Until expiries missed during an outage are carried out, an entry may be one of those they remove.
    if (this.#owesExpiries()) return undefined;
    const text = await this.#quietly((client) => client.get(full), null);
    if (text === null) return undefined;
    try {
      return decodeValue(JSON.parse(text) as unknown);
    } catch {
      return undefined;
    }
  }

  async write(key: string, value: CacheValue, options?: CacheWriteOptions): Promise<boolean> {
    const full = this.#key(key);
    const seconds = options?.expires_in === undefined ? this.#expiresIn : checkExpiresIn(options.expires_in);
    const text = JSON.stringify(encodeValue(value));
    if (Buffer.byteLength(text) > this.maxValueBytes) return false;
    if (this.#owesExpiries()) return false;
    // Redis takes whole milliseconds, written as digits: an expiry past what they can say (1e300 seconds) is none.
    const ms = seconds === undefined ? null : Math.max(1, Math.ceil(seconds * 1000));
    return this.#quietly(async (client) => {
      if (ms === null || !Number.isSafeInteger(ms)) await client.set(full, text);
      else await client.set(full, text, 'PX', ms);
      return true;
    }, false);
  }

  async exist(key: string): Promise<boolean> {
    const full = this.#key(key);
    if (this.#owesExpiries()) return false;
    return this.#quietly(async (client) => (await client.exists(full)) > 0, false);
  }

  fetch(key: string, optionsOrCompute: CacheFetchOptions | undefined | (() => MaybePromise<CacheValue>), compute?: () => MaybePromise<CacheValue>): MaybePromise<CacheValue> {
    return fetchThrough(this, key, optionsOrCompute, compute);
  }

  async delete(key: string): Promise<boolean> {
    const full = this.#key(key);
    try {
      return (await this.#connection.run((client) => client.del(full))) > 0;
    } catch {
      this.#remember({ key });
      return false;
    }
  }

  /**
   * Walks the namespace with SCAN (bounded steps, never KEYS) and removes the keys `pattern` matches.
   * A RegExp anchored with `^` and starting with literal text only visits keys with that prefix.
   */
  async delete_matched(pattern: RegExp | string): Promise<number> {
    const matches = keyMatcher(pattern);
    try {
      return await this.#connection.run((client) => this.#deleteMatching(client, globPrefix(pattern), matches));
    } catch {
      this.#remember({ pattern });
      return 0;
    }
  }

  async clear(): Promise<void> {
    try {
      await this.#connection.run((client) => this.#deleteMatching(client, '', () => true));
    } catch {
      this.#clearPending = true;
    }
  }

  close(): Promise<void> {
    return this.#connection.close();
  }

  #key(key: string): string {
    return this.#prefix + checkKey(key);
  }

  async #deleteMatching(client: RedisClient, prefix: string, matches: (key: string) => boolean): Promise<number> {
    let cursor = '0';
    let removed = 0;
    const glob = `${globLiteral(this.#prefix + prefix)}*`;
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', glob, 'COUNT', SCAN_COUNT);
      cursor = next;
      const doomed = keys.filter((k) => k.startsWith(this.#prefix) && matches(k.slice(this.#prefix.length)));
      // SCAN may return a key twice; UNLINK counts only those it removed.
      if (doomed.length > 0) removed += await client.unlink(...doomed);
    } while (cursor !== '0');
    return removed;
  }

  /** Runs a command; while Redis is away, `fallback` (the outage itself is logged by the connection). */
  async #quietly<T>(command: (client: RedisClient) => Promise<T>, fallback: T): Promise<T> {
    try {
      return await this.#connection.run(command);
    } catch {
      return fallback;
    }
  }

  #remember(expiry: { readonly key: string } | { readonly pattern: RegExp | string }): void {
    if (this.#clearPending) return;
    if (this.#pending.length >= MAX_PENDING_EXPIRIES) {
      this.#pending.length = 0;
      this.#clearPending = true;
      return;
    }
    this.#pending.push(expiry);
  }

  #owesExpiries(): boolean {
    if (this.#pending.length === 0 && !this.#clearPending) return false;
    if (this.#connection.ready) void this.#replay();
    return true;
  }

  /** Carries out the expiries an outage kept from Redis, oldest first; those that fail again stay owed. */
  #replay(): Promise<void> {
    this.#replaying ??= (async () => {
      try {
        if (this.#clearPending) {
          await this.#connection.run((client) => this.#deleteMatching(client, '', () => true));
          this.#clearPending = false;
          this.#pending.length = 0;
        }
        while (this.#pending.length > 0) {
          const expiry = this.#pending[0];
          await this.#connection.run((client) => ('key' in expiry
            ? client.del(this.#prefix + expiry.key)
            : this.#deleteMatching(client, globPrefix(expiry.pattern), keyMatcher(expiry.pattern))));
          this.#pending.shift();
        }
      } catch {
        // Still away: tried again at the next reconnection, or the next read.
      } finally {
        this.#replaying = null;
      }
    })();
    return this.#replaying;
  }
}

/** A Redis cache store (ioredis must be installed). */
export function redisCacheStore(options: RedisCacheStoreOptions = {}): RedisCacheStore {
  checkOptionNames('redisCacheStore', options, REDIS_CACHE_OPTIONS);
  return new RedisCacheStore(options);
}

const REDIS_CACHE_OPTIONS: ReadonlySet<string> = new Set([...REDIS_CONNECTION_OPTIONS, 'namespace', 'expires_in', 'maxValueBytes']);

/**
 * The literal text every key a pattern matches starts with, when the pattern says so: a RegExp
 * anchored with `^` (without `i` or `m`) up to its first special character; '' otherwise.
 */
export function globPrefix(pattern: RegExp | string): string {
  if (typeof pattern === 'string') return '';
  const source = pattern.source;
  if (!source.startsWith('^') || /[im]/.test(pattern.flags) || hasTopLevelAlternative(source)) return '';
  let prefix = '';
  for (let i = 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) break;
      prefix += next;
      i++;
      continue;
    }
    if ('.[](){}*+?|^$'.includes(c)) {
      // A quantifier applies to the character before it, which then is not certain to be there.
      if ('*+?{'.includes(c)) prefix = prefix.slice(0, -1);
      break;
    }
    prefix += c;
  }
  return prefix;
}

/** Whether `source` has a `|` outside every group and class (`^a|b` promises no prefix). */
function hasTopLevelAlternative(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}
