/**
 * `Controller`: the base class of every controller. Actions are methods;
 * class-level declarations (filters, rescue_from, protect_from_forgery,
 * verify, hide_action, layout) are static calls, usually in a static block:
 *
 * @example
 *   class PostsController extends Controller {
 *     static { this.before_filter('find_post', { only: ['show'] }) }
 *     find_post() { this.post = Post.find(this.params.id) }
 *     show() { this.respond_to({ html: true, json: () => this.render({ json: this.post }) }) }
 *   }
 *
 * The instance is wired to one request by `dispatch`; nothing here keeps
 * state between requests. What the framework remembers about that request
 * (core/controller/action-state.ts) is kept off the instance, so a
 * controller's own names are Rails' API and the application's.
 */
import type { Logger } from 'pino';
import { ActionControllerError, ArgumentError, RedirectBackError, UnsafeUrlOptions } from '../errors.ts';
import { checkOptionNames, shownValue } from '../options.ts';
import type { Request } from '../http/request.ts';
import { contentTypeHeader, type Response } from '../http/response.ts';
import type { CookieJar } from '../http/cookie-jar.ts';
import { headOptionHeaderName, interpretStatus, statusCode } from '../http/status.ts';
import type { Helpers } from '../routing/index.ts';
import { isPlainObject, isThenable, thenOrNow } from '../util.ts';
import type { ViewResolver } from '../views/resolver.ts';
import {
  declarationsOf, splitFilterArgs, actionScope, skipping, FORGERY_FILTER, FORGERY_OPTIONS, VERIFY_OPTIONS,
  type ActionCacheOptionsFor, type AroundTarget, type Declaring, type FilterArguments, type FilterKind, type FilterTarget,
  type ForgeryOptions, type LayoutChooser, type LayoutConditions, type MethodName, type PageCacheOptionsFor, type RescueDeclaration, type RescueHandler, type RescueMatcher, type VerifyOptions,
} from './declarations.ts';
import type { Flash } from '../session/flash.ts';
import type { Session } from '../session/store.ts';
import type { Params } from '../request/param-values.ts';
import { absoluteLocation, assertTarget, redirectBody, relativeLocation } from './redirect.ts';
import { respondTo, type RespondBlock, type RespondHandlers } from './respond-to.ts';
import { RENDER_OPTIONS, renderBody, type RenderOptions } from './render.ts';
import { sendData, sendFile, type SendDataOptions, type SendFileOptions, type SendTarget } from './send-file.ts';
import { verifyAction } from './verification.ts';
import { sessionToken } from '../session/token.ts';
import { localRequest } from '../request/env.ts';
import { authorizationHeader, decodeCredentials, quotedRealm } from './http-basic.ts';
import { sumOf, type CacheTarget } from '../caching/caching.ts';
import { cacheDeclaration } from '../caching/declarations.ts';
import type { CacheWriteOptions, MaybePromise } from '../caching/store.ts';

/** A fragment's name: a string, or a route hash (this controller unless it names another). */
export type FragmentName = string | Readonly<Record<string, unknown>>;
import { addPending, performRender, runOf } from './action-state.ts';

export type { ControllerWiring } from './action-state.ts';


export type RenderArgument = RenderOptions | string | undefined;

// `method_missing` is the catch-all for unknown actions, never an action itself.
const NOT_ACTIONS = new Set(['constructor', 'method_missing']);

/**
 * Names public in every controller (Controller's own API and Object's), read once the class below is
 * defined. As in Rails, where Base's public methods are hidden actions, a subclass that overrides one
 * (`render`, `toString`) does not make it an action.
 */
let INHERITED_NAMES: ReadonlySet<string> | null = null;
const RESCUE_OPTIONS: ReadonlySet<string> = new Set(['with']);
const SCOPE_NAMES: ReadonlySet<string> = new Set(['only', 'except']);

/** `{ only: 'index' }` as `{ only: ['index'] }`, each name a string, as Rails' `normalize_conditions`; null for none given. */
function normaliseConditions(conditions: { readonly only?: unknown; readonly except?: unknown } | undefined | null): LayoutConditions | null {
  if (conditions === undefined || conditions === null) return null;
  const out: { only?: string[]; except?: string[] } = {};
  for (const key of ['only', 'except'] as const) {
    const value = conditions[key];
    if (value === undefined) continue;
    const list = Array.isArray(value) ? value : [value];
    for (const name of list) {
      if (typeof name !== 'string') throw new ArgumentError(`layout's ${key} takes action names, got ${shownValue(name)}`);
    }
    out[key] = list as string[];
  }
  return Object.keys(out).length === 0 ? null : out;
}

