/**
 * The dispatch stage: finds the recognised controller and runs the action
 * (core/controller/dispatch.ts does the filter chain). An unknown
 * controller is a routing failure (404); an unknown action is the
 * controller's UnknownAction (404 unless rescued), raised past its before
 * filters.
 */
import type { Logger } from 'pino';
import { dispatch } from '../controller/dispatch.ts';
import { SessionHandle } from '../session/session.ts';
import { InvalidAuthenticityToken, InvalidResponseHeader, NotAcceptable, RoutingError, UnknownStatus } from '../errors.ts';
import { isUnroutedForgery } from './forgery.ts';
import { CookieJar } from '../http/cookie-jar.ts';
import type { Controller } from '../controller/base.ts';
import { runOf, type ControllerWiring } from '../controller/action-state.ts';
import type { Caching } from '../caching/caching.ts';
import type { CacheStatus } from '../caching/host.ts';
import type { Request } from '../http/request.ts';
import { unsafeHeader, type Response } from '../http/response.ts';
import type { Helpers, RouteSet } from '../routing/index.ts';
import type { ViewResolver } from '../views/resolver.ts';
import type { ControllerClass, RequestRun } from './run.ts';
import { isThenable, untraced } from '../util.ts';
import { logLateRender } from './log-lines.ts';
import { underscore } from '../routing/inflector.ts';

/**
 * The controller path a recognised route names. Rails found the controller as
 * `"#{params[:controller].camelize}Controller".constantize`, so a route could name it in any spelling that
 * camelizes to the class: from the top (`'/helpdesk/tickets'`, as a routes file does inside a namespace to
 * leave it, camelized to `::Helpdesk::Tickets`), as a constant (`'Admin::Dashboards'`), or with a camel-cased
 * part (`'EpisodeImages'` in an `admin/` namespace). `params[:controller]` kept the spelling; the class's
 * `controller_path` is its name underscored, which is the path the application registers it under.
 */
export function controllerPathOf(controllers: ReadonlyMap<string, unknown>, named: string): string {
  if (controllers.has(named)) return named;
  const constant = camelize(named).replace(/^::/, '');
  // A spelling that camelizes to no constant name (`'admin/'`, `'episode-images'`) made constantize raise.
  return CONSTANT_PATH.test(constant) ? underscore(constant) : named;
}

const CONSTANT_PATH = /^[A-Z]\w*(?:::[A-Z]\w*)*$/;

/** ActiveSupport's `camelize`: `/x` becomes `::X`, and a letter at the start or after `_` is upcased (ASCII, as in Ruby 1.8). */
function camelize(word: string): string {
  return word.replace(/\/(.?)/g, (_, c: string) => `::${asciiUpcase(c)}`).replace(/(?:^|_)(.)/g, (_, c: string) => asciiUpcase(c));
}

function asciiUpcase(c: string): string {
  return c >= 'a' && c <= 'z' ? c.toUpperCase() : c;
}

/** How many registered names a missing controller's error lists. */
const LISTED_CONTROLLERS = 12;

