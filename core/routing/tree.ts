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
import { compilePattern, extractParams, type CompiledPattern } from './pattern.ts';
import { makeLeaf, methodBit, type Group, type Leaf, type Positions } from './leaf.ts';
import { addRouteMethods, methodAdmits, orderMethods, type Match, type Recognizer, type RecognizerOptions } from './recognizer.ts';
import { analyse, classify, keySegmentsFrom, type AnalysedRoute } from './route-shape.ts';
import type { KeySegment, Route } from './types.ts';

class Node {
  static: Map<string, Node> | null = null;
  dotted: Map<string, Node> | null = null;
  /** Static edges by their first character (`& 63`), tried with `startsWith`: a match needs no scan. */
  staticByFirst: StaticEdge[][] | null = null;
  /** Dotted edges by `textHash` of their text, for lookups that slice no string; see `Edges`. */
  dottedByHash: Edges | null = null;
  param: Node | null = null;
  pair: Node | null = null;
  controller: Node | null = null;
  regex: { re: RegExp; source: string; node: Node }[] | null = null;
  leaves: Leaf[] = [];
  globs: Leaf[] = [];
  min = Infinity;
}

/**
 * Static edges by the hash of their text: an open table of buckets (a power of two in size, kept at most
 * half full) chained on collision. Lookup hashes the path component in the one pass that also finds its
 * end and its dots, so it neither slices the path nor hashes a new string.
 */
interface Edges {
  buckets: (Edge | undefined)[];
  mask: number;
  size: number;
}

interface Edge {
  readonly hash: number;
  readonly text: string;
  readonly node: Node;
  next: Edge | null;
}

/** The hash lookup computes as it scans a component; every static word is hashed the same way once. */
function textHash(text: string): number {
  let h = 0;
  for (let k = 0; k < text.length; k++) h = (Math.imul(h, 31) + text.charCodeAt(k)) | 0;
  return h;
}

function newEdges(): Edges {
  return { buckets: new Array<Edge | undefined>(4).fill(undefined), mask: 3, size: 0 };
}

function addEdge(edges: Edges, text: string, node: Node): void {
  if (++edges.size * 2 > edges.buckets.length) {
    const old = edges.buckets;
    edges.buckets = new Array<Edge | undefined>(old.length * 2).fill(undefined);
    edges.mask = edges.buckets.length - 1;
    for (const first of old) {
      let edge = first ?? null;
      while (edge !== null) {
        const after: Edge | null = edge.next;
        edge.next = null;
        place(edges, edge);
        edge = after;
      }
    }
  }
  place(edges, { hash: textHash(text), text, node, next: null });
}

function place(edges: Edges, edge: Edge): void {
  const i = edge.hash & edges.mask;
  const first = edges.buckets[i];
  if (first === undefined) {
    edges.buckets[i] = edge;
    return;
  }
  let last = first;
  while (last.next !== null) last = last.next;
  last.next = edge;
}

/** The node of the edge whose text is `path` from `from` to `to`, if any; `h` is that text's `textHash`. */
function findEdge(edges: Edges, h: number, path: string, from: number, to: number): Node | null {
  for (let edge = edges.buckets[h & edges.mask] ?? null; edge !== null; edge = edge.next) {
    const text = edge.text;
    if (edge.hash === h && text.length === to - from && path.startsWith(text, from)) return edge.node;
  }
  return null;
}

interface StaticEdge {
  readonly text: string;
  readonly node: Node;
  /** The text holds a `%`: as a parameter (the other edges of its node), it would be decoded. */
  readonly percent: boolean;
}

