/**
 * Running one action: forgery protection, before filters (a filter that
 * renders or redirects halts the chain), the action cache (answering a hit
 * once every before filter has run), around filters, the action (or,
 * for a name with no method, `method_missing`, a template of that name, or
 * `UnknownAction`), the implicit render of its template, after filters,
 * and `rescue_from` handlers for whatever any of them throws.
 */
import { InvalidAuthenticityToken, UnknownAction } from '../errors.ts';
import { Controller, type ControllerClass } from './base.ts';
import { beginRun, runOf, type ActionRun, type ControllerWiring } from './action-state.ts';
import { appliesTo, declarationsOf, type Filter, type ForgeryVerdict } from './declarations.ts';
import { givenTokens, isSessionToken } from '../session/token.ts';
import { CacheRun } from '../caching/action-run.ts';
import { cacheHost } from './cache-host.ts';
import { isThenable, thenOrNow, untraced } from '../util.ts';
import { publicTemplateExists } from './render.ts';

export interface DispatchOptions {
  readonly forgery: ForgeryVerdict;
  /** False turns forgery protection off for the whole app (the default in test mode). */
  readonly allow_forgery_protection: boolean;
  /** Whether local requests get the development error page, not `rescue_action_in_public` (on in development). */
  readonly consider_all_requests_local?: boolean;
}

const ACTIONS = new WeakMap<ControllerClass, Set<string>>();
// Requests in a row often go to one controller: the last class's actions are kept at hand. An entry
// never changes once made.
let lastClass: ControllerClass | null = null;
let lastActions: Set<string> | null = null;

function actionsOf(klass: ControllerClass): Set<string> {
  if (klass === lastClass) return lastActions!;
  let actions = ACTIONS.get(klass);
  if (!actions) ACTIONS.set(klass, (actions = klass.action_methods()));
  lastClass = klass;
  lastActions = actions;
  return actions;
}

/**
 * Runs `action` on a new instance of `klass`. Returns the controller once its response is complete,
 * or a promise of it when a filter, the action or a template is asynchronous; throws (or rejects) with
 * whatever no `rescue_from` handled. Staying synchronous when nothing awaits spares most requests
 * every promise hop.
 */
export function dispatch(klass: ControllerClass, wiring: ControllerWiring, options: DispatchOptions): Controller | Promise<Controller> {
  const c = new klass();
  const run = beginRun(c, wiring);
  let outcome: Step;
  try {
    outcome = runChain(c, run, klass, wiring.action_name, options);
  } catch (error) {
    return rescued(c, error, options);
  }
  // The continuations are made only when something awaits: most actions finish synchronously.
  if (!isThenable(outcome)) return finished(c);
  return Promise.resolve(outcome).then(() => finished(c), (error: unknown) => rescued(c, error, options));
}

/** The controller, once any template render still in flight is done; from then on its response is complete. */
function finished(c: Controller): Controller | Promise<Controller> {
  const pending = takePending(c);
  if (pending === null) return completed(c);
  return pending.then(() => completed(c), (error: unknown) => {
    completed(c);
    throw error;
  });
}

/** Marks `c`'s response complete: a render it makes now (from a promise its action dropped) is too late. */
function completed(c: Controller): Controller {
  runOf(c).done = true;
  return c;
}

/**
 * Hands an unhandled error to `rescue_from`, then to an overridden `rescue_action_in_public` when the
 * request is not one the development error page answers (Rails 2.1's `rescue_action`); rethrows what
 * neither handled.
 */
function rescued(c: Controller, error: unknown, options: DispatchOptions): Controller | Promise<Controller> {
  return thenOrNow(rescue(c, error), (handled) => {
    if (handled) return finished(c);
    // The default rethrows: a controller that keeps it gets the app's error page without a call in between.
    if (c.rescue_action_in_public !== Controller.prototype.rescue_action_in_public && !(options.consider_all_requests_local === true && c.local_request)) {
      return inPublic(c, error);
    }
    // The error page answers now: the action's own renders are over.
    completed(c);
    throw error;
  });
}

