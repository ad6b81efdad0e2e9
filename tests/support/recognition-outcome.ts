/**
 * What recognising a path comes to, as comparable data: the route taken and
 * its params, or the error class and the methods it allows. Two recognizers
 * agree on a path when their outcomes are equal.
 */
import type { RouteSet } from '../../core/index.ts';

export type Outcome = { readonly index: number; readonly params: unknown } | { readonly error: string; readonly allowed: readonly string[] | null };

export function outcome(set: RouteSet, method: string | null, path: string): Outcome {
  try {
    const m = set.recognizeRoute(method, path);
    return { index: m.route.index, params: m.params };
  } catch (e) {
    return { error: (e as Error).constructor.name, allowed: (e as { allowed?: readonly string[] }).allowed ?? null };
  }
}