// The per-request properties dispatch wires in: a method of one of these names would be shadowed by it.
const REQUEST_STATE = ['request', 'response', 'params', 'action_name', 'controller_path', 'views', 'services'];

/**
 * What a controller (and every controller below it) declares about its requests, as `Controller`'s
 * type argument: each key optional, each a declaration the framework does not check at run time.
 * - `params`: parameters its routes always give, such as `{ id: string }` for a member route (path
 *   segments are strings; a glob segment is a `string[]`). The rest stay `ParamValue`s.
 * - `session`: the keys the application keeps in the session, each a `SessionValue` (`{ user_id?: number }`).
 * - `services`: what `createApp({ services })` was given (`{ db: Database }`).
 * @example
 *   class ApplicationController extends Controller<{ services: { store: Store }; session: { user_id?: number } }> {}
 *   class PostsController extends ApplicationController {
 *     show() { this.post = this.services.store.find(this.params.id) }
 *   }
 */
export interface ControllerShape {
  readonly params?: object;
  readonly session?: object;
  readonly services?: object;
}

/** What `Shape` declares under `key`, or nothing (`{}`) when it declares nothing there. */
export type Declared<Shape extends ControllerShape, Key extends keyof ControllerShape> = NonNullable<Shape[Key]>;

/**
 * A controller class as the app holds it: any subclass of `Controller`, whatever its type argument
 * (a generic class's own `typeof` would ask each subclass to fit every possible argument).
 */
export type ControllerClass = typeof Controller<{}>;

export class Controller<Shape extends ControllerShape = {}> {
  // ---- class-level declarations -------------------------------------------------------------

  /**
   * Runs the named methods (or functions) before the action; one that renders or redirects halts the chain.
   * Names are checked against the controller's methods when it compiles.
   * @example static { this.before_filter('find_post', { only: ['show', 'edit'] }) }
   */
  static before_filter<C>(this: Declaring<C>, ...args: FilterArguments<FilterTarget<C>>): void {
    addFilters(this, 'before', args, false);
  }

  /** Runs a before filter ahead of those already declared. */
  static prepend_before_filter<C>(this: Declaring<C>, ...args: FilterArguments<FilterTarget<C>>): void {
    addFilters(this, 'before', args, true);
  }

  /** Runs after the action (not when a before filter halted the chain). */
  static after_filter<C>(this: Declaring<C>, ...args: FilterArguments<FilterTarget<C>>): void {
    addFilters(this, 'after', args, false);
  }

  /** Wraps the action: the filter gets `run`, and the action happens when it calls it. */
  static around_filter<C>(this: Declaring<C>, ...args: FilterArguments<AroundTarget<C>>): void {
    addFilters(this, 'around', args, false);
  }

  /**
   * Removes inherited filters by method name, for every action or, with `{ only }` or `{ except }`,
   * for those actions. `verify_authenticity_token` names the check `protect_from_forgery` installs.
   * @example static { this.skip_before_filter('verify_authenticity_token', { only: ['create'] }) }
   */
  static skip_filter<C>(this: Declaring<C>, ...args: FilterArguments<MethodName<C> | typeof FORGERY_FILTER>): void {
    skipFilters(this, args, 'skip_filter');
  }

  static skip_before_filter<C>(this: Declaring<C>, ...args: FilterArguments<MethodName<C> | typeof FORGERY_FILTER>): void {
    skipFilters(this, args, 'skip_before_filter');
  }

  static skip_after_filter<C>(this: Declaring<C>, ...args: FilterArguments<MethodName<C>>): void {
    skipFilters(this, args, 'skip_after_filter');
  }

  /**
   * Handles an error class (or class name) raised by an action or filter; the last matching declaration
   * wins. The handler is a method name (checked when the controller compiles) or a function called on
   * the controller with the error.
   * @example static { this.rescue_from(RecordNotFound, 'not_found') }
   */
  static rescue_from<C, E>(this: Declaring<C>, matcher: RescueMatcher<E>, handler: RescueHandler<C, E> | { readonly with: RescueHandler<C, E> }): void;
  static rescue_from<C>(this: Declaring<C>, ...args: [RescueMatcher, RescueMatcher, ...RescueMatcher[], RescueHandler<C> | { readonly with: RescueHandler<C> }]): void;
  static rescue_from(this: object, ...args: unknown[]): void {
    const last = args[args.length - 1];
    if (typeof last === 'object' && last !== null) checkOptionNames('rescue_from', last, RESCUE_OPTIONS);
    const handler = (typeof last === 'object' && last !== null && 'with' in last ? last.with : last) as RescueDeclaration['handler'];
    const matchers = args.slice(0, -1) as RescueMatcher[];
    if (matchers.length === 0) throw new ActionControllerError('rescue_from needs an error class and a handler');
    if (typeof handler !== 'string' && typeof handler !== 'function') throw new ArgumentError(`rescue_from's handler is a method name or a function, got ${typeof handler}`);
    for (const m of matchers) {
      if (typeof m !== 'string' && typeof m !== 'function') throw new ArgumentError(`rescue_from takes error classes (or their names), got ${m === null ? 'null' : typeof m}`);
    }
    const d = declarationsOf(this);
    for (const matcher of matchers) d.rescues.push({ matcher, handler });
    if (typeof handler === 'string') d.hidden.add(handler);
  }