/** Runs the controller's own `rescue_action_in_public`: what it throws (or rejects with) reaches the error page. */
function inPublic(c: Controller, error: unknown): Controller | Promise<Controller> {
  const failed = (thrown: unknown): never => {
    completed(c);
    throw thrown;
  };
  let outcome: unknown;
  try {
    outcome = c.rescue_action_in_public(error);
  } catch (thrown) {
    return failed(thrown);
  }
  // finished waits for a render the override started (a template), as after an action.
  return thenOrNow(outcome, () => finished(c), failed);
}

/**
 * A render started by the last step, if any; cleared so it is waited for once. What it starts in turn
 * (an asynchronous `respond_to` handler that renders a template) is waited for after it.
 */
function takePending(c: Controller): Promise<void> | null {
  const run = runOf(c);
  const pending = run.pending;
  if (pending === null) return null;
  run.pending = null;
  return pending.then(() => takePending(c) ?? undefined);
}

/** What a step returns: nothing when it finished synchronously, else the promise of its end. */
type Step = void | PromiseLike<void>;

/** After a filter, action or handler returned `result` (awaited when it is a thenable): the render it started, if any. */
function settle(c: Controller, result: unknown): Step {
  if (isThenable(result)) return Promise.resolve(result).then(() => takePending(c) ?? undefined);
  return takePending(c) ?? undefined;
}

function runChain(c: Controller, run: ActionRun, klass: ControllerClass, action: string, options: DispatchOptions): Step {
  const declarations = declarationsOf(klass);
  const body = actionBody(klass, c, action);
  // Before the forgery check, so that a refused request to a cached action says X-Cache: miss too.
  const cache = (run.cache = declarations.caches.length === 0 ? null : CacheRun.begin(cacheHost(c, declarations.forgery), run.wiring.caching, declarations.caches, action));
  const forgery = declarations.forgery;
  // The controller decides: only now are its protection and its token parameter known.
  if (forgery && options.allow_forgery_protection && appliesTo(forgery, action) && options.forgery.required && !isSessionToken(run.wiring.session, givenTokens(c.params, c.request.headers, forgery.param), forgery.secret)) {
    throw new InvalidAuthenticityToken();
  }
  return beforeFrom(c, filtersFor(declarations.filters, action), 0, body, cache);
}

const NO_FILTERS: readonly Filter[] = Object.freeze([]);

/** The filters that apply to `action`, in order (read per request: a class may declare more later). */
function filtersFor(declared: readonly Filter[], action: string): readonly Filter[] {
  if (declared.length === 0) return NO_FILTERS;
  const filters: Filter[] = [];
  for (const f of declared) if (appliesTo(f, action)) filters.push(f);
  return filters;
}

/** Before filters from `i` on; one that renders or redirects halts the chain. */
function beforeFrom(c: Controller, filters: readonly Filter[], i: number, body: () => unknown, cache: CacheRun | null): Step {
  for (; i < filters.length; i++) {
    if (filters[i].kind !== 'before') continue;
    const step = settle(c, runFilter(c, filters[i]));
    if (isThenable(step)) {
      const next = i + 1;
      return step.then(() => (c.performed ? undefined : beforeFrom(c, filters, next, body, cache)));
    }
    if (c.performed) return;
  }
  if (cache !== null) {
    // A hit renders, and ends the chain as a before filter that renders would.
    const looked = cache.lookup();
    if (isThenable(looked)) return looked.then(() => (c.performed ? undefined : actionOnward(c, filters, body, cache)));
    if (c.performed) return;
  }
  return actionOnward(c, filters, body, cache);
}

