/**
 * Leaf payload of the tree recognizer: how each walk's end turns matched
 * path components into parameters.
 *
 * Building the params object is most of a lookup's cost, so each leaf gets
 * a reader compiled from the route data: one object literal whose keys are
 * known up front (fixed requirements, defaults of the components left off,
 * captures by component position). Keys and fixed values are embedded with
 * `JSON.stringify`, and route keys are words (`__proto__` is refused at
 * declaration), so the generated source carries no untrusted text.
 * Leaves with shapes the reader does not cover (regex groups, controllers,
 * globs) use the generic reader.
 */
import { functionFromSource } from '../generated-code.ts';
import { assignCapture, decodeCapture, extractParams, parameterShell, type CompiledPattern } from './pattern.ts';
import { copyFixed } from './fixed.ts';
import type { FixedLeaf, KeySegment, ParamHash, Params, Route } from './types.ts';

export type Group =
  | { readonly kind: 'static'; readonly text: string }
  | { readonly kind: 'param'; readonly segment: KeySegment }
  | { readonly kind: 'dotted'; readonly text: string; readonly segment: KeySegment }
  | { readonly kind: 'pair'; readonly first: KeySegment; readonly second: KeySegment }
  | { readonly kind: 'regex'; readonly pattern: CompiledPattern }
  | { readonly kind: 'controller'; readonly segment: KeySegment }
  | { readonly kind: 'glob'; readonly segment: KeySegment };

