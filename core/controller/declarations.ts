/**
 * Class-level declarations of a controller (filters, rescue handlers,
 * forgery protection, verifications, hidden actions, layout, caches), as plain
 * data per class. A subclass starts from a copy of its parent's
 * declarations the first time it declares something, so declarations
 * inherit without a subclass ever changing its parent.
 */
import { ArgumentError } from '../errors.ts';
import { checkOptionNames } from '../options.ts';
import type { ActionCacheOptions, CacheDeclaration, PageCacheOptions } from '../caching/declarations.ts';

export type ActionScope = {
  readonly only?: readonly string[];
  readonly except?: readonly string[];
  /** Scopes a `skip_filter` took the declaration out of (Rails' `skip_before_filter :x, :only => ...`). */
  readonly skipped?: readonly ActionScope[];
};

/** The name Rails gives the filter `protect_from_forgery` installs: `skip_before_filter` takes it. */
export const FORGERY_FILTER = 'verify_authenticity_token';

/**
 * The names of `T`'s methods: what a filter, a rescue handler or a cache condition may name, so that
 * a misspelt or renamed method is a compile error rather than a failure at request time. (TypeScript's
 * `private` and `protected` methods are not among them: name a public one, which being a filter keeps
 * from being an action, or pass a function.)
 */
export type MethodName<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;

/** A controller class as the declarations see it: `prototype` carries its instance type. */
export interface Declaring<C> {
  readonly prototype: C;
}

/** `only` or `except` as a declaration takes them: one action name or a list. */
export interface ScopeOptions {
  readonly only?: string | readonly string[];
  readonly except?: string | readonly string[];
}

/** The arguments of `before_filter` and its kin: targets, then optionally `{ only }` or `{ except }`. */
export type FilterArguments<Target> = Target[] | [...Target[], ScopeOptions];

/** A before or after filter of controller `C`: one of its method names, or a function given the controller. */
export type FilterTarget<C = never> = MethodName<C> | ((controller: C) => unknown);
/** An around filter of `C`: a method taking the action to run, or a function given the controller and the action. */
export type AroundTarget<C = never> = MethodName<C> | ((controller: C, action: () => Promise<void>) => unknown);

/** `caches_page`'s or `caches_action`'s `if` for controller `C`: one of its method names, or a function of it. */
export type CacheConditionFor<C> = MethodName<C> | ((controller: C) => unknown);

export interface PageCacheOptionsFor<C> extends Omit<PageCacheOptions, 'if'> {
  readonly if?: CacheConditionFor<C>;
}

export interface ActionCacheOptionsFor<C> extends Omit<ActionCacheOptions, 'if' | 'cache_path'> {
  readonly if?: CacheConditionFor<C>;
  /** The key's path instead of the request's host and path: a string, a route hash, or a function of the controller giving either. */
  readonly cache_path?: string | Readonly<Record<string, unknown>> | ((controller: C) => string | Record<string, unknown>);
}

export type FilterKind = 'before' | 'after' | 'around';
/** A filter as stored: a method name, or a function given the controller (and, around, the action). */
type StoredTarget = string | ((controller: object, action?: () => Promise<void>) => unknown);

export interface Filter extends ActionScope {
  readonly kind: FilterKind;
  readonly target: StoredTarget;
}

/** An error class, or its name (matched against the error's class chain by name). */
export type RescueMatcher<E = unknown> = (abstract new (...args: never[]) => E) | string;

/**
 * A `rescue_from` handler of controller `C` for errors of type `E`: one of its method names, or a
 * function called on the controller with the error. (Declared as a method, so a handler that takes a
 * narrower error type than `E` still fits.)
 */
export type RescueHandler<C = never, E = unknown> = MethodName<C> | { handle(this: C, error: E): unknown }['handle'];

export interface RescueDeclaration {
  readonly matcher: RescueMatcher;
  readonly handler: string | ((this: unknown, error: unknown) => unknown);
}

export interface ForgeryOptions extends ActionScope {
  /** Parameter carrying the token (default `authenticity_token`). */
  readonly param?: string;
  /** With a store that keeps session ids (`memorySessionStore`), tokens are HMAC(secret, id); without it, a random token kept in the session. */
  readonly secret?: string;
}

/** What the request machine's forgery stage decides: whether this request needs an authenticity token at all (the pipeline produces it; `protect_from_forgery` acts on it). */
export interface ForgeryVerdict {
  /** A state-changing request whose Content-Type is not an exempt API type. */
  readonly required: boolean;
}

export interface VerifyOptions extends ActionScope {
  readonly params?: string | readonly string[];
  readonly session?: string | readonly string[];
  readonly flash?: string | readonly string[];
  readonly method?: string | readonly string[];
  readonly xhr?: boolean;
  readonly redirect_to?: unknown;
  readonly render?: Record<string, unknown>;
  readonly add_flash?: Record<string, unknown>;
  readonly add_headers?: Record<string, string>;
}

/** What a controller's layout is chosen by per request: the layout's name, or false (or null) for none. */
export type LayoutChooser<C = never> = (controller: C) => string | false | null | undefined;
// Stored without its controller's type: the declaration checked it, and render calls it with that controller.
export type LayoutDeclaration = string | false | null | ((controller: never) => unknown);

