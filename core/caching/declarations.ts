/**
 * What a controller declares with `caches_page` and `caches_action`, read
 * and checked once, at declaration time, into frozen data: which actions,
 * and the `if`, `cache_path` and `expires_in` options.
 */
import { ArgumentError } from '../errors.ts';
import { checkExpiresIn } from './store.ts';
import { isPlainObject } from '../util.ts';

// The functions below are typed as methods (`{ m(c: C): R }['m']`), whose parameters TypeScript compares
// both ways: a function of `PostsController` is one of any controller too, as it is when declared and kept.
// (`C` defaults to `object`, not `Controller`: the caches sit below the controllers and never import them.)

/**
 * `caches_page`'s and `caches_action`'s `if`: a method name or a function of the controller (`C`);
 * caching applies when it answers truthy. `caches_action` types it by the declaring controller.
 */
export type CacheCondition<C extends object = object> = string | { condition(controller: C): unknown }['condition'];
/** `caches_action`'s `cache_path` as a function of the controller (`C`): the key's path, or a route hash for it. */
export type CachePathFunction<C extends object = object> = { cache_path(controller: C): string | Record<string, unknown> }['cache_path'];
/**
 * `caches_action`'s `cache_path`: the key's path itself, a route hash (read as `url_for` reads it,
 * against the request), or a function of the controller giving either.
 */
export type CachePath<C extends object = object> = string | Readonly<Record<string, unknown>> | CachePathFunction<C>;

export interface CacheDeclaration {
  readonly kind: 'page' | 'action';
  readonly actions: readonly string[];
  readonly if?: CacheCondition;
  readonly cache_path?: CachePath;
  /** Seconds an action cache entry lasts. */
  readonly expires_in?: number;
}

export interface PageCacheOptions {
  readonly if?: CacheCondition;
}

export interface ActionCacheOptions {
  /** Caching applies only when this answers truthy (a method name, or a function of the controller). */
  readonly if?: CacheCondition;
  /** The key's path instead of the request's host and path (a string, a route hash, or a function giving either). */
  readonly cache_path?: CachePath;
  /** Seconds an entry lasts. */
  readonly expires_in?: number;
}

/** Reads `caches_page(...actions, options?)` / `caches_action(...actions, options?)`. */
export function cacheDeclaration(kind: 'page' | 'action', args: readonly unknown[]): CacheDeclaration {
  const name = kind === 'page' ? 'caches_page' : 'caches_action';
  const rest = [...args];
  const last = rest[rest.length - 1];
  const options = last !== null && typeof last === 'object' && !Array.isArray(last) ? (rest.pop() as Record<string, unknown>) : {};
  const actions = rest.flat().map((a) => {
    if (typeof a !== 'string' || a === '') throw new ArgumentError(`${name} takes action names, got ${JSON.stringify(a)}`);
    return a;
  });
  if (actions.length === 0) throw new ArgumentError(`${name} needs at least one action`);
  const allowed = kind === 'page' ? ['if'] : ['if', 'cache_path', 'expires_in'];
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new ArgumentError(`${name} has no option ${JSON.stringify(key)} (it takes ${allowed.join(', ')})`);
  }
  const { if: condition, cache_path, expires_in } = options;
  if (condition !== undefined && typeof condition !== 'string' && typeof condition !== 'function') throw new ArgumentError(`${name}'s if is a method name or a function`);
  if (cache_path !== undefined && typeof cache_path !== 'string' && typeof cache_path !== 'function' && !isPlainObject(cache_path)) {
    throw new ArgumentError(`${name}'s cache_path is a string, a route hash or a function`);
  }
  if (expires_in !== undefined) checkExpiresIn(expires_in, `${name}'s expires_in`);
  return Object.freeze({
    kind, actions: Object.freeze(actions),
    ...(condition !== undefined ? { if: condition as CacheCondition } : {}),
    // A route hash is copied and frozen: changed after declaring, it would move every entry's key.
    ...(cache_path !== undefined ? { cache_path: isPlainObject(cache_path) ? Object.freeze({ ...cache_path }) : cache_path as CachePath } : {}),
    ...(expires_in !== undefined ? { expires_in: expires_in as number } : {}),
  });
}

