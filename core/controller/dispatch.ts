/**
 * Running one action: forgery protection, before filters (a filter that
 * renders or redirects halts the chain), around filters, the action, the
 * implicit render of its template, after filters, and `rescue_from`
 * handlers for whatever any of them throws.
 */
import { InvalidAuthenticityToken, UnknownAction } from '../errors.ts';
import { Controller, type ControllerWiring } from './base.ts';
import { appliesTo, declarationsOf, type Filter } from './declarations.ts';
import { carriesValidToken } from './forgery.ts';

/** The request machine's forgery stage: whether this request needs an authenticity token at all. */
export interface ForgeryVerdict {
  /** A state-changing request whose Content-Type is not an exempt API type. */
  readonly required: boolean;
}

export interface DispatchOptions {
  readonly forgery: ForgeryVerdict;
  /** False turns forgery protection off for the whole app (the default in test mode). */
  readonly allow_forgery_protection: boolean;
}

type ControllerClass = typeof Controller;
const ACTIONS = new WeakMap<ControllerClass, Set<string>>();

function actionsOf(klass: ControllerClass): Set<string> {
  let actions = ACTIONS.get(klass);
  if (!actions) ACTIONS.set(klass, (actions = klass.action_methods()));
  return actions;
}

/** Whether a controller class answers `action` (an action method, or a `method_missing` catch-all). */
export function hasAction(klass: ControllerClass, action: string): boolean {
  return actionsOf(klass).has(action) || typeof (klass.prototype as unknown as Record<string, unknown>).method_missing === 'function';
}

/**
 * Runs `action` on a new instance of `klass`. Resolves with the controller once its response is complete;
 * rejects with whatever no `rescue_from` handled.
 */
export async function dispatch(klass: ControllerClass, wiring: ControllerWiring, options: DispatchOptions): Promise<Controller> {
  const c = new klass();
  c._wire(wiring);
  const action = wiring.action_name;
  const declarations = declarationsOf(klass);
  try {
    const body = actionBody(klass, c, action);
    const forgery = declarations.forgery;
    // The controller decides: only now are its protection and its token parameter known.
    if (forgery && options.allow_forgery_protection && appliesTo(forgery, action) && options.forgery.required && !carriesValidToken(c, forgery)) {
      throw new InvalidAuthenticityToken();
    }
    const filters = declarations.filters.filter((f) => appliesTo(f, action));
    let halted = false;
    for (const f of filters) {
      if (f.kind !== 'before') continue;
      await runFilter(c, f);
      if (c.performed) {
        halted = true;
        break;
      }
    }
    if (!halted) {
      const arounds = filters.filter((f) => f.kind === 'around');
      const run = arounds.reduceRight<() => Promise<void>>((inner, f) => () => runAround(c, f, inner), () => runAction(c, body));
      await run();
      for (const f of filters) if (f.kind === 'after') await runFilter(c, f);
    }
  } catch (error) {
    if (!(await rescue(c, error))) throw error;
  }
  if (c._pending) await c._pending;
  return c;
}

function actionBody(klass: ControllerClass, c: Controller, action: string): () => unknown {
  const self = c as unknown as Record<string, (...a: unknown[]) => unknown>;
  if (actionsOf(klass).has(action)) return () => self[action]();
  if (typeof self.method_missing === 'function') return () => self.method_missing(action);
  throw new UnknownAction(klass.name, action);
}

async function runAction(c: Controller, body: () => unknown): Promise<void> {
  const result = body();
  if (result instanceof Promise) await result;
  if (c._pending) await c._pending;
  // An action that neither rendered nor redirected renders its own template.
  if (!c.performed) {
    c.render();
    if (c._pending) await c._pending;
  }
}

async function runFilter(c: Controller, f: Filter): Promise<void> {
  const result = typeof f.target === 'string' ? callMethod(c, f.target) : f.target(c);
  if (result instanceof Promise) await result;
  if (c._pending) await c._pending;
}

async function runAround(c: Controller, f: Filter, inner: () => Promise<void>): Promise<void> {
  let ran = false;
  const proceed = async () => {
    ran = true;
    await inner();
  };
  const result = typeof f.target === 'string' ? callMethod(c, f.target, proceed) : f.target(c, proceed);
  if (result instanceof Promise) await result;
  // An around filter that never proceeds must have rendered, or the action is simply skipped.
  void ran;
}

function callMethod(c: Controller, name: string, ...args: unknown[]): unknown {
  const fn = (c as unknown as Record<string, unknown>)[name];
  if (typeof fn !== 'function') throw new TypeError(`${c.constructor.name} has no method ${name} (named as a filter)`);
  return (fn as (...a: unknown[]) => unknown).apply(c, args);
}

/** Runs the last matching `rescue_from` handler; false when none matches. */
async function rescue(c: Controller, error: unknown): Promise<boolean> {
  const rescues = declarationsOf(c.constructor).rescues;
  for (let i = rescues.length - 1; i >= 0; i--) {
    const { matcher, handler } = rescues[i];
    if (!matches(error, matcher)) continue;
    const result = typeof handler === 'string' ? callMethod(c, handler, error) : handler.call(c, error);
    if (result instanceof Promise) await result;
    return true;
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
