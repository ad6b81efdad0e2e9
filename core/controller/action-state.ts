/**
 * One request's state of a controller, kept off the instance (internal: the
 * package does not export it). `Controller` shows only Rails' API; what
 * dispatch, rendering, `respond_to` and the caches need to remember about
 * the request in flight (what it is wired to, whether it has rendered, a
 * template render still running, the format chosen, the action cache's run)
 * lives in an `ActionRun` held in a slot whose key is private to this
 * module, as Fastify keeps its own state under symbols. Templates, which read
 * a controller's properties by name, can never reach it.
 */
import type { Logger } from 'pino';
import { ActionControllerError, DoubleRenderError } from '../errors.ts';
import type { CacheRun } from '../caching/action-run.ts';
import type { Caching } from '../caching/caching.ts';
import type { CacheStatus } from '../caching/host.ts';
import type { CookieJar } from '../http/cookie-jar.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { Helpers, RouteSet } from '../routing/index.ts';
import type { SessionHandle } from '../session/session.ts';
import type { ViewResolver } from '../views/resolver.ts';
import { isThenable } from '../util.ts';

/** What `dispatch` wires into a controller for one request. */
export interface ControllerWiring {
  readonly request: Request;
  readonly response: Response;
  readonly routes: RouteSet;
  readonly helpers: Helpers;
  /** The request's session (loaded from the store on first use). */
  readonly session: SessionHandle;
  readonly cookies: CookieJar;
  readonly views: ViewResolver | null;
  readonly controller_path: string;
  readonly action_name: string;
  /** App-wide objects given to `createApp({ services })`: data stores, clients, configuration. */
  readonly services: Readonly<Record<string, unknown>>;
  /** The app's logger for this request: its lines carry the request's `reqId`. */
  readonly logger: Logger;
  /** The app's caches (`caches_page`, `caches_action`, expiry); absent when the controller runs outside an app. */
  readonly caching?: Caching;
  /** Records what the caches did for this request, for the `X-Cache` header and the log line. */
  cacheStatus?(status: CacheStatus): void;
  /**
   * Told of a render, redirect or head made after the response was complete: from work the action
   * started and did not wait for (a promise it dropped). Logged rather than thrown, since nothing is
   * left to catch it and an unhandled rejection would end the process.
   */
  renderedLate?(call: string): void;
}

/** The per-request state of one controller instance. */
export interface ActionRun {
  readonly wiring: ControllerWiring;
  /** Whether the action has rendered, redirected or sent a bare status: a second time is a `DoubleRenderError`. */
  performed: boolean;
  /** What caching does for this request, when the action declares a cache. */
  cache: CacheRun | null;
  /** What `render` and `respond_to` started and dispatch finishes: a template render, an asynchronous handler. */
  pending: Promise<void> | null;
  /** The format `respond_to` chose, if any; it names the template format. */
  format: string | null;
  /** Whether the response is complete (dispatch has handed it on): a render now comes too late to be sent. */
  done: boolean;
}

/** The public per-request properties of a controller that wiring sets (Rails' `request`, `params`, ...). */
interface Wired {
  request: Request;
  response: Response;
  params: Record<string, unknown>;
  action_name: string;
  controller_path: string;
  views: ViewResolver | null;
  services: Readonly<Record<string, unknown>>;
}

const RUN = Symbol('signalbox.controller.run');

type Holder = { [RUN]?: ActionRun };

/** Wires `c` to one request: its Rails properties, and a fresh `ActionRun` in the private slot. Called by dispatch before any filter runs. */
export function beginRun(c: object, wiring: ControllerWiring): ActionRun {
  const run: ActionRun = { wiring, performed: false, cache: null, pending: null, format: null, done: false };
  // Assigned rather than defined: the same shape for every instance, and a symbol key stays out of
  // Object.keys, JSON and the names templates may read.
  (c as Holder)[RUN] = run;
  const w = c as Wired;
  w.request = wiring.request;
  w.response = wiring.response;
  w.params = wiring.request.parameters;
  w.action_name = wiring.action_name;
  w.controller_path = wiring.controller_path;
  w.views = wiring.views;
  w.services = wiring.services;
  return run;
}

/** The request `c` is running; a controller made outside dispatch (`new PostsController()`) has none. */
export function runOf(c: object): ActionRun {
  const run = (c as Holder)[RUN];
  if (run === undefined) throw new ActionControllerError(`${c.constructor.name} is not answering a request: controllers are made and wired by the app`);
  return run;
}

/**
 * Marks the response as performed; a second render, redirect or head for one request throws
 * `DoubleRenderError`. False, with the wiring told, when the response is already complete: the call
 * came from work the action did not wait for, and is dropped.
 */
export function claimRender(c: object, call: string): boolean {
  const run = runOf(c);
  if (run.done) {
    run.wiring.renderedLate?.(call);
    return false;
  }
  if (run.performed) throw new DoubleRenderError();
  run.performed = true;
  return true;
}

/**
 * Runs `fill` as the request's one render, redirect or head, and keeps the template render it starts, if
 * any, for dispatch to finish. As in Rails, only a render that succeeds counts: one that throws, now or
 * when its template fails (an unknown status, a missing template, a value with no JSON), leaves the
 * response's status, type, Location and body as they were and the action unperformed, so a `rescue_from`
 * handler can still answer, and reports that error rather than a `DoubleRenderError` of its own.
 */
export function performRender(c: object, call: string, fill: () => void | PromiseLike<void>): void {
  if (!claimRender(c, call)) return;
  const run = runOf(c);
  const response = run.wiring.response;
  // What a render sets; headers set by the action around it stay.
  const { status, reason, body, content_type, charset, redirected_to, location } = response;
  const undo = (error: unknown): never => {
    Object.assign(response, { status, reason, body, content_type, charset, redirected_to, location });
    run.performed = false;
    throw error;
  };
  let result: void | PromiseLike<void>;
  try {
    result = fill();
  } catch (error) {
    return undo(error);
  }
  if (isThenable(result)) addPending(c, Promise.resolve(result).then(undefined, undo));
}

/**
 * Adds work dispatch must wait for before the response is complete: a template render, or an
 * asynchronous `respond_to` handler. Joined with what is already waiting, never in its place, so that
 * nothing started is left unwaited (and no failure of it unheard).
 */
export function addPending(c: object, work: Promise<void>): void {
  const run = runOf(c);
  run.pending = run.pending === null ? work : Promise.all([run.pending, work]).then(() => undefined);
}