  /** Requires the session's authenticity token on state-changing requests to these actions. */
  static protect_from_forgery(options: ForgeryOptions = {}): void {
    checkOptionNames('protect_from_forgery', options, FORGERY_OPTIONS);
    const scope = actionScope(options);
    declarationsOf(this).forgery = { ...options, ...scope };
  }

  /** Declares a prerequisite (params, session keys, method, xhr) checked before the action. */
  static verify(options: VerifyOptions): void {
    if (options !== undefined) checkOptionNames('verify', options, VERIFY_OPTIONS);
    // What a failure renders is checked now too, not on the first request that fails.
    if (options?.render !== undefined && typeof options.render === 'object') checkOptionNames("verify's render", options.render, RENDER_OPTIONS);
    const scope = actionScope(options);
    const checked = { ...options };
    declarationsOf(this).filters.push({ kind: 'before', target: (c: object) => verifyAction(c as Controller, checked), ...scope });
  }

  /** Methods that are not actions even though they are public. */
  static hide_action<C>(this: Declaring<C>, ...names: MethodName<C>[]): void {
    const d = declarationsOf(this);
    for (const name of names) d.hidden.add(name);
  }

  /**
   * The layout for this controller's templates: a name under `layouts/`, false for none, or a function
   * of the controller that chooses one per request (Rails' `layout proc { |c| ... }`; for `layout :method`,
   * `(c) => c.method()`), answering a name, or false or null for none. `only` and `except` name the
   * actions that get it: the others render without a layout, unless `render` names one.
   * @example static { this.layout('admin', { except: ['login'] }) }
   * @example static { this.layout((c) => (c.request.xhr ? false : 'standard')) }
   */
  static layout<C>(this: Declaring<C>, name: string | false | LayoutChooser<C>, conditions?: { readonly only?: string | readonly string[]; readonly except?: string | readonly string[] }): void {
    if (name !== false && typeof name !== 'function' && (typeof name !== 'string' || name === '')) {
      throw new ArgumentError(`layout takes a layout's name, false for none, or a function choosing one, got ${shownValue(name)}`);
    }
    if (conditions !== undefined && conditions !== null) {
      if (typeof conditions !== 'object') throw new ArgumentError(`layout's conditions are { only } or { except }, got ${shownValue(conditions)}`);
      checkOptionNames('layout', conditions, SCOPE_NAMES);
    }
    const d = declarationsOf(this);
    d.layout = name;
    // Rails kept the conditions in an inheritable hash that each `layout` call merges into.
    const given = normaliseConditions(conditions);
    if (given !== null) d.layoutConditions = { ...d.layoutConditions, ...given };
  }

  /**
   * Writes the first 200 GET response of these actions under the app's page cache directory
   * (`/posts/1` → `posts/1.html`), from where the transports answer later requests before the app runs.
   * Only for pages that are the same for every visitor. `if` decides per request.
   * @example static { this.caches_page('index') }
   */
  static caches_page<C>(this: Declaring<C>, ...args: (string | PageCacheOptionsFor<C>)[]): void {
    declarationsOf(this).caches.push(cacheDeclaration('page', args));
  }

  /**
   * Keeps the 200 GET responses of these actions in the app's cache store, keyed by host, path and
   * format, and answers from there after the before filters have run (authentication still applies).
   * @example static { this.caches_action('show', { expires_in: 600, if: (c) => c.flash.empty }) }
   */
  static caches_action<C>(this: Declaring<C>, ...args: (string | ActionCacheOptionsFor<C>)[]): void {
    declarationsOf(this).caches.push(cacheDeclaration('action', args));
  }

  // ---- per-request state (wired by dispatch) ------------------------------------------------

