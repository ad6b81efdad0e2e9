/**
 * The fast recognizer: a trie over `/`-separated path components.
 *
 * Each route becomes one or more paths through the trie (one per number of
 * trailing optional components it can be given), and each trie edge tests
 * one component. Edges are shared by shape, not by parameter name, so
 * `/posts/:id` and `/posts/:post_id/comments` walk the same `:param` edge.
 * Lookup walks only the edges a component can take and keeps the lowest
 * route index found, which is the route a first-match linear scan would pick;
 * a subtree whose lowest route index cannot beat the best so far is skipped.
 *
 * Routes whose patterns can cross a `/` (or use Rails' rarer segment forms)
 * stay in a small "slow lane" matched by their whole-path RegExp, merged by
 * index. The reference `LinearRecognizer` must agree with this one on every
 * input; `tests/core/routing` runs one suite and a property test against both.
 */
import { compilePattern, assignCapture, extractParams, parameterShell, type CompiledPattern } from './pattern.ts';
import { compileRequirement, mayMatchSlash } from './requirement.ts';
import { addRouteMethods, methodAdmits, orderMethods, type Match, type Recognizer, type RecognizerOptions } from './recognizer.ts';
import type { KeySegment, Params, Route, Segment } from './types.ts';

type Group =
  | { readonly kind: 'static'; readonly text: string }
  | { readonly kind: 'param'; readonly segment: KeySegment }
  | { readonly kind: 'dotted'; readonly text: string; readonly segment: KeySegment }
  | { readonly kind: 'pair'; readonly first: KeySegment; readonly second: KeySegment }
  | { readonly kind: 'regex'; readonly pattern: CompiledPattern }
  | { readonly kind: 'controller'; readonly segment: KeySegment }
  | { readonly kind: 'glob'; readonly segment: KeySegment };

/** Where one route's walk ends: the route plus how to read parameters off the matched components. */
interface Leaf {
  readonly route: Route;
  readonly index: number;
  readonly groups: readonly Group[];
  /** Key segments of groups this variant leaves off (their defaults apply). */
  readonly absent: readonly KeySegment[];
  /** Whole-path pattern, used to extract parameters when groups cannot (a controller spanning components). */
  readonly whole: CompiledPattern | null;
}

class Node {
  static: Map<string, Node> | null = null;
  dotted: Map<string, Node> | null = null;
  param: Node | null = null;
  pair: Node | null = null;
  controller: Node | null = null;
  regex: { re: RegExp; source: string; node: Node }[] | null = null;
  leaves: Leaf[] = [];
  globs: Leaf[] = [];
  min = Infinity;
}

interface SearchState {
  best: number;
  leaf: Leaf | null;
}

export class TreeRecognizer implements Recognizer {
  readonly name = 'tree';
  private readonly root = new Node();
  private readonly slow: { route: Route; pattern: CompiledPattern }[] = [];
  private readonly controllers: readonly (readonly string[])[] | null;

  constructor(routes: readonly Route[], options: RecognizerOptions) {
    this.controllers = options.controllers?.map((c) => c.toLowerCase().split('/')) ?? null;
    for (const route of routes) {
      const groups = analyse(route);
      if (groups === null) this.slow.push({ route, pattern: compilePattern(route.segments, options.controllers) });
      else this.insert(route, groups, options.controllers);
    }
    computeMin(this.root);
  }

