/**
 * A route as generation reads it, worked out once per route set: its
 * requirement checks, whole-value patterns and the controller and action it
 * serves. Both the reference generator and the compiled ones start here.
 */
import { matchesFixedLeaf } from './fixed.ts';
import { searchRegExp, wholeValueRegExp } from './requirement.ts';
import type { Requirement } from './requirement.ts';
import type { FixedHash, Route, RouteRequirement, Segment } from './types.ts';

/** A route prepared for generation (internal: built once per route set). */
export interface GenRoute {
  readonly route: Route;
  readonly segments: readonly Segment[];
  /** Fixed-value and pattern requirements on non-path keys. */
  readonly checks: readonly { readonly key: string; readonly value: FixedValue; readonly re: RegExp | null }[];
  /** Whole-value patterns for segments that carry a requirement (by segment index). */
  readonly valueRes: readonly (RegExp | null)[];
  /** Rails' `parameter_shell`: the fixed values, nil options included. */
  readonly shell: Readonly<Record<string, FixedValue>>;
  readonly significant: readonly string[];
  readonly controllerReq: string | RegExp | null;
  readonly actionReq: string | RegExp | null;
}

/** A fixed value a route requires of a key: a value, a boolean, a list of values, a hash, or nil. */
export type FixedValue = string | boolean | readonly string[] | FixedHash | null;

/** A pattern requirement, as against a fixed value, a fixed list or hash, or nil. */
export function isRequirement(req: RouteRequirement | undefined): req is Requirement {
  return typeof req === 'object' && req !== null && !Array.isArray(req) && typeof (req as { source?: unknown }).source === 'string';
}

/** Rails' `hash[key] == value` for a fixed requirement: a list only equals a list of the same values, a hash an equal hash. */
export { matchesFixedLeaf as matchesFixed };

export function prepareRoute(route: Route): GenRoute {
  const checks: { key: string; value: FixedValue; re: RegExp | null }[] = [];
  const shell: Record<string, FixedValue> = {};
  for (const key in route.requirements) {
    const req = route.requirements[key];
    if (isRequirement(req)) {
      checks.push({ key, value: null, re: wholeValueRegExp(req) });
    } else {
      checks.push({ key, value: req, re: null });
      shell[key] = req;
    }
  }
  const valueRes: (RegExp | null)[] = [];
  const segments = route.segments;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    valueRes.push(s.type !== 'static' && s.type !== 'divider' && s.requirement !== null ? wholeValueRegExp(s.requirement) : null);
  }
  return {
    route,
    segments: route.segments,
    checks,
    valueRes,
    shell,
    significant: route.significant_keys,
    controllerReq: requirementFor(route, 'controller'),
    actionReq: requirementFor(route, 'action'),
  };
}

/** Rails' `requirement_for(key) === value`: a fixed value, or an unanchored pattern. */
function requirementFor(route: Route, key: string): string | RegExp | null {
  const req = route.requirements[key];
  if (typeof req === 'string') return req;
  if (isRequirement(req)) return searchRegExp(req);
  const segments = route.segments;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s.type !== 'static' && s.type !== 'divider' && s.key === key) return s.requirement ? searchRegExp(s.requirement) : null;
  }
  return null;
}
