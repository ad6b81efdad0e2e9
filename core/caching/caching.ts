/**
 * Page and action caching, as Rails 2.1's `caches_page` and `caches_action`.
 *
 * Both apply only to GET (and HEAD, read as GET) requests answered 200 after
 * the action ran to its end: a POST, a 404, a 500 or a redirect is never
 * cached, and each format of an action is cached apart from the others.
 *
 * - Page caching writes the body under the page cache directory at the
 *   URL's path plus the format's extension (see page-cache.ts); the
 *   transports answer later requests from that file before the app runs.
 * - Action caching keeps status, body, content type and the headers worth
 *   keeping in the app's cache store, keyed by host + path + format (Rails'
 *   `ActionCachePath`). Every before filter runs first, whatever the order of
 *   declarations (unlike Rails 2.1, where filters declared after
 *   `caches_action` were skipped on a hit): a filter that authenticates can
 *   never be stepped over by where it was declared.
 *
 * What one visitor's response holds for that visitor alone is kept out of
 * the caches: a response rendered while the flash held messages is never
 * cached; a page (served to everyone, session unseen) is not written when it
 * sets a cookie or holds the session's authenticity token; an action cache
 * entry keeps the token's place and fills in each visitor's own on a hit.
 * A request with a query string uses neither cache (unless `cache_path`
 * says what the key covers): the query would otherwise be answered with, or
 * poison, the page of the bare path.
 *
 * An expiry that happens while a request is still rendering keeps that
 * request from storing what it rendered from the data before the change.
 * Under several workers (`serve(app, { workers })`), each expiry also runs
 * in every other worker (relay.ts): their in-process stores drop the entry,
 * their renders under way store nothing, and the promise `expire_action`
 * and `expire_fragment` return settles once every worker has done so.
 *
 * Fragment caching (`read_fragment`, `write_fragment`, `fragment_exist`,
 * the views' `cache` helper) keeps text under `views/<name>` in the same
 * store, so `expire_fragment` removes fragments and action entries alike.
 *
 * This file holds the app's caches; `declarations.ts` what controllers
 * declare, `action-run.ts` what happens in one request (through a
 * `CacheHost`, host.ts), `keys.ts` the action cache's keys.
 */
import type { Logger } from 'pino';
import { ArgumentError } from '../errors.ts';
import type { MimeRegistry } from '../mime/types.ts';
import type { RouteSet } from '../routing/index.ts';
import type { CacheStore, CacheValue, CacheWriteOptions, MaybePromise } from './store.ts';
import type { ExpiryRelay, RelayedExpiry } from './relay.ts';
import { escapeRegExp, isThenable } from '../util.ts';
import { FORMAT_SUFFIX, pathBase } from './keys.ts';
import { PageCache } from './page-cache.ts';

/** A route hash (`{ controller, action, id }`) or a path (`/posts/1`). */
export type CacheTarget = string | Readonly<Record<string, unknown>>;

export interface CachingSettings {
  /** `config.perform_caching`: false turns both caches off (nothing read, written or announced). */
  readonly enabled: boolean;
  readonly store: CacheStore;
  /** Where pages go; null for no page cache. */
  readonly page_cache_directory: string | null;
  readonly mime: MimeRegistry;
  readonly routes: RouteSet;
  readonly log: Logger;
  readonly relative_url_root?: string;
}

/**
 * An app's caches: the store behind action caching, the page cache, and expiry for code inside
 * or outside a request (`app.caching.expire_page('/posts')`). Made once by `createApp`.
 */
export class Caching {
  readonly enabled: boolean;
  readonly store: CacheStore;
  /** The page cache, or null when the app has no directory for one. */
  readonly pages: PageCache | null;
  readonly #mime: MimeRegistry;
  readonly #routes: RouteSet;
  readonly #log: Logger;
  readonly #expiring = new Set<Promise<unknown>>();
  #generation = 0;
  #relay: ExpiryRelay | null = null;

  constructor(settings: CachingSettings) {
    this.enabled = settings.enabled;
    this.store = settings.store;
    this.#mime = settings.mime;
    this.#routes = settings.routes;
    this.#log = settings.log;
    this.pages = settings.page_cache_directory === null ? null : new PageCache({
      directory: settings.page_cache_directory, mime: settings.mime, log: settings.log, relative_url_root: settings.relative_url_root,
    });
  }