  match(method: string | null, path: string): Match | null {
    const segs = splitPath(path);
    const state: SearchState = { best: Infinity, leaf: null };
    if (segs !== null) this.search(this.root, segs, 0, method, state);
    for (const { route, pattern } of this.slow) {
      if (route.index >= state.best) break;
      if (!methodAdmits(route, method)) continue;
      const m = pattern.regexp.exec(path);
      if (m) return { route, params: extractParams(route, pattern, m, path) };
    }
    if (state.leaf === null) return null;
    return { route: state.leaf.route, params: readParams(state.leaf, segs!, path) };
  }

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    const segs = splitPath(path);
    if (segs !== null) this.collect(this.root, segs, 0, methods);
    for (const { route, pattern } of this.slow) if (pattern.regexp.test(path)) addRouteMethods(route, methods);
    return orderMethods(methods);
  }

  private search(node: Node, segs: readonly string[], i: number, method: string | null, state: SearchState): void {
    if (node.min >= state.best) return;
    if (node.globs.length > 0) takeFirst(node.globs, method, state);
    if (i === segs.length) {
      takeFirst(node.leaves, method, state);
      return;
    }
    const seg = segs[i];
    if (node.static !== null) {
      const child = node.static.get(seg);
      if (child !== undefined) this.search(child, segs, i + 1, method, state);
    }
    if (node.dotted !== null) {
      const dot = seg.indexOf('.');
      if (dot > 0 && isPlain(seg, dot + 1)) {
        const child = node.dotted.get(seg.slice(0, dot));
        if (child !== undefined) this.search(child, segs, i + 1, method, state);
      }
    }
    if (node.param !== null && isPlain(seg, 0)) this.search(node.param, segs, i + 1, method, state);
    if (node.pair !== null && isPair(seg)) this.search(node.pair, segs, i + 1, method, state);
    if (node.controller !== null) {
      for (const next of this.controllerEnds(segs, i)) this.search(node.controller, segs, next, method, state);
    }
    if (node.regex !== null) {
      for (const edge of node.regex) if (edge.node.min < state.best && edge.re.test(seg)) this.search(edge.node, segs, i + 1, method, state);
    }
  }

  private collect(node: Node, segs: readonly string[], i: number, into: Set<string>): void {
    for (const leaf of node.globs) addRouteMethods(leaf.route, into);
    if (i === segs.length) {
      for (const leaf of node.leaves) addRouteMethods(leaf.route, into);
      return;
    }
    const seg = segs[i];
    const child = node.static?.get(seg);
    if (child) this.collect(child, segs, i + 1, into);
    const dot = seg.indexOf('.');
    if (node.dotted !== null && dot > 0 && isPlain(seg, dot + 1)) {
      const d = node.dotted.get(seg.slice(0, dot));
      if (d) this.collect(d, segs, i + 1, into);
    }
    if (node.param !== null && isPlain(seg, 0)) this.collect(node.param, segs, i + 1, into);
    if (node.pair !== null && isPair(seg)) this.collect(node.pair, segs, i + 1, into);
    if (node.controller !== null) for (const next of this.controllerEnds(segs, i)) this.collect(node.controller, segs, next, into);
    if (node.regex !== null) for (const edge of node.regex) if (edge.re.test(seg)) this.collect(edge.node, segs, i + 1, into);
  }

  /** Component indices just past each known controller name that starts at `i`, in list order. */
  private controllerEnds(segs: readonly string[], i: number): number[] {
    if (this.controllers === null) return /^[A-Za-z0-9_]+$/.test(segs[i]) ? [i + 1] : [];
    const ends: number[] = [];
    for (const parts of this.controllers) {
      if (i + parts.length > segs.length) continue;
      let ok = true;
      for (let j = 0; j < parts.length && ok; j++) ok = segs[i + j].toLowerCase() === parts[j];
      if (ok) ends.push(i + parts.length);
    }
    return ends;
  }

  private insert(route: Route, groups: AnalysedRoute, controllers: readonly string[] | null): void {
    const compiled = groups.groups.map((g, j) => classify(g, j >= groups.firstOptional, controllers));
    const hasController = compiled.some((g) => g.kind === 'controller');
    const whole = hasController ? compilePattern(route.segments, controllers) : null;
    let node = this.root;
    for (let count = 0; count <= compiled.length; count++) {
      if (count >= groups.firstOptional) {
        const absent = groups.groups.slice(count).flatMap((g) => g.filter(isKeySegment));
        const leaf: Leaf = { route, index: route.index, groups: compiled.slice(0, count), absent, whole };
        node.leaves.push(leaf);
      }
      if (count === compiled.length) break;
      const group = compiled[count];
      if (group.kind === 'glob') {
        node.globs.push({ route, index: route.index, groups: compiled, absent: [], whole });
        break;
      }
      node = edgeFor(node, group);
    }
  }
}