/** What a missing controller's error says of the registered ones: where a route's controller must be registered, and which are. */
function registeredControllers(controllers: ReadonlyMap<string, unknown>): string {
  const names = [...controllers.keys()].slice(0, LISTED_CONTROLLERS).map((name) => JSON.stringify(name));
  if (names.length === 0) return 'createApp({ controllers }) registers none';
  const more = controllers.size - names.length;
  return `createApp({ controllers }) registers ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** Runs the recognised action; a promise only when something in it is asynchronous. */
export function dispatchAction(run: RequestRun): void | Promise<void> {
  const request = run.request!;
  const params = run.match!.params;
  // Recognition gives strings; anything else a custom recognizer gives is spelt out.
  const controllers = run.app.controllers;
  const named = typeof params.controller === 'string' ? params.controller : String(params.controller);
  const action = typeof params.action === 'string' ? params.action : String(params.action ?? 'index');
  // Nearly every route names its controller as registered: one lookup; another spelling is read as Rails read it.
  let controllerPath = named;
  let klass = controllers.get(named);
  if (klass === undefined) klass = controllers.get((controllerPath = controllerPathOf(controllers, named)));
  if (!klass) {
    // A route matched but no controller answers it (the default route, say): as good as unrouted, so a
    // forged request learns no more here than from a path no route takes.
    if (isUnroutedForgery(run)) return Promise.reject(new InvalidAuthenticityToken());
    return Promise.reject(untraced(() => new RoutingError(`No controller ${JSON.stringify(controllerPath)} for ${request.path}: ${registeredControllers(controllers)}`)));
  }
  // An action the controller lacks is its to decide, as in Rails: its before filters run first (its
  // forgery check among them), then a template of that name may answer, else UnknownAction is raised
  // where its `rescue_from` can handle it (core/controller/dispatch.ts).
  // A format no MIME type is registered for cannot be rendered; refusing it here also keeps
  // arbitrary extensions from growing any per-format state. A bare `?format` (null) names none, like
  // an empty one: the Accept header decides, as everywhere else the parameter is read.
  const format = request.parameters.format;
  // A route that declares `:format => false` names none either: Rails read `params[:format] ? ... : accepts.first`.
  if (format !== undefined && format !== null && format !== '' && format !== false && (typeof format !== 'string' || request.format === null)) {
    // Untraced, as every refusal a client can ask for as often as it likes: a stack names only the framework.
    return Promise.reject(untraced(() => new NotAcceptable([], `Unknown format ${JSON.stringify(String(format).slice(0, 40))}`)));
  }
  const wiring = new RequestWiring(run, controllerPath, action);
  // An asynchronous session store (Redis) loads before the action; the cookie store loads on first use, as ever,
  // so with a synchronous store a request whose action never touches the session makes no handle for it.
  // Each step below makes its continuation only when it has something to wait for, as most requests do not.
  const prepared = run.app.sessions.asynchronous === true ? wiring.session.prepare() : undefined;
  if (isThenable(prepared)) return Promise.resolve(prepared).then(() => runAction(run, klass, wiring));
  return runAction(run, klass, wiring);
}

function runAction(run: RequestRun, klass: ControllerClass, wiring: RequestWiring): void | Promise<void> {
  const done = dispatch(klass, wiring, {
    forgery: run.forgery,
    allow_forgery_protection: run.app.config.allow_forgery_protection,
    consider_all_requests_local: run.app.config.consider_all_requests_local,
  });
  if (isThenable(done)) return Promise.resolve(done).then((controller) => finish(run, controller, wiring));
  return finish(run, done, wiring);
}

// The caches store the response only now: whether it sets a cookie is known once the session is committed.
function finish(run: RequestRun, controller: Controller, wiring: RequestWiring): void | Promise<void> {
  run.controller = controller;
  // A session no one made was never loaded: there is nothing to commit.
  const committed = wiring.madeSession?.commit(run.response!);
  if (isThenable(committed)) return Promise.resolve(committed).then(() => afterCommit(run, controller));
  return afterCommit(run, controller);
}

function afterCommit(run: RequestRun, controller: Controller): void | Promise<void> {
  // A header no transport could write (a parameter with a newline copied into it, say) fails here, as the action's own error.
  const unsafe = unsafeHeader(run.response!);
  if (unsafe !== null) return Promise.reject(new InvalidResponseHeader(unsafe));
  // Nor a status line no transport could write: `response.status` set by hand to 99999, say (render and head check theirs).
  const status = run.response!.status;
  if (!(Number.isInteger(status) && status >= 100 && status <= 999)) return Promise.reject(new UnknownStatus(status));
  return runOf(controller).cache?.store();
}

/**
 * What an action is wired to. The route helpers are bound on first use: most actions never
 * ask for them, and binding needs the host and protocol worked out from the headers. The
 * session handle too is made when first asked for (by the action, or by dispatch for a store
 * that loads asynchronously); the run then records it, for the error pages.
 */
class RequestWiring implements ControllerWiring {
  readonly request: Request;
  readonly response: Response;
  readonly routes: RouteSet;
  readonly views: ViewResolver | null;
  readonly services: Readonly<Record<string, unknown>>;
  #helpers: Helpers | null = null;
  #cookies: CookieJar | null = null;
  #session: SessionHandle | null = null;
  #logger: Logger | null = null;
  readonly #run: RequestRun;

  constructor(run: RequestRun, readonly controller_path: string, readonly action_name: string) {
    this.#run = run;
    const request = run.request!;
    this.request = request;
    this.response = run.response!;
    this.routes = run.app.routes;
    this.views = run.app.views;
    this.services = run.app.services;
  }

  get session(): SessionHandle {
    if (this.#session === null) {
      this.#session = new SessionHandle(this.#run.app.sessions, this.request);
      this.#run.session = this.#session;
    }
    return this.#session;
  }

  /** The session handle, if anything has asked for it. */
  get madeSession(): SessionHandle | null {
    return this.#session;
  }

  /** A child of the app's logger, made on first use: most actions log nothing of their own. */
  get logger(): Logger {
    return (this.#logger ??= this.#run.app.log.child({ reqId: this.#run.id }));
  }

  get cookies(): CookieJar {
    const request = this.request;
    return (this.#cookies ??= new CookieJar(() => request.cookies, this.response));
  }

  get caching(): Caching {
    return this.#run.app.caching;
  }

  cacheStatus(status: CacheStatus): void {
    this.#run.cache = status;
  }

  renderedLate(call: string): void {
    logLateRender(this.#run, call);
  }

  get helpers(): Helpers {
    return (this.#helpers ??= this.#bindHelpers());
  }

  #bindHelpers(): Helpers {
    const request = this.request;
    // The app's mount point may be set in its config rather than in draw(): links must carry the root requests are read under.
    const root = this.#run.app.config.relative_url_root;
    const where = root === this.routes.config.relative_url_root
      ? { host: request.host_with_port, protocol: request.protocol }
      : { host: request.host_with_port, protocol: request.protocol, relative_url_root: root };
    return this.routes.helpers(where, request.path_parameters, request.parameters);
  }
}
