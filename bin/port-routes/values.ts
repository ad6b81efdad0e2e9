/**
 * Ruby values as the evaluator holds them, and the plain data the emitters print (internal to
 * `signalbox port-routes`). Ruby keeps symbols apart from strings and regexps in Ruby's dialect until
 * they are printed; `Data` is what survives into the ported module: symbols are strings, regexps are
 * translated to JavaScript's dialect, hashes are ordered string-keyed entries.
 */
import type { Block } from './ast.ts';

/** A Ruby symbol; interned, so `Sym.of('a') === Sym.of('a')` and hashes can key on it. */
export class Sym {
  static readonly #all = new Map<string, Sym>();

  private constructor(readonly name: string) {}

  static of(name: string): Sym {
    let sym = Sym.#all.get(name);
    if (sym === undefined) Sym.#all.set(name, (sym = new Sym(name)));
    return sym;
  }
}

/** A Ruby regexp: its source as written and its options (`i`, `m`, `x`). */
export class RubyRegexp {
  constructor(readonly source: string, readonly flags: string) {}

  /** Ruby's `Regexp#to_s`, which is what interpolating a regexp into another inserts. */
  toS(): string {
    const on = ['m', 'i', 'x'].filter((f) => this.flags.includes(f)).join('');
    const off = ['m', 'i', 'x'].filter((f) => !this.flags.includes(f)).join('');
    return `(?${on}${off ? `-${off}` : ''}:${this.source})`;
  }
}

export type HashKey = string | Sym | number | boolean | null;

/** A Ruby hash: insertion-ordered, and shared by reference like Ruby's (so `merge!` changes it for every holder). */
export class RubyHash {
  readonly entries = new Map<HashKey, Value>();
}

/** A routing `map`: the draw's own, or a block's (`|admin|`) scoped by `namespace`, `with_options` or a resource. */
export class MapperRef {
  static #ids = 0;
  readonly id = ++MapperRef.#ids;
  /** False once its block has returned; Ruby would still hold it, but no later call can be placed inside it. */
  live = true;

  /** The block parameter's name; the draw's own map is named by the first `draw do |name|`. */
  name: string | null;

  /**
   * @param suppliesController whether the options this map merges into every call (`with_options`, or a
   *   `namespace`'s own options, here or further out) give a `:controller`.
   */
  constructor(name: string | null, readonly parent: MapperRef | null, readonly suppliesController = false) {
    this.name = name;
  }
}

/**
 * A block kept as a value: `lambda do |map| … end`, `proc { … }`, `Proc.new { … }` or `->(map) { … }`. A routes
 * file hands it to several mapper calls as `&settings`, so its body is run once per use, in the scope it closes over.
 */
export class RubyProc {
  constructor(readonly block: Block, readonly closure: unknown) {}
}

export type Value = null | boolean | number | string | Sym | RubyRegexp | RubyHash | MapperRef | RubyProc | Value[];

/** A regexp translated to JavaScript: `flags` holds `i`, `x` (kept for Signalbox to read, with its comments) and `s` (Ruby's `m`). */
export interface DataRegexp {
  readonly kind: 'regexp';
  readonly source: string;
  readonly flags: string;
}

export interface DataHash {
  readonly kind: 'hash';
  readonly entries: readonly (readonly [string, Data])[];
}

export type Data = null | boolean | number | string | DataRegexp | DataHash | readonly Data[];

export function isDataHash(d: Data): d is DataHash {
  return d !== null && typeof d === 'object' && !Array.isArray(d) && (d as DataHash).kind === 'hash';
}

export function isDataRegexp(d: Data): d is DataRegexp {
  return d !== null && typeof d === 'object' && !Array.isArray(d) && (d as DataRegexp).kind === 'regexp';
}

/** How Ruby would show a value in a message. */
export function inspect(v: Value): string {
  if (v === null) return 'nil';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Sym) return `:${v.name}`;
  if (v instanceof RubyRegexp) return `/${v.source}/${v.flags}`;
  if (v instanceof MapperRef) return v.name ?? 'map';
  if (v instanceof RubyHash) return '{…}';
  if (v instanceof RubyProc) return '#<Proc>';
  if (Array.isArray(v)) return '[…]';
  return String(v);
}
