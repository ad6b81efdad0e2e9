/**
 * Rails 2.1's `UrlEncodedPairParser`: binds `name => value` pairs into nested
 * hashes and arrays by the bracket grammar of form field names. Internal to
 * `core/request/`; `parseQuery` and `parseRequestParameters` drive it.
 *
 * The grammar, as Rails scans it:
 *   - a name starts with a bare key `[^\[\]=&]+`; anything else is ignored;
 *   - `key[]` makes `key` an array, `key[x` makes it a hash, and each `[x]` is one level down;
 *   - scanning stops at the first segment that does not fit, keeping the containers made so far
 *     (`a/b[c]d=e` gives `{"a/b": {}}`);
 *   - in a hash the first value wins (`a=1&a=2` gives "1"), except over a null;
 *   - in an array `a[][k]`, a key the last hash already has starts a new hash;
 *   - a hash where an array is wanted (or the reverse) is a conflict, a 400.
 */
import { ParamsParseError } from '../errors.ts';
import type { ResolvedParamLimits } from './limits.ts';
import { isParamObject, isUnsafeKey, ownParam, setParam, type ParamObject, type ParamValue, type Params } from './param-values.ts';

type Container = ParamObject | ParamValue[];
type Step = { readonly kind: 'array' | 'hash'; readonly key: string };
interface ScannedName {
  readonly steps: readonly Step[];
  /** The key the value binds to (null: push onto an array), or undefined when scanning stopped early. */
  readonly leaf: string | null | undefined;
}

const BARE_KEY = /[^[\]=&]+/y;
const BRACKETED_KEY = /\[([^[\]=&]+)\]/y;

/** Builds one parameter hash from pairs bound in order, under the given limits. */
export class NestedParams {
  readonly result: Params = {};
  readonly #limits: ResolvedParamLimits;
  #count = 0;
  #top: Container = this.result;

  constructor(limits: ResolvedParamLimits) {
    this.#limits = limits;
  }

  /** Binds `value` under the bracketed `name` (`a[b][]`, `x[y][][z]`...). */
  add(name: string, value: ParamValue): void {
    this.#countOne();
    const scanned = scanName(name, this.#limits.depth);
    // A name with an unsafe segment is dropped whole, before any container is made for it.
    if (scanned === null || scanned.steps.some((s) => isUnsafeKey(s.key)) || (scanned.leaf && isUnsafeKey(scanned.leaf))) return;
    this.#top = this.result;
    for (const step of scanned.steps) this.#container(step, name);
    if (scanned.leaf !== undefined) this.#bind(scanned.leaf, value);
  }

  /** Sets a top-level key outright (Rails' shortcut for bracket-free multipart names: last one wins). */
  set(name: string, value: ParamValue): void {
    this.#countOne();
    setParam(this.result, name, value);
  }

  #countOne(): void {
    if (++this.#count > this.#limits.keys) {
      throw new ParamsParseError('SBX_ERR_PARAMS_COUNT', `Too many parameters: the limit is ${this.#limits.keys}`);
    }
  }

  #container(step: Step, name: string): void {
    const isKind = step.kind === 'array' ? Array.isArray : isParamObject;
    const top = this.#top;
    if (!Array.isArray(top)) {
      const existing = ownParam(top, step.key);
      if (existing !== undefined && !isKind(existing)) conflict(name, step.kind);
    }
    // With clashes refused above, the key now holds a container of the wanted kind.
    this.#top = this.#bind(step.key, step.kind === 'array' ? [] : {}) as Container;
  }

  /** Binds `key` (null: append) in the current container and returns what the key now holds. */
  #bind(key: string | null, value: ParamValue): ParamValue {
    const top = this.#top;
    if (Array.isArray(top)) {
      if (key === null) {
        this.#push(top, value);
        return value;
      }
      const last = top[top.length - 1];
      if (isParamObject(last) && !Object.hasOwn(last, key)) {
        setParam(last, key, value);
        return value;
      }
      const fresh: ParamObject = {};
      setParam(fresh, key, value);
      this.#push(top, fresh);
      this.#top = fresh;
      return value;
    }
    // A null key only follows `[]`, whose container is an array, so a hash always gets a name.
    const name = key as string;
    const existing = ownParam(top, name);
    // Ruby's `||=`: the first value stays unless it was nil.
    if (existing !== undefined && existing !== null) return existing;
    setParam(top, name, value);
    return value;
  }

  #push(array: ParamValue[], value: ParamValue): void {
    if (array.length >= this.#limits.arrayLength) {
      throw new ParamsParseError('SBX_ERR_PARAMS_COUNT', `Too many elements in a parameter array: the limit is ${this.#limits.arrayLength}`);
    }
    array.push(value);
  }
}

/** Scans a field name into container steps and a leaf, or null when it does not start with a bare key. */
function scanName(name: string, maxDepth: number): ScannedName | null {
  BARE_KEY.lastIndex = 0;
  const bare = BARE_KEY.exec(name);
  if (bare === null) return null;
  let pos = bare[0].length;
  const steps: Step[] = [];

  // Rails' post_key_check: what follows a key decides whether it names a container.
  const afterKey = (key: string): string | null => {
    if (name.startsWith('[]', pos)) {
      steps.push({ kind: 'array', key });
      pos += 2;
    } else if (name[pos] === '[' && pos + 1 < name.length && name[pos + 1] !== ']') {
      steps.push({ kind: 'hash', key });
    } else {
      return key;
    }
    if (steps.length > maxDepth) {
      throw new ParamsParseError('SBX_ERR_PARAMS_DEPTH', `Parameter nested too deeply: the limit is ${maxDepth} levels`);
    }
    return null;
  };

  let leaf = afterKey(bare[0]);
  while (pos < name.length) {
    BRACKETED_KEY.lastIndex = pos;
    const segment = BRACKETED_KEY.exec(name);
    if (segment === null) return { steps, leaf: undefined };
    pos += segment[0].length;
    leaf = afterKey(segment[1]);
  }
  return { steps, leaf };
}

function conflict(name: string, wanted: 'array' | 'hash'): never {
  throw new ParamsParseError(
    'SBX_ERR_PARAMS_CONFLICT',
    `Conflicting types for parameter ${JSON.stringify(name.slice(0, 100))}: expected ${wanted === 'array' ? 'an array' : 'a hash'}, ` +
      'as when a form sends both qs[]=value and qs[key]=value',
  );
}
