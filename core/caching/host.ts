/**
 * What the caches need of the controller whose action they cache, and
 * nothing more: the request and response, what the
 * session holds (the flash, the authenticity token), and a way to run the
 * `if` and `cache_path` options the controller declared. The controller
 * builds one when its action declares a cache (core/controller/dispatch.ts);
 * the caches never see the controller itself.
 */
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { CacheCondition, CachePathFunction } from './declarations.ts';

/** What the caches did for a request: the `X-Cache` header and the log line's `cache`. */
export type CacheStatus = 'hit' | 'miss';

export interface CacheHost {
  readonly request: Request;
  readonly response: Response;
  /** Which action renders, for the page cache's record of it. */
  readonly controller_path: string;
  readonly action_name: string;
  /**
   * Runs an `if` (a method name or a function of the controller) on the controller: whether caching
   * applies, or the promise of it when the condition is asynchronous.
   */
  passes(condition: CacheCondition): boolean | Promise<boolean>;
  /** Runs a `cache_path` function on the controller: the key's path, or a route hash for one. */
  cachePath(path: CachePathFunction): unknown;
  /** The path of a route hash, as `url_for` makes it for this request. */
  pathFor(hash: Readonly<Record<string, unknown>>): string;
  /** Whether the flash, if this request looked at it, holds messages: such a response is never cached. */
  flashHeld(): boolean;
  /** The session's authenticity token if it already has one (none is made). */
  heldToken(): string | null;
  /** The session's authenticity token, made if needed: a hit fills it into the entry's place for it. */
  token(): string;
  /** Marks the response rendered, as the action's own render would (throws on a second render). */
  claimRender(): void;
  /** Records what the caches did, for `X-Cache` and the log line. */
  cacheStatus(status: CacheStatus): void;
}