/** Positions of the matched components: component `j` is `path.slice(starts[j], ends[j])`. */
export interface Positions {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** `escaped`: some matched component may hold a `%` escape (when false, none does). */
export type Reader = (path: string, len: number, at: Positions, escaped: boolean) => Params;

export interface Leaf {
  readonly route: Route;
  readonly index: number;
  /** Method bits this route admits (`methodBit`); all bits when it has no method condition. */
  readonly methods: number;
  /** Number of components this walk consumes (globs: those before the glob). */
  readonly depth: number;
  /** Reads the parameters; replaced by its compiled form on first use. */
  read: Reader;
}

// One bit per method a route condition can name, one for "no method given" (only unconditioned
// routes admit it) and one for any other method; an unconditioned route admits every bit.
const METHOD_BITS: Readonly<Record<string, number>> = Object.freeze(Object.assign(Object.create(null), {
  GET: 1, POST: 2, PUT: 4, DELETE: 8, OPTIONS: 16,
}));
const NO_METHOD = 32;
const OTHER_METHOD = 64;
const ALL_BITS = 127;

/** The bit a request method tests against `Leaf.methods` (HEAD is already folded into GET). */
export function methodBit(method: string | null): number {
  // A switch rather than a METHOD_BITS lookup: this runs on every request.
  switch (method) {
    case null: return NO_METHOD;
    case 'GET': return 1;
    case 'POST': return 2;
    case 'PUT': return 4;
    case 'DELETE': return 8;
    case 'OPTIONS': return 16;
    default: return OTHER_METHOD;
  }
}

function routeBits(route: Route): number {
  if (route.methods === null) return ALL_BITS;
  let bits = 0;
  for (const m of route.methods) bits |= METHOD_BITS[m] ?? 0;
  return bits;
}

function decode(text: string, path: string): string {
  return text.indexOf('%') < 0 ? text : decodeCapture(text, path);
}

/** A leaf for a walk over `groups`, leaving off the key segments in `absent`. */
export function makeLeaf(route: Route, groups: readonly Group[], absent: readonly KeySegment[], whole: CompiledPattern | null): Leaf {
  const shell = parameterShell(route);
  let absentGlobs: string[] = NO_GLOBS;
  for (const s of absent) {
    if (s.type === 'glob') (absentGlobs === NO_GLOBS ? (absentGlobs = []) : absentGlobs).push(s.key);
    else assignCapture(shell, s, undefined, '');
  }
  let depth = 0;
  let simple = whole === null;
  for (const g of groups) {
    if (g.kind !== 'glob') depth++;
    if (g.kind !== 'static' && g.kind !== 'param' && g.kind !== 'dotted' && g.kind !== 'pair') simple = false;
  }
  if (!simple) return new TrieLeaf(route, depth, genericReader(route, shell, groups, absentGlobs, whole), null);
  // Compiled on first use: most routes of a large table are never hit by a given process.
  return new TrieLeaf(route, depth, readFirst, { shell, groups, absentGlobs });
}

const NO_GLOBS: string[] = [];

interface ReaderSource {
  readonly shell: Params;
  readonly groups: readonly Group[];
  readonly absentGlobs: readonly string[];
}

// A class rather than a literal holding a closure: every leaf has one shape, and drawing a table of
// hundreds of leaves allocates no function per leaf. `source` is kept until the reader is compiled.
class TrieLeaf implements Leaf {
  readonly index: number;
  readonly methods: number;
  constructor(readonly route: Route, readonly depth: number, public read: Reader, public source: ReaderSource | null) {
    this.index = route.index;
    this.methods = routeBits(route);
  }
}

function readFirst(this: TrieLeaf, path: string, len: number, at: Positions, escaped: boolean): Params {
  const { shell, groups, absentGlobs } = this.source!;
  this.source = null;
  // Where code generation is refused, the generic reader reads the same parameters.
  this.read = compileReader(shell, groups, absentGlobs) ?? genericReader(this.route, shell, groups, absentGlobs, null);
  return this.read(path, len, at, escaped);
}

/**
 * Readers are compiled by shape (the keys, and where each capture sits), not per leaf: the fixed values
 * come in as data, so the hundreds of leaves of a resource table share a few functions, each optimised
 * once and building objects of one hidden class.
 */
type ReaderFactory = (decode: (text: string, path: string) => string, values: readonly (string | boolean | readonly string[] | null)[]) => Reader;
const READERS = new Map<string, ReaderFactory>();
// Shapes come from route declarations; the limit only keeps a process that draws endless tables bounded.
const READER_LIMIT = 1000;

function compileReader(shell: Params, groups: readonly Group[], absentGlobs: readonly string[]): Reader | null {
  const prelude: string[] = [];
  const values: (string | boolean | readonly string[] | null)[] = [];
  // A fixed hash (`member: { remove: 'get' }`) is copied through its nesting by the generic reader.
  if (Object.values(shell).some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) return null;
  // A fixed list (`path: ['home']`) is copied for each request, as a glob's parts are made for each.
  const fields: string[] = Object.entries(shell).map(([k, v]) => `${JSON.stringify(k)}: values[${values.push(v as string | boolean | readonly string[] | null) - 1}]${Array.isArray(v) ? '.slice()' : ''}`);
  groups.forEach((g, j) => {
    const part = (from: string, to: string) => `(escaped ? decode(path.slice(${from}, ${to}), path) : path.slice(${from}, ${to}))`;
    switch (g.kind) {
      case 'param':
        fields.push(`${JSON.stringify(g.segment.key)}: ${part(`at.starts[${j}]`, `at.ends[${j}]`)}`);
        break;
      case 'dotted':
        fields.push(`${JSON.stringify(g.segment.key)}: ${part(`path.indexOf('.', at.starts[${j}]) + 1`, `at.ends[${j}]`)}`);
        break;
      case 'pair':
        prelude.push(`const dot${j} = path.indexOf('.', at.starts[${j}]);`);
        fields.push(`${JSON.stringify(g.first.key)}: ${part(`at.starts[${j}]`, `dot${j}`)}`);
        fields.push(`${JSON.stringify(g.second.key)}: ${part(`dot${j} + 1`, `at.ends[${j}]`)}`);
        break;
      default:
        break;
    }
  });
  for (const key of absentGlobs) fields.push(`${JSON.stringify(key)}: []`);
  const body = `${prelude.join('\n')}\nreturn { ${fields.join(', ')} };`;
  let factory = READERS.get(body);
  if (factory === undefined) {
    if (READERS.size >= READER_LIMIT) READERS.clear();
    const made = functionFromSource<ReaderFactory>(['decode', 'values'], `return function read(path, len, at, escaped) {\n${body}\n};`);
    if (made === null) return null;
    READERS.set(body, (factory = made));
  }
  return factory(decode, values);
}

function genericReader(route: Route, shell: Params, groups: readonly Group[], absentGlobs: readonly string[], whole: CompiledPattern | null): Reader {
  // A fixed list or hash is the route's own: each request gets its own copy.
  const owned = Object.keys(shell).filter((k) => shell[k] !== null && typeof shell[k] === 'object');
  return (path, len) => {
    if (whole !== null) {
      const m = whole.regexp.exec(path);
      if (m) return extractParams(route, whole, m, path);
    }
    const params: Params = { ...shell };
    for (const key of owned) params[key] = copyFixed(shell[key] as FixedLeaf) as string[] | ParamHash;
    // `len` 0 is `/` (or '') read as no component; `/` read as one empty component comes with `len` 1.
    const segs = len === 0 ? [] : path.slice(1, len).split('/');
    for (let j = 0; j < groups.length; j++) {
      const g = groups[j];
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
    for (const key of absentGlobs) params[key] = [];
    return params;
  };
}