export interface LayoutConditions {
  readonly only?: readonly string[];
  readonly except?: readonly string[];
}

/**
 * Rails 2.1's `action_has_layout?`: with `only`, the actions it lists; else with `except`, all but those;
 * else every action. `only` is read first even when a later declaration added `except`, as Rails read it,
 * and as `appliesTo` reads a filter's scope.
 */
export function actionHasLayout(conditions: LayoutConditions | null, action: string): boolean {
  return conditions === null || appliesTo(conditions, action);
}

export interface Declarations {
  readonly filters: Filter[];
  readonly rescues: RescueDeclaration[];
  forgery: ForgeryOptions | null;
  readonly hidden: Set<string>;
  /**
   * The declared layout: a name under `layouts/`, false for none, null to look one up, or a function
   * of the controller choosing one per request (Rails' `layout proc { |c| ... }` and `layout :method`).
   */
  layout: LayoutDeclaration;
  /**
   * Rails' `layout_conditions`: the actions that get a layout (`only`) or do not (`except`), merged
   * over the parent's by each `layout` call, as Rails' inheritable hash merged them; null when none.
   */
  layoutConditions: LayoutConditions | null;
  /** `caches_page` and `caches_action`, in declaration order (the last one naming an action wins). */
  readonly caches: CacheDeclaration[];
}

/** Each class's own declarations, by class: dispatch asks on every request, and a WeakMap answers sooner than an own-property check on a class. */
const DECLARATIONS = new WeakMap<object, Declarations>();

// The last class asked about: every request asks for its controller's declarations, and a class's entry never changes once made.
let lastClass: object | null = null;
let lastDeclarations: Declarations | null = null;

/** The declarations of a controller class, created (from its parent's) on first use. */
export function declarationsOf(klass: object): Declarations {
  if (klass === lastClass) return lastDeclarations!;
  const own = DECLARATIONS.get(klass);
  if (own) {
    lastClass = klass;
    lastDeclarations = own;
    return own;
  }
  const parent = Object.getPrototypeOf(klass) as object | null;
  const inherited = parent && typeof parent === 'function' ? declarationsOf(parent) : null;
  const created: Declarations = {
    filters: inherited ? [...inherited.filters] : [],
    rescues: inherited ? [...inherited.rescues] : [],
    forgery: inherited?.forgery ?? null,
    hidden: new Set(inherited?.hidden ?? []),
    layout: inherited?.layout ?? null,
    layoutConditions: inherited?.layoutConditions ?? null,
    caches: inherited ? [...inherited.caches] : [],
  };
  DECLARATIONS.set(klass, created);
  return created;
}

/** Reads `only`/`except` from a filter's options. */
export function actionScope(options: { only?: unknown; except?: unknown } | undefined): ActionScope {
  const list = (v: unknown) => (v === undefined || v === null ? undefined : (Array.isArray(v) ? v : [v]).map(String));
  const only = list(options?.only);
  const except = list(options?.except);
  if (only && except) throw new ArgumentError('Give either :only or :except, not both');
  return { ...(only ? { only } : {}), ...(except ? { except } : {}) };
}

/** Whether a scoped declaration applies to this action. */
export function appliesTo(scope: ActionScope, action: string): boolean {
  if (scope.only ? !scope.only.includes(action) : scope.except ? scope.except.includes(action) : false) return false;
  return scope.skipped === undefined || !scope.skipped.some((skip) => appliesTo(skip, action));
}

/** `declaration` with `skip` taken out of it: for every action when the skip has no scope (null), else where the skip applies. */
export function skipping<T extends ActionScope>(declaration: T, skip: ActionScope): T | null {
  if (skip.only === undefined && skip.except === undefined) return null;
  return { ...declaration, skipped: [...(declaration.skipped ?? []), skip] };
}

// The options each declaration takes: in a controller written in plain JavaScript, `{ onl: ['index'] }`
// would otherwise apply a filter to every action (checked by core/options.ts).
const SCOPE_OPTIONS: ReadonlySet<string> = new Set(['only', 'except']);
export const FORGERY_OPTIONS: ReadonlySet<string> = new Set(['only', 'except', 'param', 'secret']);
export const VERIFY_OPTIONS: ReadonlySet<string> = new Set(['only', 'except', 'params', 'session', 'flash', 'method', 'xhr', 'redirect_to', 'render', 'add_flash', 'add_headers']);

/** Splits `(...targets, options?)` as Rails' filter declarations take them; `declaration` names the one called, for its errors. */
export function splitFilterArgs(args: readonly unknown[], declaration: string): { targets: StoredTarget[]; scope: ActionScope } {
  const rest = [...args];
  const last = rest[rest.length - 1];
  const options = last !== null && typeof last === 'object' && !Array.isArray(last) ? (rest.pop() as { only?: unknown; except?: unknown }) : undefined;
  if (options !== undefined) checkOptionNames(declaration, options, SCOPE_OPTIONS);
  for (const t of rest) {
    if (typeof t !== 'string' && typeof t !== 'function') throw new ArgumentError(`A filter is a method name or a function, got ${String(t)}`);
  }
  return { targets: rest as StoredTarget[], scope: actionScope(options) };
}