  request!: Request;
  response!: Response;
  /**
   * The request's parameters: path parameters (strings; a glob's are a `string[]`), the query string
   * and the body, as their parsers give them (strings and nested hashes and arrays from forms,
   * `UploadedFile`s from multipart, typed values from JSON and XML), with what the `params` of
   * `Shape` declares.
   */
  params!: Params & Declared<Shape, 'params'>;
  action_name!: string;
  controller_path!: string;
  views!: ViewResolver | null;
  /** App-wide objects given to `createApp({ services })` (a data store, say): `unknown` until the `services` of `Shape` declares them. */
  services!: Readonly<Record<string, unknown>> & Readonly<Declared<Shape, 'services'>>;

  /**
   * The response's headers as Rails 2.1's controller `headers` hash: `this.headers['Content-Type'] = ...`
   * (kept through the render that follows, as `response.set_header` keeps it), `this.headers['X-Count'] = '5'`,
   * `delete this.headers['ETag']`; read by any case, the Content-Type as it will be sent.
   */
  get headers(): Record<string, string | string[] | undefined> {
    return headersOf(this.response);
  }

  /** The request's cookies to read, and the response's to write (`this.cookies.set('theme', 'dark')`). */
  get cookies(): CookieJar {
    return runOf(this).wiring.cookies;
  }

  /** Named route helpers (`this.routes.post_path(post)`), `url_for` and polymorphic helpers, bound to this request. */
  get routes(): Helpers {
    return runOf(this).wiring.helpers;
  }

  /**
   * The session: a plain object kept between requests by the app's session store, holding what
   * JSON holds (`SessionValue`s), with the keys the `session` of `Shape` declares.
   */
  get session(): Session & Declared<Shape, 'session'> {
    // The stores keep what JSON keeps; the declared keys are the application's word for what it wrote.
    return runOf(this).wiring.session.data as Session & Declared<Shape, 'session'>;
  }

  /** The app's logger (pino), its lines carrying this request's `reqId`: `this.logger.info({ order: id }, 'order placed')`. */
  get logger(): Logger {
    return runOf(this).wiring.logger;
  }

  /** Messages for the next request (`flash.set('notice', ...)`), or this one (`flash.now`). */
  get flash(): Flash {
    return runOf(this).wiring.session.flash;
  }

  /** Empties the session; the response starts a new one. */
  reset_session(): void {
    runOf(this).wiring.session.reset();
  }

  /** The controller's name without its module: `admin/posts` -> `posts`. */
  get controller_name(): string {
    return this.controller_path.slice(this.controller_path.lastIndexOf('/') + 1);
  }

  /** True once the action has rendered, redirected or sent a bare status. */
  get performed(): boolean {
    return runOf(this).performed;
  }

  // ---- responses ----------------------------------------------------------------------------

  /**
   * Renders a response body: `{ text }`, `{ json }`, `{ xml }`, `{ html }`, `{ js }`, `{ nothing: true }`,
   * `{ action }`, `{ template }` or `{ partial }` (alone, without a layout), with `status`, `location`, `content_type`, `layout`.
   * A string names an action's template.
   * @example this.render({ json: post, status: 'created', location: post })
   */
  render(options: RenderArgument = {}): void {
    const opts: RenderOptions = typeof options === 'string' ? { action: options } : renderOptions(options);
    performRender(this, 'render', () => {
      if (opts.status !== undefined) setStatus(this.response, opts.status);
      if (opts.location !== undefined && opts.location !== null) {
        this.response.location = expandLocation(this, opts.location);
      }
      return renderBody(this, opts);
    });
  }

  /**
   * A response with no body: a status and optional headers (`location` takes a record too).
   * @example this.head('created', { location: post })
   * @example this.head({ status: 'forbidden', x_reason: 'locked' })
   */
  head(status: number | string | Record<string, unknown> = 'ok', options: Record<string, unknown> = {}): void {
    let opts = options;
    if (typeof status === 'object') {
      // `head({ status: 'forbidden', location: ... })`, as Rails takes `head :status => ...`.
      const { status: given = 'ok', ...rest } = status;
      opts = rest;
      status = given as number | string;
    }
    performRender(this, 'head', () => {
      setStatus(this.response, status);
      for (const [key, value] of Object.entries(opts)) {
        // A null value adds no header, `location` included, as `render`'s null location adds none.
        if (value === undefined || value === null) continue;
        if (key === 'location') this.response.location = expandLocation(this, value);
        else this.response.set_header(headOptionHeaderName(key), String(value));
      }
      this.response.body = '';
    });
  }