  /** Grows with every expiry: a request that began before one stores nothing. */
  get generation(): number {
    return this.#generation;
  }

  get log(): Logger {
    return this.#log;
  }

  /**
   * Carries this app's expiries to its other processes from now on (`serve()` does this in each
   * worker); returns the function that stops it.
   */
  useRelay(relay: ExpiryRelay): () => void {
    this.#relay = relay;
    return () => {
      if (this.#relay === relay) this.#relay = null;
    };
  }

  /**
   * Runs an expiry another process made: renders under way here store nothing, and the entries
   * (or page) go from this process's view too. A shared store (file, Redis) is left alone: the
   * process that expired has removed the entries there, and removing them here as well would race it
   * (its count of removed entries could then read 0).
   */
  applyRelayed(expiry: RelayedExpiry): MaybePromise<void> {
    this.#generation++;
    if (expiry.kind === 'page') {
      this.pages?.expire(expiry.path);
      return;
    }
    if (this.store.local !== true) return;
    const removed = this.store.delete_matched(new RegExp(expiry.source, expiry.flags));
    if (isThenable(removed)) return this.#track(Promise.resolve(removed)).then(() => undefined);
  }

  /**
   * Forgets everything cached: every page this process wrote and every entry of the store. The
   * development reloader calls it when a template changes, since what the caches hold was rendered
   * with the old one. How many pages and entries went.
   */
  expireAll(): MaybePromise<number> {
    this.#generation++;
    const pages = this.pages?.expireAll() ?? 0;
    const removed = this.store.delete_matched(/(?:)/);
    if (isThenable(removed)) return this.#track(Promise.resolve(removed)).then((n) => pages + n);
    return pages + removed;
  }

  /**
   * Removes a cached page: a path (`/posts`, every format of it; `/posts.json`, that one) or a
   * route hash naming its controller. How many files went.
   * @example app.caching.expire_page({ controller: 'posts', action: 'index' })
   */
  expire_page(target: CacheTarget): number {
    const each = eachAction(target);
    if (each !== null) return each.reduce((sum, t) => sum + this.expire_page(t), 0);
    this.#generation++;
    if (this.pages === null) return 0;
    const path = this.#pathOf(target);
    const removed = this.pages.expire(path);
    // The file is gone for every process sharing the directory; the others still stop their renders under way.
    if (this.#relay !== null) void this.#track(this.#relay.publish({ kind: 'page', path }));
    return removed;
  }

  /**
   * Removes an action's cached responses, in every format and for every host: a path or a
   * route hash naming its controller. How many entries went (a promise with an asynchronous store).
   * @example app.caching.expire_action({ controller: 'posts', action: 'show', id: 1 })
   */
  expire_action(target: CacheTarget): MaybePromise<number> {
    const each = eachAction(target);
    if (each !== null) return sumOf(each.map((t) => this.expire_action(t)));
    const base = pathBase(this.#pathOf(target), this.#mime);
    return this.#expire(new RegExp(`^views/[^/]*${escapeRegExp(base)}${FORMAT_SUFFIX}$`, 's'));
  }

  /**
   * Removes action cache entries by the path a `cache_path` gave (every format of it), or by a
   * RegExp tested against whole keys (`views/<host><path>.<format>`).
   */
  expire_fragment(key: string | RegExp): MaybePromise<number> {
    if (key instanceof RegExp) return this.#expire(key);
    return this.#expire(new RegExp(`^views/${escapeRegExp(key)}${FORMAT_SUFFIX}$`, 's'));
  }

  /** A fragment (`views/<name>`), or undefined; a store failure reads as a miss, logged. */
  read_fragment(name: string): MaybePromise<string | undefined> {
    if (!this.enabled) return undefined;
    const key = fragmentKey(name);
    const text = (value: CacheValue | undefined) => (typeof value === 'string' ? value : undefined);
    try {
      const found = this.read(key);
      if (isThenable(found)) return Promise.resolve(found).then(text, (error: unknown) => this.#readFailed(error, key));
      return text(found);
    } catch (error) {
      return this.#readFailed(error, key);
    }
  }

  /** Keeps a fragment (`views/<name>`); gives back `content`, as Rails does. */
  write_fragment(name: string, content: string, options?: CacheWriteOptions): MaybePromise<string> {
    if (!this.enabled) return content;
    if (typeof content !== 'string') throw new ArgumentError('A fragment is a string of rendered content');
    const written = this.write(fragmentKey(name), content, options);
    return isThenable(written) ? Promise.resolve(written).then(() => content) : content;
  }

  /** Whether a fragment is cached (Rails' `fragment_exist?`). */
  fragment_exist(name: string): MaybePromise<boolean> {
    const found = this.read_fragment(name);
    return isThenable(found) ? Promise.resolve(found).then((v) => v !== undefined) : found !== undefined;
  }

  /** An entry, once any expiry under way has finished (so nothing it removes is read meanwhile). */
  read(key: string): MaybePromise<CacheValue | undefined> {
    if (this.#expiring.size > 0) return Promise.all(this.#expiring).then(() => this.store.read(key));
    return this.store.read(key);
  }

  /** Stores an entry; a store failure is logged, never raised into the request. */
  write(key: string, value: CacheValue, options?: CacheWriteOptions): MaybePromise<void> {
    const failed = (error: unknown) => {
      this.#log.error({ err: error, key, store: this.store.name }, 'action cache write failed');
    };
    try {
      const written = this.store.write(key, value, options);
      if (isThenable(written)) return Promise.resolve(written).then(() => undefined, failed);
    } catch (error) {
      failed(error);
    }
  }

  #expire(pattern: RegExp): MaybePromise<number> {
    this.#generation++;
    const removed = this.store.delete_matched(pattern);
    const relayed = this.#relay?.publish({ kind: 'entries', source: pattern.source, flags: pattern.flags });
    if (relayed === undefined) return isThenable(removed) ? this.#track(Promise.resolve(removed)) : removed;
    // Settles once every worker has removed its entries too, so the response that follows the expiry
    // (when the filter returns this) cannot be followed by a stale hit anywhere.
    return this.#track(Promise.all([removed, relayed]).then(([count]) => count));
  }

  /**
   * A promise readers wait for (without failing with it: a failed expiry is the caller's to see). It is
   * logged here too, since an action may start an expiry without waiting for it, as Rails' synchronous
   * `expire_action` invites: such a failure would otherwise pass unseen.
   */
  #track<T>(promise: Promise<T>): Promise<T> {
    const tracked = promise.finally(() => this.#expiring.delete(guarded));
    const guarded = tracked.catch((error: unknown) => {
      this.#log.error({ err: error, store: this.store.name }, 'cache expiry failed');
    });
    this.#expiring.add(guarded);
    return tracked;
  }

  #readFailed(error: unknown, key: string): undefined {
    this.#log.error({ err: error, key, store: this.store.name }, 'fragment cache read failed');
    return undefined;
  }

  #pathOf(target: CacheTarget): string {
    const path = typeof target === 'string' ? target : this.#routes.generate({ ...target });
    const q = path.indexOf('?');
    const bare = q < 0 ? path : path.slice(0, q);
    if (!bare.startsWith('/')) throw new ArgumentError(`A cached path starts with "/": ${JSON.stringify(bare.slice(0, 100))}`);
    return bare;
  }
}

/**
 * A route hash naming several actions (`{ action: ['index', 'show'] }`) as one hash per action,
 * as Rails' `expire_page` and `expire_action` take it; null for any other target. Without this
 * the list would be generated as one action named `index/show`.
 */
function eachAction(target: CacheTarget): CacheTarget[] | null {
  if (typeof target === 'string' || !Array.isArray(target.action)) return null;
  return target.action.map((action: unknown) => ({ ...target, action }));
}

/**
 * The sum of counts some of which may be promises; a plain number when none is. Each expiry's failure is
 * logged where it was started (#track), so an action may drop the sum as it may drop one expiry: the sum
 * is marked handled, and still rejects for a caller that waits for it.
 */
export function sumOf(counts: readonly MaybePromise<number>[]): MaybePromise<number> {
  if (!counts.some(isThenable)) return (counts as number[]).reduce((a, b) => a + b, 0);
  const sum = Promise.all(counts).then((all) => all.reduce((a, b) => a + b, 0));
  sum.catch(() => {});
  return sum;
}

/** The store key of a fragment name (Rails' `fragment_cache_key`): `views/` and the name. */
export function fragmentKey(name: string): string {
  if (typeof name !== 'string' || name === '') throw new ArgumentError(`A fragment name is a non-empty string, not ${JSON.stringify(name)}`);
  return `views/${name}`;
}