/** Around filters and the action, then the after filters; the cache run hears when all of it is done. */
function actionOnward(c: Controller, filters: readonly Filter[], body: () => unknown, cache: CacheRun | null): Step {
  const arounds = filters.length === 0 ? filters : filters.filter((f) => f.kind === 'around');
  const core = arounds.length === 0
    ? runAction(c, body)
    : arounds.reduceRight<() => Promise<void>>((inner, f) => () => runAround(c, f, inner), async () => runAction(c, body))();
  const after = isThenable(core) ? Promise.resolve(core).then(() => afterFrom(c, filters, 0)) : afterFrom(c, filters, 0);
  if (cache === null) return after;
  return thenOrNow(after, () => cache.complete());
}

function afterFrom(c: Controller, filters: readonly Filter[], i: number): Step {
  for (; i < filters.length; i++) {
    if (filters[i].kind !== 'after') continue;
    const step = settle(c, runFilter(c, filters[i]));
    if (isThenable(step)) {
      const next = i + 1;
      return step.then(() => afterFrom(c, filters, next));
    }
  }
}

/**
 * What `perform_action` runs, in Rails' order: the action method; else `method_missing` with the
 * action's name; else, when the default template exists and is no partial, nothing (the implicit
 * render that follows renders it: a template-only action); else `UnknownAction`. Decided only once
 * the before filters have let the request through, and raised inside the chain, so that a filter
 * (a login redirect, the forgery check) answers first and `rescue_from` can handle it; after filters
 * do not run, as for any action that raised.
 */
function actionBody(klass: ControllerClass, c: Controller, action: string): () => unknown {
  const self = c as unknown as Record<string, (...a: unknown[]) => unknown>;
  if (actionsOf(klass).has(action)) return () => self[action]();
  if (typeof self.method_missing === 'function') return () => self.method_missing(action);
  return () => thenOrNow(publicTemplateExists(c), (exists) => {
    // Its development page and log line show no trace: none is captured (a flood of made-up action names).
    if (!exists) throw untraced(() => new UnknownAction(klass.name, action));
  });
}

function runAction(c: Controller, body: () => unknown): Step {
  const step = settle(c, body());
  if (isThenable(step)) return Promise.resolve(step).then(() => implicitRender(c));
  return implicitRender(c);
}

// An action that neither rendered nor redirected renders its own template.
function implicitRender(c: Controller): Step {
  if (c.performed) return;
  c.render();
  return takePending(c) ?? undefined;
}

function runFilter(c: Controller, f: Filter): unknown {
  return typeof f.target === 'string' ? callMethod(c, f.target) : f.target(c);
}

async function runAround(c: Controller, f: Filter, inner: () => Promise<void>): Promise<void> {
  const proceed = async () => {
    await inner();
  };
  const result = typeof f.target === 'string' ? callMethod(c, f.target, proceed) : f.target(c, proceed);
  if (isThenable(result)) await result;
  const pending = takePending(c);
  if (pending) await pending;
}

function callMethod(c: Controller, name: string, ...args: unknown[]): unknown {
  const fn = (c as unknown as Record<string, unknown>)[name];
  if (typeof fn !== 'function') throw new TypeError(`${c.constructor.name} has no method ${name} (named as a filter)`);
  return (fn as (...a: unknown[]) => unknown).apply(c, args);
}

/** Runs the last matching `rescue_from` handler; false when none matches (a promise when the handler is asynchronous). */
function rescue(c: Controller, error: unknown): boolean | PromiseLike<boolean> {
  const rescues = declarationsOf(c.constructor).rescues;
  for (let i = rescues.length - 1; i >= 0; i--) {
    const { matcher, handler } = rescues[i];
    if (!matches(error, matcher)) continue;
    const result = typeof handler === 'string' ? callMethod(c, handler, error) : handler.call(c, error);
    return thenOrNow(result, () => true);
  }
  return false;
}

function matches(error: unknown, matcher: unknown): boolean {
  if (typeof matcher === 'function') return error instanceof (matcher as new () => unknown);
  if (typeof matcher !== 'string' || error === null || typeof error !== 'object') return false;
  for (let ctor = error.constructor; ctor && ctor !== Object; ctor = Object.getPrototypeOf(ctor)) {
    if (ctor.name === matcher) return true;
  }
  return false;
}