  /**
   * Redirects to a URL, a path, a route hash, a record (or `[parent, child]`), or `'back'`.
   * A `status` inside a route hash is the response status, not a query parameter, and wins over the second argument's.
   * @example this.redirect_to(post, { status: 'see_other' })
   * @example this.redirect_to({ action: 'show', id: 1, status: 301 })
   */
  redirect_to(target: unknown, options: { status?: number | string } = {}): void {
    assertTarget(target);
    let status = options.status ?? 302;
    if (isPlainObject(target) && target.status !== undefined && target.status !== null && target.status !== false) {
      // Checked before the copy: a hash from the request's own parameters can name any host.
      if (isRequestParams(this.params, target)) throw new UnsafeUrlOptions();
      const { status: given, ...rest } = target;
      status = given as number | string;
      target = rest;
    }
    let location: string;
    if (target === 'back' || target === ':back') {
      const referer = this.request.referer;
      if (!referer) throw new RedirectBackError();
      location = absoluteLocation(referer, this.request.protocol, this.request.host_with_port);
    } else if (typeof target === 'string') {
      location = absoluteLocation(target, this.request.protocol, this.request.host_with_port);
    } else {
      location = absoluteLocation(this.url_for(target), this.request.protocol, this.request.host_with_port);
    }
    performRender(this, 'redirect', () => {
      setStatus(this.response, status);
      this.response.location = location;
      this.response.redirected_to = target;
      this.response.content_type ??= 'text/html';
      this.response.body = redirectBody(location);
    });
  }

  /**
   * Lets browsers and shared caches keep the response for `seconds`: `Cache-Control: max-age=<seconds>, private`
   * (`public: true` for `public`, for shared caches too), with any other directive given (`{ 'max-stale': 60 }`,
   * `{ 'must-revalidate': true }`). Directives already set stay, but for `no-cache` and those set again.
   * @example this.expires_in(20 * 60)
   * @example this.expires_in(3 * 3600, { public: true })
   */
  expires_in(seconds: number, options: Readonly<Record<string, string | number | boolean>> = {}): void {
    this.response.set_header('Cache-Control', expiresIn(this.response.header('Cache-Control'), seconds, options));
  }

  /** `Cache-Control: no-cache`: nothing keeps the response without asking again. */
  expires_now(): void {
    this.response.set_header('Cache-Control', 'no-cache');
  }

  /**
   * Rails' `local_request?`: the request came from this machine (its peer and, behind a trusted proxy,
   * its client are both loopback addresses), as a call through `app.handle` with no peer does.
   */
  get local_request(): boolean {
    return this.request.remoteAddress === '' || localRequest(this.request.env);
  }

  /**
   * Answers an error that no `rescue_from` handled, for a request that is not shown the development
   * error page (any request in production), as Rails 2.1's `rescue_action_in_public` did: override it
   * to answer with a page of your own (`render({ file: 'public/404.html', status: 404 })`, a redirect);
   * what it throws (this default rethrows the error) is answered by the app's error page, as Rails'
   * `super` rendered `public/500.html`.
   * @example
   *   rescue_action_in_public(error: unknown) {
   *     if (error instanceof RecordNotFound) this.render({ file: 'public/404.html', status: 404 });
   *     else super.rescue_action_in_public(error);
   *   }
   */
  rescue_action_in_public(error: unknown): void | PromiseLike<void> {
    throw error;
  }

