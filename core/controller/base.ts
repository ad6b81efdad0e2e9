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
 * state between requests.
 */
import { ActionControllerError, DoubleRenderError, RedirectBackError, UnsafeUrlOptions } from '../errors.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { CookieJar } from '../http/cookie-jar.ts';
import { headOptionHeaderName, interpretStatus, statusCode } from '../http/status.ts';
import type { Helpers, RouteSet } from '../routing/index.ts';
import { isPlainObject } from '../util.ts';
import type { ViewResolver } from '../views/resolver.ts';
import {
  declarationsOf, splitFilterArgs, actionScope,
  type ForgeryOptions, type RescueHandler, type RescueMatcher, type VerifyOptions,
} from './declarations.ts';
import type { Flash } from '../session/flash.ts';
import type { SessionHandle } from '../session/session.ts';
import { absoluteLocation, assertTarget, redirectBody, sanitiseLocation } from './redirect.ts';
import { respondTo, type RespondBlock, type RespondHandlers } from './respond-to.ts';
import { renderBody, type RenderOptions } from './render.ts';
import { verifyAction } from './verification.ts';
import { sessionToken } from '../session/token.ts';
import { authorizationHeader, decodeCredentials, quotedRealm } from './http-basic.ts';
import type { Caching, CacheTarget } from '../caching/caching.ts';
import type { CacheStatus } from '../caching/host.ts';
import { cacheDeclaration, type ActionCacheOptions, type PageCacheOptions } from '../caching/declarations.ts';
import type { CacheRun } from '../caching/action-run.ts';
import type { CacheWriteOptions, MaybePromise } from '../caching/store.ts';

/** A fragment's name: a string, or a route hash (this controller unless it names another). */
export type FragmentName = string | Readonly<Record<string, unknown>>;

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
  /** The app's caches (`caches_page`, `caches_action`, expiry); absent when the controller runs outside an app. */
  readonly caching?: Caching;
  /** Records what the caches did for this request, for the `X-Cache` header and the log line. */
  cache_status?(status: CacheStatus): void;
}


export type RenderArgument = RenderOptions | string | undefined;

// `method_missing` is the catch-all for unknown actions, never an action itself.
const NOT_ACTIONS = new Set(['constructor', 'method_missing']);

/**
 * Names public in every controller (Controller's own API and Object's), read once the class below is
 * defined. As in Rails, where Base's public methods are hidden actions, a subclass that overrides one
 * (`render`, `toString`) does not make it an action.
 */
let INHERITED_NAMES: ReadonlySet<string> | null = null;
// The per-request properties dispatch wires in: a method of one of these names would be shadowed by it.
const REQUEST_STATE = ['request', 'response', 'params', 'action_name', 'controller_path', 'views', 'services'];

export class Controller {
  // ---- class-level declarations -------------------------------------------------------------

  /** Runs the named methods (or functions) before the action; one that renders or redirects halts the chain. */
  static before_filter(...args: unknown[]): void {
    const { targets, scope } = splitFilterArgs(args);
    const d = declarationsOf(this);
    for (const target of targets) d.filters.push({ kind: 'before', target, ...scope });
    hideFilterNames(this, targets);
  }

  /** Runs a before filter ahead of those already declared. */
  static prepend_before_filter(...args: unknown[]): void {
    const { targets, scope } = splitFilterArgs(args);
    declarationsOf(this).filters.unshift(...targets.map((target) => ({ kind: 'before' as const, target, ...scope })));
    hideFilterNames(this, targets);
  }

  /** Runs after the action (not when a before filter halted the chain). */
  static after_filter(...args: unknown[]): void {
    const { targets, scope } = splitFilterArgs(args);
    const d = declarationsOf(this);
    for (const target of targets) d.filters.push({ kind: 'after', target, ...scope });
    hideFilterNames(this, targets);
  }

  /** Wraps the action: the filter gets `run`, and the action happens when it calls it. */
  static around_filter(...args: unknown[]): void {
    const { targets, scope } = splitFilterArgs(args);
    const d = declarationsOf(this);
    for (const target of targets) d.filters.push({ kind: 'around', target, ...scope });
    hideFilterNames(this, targets);
  }

  /** Removes inherited filters by method name. */
  static skip_filter(...names: string[]): void {
    const d = declarationsOf(this);
    for (let i = d.filters.length - 1; i >= 0; i--) if (typeof d.filters[i].target === 'string' && names.includes(d.filters[i].target as string)) d.filters.splice(i, 1);
  }

