/**
 * The object templates receive (`v`). It reads, in order: the view helpers,
 * the template's locals, what the controller shares with its templates (its
 * own properties, Rails' "assigns", and its methods, bound to it) and the
 * route helpers.
 *
 * Nothing of that is built per render. Every context is a small object over
 * one prototype, made once: the helpers (core/views/helpers.ts), then a
 * getter for each name templates have read from a controller or the route
 * helpers, then a Proxy that meets a name the first time a template reads it
 * and adds its getter, so that the next read of it, in any render, is an
 * ordinary property read. A render makes the context object and puts its
 * locals on it, nothing more.
 */
import { helperOf } from '../routing/helpers.ts';
import { HELPERS } from './helpers.ts';
import type { ViewHost } from './host.ts';
import { SCOPE, type ContextSlots, type PartialContexts, type Scope } from './scope.ts';

const UNDERSCORE = 0x5f;

/** The names of the helpers: a local or an assign of one of these names never hides the helper. */
const HELPER_NAMES: ReadonlySet<string> = new Set(Object.keys(HELPERS));

/**
 * What a name read from the view means when it is not a helper or a local: the controller's (a method
 * bound to it), unless it starts with `_` (internal) or the controller has no such name; else a route helper.
 */
function shared(host: ViewHost, name: string, internal: boolean): unknown {
  if (!internal && name in host) {
    const value = (host as unknown as Record<string, unknown>)[name];
    return typeof value === 'function' ? value.bind(host) : value;
  }
  return helperOf(host.routes, name);
}

/** Names met so far, each a getter on LEARNED; bounded, since only names some host or route set has are added. */
let learnedCount = 0;
const MAX_LEARNED = 10_000;

const MISSING = new Proxy(Object.create(null) as object, {
  get(_target, name, receiver: Partial<ContextSlots>) {
    if (typeof name !== 'string') return undefined;
    const scope = receiver[SCOPE];
    if (scope === undefined) return undefined;
    const value = shared(scope.host, name, name.charCodeAt(0) === UNDERSCORE);
    if (value !== undefined) learn(name);
    return value;
  },
});

const LEARNED: object = Object.create(MISSING);

function learn(name: string): void {
  if (learnedCount >= MAX_LEARNED || Object.prototype.hasOwnProperty.call(LEARNED, name)) return;
  learnedCount++;
  const internal = name.charCodeAt(0) === UNDERSCORE;
  Object.defineProperty(LEARNED, name, {
    get(this: ContextSlots) {
      return shared(this[SCOPE].host, name, internal);
    },
    // A local of this name belongs to its own context.
    set(this: object, value: unknown) {
      Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: false,
    configurable: true,
  });
}

const VALUE = Symbol('signalbox partial value');
const INDEX = Symbol('signalbox partial index');

const LAYER: object = Object.create(LEARNED, Object.getOwnPropertyDescriptors(HELPERS));
// The slots every context sets in its constructor, as writable properties of a plain object above the
// Proxy: a store finds them here and adds its own, where a store that reached the Proxy would leave
// V8's fast path for a runtime call at every new context.
for (const slot of [SCOPE, VALUE, INDEX]) Object.defineProperty(LAYER, slot, { value: undefined, writable: true, enumerable: false, configurable: false });

export type Context = ContextSlots & Record<string, unknown>;

// A constructor over the shared prototype: every context has the same shape, so reads of it stay fast.
const ViewContext = function (this: { [SCOPE]: Scope }, scope: Scope) {
  this[SCOPE] = scope;
} as unknown as new (scope: Scope) => Context;
ViewContext.prototype = LAYER;

/** A view context for one template of `scope`'s render, with `locals` (never shadowing a helper). */
export function contextOf(scope: Scope, locals: Readonly<Record<string, unknown>> | null): Context {
  const view = new ViewContext(scope);
  if (locals !== null) {
    for (const key of Object.keys(locals)) {
      if (key === '__proto__' || HELPER_NAMES.has(key)) continue;
      view[key] = locals[key];
    }
  }
  return view;
}

/** Sets one local of a context made by `contextOf` (a partial's object, its counter). */
export function setLocal(view: Context, key: string, value: unknown): void {
  if (key !== '__proto__' && !HELPER_NAMES.has(key)) view[key] = value;
}

/**
 * The contexts of a partial whose locals are its object (and counter): getters on a prototype made
 * once per partial, so a collection of a hundred items makes a hundred small objects of one shape,
 * with no property added to any of them.
 */
export function partialContexts(local: string, counter: string): PartialContexts {
  const one = Object.create(LAYER) as object;
  defineLocal(one, local, function (this: { [VALUE]: unknown }) { return this[VALUE]; });
  const item = Object.create(one) as object;
  defineLocal(item, counter, function (this: { [INDEX]: number }) { return this[INDEX]; });
  const One = function (this: Record<symbol, unknown>, scope: Scope, value: unknown) {
    this[SCOPE] = scope;
    this[VALUE] = value;
  } as unknown as new (scope: Scope, value: unknown) => Context;
  One.prototype = one;
  const Item = function (this: Record<symbol, unknown>, scope: Scope, value: unknown, index: number) {
    this[SCOPE] = scope;
    this[VALUE] = value;
    this[INDEX] = index;
  } as unknown as new (scope: Scope, value: unknown, index: number) => Context;
  Item.prototype = item;
  return {
    one: (scope, value) => new One(scope, value),
    item: (scope, value, index) => new Item(scope, value, index),
  };
}

function defineLocal(proto: object, name: string, get: () => unknown): void {
  // A helper keeps its name, as it does against any local.
  if (name === '__proto__' || HELPER_NAMES.has(name)) return;
  Object.defineProperty(proto, name, {
    get,
    set(this: object, value: unknown) {
      Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  });
}
