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
import { compilePattern, extractParams, DEFAULT_SEGMENT_SOURCE, type CompiledPattern } from './pattern.ts';
import { makeLeaf, methodBit, type Group, type Leaf, type Positions } from './leaf.ts';
import { compileRequirement, requirementMayMatchSlash } from './requirement.ts';
import { addRouteMethods, methodAdmits, orderMethods, type Match, type Recognizer, type RecognizerOptions } from './recognizer.ts';
import type { KeySegment, Route, Segment } from './types.ts';

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
  /** Component positions of the best walk so far. */
  at: Positions;
}

export class TreeRecognizer implements Recognizer {
  readonly name = 'tree';
  private readonly root = new Node();
  private readonly slow: { route: Route; pattern: CompiledPattern }[] = [];
  private readonly controllers: readonly (readonly string[])[] | null;
  // Reused by every lookup: matching is synchronous, so one search is ever in flight.
  private readonly state: SearchState;
  // Component positions along the walk in progress, by depth.
  private readonly walk: Positions;
  // The lookup in progress (set by `match`, read by `search`; lookups never overlap).
  private path = '';
  private len = 0;
  private bit = 0;

  constructor(routes: readonly Route[], options: RecognizerOptions) {
    this.controllers = options.controllers?.map((c) => c.toLowerCase().split('/')) ?? null;
    // The trie is finished as it is built: each insertion keeps leaf order and subtree minimums up to date.
    let height = 0;
    for (const route of routes) {
      const groups = analyse(route);
      if (groups === null) this.slow.push({ route, pattern: compilePattern(route.segments, options.controllers) });
      else height = Math.max(height, this.insert(route, groups, options.controllers));
    }
    const size = height + 1;
    this.walk = { starts: new Int32Array(size), ends: new Int32Array(size) };
    this.state = { best: Infinity, leaf: null, at: { starts: new Int32Array(size), ends: new Int32Array(size) } };
  }

  match(method: string | null, path: string): Match | null {
    const state = this.state;
    state.best = Infinity;
    state.leaf = null;
    const len = effectiveLength(path);
    if (len >= 0) {
      this.path = path;
      this.len = len;
      this.bit = methodBit(method);
      this.search(this.root, path === '' || path === '/' ? len + 1 : 1, 0);
    }
    for (const { route, pattern } of this.slow) {
      if (route.index >= state.best) break;
      if (!methodAdmits(route, method)) continue;
      const m = pattern.regexp.exec(path);
      if (m) return { route, params: extractParams(route, pattern, m, path) };
    }
    const leaf = state.leaf as Leaf | null;
    state.leaf = null;
    if (leaf === null) return null;
    return { route: leaf.route, params: leaf.read(path, len, state.at) };
  }

  allowed_methods(path: string): string[] {
    const methods = new Set<string>();
    const segs = splitPath(path);
    if (segs !== null) this.collect(this.root, segs, 0, methods);
    for (const { route, pattern } of this.slow) if (pattern.regexp.test(path)) addRouteMethods(route, methods);
    return orderMethods(methods);
  }

  /**
   * Walks the component starting at `pos` (components end at `/` or at
   * `len`, the path length less a trailing slash); `pos > len` means none left.
   * Hot path: no arrays are built while walking.
   */
  private search(node: Node, pos: number, depth: number): void {
    const state = this.state;
    const path = this.path;
    const len = this.len;
    if (node.min >= state.best) return;
    if (node.globs.length > 0) this.take(node.globs);
    if (pos > len) {
      this.take(node.leaves);
      return;
    }
    let end = path.indexOf('/', pos);
    if (end < 0 || end > len) end = len;
    const next = end + 1;
    this.walk.starts[depth] = pos;
    this.walk.ends[depth] = end;
    const deeper = depth + 1;
    if (node.static !== null) {
      const child = node.static.get(path.slice(pos, end));
      if (child !== undefined) this.search(child, next, deeper);
    }
    if (node.dotted !== null || node.param !== null || node.pair !== null) {
      // One scan classifies the component for all three shapes: `word`, `static.word`, `word.word`.
      let dot = -1;
      let dots = 0;
      let question = false;
      for (let k = pos; k < end; k++) {
        const c = path.charCodeAt(k);
        if (c === 46) {
          if (dots++ === 0) dot = k;
        } else if (c === 63) question = true;
      }
      if (!question) {
        if (dots === 0) {
          if (node.param !== null && end > pos) this.search(node.param, next, deeper);
        } else if (dot > pos && dot < end - 1 && dots === 1) {
          if (node.dotted !== null) {
            const child = node.dotted.get(path.slice(pos, dot));
            if (child !== undefined) this.search(child, next, deeper);
          }
          if (node.pair !== null) this.search(node.pair, next, deeper);
        }
      }
    }
    if (node.controller !== null) {
      // Controller routes read their parameters from the whole-path pattern, so positions past here are not needed.
      for (const after of this.controllerEnds(path, len, pos, end)) this.search(node.controller, after, deeper);
    }
    if (node.regex !== null) {
      const seg = path.slice(pos, end);
      for (const edge of node.regex) if (edge.node.min < state.best && edge.re.test(seg)) this.search(edge.node, next, deeper);
    }
  }

