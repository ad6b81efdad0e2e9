/**
 * The shape of a route as the tree recognizer sees it: its `/`-separated
 * groups, which of them may be left off, and the cheapest test that decides
 * each one. Routes with no such shape (patterns that can cross a `/`, Rails'
 * rarer segment forms) are left to whole-path matching.
 */
import { compilePattern, DEFAULT_SEGMENT_SOURCE } from './pattern.ts';
import { escapePathComponent } from './params.ts';
import type { Group } from './leaf.ts';
import { compileRequirement, requirementMayMatchSlash } from './requirement.ts';
import type { KeySegment, Route, Segment } from './types.ts';

export interface AnalysedRoute {
  readonly groups: readonly (readonly Segment[])[];
  /** Index of the first group that may be left off; every later group may be too. */
  readonly firstOptional: number;
}

/** Splits a route into `/`-separated groups, or returns null when it needs whole-path matching. */
export function analyse(route: Route): AnalysedRoute | null {
  const groups: Segment[][] = [];
  const slashOptional: boolean[] = [];
  let group: Segment[] | null = null;
  const segments = route.segments;
  // Indexed rather than for-of: the interpreter runs this for every route before the loop is optimised.
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s.type === 'divider' && s.value === '/') {
      groups.push((group = []));
      slashOptional.push(s.optional);
      continue;
    }
    if (group === null) return null;
    if (s.type === 'divider' && s.value !== '.') return null;
    if (s.type === 'static' && s.optional) return null;
    if ((s.type === 'dynamic' || s.type === 'glob') && s.requirement !== null && requirementMayMatchSlash(s.requirement)) return null;
    if (s.type === 'controller' && s.requirement !== null) return null;
    group.push(s);
  }
  // The route must end in an optional slash with nothing after it.
  const last = groups.length - 1;
  if (last < 0 || groups[last].length !== 0 || !slashOptional[last]) return null;
  groups.pop();
  let firstOptional = last;
  for (let j = last - 1; j >= 0 && slashOptional[j]; j--) firstOptional = j;
  for (let j = 0; j < last; j++) {
    const g = groups[j];
    if (g.length === 0) return null;
    let glob = false;
    let controller = false;
    let optional = false;
    for (const s of g) {
      if (s.type === 'glob') glob = true;
      else if (s.type === 'controller') controller = true;
      if (s.optional) optional = true;
    }
    if (glob && (g.length !== 1 || j !== last - 1)) return null;
    if (controller && g.length !== 1) return null;
    if (j < firstOptional && slashOptional[j]) return null;
    if (j >= firstOptional && g.length !== 1) return null;
    // Optional pieces inside a required group are exact only at the very end of the route.
    if (j < firstOptional && optional && (j !== last - 1 || firstOptional !== last)) return null;
  }
  return { groups, firstOptional };
}

// A requirement spelling out the default pattern (resources give `:id` one) tests the same as none.
function isDefaultDynamic(s: Segment | undefined): s is Extract<Segment, { type: 'dynamic' }> {
  return s !== undefined && s.type === 'dynamic' && (s.requirement === null || compileRequirement(s.requirement) === DEFAULT_SEGMENT_SOURCE);
}

/** Picks the cheapest test that decides one group; `present` groups are tried only when given. */
export function classify(g: readonly Segment[], trailing: boolean, controllers: readonly string[] | null): Group {
  const [a, b, c] = g;
  if (g.length === 1) {
    // Static words are compared with the request path as generation writes them: percent-encoded.
    if (a.type === 'static') return { kind: 'static', text: escapePathComponent(a.value) };
    if (isDefaultDynamic(a) && (trailing || !a.optional)) return { kind: 'param', segment: a };
    if (a.type === 'controller') return { kind: 'controller', segment: a };
    if (a.type === 'glob' && a.requirement === null) return { kind: 'glob', segment: a };
  }
  if (g.length === 3 && b.type === 'divider' && b.value === '.' && isDefaultDynamic(c) && !c.optional) {
    if (a.type === 'static') return { kind: 'dotted', text: escapePathComponent(a.value), segment: c };
    if (isDefaultDynamic(a) && !a.optional) return { kind: 'pair', first: a, second: c };
  }
  return { kind: 'regex', pattern: compilePattern(g, controllers, true) };
}

/** The key segments of the groups from `from` on: those a walk that stops before them leaves off. */
export function keySegmentsFrom(groups: readonly (readonly Segment[])[], from: number): KeySegment[] {
  const keys: KeySegment[] = [];
  for (let j = from; j < groups.length; j++) for (const s of groups[j]) if (isKeySegment(s)) keys.push(s);
  return keys;
}

function isKeySegment(s: Segment): s is KeySegment {
  return 'key' in s;
}