  static skip_before_filter(...names: string[]): void {
    this.skip_filter(...names);
  }

  /**
   * Handles an error class (or class name) raised by an action or filter; the last matching declaration wins.
   * @example static { this.rescue_from(RecordNotFound, 'not_found') }
   */
  static rescue_from(...args: [...RescueMatcher[], RescueHandler | { with: RescueHandler }]): void {
    const last = args[args.length - 1] as RescueHandler | { with: RescueHandler };
    const handler = typeof last === 'object' && last !== null && 'with' in last ? last.with : (last as RescueHandler);
    const matchers = args.slice(0, -1) as RescueMatcher[];
    if (matchers.length === 0) throw new ActionControllerError('rescue_from needs an error class and a handler');
    const d = declarationsOf(this);
    for (const matcher of matchers) d.rescues.push({ matcher, handler });
    if (typeof handler === 'string') d.hidden.add(handler);
  }

  /** Requires the session's authenticity token on state-changing requests to these actions. */
  static protect_from_forgery(options: ForgeryOptions = {}): void {
    const scope = actionScope(options);
    declarationsOf(this).forgery = { ...options, ...scope };
  }

  /** Declares a prerequisite (params, session keys, method, xhr) checked before the action. */
  static verify(options: VerifyOptions): void {
    const scope = actionScope(options);
    const checked = { ...options };
    declarationsOf(this).filters.push({ kind: 'before', target: (c: Controller) => verifyAction(c, checked), ...scope });
  }

  /** Methods that are not actions even though they are public. */
  static hide_action(...names: string[]): void {
    const d = declarationsOf(this);
    for (const name of names) d.hidden.add(name);
  }

  /** The layout for this controller's templates: a name under `layouts/`, or false for none. */
  static layout(name: string | false): void {
    declarationsOf(this).layout = name;
  }

  /**
   * Writes the first 200 GET response of these actions under the app's page cache directory
   * (`/posts/1` → `posts/1.html`), from where the transports answer later requests before the app runs.
   * Only for pages that are the same for every visitor. `if` decides per request.
   * @example static { this.caches_page('index') }
   */
  static caches_page(...args: (string | PageCacheOptions)[]): void {
    declarationsOf(this).caches.push(cacheDeclaration('page', args));
  }

  /**
   * Keeps the 200 GET responses of these actions in the app's cache store, keyed by host, path and
   * format, and answers from there after the before filters have run (authentication still applies).
   * @example static { this.caches_action('show', { expires_in: 600, if: (c) => c.flash.empty }) }
   */
  static caches_action(...args: (string | ActionCacheOptions)[]): void {
    declarationsOf(this).caches.push(cacheDeclaration('action', args));
  }

  // ---- per-request state (wired by dispatch) ------------------------------------------------

  request!: Request;
  response!: Response;
  params!: Record<string, any>;
  action_name!: string;
  controller_path!: string;
  views!: ViewResolver | null;
  /** App-wide objects given to `createApp({ services })` (a data store, say). */
  services!: Readonly<Record<string, any>>;
  /** What the action rendered, once it has: used to refuse a second render. */
  _performed = false;
  /** What caching does for this request, when the action declares a cache. */
  _cache: CacheRun | null = null;
  /** A template render started by `render` and finished by dispatch. */
  _pending: Promise<void> | null = null;
  /** The format `respond_to` chose, if any; it names the template format. */
  _format: string | null = null;
  _wiring!: ControllerWiring;

  /** Called by dispatch before any filter runs. */
  _wire(w: ControllerWiring): void {
    this._wiring = w;
    this.request = w.request;
    this.response = w.response;
    this.params = w.request.parameters;
    this.action_name = w.action_name;
    this.controller_path = w.controller_path;
    this.views = w.views;
    this.services = w.services;
  }

  /** The request's cookies to read, and the response's to write (`this.cookies.set('theme', 'dark')`). */
  get cookies(): CookieJar {
    return this._wiring.cookies;
  }

  /** Named route helpers, `url_for` and polymorphic helpers, bound to this request. */
  get routes(): Helpers {
    return this._wiring.helpers;
  }

  /** The session: a plain object kept between requests by the app's session store. */
  get session(): Record<string, any> {
    return this._wiring.session.data;
  }

