/**
 * The `CacheHost` (core/caching/host.ts) a controller gives the caches when
 * its action declares one: the caches run its `if` and `cache_path`
 * options on it and read its session through this, and never hold the
 * controller itself.
 */
import type { CacheHost } from '../caching/host.ts';
import { existingToken } from '../session/token.ts';
import type { Controller } from './base.ts';
import { claimRender, runOf } from './action-state.ts';
import { isThenable } from '../util.ts';
import type { ForgeryOptions } from './declarations.ts';

/** The host for `c`'s request; `forgery` is its class's `protect_from_forgery` (the token's secret). */
export function cacheHost(c: Controller, forgery: ForgeryOptions | null): CacheHost {
  const wiring = runOf(c).wiring;
  return {
    request: c.request,
    response: c.response,
    controller_path: c.controller_path,
    action_name: c.action_name,
    passes(condition) {
      let answer: unknown;
      if (typeof condition === 'function') answer = condition(c);
      else {
        const method = (c as unknown as Record<string, unknown>)[condition];
        if (typeof method !== 'function') throw new TypeError(`${c.constructor.name} has no method ${condition} (named as a cache condition)`);
        answer = (method as () => unknown).call(c);
      }
      // A promise is an answer to wait for, never a truthy one: taken as true, it would cache every visitor's page.
      return isThenable(answer) ? Promise.resolve(answer).then(Boolean) : Boolean(answer);
    },
    cachePath: (path) => path(c),
    pathFor: (hash) => c.routes.url_for({ ...hash, only_path: true }),
    flashHeld() {
      const flash = wiring.session.loadedFlash;
      return flash !== null && !flash.empty;
    },
    heldToken: () => existingToken(wiring.session, forgery?.secret),
    token: () => c.form_authenticity_token(),
    claimRender: () => { claimRender(c, 'render'); },
    cacheStatus: (status) => wiring.cacheStatus?.(status),
  };
}
