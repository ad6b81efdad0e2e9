/**
 * Class-level declarations of a controller (filters, rescue handlers,
 * forgery protection, verifications, hidden actions, layout, caches), as plain
 * data per class. A subclass starts from a copy of its parent's
 * declarations the first time it declares something, so declarations
 * inherit without a subclass ever changing its parent.
 */
import { ArgumentError } from '../errors.ts';
import type { CacheDeclaration } from '../caching/declarations.ts';

export type ActionScope = { readonly only?: readonly string[]; readonly except?: readonly string[] };

export type FilterKind = 'before' | 'after' | 'around';
/** A filter names a controller method, or is a function given the controller (and, around, the action). */
export type FilterTarget = string | ((controller: any, action?: () => Promise<void>) => unknown);

export interface Filter extends ActionScope {
  readonly kind: FilterKind;
  readonly target: FilterTarget;
}

export type RescueHandler = string | ((this: any, error: any) => unknown);
/** An error class, or its name (matched against the error's class chain by name). */
export type RescueMatcher = (abstract new (...args: any[]) => unknown) | string;

export interface RescueDeclaration {
  readonly matcher: RescueMatcher;
  readonly handler: RescueHandler;
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

export interface Declarations {
  readonly filters: Filter[];
  readonly rescues: RescueDeclaration[];
  forgery: ForgeryOptions | null;
  readonly hidden: Set<string>;
  layout: string | false | null;
  /** `caches_page` and `caches_action`, in declaration order (the last one naming an action wins). */
  readonly caches: CacheDeclaration[];
}

const DECLARATIONS = Symbol('signalbox.controller.declarations');

type Declaring = { [DECLARATIONS]?: Declarations };

/** The declarations of a controller class, created (from its parent's) on first use. */
export function declarationsOf(klass: object): Declarations {
  const own = Object.prototype.hasOwnProperty.call(klass, DECLARATIONS) ? (klass as Declaring)[DECLARATIONS] : undefined;
  if (own) return own;
  const parent = Object.getPrototypeOf(klass) as Declaring | null;
  const inherited = parent && typeof parent === 'function' ? declarationsOf(parent) : null;
  const created: Declarations = {
    filters: inherited ? [...inherited.filters] : [],
    rescues: inherited ? [...inherited.rescues] : [],
    forgery: inherited?.forgery ?? null,
    hidden: new Set(inherited?.hidden ?? []),
    layout: inherited?.layout ?? null,
    caches: inherited ? [...inherited.caches] : [],
  };
  Object.defineProperty(klass, DECLARATIONS, { value: created });
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
  if (scope.only) return scope.only.includes(action);
  if (scope.except) return !scope.except.includes(action);
  return true;
}

/** Splits `(...targets, options?)` as Rails' filter declarations take them. */
export function splitFilterArgs(args: readonly unknown[]): { targets: FilterTarget[]; scope: ActionScope } {
  const rest = [...args];
  const last = rest[rest.length - 1];
  const options = last !== null && typeof last === 'object' && !Array.isArray(last) ? (rest.pop() as { only?: unknown; except?: unknown }) : undefined;
  for (const t of rest) {
    if (typeof t !== 'string' && typeof t !== 'function') throw new ArgumentError(`A filter is a method name or a function, got ${String(t)}`);
  }
  return { targets: rest as FilterTarget[], scope: actionScope(options) };
}