  /** Messages for the next request (`flash.set('notice', ...)`), or this one (`flash.now`). */
  get flash(): Flash {
    return this._wiring.session.flash;
  }

  /** Empties the session; the response starts a new one. */
  reset_session(): void {
    this._wiring.session.reset();
  }

  /** The controller's name without its module: `admin/posts` -> `posts`. */
  get controller_name(): string {
    return this.controller_path.slice(this.controller_path.lastIndexOf('/') + 1);
  }

  /** True once the action has rendered, redirected or sent a bare status. */
  get performed(): boolean {
    return this._performed;
  }

  // ---- responses ----------------------------------------------------------------------------

  /**
   * Renders a response body: `{ text }`, `{ json }`, `{ xml }`, `{ html }`, `{ js }`, `{ nothing: true }`,
   * `{ action }` or `{ template }`, with `status`, `location`, `content_type`, `layout`.
   * A string names an action's template.
   * @example this.render({ json: post, status: 'created', location: post })
   */
  render(options: RenderArgument = {}): void {
    const opts: RenderOptions = typeof options === 'string' ? { action: options } : options;
    this._claimRender();
    if (opts.status !== undefined) this._setStatus(opts.status);
    if (opts.location !== undefined && opts.location !== null) {
      this.response.location = this._expandLocation(opts.location);
    }
    const result = renderBody(this, opts);
    if (result instanceof Promise) this._pending = result;
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
    this._claimRender();
    this._setStatus(status);
    for (const [key, value] of Object.entries(opts)) {
      if (key === 'location') this.response.location = this._expandLocation(value);
      else if (value !== undefined && value !== null) this.response.set_header(headOptionHeaderName(key), String(value));
    }
    this.response.body = '';
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
    this._claimRender();
    this._setStatus(status);
    this.response.location = location;
    this.response.redirected_to = target;
    this.response.content_type ??= 'text/html';
    this.response.body = redirectBody(location);
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
   * Removes a cached page: a path (`/posts` in every format, `/posts.json` alone) or a route hash
   * (this controller unless it names another). How many files went.
   * @example this.expire_page({ action: 'index' })
   */
  expire_page(target: CacheTarget): number {
    return this._wiring.caching?.expire_page(this._cacheTarget(target)) ?? 0;
  }

  /**
   * Removes an action's cached responses in every format: a path or a route hash (this controller
   * unless it names another). A promise when the cache store is asynchronous: return it from a
   * filter, or await it, before the request ends.
   * @example this.expire_action({ action: 'show', id: this.post.id })
   */
  expire_action(target: CacheTarget): MaybePromise<number> {
    return this._wiring.caching?.expire_action(this._cacheTarget(target)) ?? 0;
  }

  /**
   * Removes cached fragments and action cache entries: by name (`write_fragment`'s, or a
   * `cache_path`'s, every format of it), by route hash (its host and path, as Rails keys it), or by
   * a RegExp over whole keys (`views/...`). A promise when the store is asynchronous.
   */
  expire_fragment(key: FragmentName | RegExp): MaybePromise<number> {
    return this._wiring.caching?.expire_fragment(key instanceof RegExp ? key : this._fragmentName(key)) ?? 0;
  }

  /**
   * A cached fragment, or undefined (Rails' `read_fragment`): by name, or by route hash (keyed by
   * its host and path). A promise when the store is asynchronous.
   * @example const sidebar = await this.read_fragment('sidebar')
   */
  read_fragment(name: FragmentName): MaybePromise<string | undefined> {
    return this._wiring.caching?.read_fragment(this._fragmentName(name));
  }

  /** Caches rendered content under a fragment name (Rails' `write_fragment`); gives back the content. */
  write_fragment(name: FragmentName, content: string, options?: CacheWriteOptions): MaybePromise<string> {
    return this._wiring.caching?.write_fragment(this._fragmentName(name), content, options) ?? content;
  }

  /** Whether a fragment is cached (Rails' `fragment_exist?`). */
  fragment_exist(name: FragmentName): MaybePromise<boolean> {
    return this._wiring.caching?.fragment_exist(this._fragmentName(name)) ?? false;
  }

  /** Rails' `fragment_cache_key` without its `views/`: a name as given, a route hash as its host and path. */
  _fragmentName(name: FragmentName): string {
    if (typeof name === 'string') return name;
    return `${this.request.host_with_port}${this.routes.url_for({ controller: this.controller_path, ...name, only_path: true })}`;
  }

  _cacheTarget(target: CacheTarget): CacheTarget {
    return typeof target === 'string' ? target : { controller: this.controller_path, ...target };
  }

  /** The token forms must send back on state-changing requests (hidden field `authenticity_token`, or the X-CSRF-Token header). */
  form_authenticity_token(): string {
    return sessionToken(this._wiring.session, declarationsOf(this.constructor).forgery?.secret);
  }

  // ---- HTTP Basic authentication ------------------------------------------------------------

  /**
   * Calls `check(user, password)` with the request's Basic credentials; false when it carries none.
   * @example const ok = await this.authenticate_with_http_basic((u, p) => u === 'admin' && secure_compare(p, secret))
   */
  authenticate_with_http_basic(check: (user: string, password: string) => boolean | Promise<boolean>): boolean | Promise<boolean> {
    const credentials = decodeCredentials(authorizationHeader(this.request.headers));
    return credentials === null ? false : check(credentials[0], credentials[1]);
  }

  /**
   * Like `authenticate_with_http_basic`, but answers 401 with a `WWW-Authenticate` challenge when the check fails.
   * @example static { this.before_filter((c) => c.authenticate_or_request_with_http_basic('Admin', (u, p) => ...)) }
   */
  authenticate_or_request_with_http_basic(realm: string, check: (user: string, password: string) => boolean | Promise<boolean>): boolean | Promise<boolean> {
    const result = this.authenticate_with_http_basic(check);
    const decide = (ok: boolean) => {
      if (!ok) this.request_http_basic_authentication(realm);
      return ok;
    };
    return result instanceof Promise ? result.then(decide) : decide(result);
  }

  /** Answers 401 asking for Basic credentials in `realm`. */
  request_http_basic_authentication(realm = 'Application'): void {
    this.response.set_header('WWW-Authenticate', `Basic realm="${quotedRealm(realm)}"`);
    this.render({ text: 'HTTP Basic: Access denied.\n', status: 401 });
  }

  // ---- internals used by render/respond_to/dispatch -----------------------------------------

  _claimRender(): void {
    if (this._performed) throw new DoubleRenderError();
    this._performed = true;
  }

  _setStatus(status: number | string): void {
    this.response.status = statusCode(status);
    const line = interpretStatus(status);
    const space = line.indexOf(' ');
    // A code without a standard phrase (`299`) has no reason to send; the transport supplies a generic one.
    this.response.reason = space < 0 ? null : line.slice(space + 1);
  }

  /** A `location:` option: a URL or path string as given (made header-safe), or a record or hash turned into its URL. */
  _expandLocation(location: unknown): string {
    if (typeof location === 'string') return sanitiseLocation(location);
    return sanitiseLocation(this.url_for(location));
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

// Named route helpers are called as the controller's own methods (`this.post_path(post)`), as in Rails.
// They are found past the end of the class chain: the last link asks the instance's own request wiring,
// so `this` stays the real instance (private #fields keep working) and nothing is shared between requests.
Object.setPrototypeOf(Controller.prototype, new Proxy(Object.prototype, {
  get(target, prop, receiver) {
    if (prop in target || typeof prop === 'symbol' || prop === '_wiring') return Reflect.get(target, prop, receiver);
    // Read the wiring as an own property: looking it up through the chain would come back here.
    const wiring = Object.getOwnPropertyDescriptor(receiver, '_wiring')?.value as ControllerWiring | undefined;
    return (wiring?.helpers as unknown as Record<string, unknown> | undefined)?.[prop];
  },
}));

// A method named as a filter is plumbing, never an action reachable by URL.
function hideFilterNames(klass: object, targets: readonly unknown[]): void {
  const d = declarationsOf(klass);
  for (const t of targets) if (typeof t === 'string') d.hidden.add(t);
}

/** Whether `target` is the parameters hash itself or one nested in it (the client wrote it). */
function isRequestParams(params: unknown, target: object): boolean {
  if (params === target) return true;
  if (params === null || typeof params !== 'object') return false;
  const values = Array.isArray(params) ? params : isPlainObject(params) ? Object.values(params) : [];
  return values.some((value) => isRequestParams(value, target));
}