  /**
   * Sends bytes as a download (or shown inline): a CSV export, a generated PDF. `type` is a content type or a
   * registered format's name (`csv`); the default is `application/octet-stream`, as a download.
   * @example this.send_data(csv, { filename: 'posts.csv', type: 'text/csv' })
   * @example this.send_data(png, { type: 'image/png', disposition: 'inline' })
   */
  send_data(data: string | Uint8Array, options: SendDataOptions = {}): void {
    const fill = sendData(this.#sendTarget(), data, options);
    performRender(this, 'send_data', fill);
  }

  /**
   * Sends the file at `path` as a download (or shown inline), from disk as the transport reads it, with its
   * base name as the file name. A path that is no file the process can read is a `MissingFile` (500). A path
   * taken from the request can name any file the process may read: decide in the action which it sends.
   * @example this.send_file(`exports/${report.id}.pdf`, { type: 'application/pdf' })
   */
  send_file(path: string, options: SendFileOptions = {}): void {
    const fill = sendFile(this.#sendTarget(), path, options);
    performRender(this, 'send_file', fill);
  }

  #sendTarget(): SendTarget {
    return { response: this.response, mime: this.request.mime, setStatus: (status) => setStatus(this.response, status) };
  }

  /**
   * Chooses a representation by the request's format or Accept list, in declaration order.
   * Throws `NotAcceptable` (406) when nothing declared is acceptable.
   * @example this.respond_to({ html: true, xml: () => this.render({ xml: posts }) })
   * @example this.respond_to((format) => { format.html(); format.any('js', 'json', () => ...) })
   */
  respond_to(handlers: RespondHandlers | RespondBlock): void {
    respondTo(this, handlers);
  }

  /** A URL for this request's context (full URL by default, as in controllers). */
  url_for(target: unknown = {}, options: Record<string, unknown> = {}): string {
    if (isPlainObject(target)) {
      if (isRequestParams(this.params, target)) throw new UnsafeUrlOptions();
      return this.routes.url_for({ only_path: false, ...target }, options);
    }
    return this.routes.url_for(target, options);
  }

  // ---- caching ---------------------------------------------------------------------------------

  /**
   * Removes a cached page: a path (`/posts` in every format, `/posts.json` alone) or a route hash,
   * read as `url_for` reads it (what it leaves out is this request's; `action` may be a list). How
   * many files went.
   * @example this.expire_page({ action: 'index' })
   */
  expire_page(target: CacheTarget): number {
    const caching = runOf(this).wiring.caching;
    if (caching === undefined) return 0;
    return cachePaths(this, target).reduce((removed, path) => removed + caching.expire_page(path), 0);
  }

  /**
   * Removes an action's cached responses in every format: a path or a route hash, read as
   * `url_for` reads it (what it leaves out is this request's; `action` may be a list). A promise when the cache store is asynchronous: return it from a
   * filter, or await it, before the request ends.
   * @example this.expire_action({ action: 'show', id: this.post.id })
   */
  expire_action(target: CacheTarget): MaybePromise<number> {
    const caching = runOf(this).wiring.caching;
    if (caching === undefined) return 0;
    return sumOf(cachePaths(this, target).map((path) => caching.expire_action(path)));
  }

  /**
   * Removes cached fragments and action cache entries: by name (`write_fragment`'s, or a
   * `cache_path`'s, every format of it), by route hash (its host and path, as Rails keys it), or by
   * a RegExp over whole keys (`views/...`). A promise when the store is asynchronous.
   */
  expire_fragment(key: FragmentName | RegExp): MaybePromise<number> {
    return runOf(this).wiring.caching?.expire_fragment(key instanceof RegExp ? key : fragmentName(this, key)) ?? 0;
  }

  /**
   * A cached fragment, or undefined (Rails' `read_fragment`): by name, or by route hash (keyed by
   * its host and path). A promise when the store is asynchronous.
   * @example const sidebar = await this.read_fragment('sidebar')
   */
  read_fragment(name: FragmentName): MaybePromise<string | undefined> {
    return runOf(this).wiring.caching?.read_fragment(fragmentName(this, name));
  }

  /** Caches rendered content under a fragment name (Rails' `write_fragment`); gives back the content. */
  write_fragment(name: FragmentName, content: string, options?: CacheWriteOptions): MaybePromise<string> {
    return runOf(this).wiring.caching?.write_fragment(fragmentName(this, name), content, options) ?? content;
  }

  /** Whether a fragment is cached (Rails' `fragment_exist?`). */
  fragment_exist(name: FragmentName): MaybePromise<boolean> {
    return runOf(this).wiring.caching?.fragment_exist(fragmentName(this, name)) ?? false;
  }

  /** The token forms must send back on state-changing requests (hidden field `authenticity_token`, or the X-CSRF-Token header). */
  form_authenticity_token(): string {
    return sessionToken(runOf(this).wiring.session, declarationsOf(this.constructor).forgery?.secret);
  }

  // ---- HTTP Basic authentication ------------------------------------------------------------

  /**
   * Calls `check(user, password)` with the request's Basic credentials; false when it carries none.
   * @example const ok = await this.authenticate_with_http_basic((u, p) => u === 'admin' && secureCompare(p, secret))
   */
  authenticate_with_http_basic(check: (user: string, password: string) => boolean | PromiseLike<boolean>): boolean | PromiseLike<boolean> {
    const credentials = decodeCredentials(authorizationHeader(this.request.headers));
    return credentials === null ? false : check(credentials[0], credentials[1]);
  }

  /**
   * Like `authenticate_with_http_basic`, but answers 401 with a `WWW-Authenticate` challenge when the check fails.
   * @example static { this.before_filter((c) => c.authenticate_or_request_with_http_basic('Admin', (u, p) => ...)) }
   */
  authenticate_or_request_with_http_basic(realm: string, check: (user: string, password: string) => boolean | PromiseLike<boolean>): boolean | Promise<boolean> {
    const result = this.authenticate_with_http_basic(check);
    const decide = (ok: boolean) => {
      if (!ok) this.request_http_basic_authentication(realm);
      return ok;
    };
    const decided = thenOrNow(result, decide);
    // A filter that does not return the promise (`(c) => { c.authenticate_or_request_with_http_basic(...) }`)
    // must still halt the chain: the decision is work the chain waits for, as it waits for a template
    // render, so the action never runs ahead of a refusal, and a failure of it is the request's.
    if (isThenable(decided)) addPending(this, decided.then(() => undefined));
    return decided;
  }

  /** Answers 401 asking for Basic credentials in `realm`. */
  request_http_basic_authentication(realm = 'Application'): void {
    this.response.set_header('WWW-Authenticate', `Basic realm="${quotedRealm(realm)}"`);
    this.render({ text: 'HTTP Basic: Access denied.\n', status: 401 });
  }

  /**
   * The actions of this controller: its public methods below `Controller`, except those hidden with
   * `hide_action`, those named with a leading `_`, `#private` ones (never properties at all), and any
   * name `Controller` or `Object` already has. TypeScript's `private` is compile-time only: such a
   * method is public at run time, so hide it, prefix it with `_`, or make it `#private`.
   */
  static action_methods(): Set<string> {
    const names = new Set<string>();
    const hidden = declarationsOf(this).hidden;
    const inherited = (INHERITED_NAMES ??= new Set([...Object.getOwnPropertyNames(Controller.prototype), ...Object.getOwnPropertyNames(Object.prototype), ...REQUEST_STATE]));
    for (let proto = this.prototype; proto && proto !== Controller.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (NOT_ACTIONS.has(name) || name.startsWith('_') || hidden.has(name) || inherited.has(name)) continue;
        const desc = Object.getOwnPropertyDescriptor(proto, name);
        if (desc && typeof desc.value === 'function') names.add(name);
      }
    }
    return names;
  }
}