function isKeySegment(s: Segment): s is KeySegment {
  return 'key' in s;
}

function takeFirst(leaves: readonly Leaf[], method: string | null, state: SearchState): void {
  for (const leaf of leaves) {
    if (leaf.index >= state.best) return;
    if (methodAdmits(leaf.route, method)) {
      state.best = leaf.index;
      state.leaf = leaf;
      return;
    }
  }
}

// A component the default `[^/.?]+` pattern accepts from `from` on.
function isPlain(seg: string, from: number): boolean {
  if (seg.length <= from) return false;
  for (let k = from; k < seg.length; k++) {
    const c = seg.charCodeAt(k);
    if (c === 46 /* . */ || c === 63 /* ? */) return false;
  }
  return true;
}

// `a.b`: two plain parts around exactly one dot.
function isPair(seg: string): boolean {
  const dot = seg.indexOf('.');
  return dot > 0 && isPlain(seg, dot + 1) && isPlain(seg.slice(0, dot), 0);
}

/** `/a/b.c/` -> ['a', 'b.c']; null when the path does not start with `/`. */
function splitPath(path: string): string[] | null {
  if (path === '' || path === '/') return [];
  if (path.charCodeAt(0) !== 47) return null;
  const end = path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
  return path.slice(1, end).split('/');
}

function readParams(leaf: Leaf, segs: readonly string[], path: string): Params {
  if (leaf.whole !== null) {
    const m = leaf.whole.regexp.exec(path);
    if (m) return extractParams(leaf.route, leaf.whole, m, path);
  }
  const params = parameterShell(leaf.route);
  for (let j = 0; j < leaf.groups.length; j++) {
    const g = leaf.groups[j];
    const seg = segs[j];
    switch (g.kind) {
      case 'static': break;
      case 'param': assignCapture(params, g.segment, seg, path); break;
      case 'dotted': assignCapture(params, g.segment, seg.slice(seg.indexOf('.') + 1), path); break;
      case 'pair': {
        const dot = seg.indexOf('.');
        assignCapture(params, g.first, seg.slice(0, dot), path);
        assignCapture(params, g.second, seg.slice(dot + 1), path);
        break;
      }
      case 'regex': {
        const m = g.pattern.regexp.exec(seg)!;
        for (const c of g.pattern.captures) assignCapture(params, c.segment, m[c.group], path);
        break;
      }
      case 'controller': assignCapture(params, g.segment, seg, path); break;
      case 'glob': assignCapture(params, g.segment, segs.slice(j).join('/'), path); break;
    }
  }
  // A glob left off still recognises as an empty list, as in Rails.
  for (const s of leaf.absent) assignCapture(params, s, undefined, path);
  return params;
}

interface AnalysedRoute {
  readonly groups: readonly (readonly Segment[])[];
  /** Index of the first group that may be left off; every later group may be too. */
  readonly firstOptional: number;
}