function addStaticEdge(node: Node, text: string, child: Node): void {
  // Static texts lie between dividers, so they hold none: a match is the whole component, and a plain word.
  if (text === '' || /[/.?]/.test(text)) throw new Error(`static edge ${JSON.stringify(text)} is not one plain word`);
  const buckets = (node.staticByFirst ??= Array.from({ length: 64 }, () => [] as StaticEdge[]));
  buckets[text.charCodeAt(0) & 63].push({ text, node: child, percent: text.includes('%') });
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
  // Whether a component scanned so far holds a `%`: only then do captures need decoding.
  private percent = false;
  // Whether some component pattern accepts '' (only then can a trailing slash end an empty component).
  private emptyEdges = false;

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
    let len = effectiveLength(path);
    if (len >= 0) {
      this.path = path;
      this.len = len;
      this.bit = methodBit(method);
      this.percent = false;
      this.search(this.root, 1, 0);
      // A trailing slash ends the path, or, in Rails' pattern, an empty last component that a requirement
      // such as /[a-z]*/ accepts (`/pages/` is `pages/:name` with name ''). The second reading is walked
      // after the first, so it only wins with a lower route: for one route the pattern ends at the slash.
      if (this.emptyEdges && path.charCodeAt(path.length - 1) === 47) {
        const found = state.leaf;
        this.len = path.length;
        this.search(this.root, 1, 0);
        if (state.leaf !== found) len = path.length;
      }
    }
    const slow = this.slow;
    for (let i = 0; i < slow.length; i++) {
      const { route, pattern } = slow[i];
      if (route.index >= state.best) break;
      if (!methodAdmits(route, method)) continue;
      const m = pattern.regexp.exec(path);
      if (m) return { route, params: extractParams(route, pattern, m, path) };
    }
    const leaf = state.leaf as Leaf | null;
    state.leaf = null;
    if (leaf === null) return null;
    return { route: leaf.route, params: leaf.read(path, len, state.at, this.percent) };
  }

  allowed_methods(path: string): string[] {
    const methods = new Set<string>();
    const segs = splitPath(path);
    if (segs !== null) {
      this.collect(this.root, segs, 0, methods);
      // As in `match`: a trailing slash may end an empty last component.
      if (this.emptyEdges && path.charCodeAt(path.length - 1) === 47) this.collect(this.root, [...segs, ''], 0, methods);
    }
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
    const deeper = depth + 1;
    let end = -1;
    if (node.staticByFirst !== null && pos < len) {
      // A static word that fills the component: the component needs no scan, and is a plain word.
      const bucket = node.staticByFirst[path.charCodeAt(pos) & 63];
      for (let i = 0; i < bucket.length; i++) {
        const edge = bucket[i];
        const stop = pos + edge.text.length;
        if (stop <= len && (stop === len || path.charCodeAt(stop) === 47) && path.startsWith(edge.text, pos)) {
          end = stop;
          this.walk.starts[depth] = pos;
          this.walk.ends[depth] = end;
          this.search(edge.node, end + 1, deeper);
          if (node.param !== null) {
            if (edge.percent) this.percent = true;
            this.search(node.param, end + 1, deeper);
          }
          break;
        }
      }
    }
    if (end < 0) {
      // One scan finds the component's end, hashes it up to its first dot and classifies it for the
      // three shapes: `word`, `static.word`, `word.word`.
      let h = 0;
      let beforeDot = 0;
      let dot = -1;
      let dots = 0;
      let question = false;
      let percent = false;
      end = pos;
      for (; end < len; end++) {
        const c = path.charCodeAt(end);
        if (c === 47) break;
        if (c === 46) {
          if (dots++ === 0) {
            dot = end;
            beforeDot = h;
          }
        } else if (c === 63) question = true;
        else if (c === 37) percent = true;
        h = (Math.imul(h, 31) + c) | 0;
      }
      if (percent) this.percent = true;
      this.walk.starts[depth] = pos;
      this.walk.ends[depth] = end;
      if (!question) {
        if (dots === 0) {
          if (node.param !== null && end > pos) this.search(node.param, end + 1, deeper);
        } else if (dot > pos && dot < end - 1 && dots === 1) {
          if (node.dottedByHash !== null) {
            const child = findEdge(node.dottedByHash, beforeDot, path, pos, dot);
            if (child !== null) this.search(child, end + 1, deeper);
          }
          if (node.pair !== null) this.search(node.pair, end + 1, deeper);
        }
      }
    }
    const next = end + 1;
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
    // Indexed, with the arrays in locals: this runs at the end of every walk, and a for-of loop
    // (with its iterator's cleanup) or repeated property reads cost more than the loop's work.
    for (let i = 0; i < leaves.length; i++) {
      const leaf = leaves[i];
      if (leaf.index >= state.best) return;
      if ((leaf.methods & this.bit) !== 0) {
        state.best = leaf.index;
        state.leaf = leaf;
        const { starts, ends } = this.walk;
        const at = state.at;
        const atStarts = at.starts;
        const atEnds = at.ends;
        for (let j = 0; j < leaf.depth; j++) {
          atStarts[j] = starts[j];
          atEnds[j] = ends[j];
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
      if (group.kind === 'regex' && group.pattern.regexp.test('')) this.emptyEdges = true;
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
  if (path.charCodeAt(0) !== 47) return path === '' ? 0 : -1;
  return path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
}

/** `/a/b.c/` -> ['a', 'b.c']; null when the path does not start with `/`. */
function splitPath(path: string): string[] | null {
  if (path === '' || path === '/') return [];
  if (path.charCodeAt(0) !== 47) return null;
  const end = path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
  return path.slice(1, end).split('/');
}

function edgeFor(node: Node, group: Group): Node {
  switch (group.kind) {
    case 'static': {
      node.static ??= new Map();
      let child = node.static.get(group.text);
      if (!child) {
        node.static.set(group.text, (child = new Node()));
        addStaticEdge(node, group.text, child);
      }
      return child;
    }
    case 'dotted': {
      node.dotted ??= new Map();
      let child = node.dotted.get(group.text);
      if (!child) {
        node.dotted.set(group.text, (child = new Node()));
        addEdge((node.dottedByHash ??= newEdges()), group.text, child);
      }
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