/**
 * `render`'s options, checked by name: a misspelt option (`txt`) or one Signalbox does not take (Rails'
 * `file`, `inline`, `partial`) would otherwise be ignored, and the render fall through to the action's
 * template and report that missing. Null renders the template, as Rails' `render(nil)` does.
 */
function renderOptions(options: unknown): RenderOptions {
  if (options === null || options === undefined) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new ArgumentError(`render takes an options object or an action's name, not ${shownValue(options)}`);
  checkOptionNames('render', options, RENDER_OPTIONS);
  return options as RenderOptions;
}

const HEADER_VIEWS = new WeakMap<Response, Record<string, string | string[] | undefined>>();

/**
 * A response's headers as a hash whose writes go through `set_header` and `delete_header`: written to
 * `response.headers` directly, a Content-Type would be overwritten by the type the respond stage sends.
 */
function headersOf(response: Response): Record<string, string | string[] | undefined> {
  let view = HEADER_VIEWS.get(response);
  if (view !== undefined) return view;
  const read = (name: string) => {
    if (name.toLowerCase() !== 'content-type') return response.header(name);
    return response.content_type === null ? undefined : contentTypeHeader(response.content_type, response.charset);
  };
  view = new Proxy(response.headers as Record<string, string | string[] | undefined>, {
    get: (_, name) => (typeof name === 'string' ? read(name) : undefined),
    set: (_, name, value) => {
      if (typeof name !== 'string') return false;
      if (value === undefined || value === null) response.delete_header(name);
      else response.set_header(name, Array.isArray(value) ? value.map(String) : String(value));
      return true;
    },
    deleteProperty: (_, name) => {
      if (typeof name === 'string') response.delete_header(name);
      return true;
    },
    has: (_, name) => typeof name === 'string' && read(name) !== undefined,
  });
  HEADER_VIEWS.set(response, view);
  return view;
}

/**
 * The Cache-Control `expires_in` sets, as Rails 2.2's: what was there, less `no-cache` and the directives set
 * again, then `max-age`, `private` (or `public`), then the other directives given.
 */