/** Splits a route into `/`-separated groups, or returns null when it needs whole-path matching. */
function analyse(route: Route): AnalysedRoute | null {
  const groups: { segments: Segment[]; slashOptional: boolean }[] = [];
  for (const s of route.segments) {
    if (s.type === 'divider' && s.value === '/') {
      groups.push({ segments: [], slashOptional: s.optional });
      continue;
    }
    if (groups.length === 0) return null;
    if (s.type === 'divider' && s.value !== '.') return null;
    if (s.type === 'static' && s.optional) return null;
    if ((s.type === 'dynamic' || s.type === 'glob') && s.requirement !== null && mayMatchSlash(compileRequirement(s.requirement))) return null;
    if (s.type === 'controller' && s.requirement !== null) return null;
    groups[groups.length - 1].segments.push(s);
  }
  const trailing = groups.pop();
  if (!trailing || trailing.segments.length !== 0 || !trailing.slashOptional) return null;
  let firstOptional = groups.length;
  for (let j = groups.length - 1; j >= 0 && groups[j].slashOptional; j--) firstOptional = j;
  for (let j = 0; j < groups.length; j++) {
    const g = groups[j].segments;
    if (g.length === 0) return null;
    if (g.some((s) => s.type === 'glob') && (g.length !== 1 || j !== groups.length - 1)) return null;
    if (g.some((s) => s.type === 'controller') && g.length !== 1) return null;
    if (j < firstOptional && groups[j].slashOptional) return null;
    if (j >= firstOptional && g.length !== 1) return null;
    // Optional pieces inside a required group are exact only at the very end of the route.
    if (j < firstOptional && g.some((s) => s.optional) && (j !== groups.length - 1 || firstOptional !== groups.length)) return null;
  }
  return { groups: groups.map((g) => g.segments), firstOptional };
}

function isDefaultDynamic(s: Segment | undefined): s is Extract<Segment, { type: 'dynamic' }> {
  return s !== undefined && s.type === 'dynamic' && s.requirement === null;
}

/** Picks the cheapest test that decides one group; `present` groups are tried only when given. */
function classify(g: readonly Segment[], trailing: boolean, controllers: readonly string[] | null): Group {
  const required = (s: Segment) => trailing || !s.optional;
  const [a, b, c] = g;
  if (g.length === 1 && a.type === 'static') return { kind: 'static', text: a.value };
  if (g.length === 1 && isDefaultDynamic(a) && required(a)) return { kind: 'param', segment: a };
  if (g.length === 1 && a.type === 'controller') return { kind: 'controller', segment: a };
  if (g.length === 1 && a.type === 'glob' && a.requirement === null) return { kind: 'glob', segment: a };
  if (g.length === 3 && b.type === 'divider' && b.value === '.' && isDefaultDynamic(c) && !c.optional) {
    if (a.type === 'static') return { kind: 'dotted', text: a.value, segment: c };
    if (isDefaultDynamic(a) && !a.optional) return { kind: 'pair', first: a, second: c };
  }
  return { kind: 'regex', pattern: compilePattern(g, controllers, true) };
}

function edgeFor(node: Node, group: Group): Node {
  switch (group.kind) {
    case 'static': {
      node.static ??= new Map();
      let child = node.static.get(group.text);
      if (!child) node.static.set(group.text, (child = new Node()));
      return child;
    }
    case 'dotted': {
      node.dotted ??= new Map();
      let child = node.dotted.get(group.text);
      if (!child) node.dotted.set(group.text, (child = new Node()));
      return child;
    }
    case 'param': return (node.param ??= new Node());
    case 'pair': return (node.pair ??= new Node());
    case 'controller': return (node.controller ??= new Node());
    case 'regex': {
      node.regex ??= [];
      const source = group.pattern.regexp.source;
      let edge = node.regex.find((e) => e.source === source);
      if (!edge) node.regex.push((edge = { re: group.pattern.regexp, source, node: new Node() }));
      return edge.node;
    }
    case 'glob': throw new Error('globs end a walk');
  }
}

function computeMin(node: Node): number {
  let min = Infinity;
  for (const l of node.leaves) min = Math.min(min, l.index);
  for (const l of node.globs) min = Math.min(min, l.index);
  const children: Node[] = [];
  if (node.static) children.push(...node.static.values());
  if (node.dotted) children.push(...node.dotted.values());
  if (node.param) children.push(node.param);
  if (node.pair) children.push(node.pair);
  if (node.controller) children.push(node.controller);
  if (node.regex) children.push(...node.regex.map((e) => e.node));
  for (const child of children) min = Math.min(min, computeMin(child));
  node.leaves.sort((x, y) => x.index - y.index);
  node.globs.sort((x, y) => x.index - y.index);
  node.min = min;
  return min;
}