  /** Takes the first leaf (lowest index) that beats the best so far and admits the method. */
  private take(leaves: readonly Leaf[]): void {
    const state = this.state;
    for (const leaf of leaves) {
      if (leaf.index >= state.best) return;
      if ((leaf.methods & this.bit) !== 0) {
        state.best = leaf.index;
        state.leaf = leaf;
        for (let j = 0; j < leaf.depth; j++) {
          state.at.starts[j] = this.walk.starts[j];
          state.at.ends[j] = this.walk.ends[j];
        }
        return;
      }
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
    if (node.controller !== null) for (const next of this.controllerSpans(segs, i)) this.collect(node.controller, segs, next, into);
    if (node.regex !== null) for (const edge of node.regex) if (edge.re.test(seg)) this.collect(edge.node, segs, i + 1, into);
  }

  /** Path positions just past each known controller name starting at `pos`, in list order. */
  private controllerEnds(path: string, len: number, pos: number, end: number): number[] {
    if (this.controllers === null) return /^[A-Za-z0-9_]+$/.test(path.slice(pos, end)) ? [end + 1] : [];
    const ends: number[] = [];
    for (const parts of this.controllers) {
      const name = parts.join('/');
      const stop = pos + name.length;
      if (stop > len || (stop < len && path.charCodeAt(stop) !== 47)) continue;
      if (path.slice(pos, stop).toLowerCase() === name) ends.push(stop + 1);
    }
    return ends;
  }

  /** Component indices just past each known controller name that starts at `i`, in list order. */
  private controllerSpans(segs: readonly string[], i: number): number[] {
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

  /** Adds a route's walks; returns how many edges deep the longest one goes. */
  private insert(route: Route, analysed: AnalysedRoute, controllers: readonly string[] | null): number {
    const { groups, firstOptional } = analysed;
    const compiled: Group[] = [];
    let hasController = false;
    for (let j = 0; j < groups.length; j++) {
      const group = classify(groups[j], j >= firstOptional, controllers);
      if (group.kind === 'controller') hasController = true;
      compiled.push(group);
    }
    const whole = hasController ? compilePattern(route.segments, controllers) : null;
    const index = route.index;
    // Every node a walk passes holds one of the route's leaves below it (each walk ends in a leaf).
    let node = this.root;
    if (index < node.min) node.min = index;
    let depth = 0;
    for (let count = 0; count <= compiled.length; count++) {
      if (count >= firstOptional) {
        addLeaf(node.leaves, count === compiled.length
          ? makeLeaf(route, compiled, NO_SEGMENTS, whole)
          : makeLeaf(route, compiled.slice(0, count), keySegmentsFrom(groups, count), whole));
      }
      if (count === compiled.length) break;
      const group = compiled[count];
      if (group.kind === 'glob') {
        addLeaf(node.globs, makeLeaf(route, compiled, NO_SEGMENTS, whole));
        break;
      }
      node = edgeFor(node, group);
      depth++;
      if (index < node.min) node.min = index;
    }
    return depth;
  }
}

/** Adds a leaf in route order (after any of the same index); routes usually arrive in order, so it appends. */
function addLeaf(leaves: Leaf[], leaf: Leaf): void {
  let i = leaves.length;
  while (i > 0 && leaves[i - 1].index > leaf.index) i--;
  if (i === leaves.length) leaves.push(leaf);
  else leaves.splice(i, 0, leaf);
}

const NO_SEGMENTS: readonly KeySegment[] = Object.freeze([]);

/** The key segments of the groups from `from` on: those a walk that stops before them leaves off. */
function keySegmentsFrom(groups: readonly (readonly Segment[])[], from: number): KeySegment[] {
  const keys: KeySegment[] = [];
  for (let j = from; j < groups.length; j++) for (const s of groups[j]) if (isKeySegment(s)) keys.push(s);
  return keys;
}

function isKeySegment(s: Segment): s is KeySegment {
  return 'key' in s;
}

// Text from `from` to `to` that the default `[^/.?]+` pattern accepts.
function isPlain(text: string, from: number, to: number = text.length): boolean {
  if (to <= from) return false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === 46 /* . */ || c === 63 /* ? */) return false;
  }
  return true;
}

// `a.b`: two plain parts around exactly one dot.
function isPair(seg: string): boolean {
  const dot = seg.indexOf('.');
  return dot > 0 && isPlain(seg, dot + 1) && isPlain(seg, 0, dot);
}

/** The path's length less one trailing slash; -1 when the path does not start with `/` (only whole-path patterns apply). */
function effectiveLength(path: string): number {
  if (path === '') return 0;
  if (path.charCodeAt(0) !== 47) return -1;
  return path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
}

/** `/a/b.c/` -> ['a', 'b.c']; null when the path does not start with `/`. */
function splitPath(path: string): string[] | null {
  if (path === '' || path === '/') return [];
  if (path.charCodeAt(0) !== 47) return null;
  const end = path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
  return path.slice(1, end).split('/');
}

interface AnalysedRoute {
  readonly groups: readonly (readonly Segment[])[];
  /** Index of the first group that may be left off; every later group may be too. */
  readonly firstOptional: number;
}

/** Splits a route into `/`-separated groups, or returns null when it needs whole-path matching. */
function analyse(route: Route): AnalysedRoute | null {
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
function classify(g: readonly Segment[], trailing: boolean, controllers: readonly string[] | null): Group {
  const [a, b, c] = g;
  if (g.length === 1) {
    if (a.type === 'static') return { kind: 'static', text: a.value };
    if (isDefaultDynamic(a) && (trailing || !a.optional)) return { kind: 'param', segment: a };
    if (a.type === 'controller') return { kind: 'controller', segment: a };
    if (a.type === 'glob' && a.requirement === null) return { kind: 'glob', segment: a };
  }
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