function expiresIn(current: string | string[] | undefined, seconds: number, options: Readonly<Record<string, string | number | boolean>>): string {
  if (!(Number.isInteger(seconds) && seconds >= 0)) throw new ArgumentError(`expires_in takes a whole number of seconds, not ${shownValue(seconds)}`);
  if (options === null || typeof options !== 'object') throw new ArgumentError(`expires_in options must be an object, not ${shownValue(options)}`);
  const added = [`max-age=${seconds}`, options.public === true ? 'public' : 'private'];
  for (const [name, value] of Object.entries(options)) {
    if (name === 'public' || name === 'private' || value === false) continue;
    if (!DIRECTIVE.test(name) || (value !== true && !DIRECTIVE_VALUE.test(String(value)))) {
      throw new ArgumentError(`expires_in: ${shownValue(name)} is no Cache-Control directive with a plain value (letters, digits and -, and a value without commas, quotes or spaces)`);
    }
    added.push(value === true ? name : `${name}=${String(value)}`);
  }
  const named = new Set(added.map(directiveName));
  // `private` and `public` replace each other.
  named.add('private').add('public').add('no-cache');
  const kept = (Array.isArray(current) ? current.join(',') : current ?? '').split(',').map((d) => d.trim()).filter((d) => d !== '' && !named.has(directiveName(d)));
  return [...kept, ...added].join(', ');
}

const DIRECTIVE = /^[A-Za-z][A-Za-z0-9-]*$/;
const DIRECTIVE_VALUE = /^[A-Za-z0-9.-]+$/;
const directiveName = (directive: string): string => directive.split('=', 1)[0]!.trim().toLowerCase();

function setStatus(response: Response, status: number | string): void {
  response.status = statusCode(status);
  const line = interpretStatus(status);
  const space = line.indexOf(' ');
  // A code without a standard phrase (`299`) has no reason to send; the transport supplies a generic one.
  response.reason = space < 0 ? null : line.slice(space + 1);
}

/** A `location:` option: a URL or path string as given (made header-safe), or a record or hash turned into its URL. */
function expandLocation(c: Controller, location: unknown): string {
  return relativeLocation(typeof location === 'string' ? location : c.url_for(location));
}

/**
 * What `expire_page` and `expire_action` remove, as Rails' `url_for` names it: a route hash is
 * generated against this request, so what it leaves out (the controller, the action, the id) is
 * the current request's, and `{ action: 'show' }` in `update` of post 1 is `/posts/1`. Without the
 * application's mount point, which the cached paths do not carry. A list of actions gives one path
 * per action.
 */
function cachePaths(c: Controller, target: CacheTarget): string[] {
  if (typeof target === 'string') return [target];
  const actions: unknown[] = Array.isArray(target.action) ? target.action : [target.action];
  return actions.map((action) => c.routes.url_for({ ...target, ...(action === undefined ? {} : { action }), only_path: true, skip_relative_url_root: true }));
}

/**
 * Rails' `fragment_cache_key` without its `views/`: a name as given, a route hash as its host and
 * the path `url_for` gives it against this request, so `{}` is this page's own and
 * `{ action_suffix: 'sidebar' }` is this page's sidebar: each post's fragments stay its own.
 */
function fragmentName(c: Controller, name: FragmentName): string {
  if (typeof name === 'string') return name;
  return `${c.request.host_with_port}${c.routes.url_for({ ...name, only_path: true })}`;
}

function addFilters(klass: object, kind: FilterKind, args: readonly unknown[], prepend: boolean): void {
  const { targets, scope } = splitFilterArgs(args, prepend ? `prepend_${kind}_filter` : `${kind}_filter`);
  const d = declarationsOf(klass);
  const filters = targets.map((target) => ({ kind, target, ...scope }));
  if (prepend) d.filters.unshift(...filters);
  else d.filters.push(...filters);
  // A method named as a filter is plumbing, never an action reachable by URL.
  for (const t of targets) if (typeof t === 'string') d.hidden.add(t);
}

function skipFilters(klass: object, args: readonly unknown[], declaration: string): void {
  const { targets, scope } = splitFilterArgs(args, declaration);
  const d = declarationsOf(klass);
  if (targets.includes(FORGERY_FILTER) && d.forgery !== null) d.forgery = skipping(d.forgery, scope);
  for (let i = d.filters.length - 1; i >= 0; i--) {
    const filter = d.filters[i];
    if (typeof filter.target !== 'string' || !targets.includes(filter.target)) continue;
    const kept = skipping(filter, scope);
    if (kept === null) d.filters.splice(i, 1);
    else d.filters[i] = kept;
  }
}

/** Whether `target` is the parameters hash itself or one nested in it (the client wrote it). */
function isRequestParams(params: unknown, target: object): boolean {
  if (params === target) return true;
  if (params === null || typeof params !== 'object') return false;
  const values = Array.isArray(params) ? params : isPlainObject(params) ? Object.values(params) : [];
  return values.some((value) => isRequestParams(value, target));
}
