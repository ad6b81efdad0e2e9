/**
 * `draw()` and the `RouteSet` it returns: a frozen table of routes plus the
 * pure functions compiled from it (recognition, generation, helpers).
 */
import { ArgumentError, MalformedPathError, MethodNotAllowed, NotImplemented, RoutingError } from '../errors.ts';
import { Generator } from './generate.ts';
import { NO_RECALL } from './hash-generate.ts';
import { prepareRoute, type GenRoute } from './gen-route.ts';
import { BUILTIN_HELPERS, bindHelpers, createHelperPrototype, type HelperPrototype, type Helpers, type UrlOptions } from './helpers.ts';
import { createInflector, type InflectionConfig, type Inflector } from './inflector.ts';
import { Mapper, type Block } from './mapper.ts';
import { checkOptionNames, meantName, shownValue } from '../options.ts';
import { pathWords } from './resources.ts';
import { formatRoutes } from './print.ts';
import { ALL_METHODS, LinearRecognizer, type Match, type Recognizer } from './recognizer.ts';
import { isPlainObject, mountPoint } from './params.ts';
import { buildRoute, type SegmentPool } from './route.ts';
import { TreeRecognizer } from './tree.ts';
import type { GenerateOptions, Params, Route } from './types.ts';
import { developmentWarning } from './warnings.ts';

export interface DrawConfig {
  /** Inflections for this route set only. */
  readonly inflections?: InflectionConfig;
  /**
   * Application-wide path words for actions, as Rails' `Base.resources_path_names`: `new`, `edit` and any
   * member action (`{ new: 'neu', edit: 'bearbeiten', preview: 'vorschau' }`). A resource's own `:path_names` wins.
   */
  readonly resources_path_names?: { readonly new?: string; readonly edit?: string; readonly [action: string]: string | undefined };
  /** Controller paths a `:controller` segment may match (`admin/products`); without it, one word. */
  readonly controllers?: readonly string[];
  /** Prefix of every generated URL when the app is mounted below the root (`/blog`). */
  readonly relative_url_root?: string;
  /** Separator before custom action names; `;` is the pre-2.0 form and deprecated. */
  readonly resource_action_separator?: '/' | ';';
  /** Which recognizer compiles the table: the trie (default) or the reference linear scan. */
  readonly recognizer?: 'tree' | 'linear';
}

/** The resolved configuration a route set was drawn with (plain data). */
export interface RouteSetConfig {
  readonly inflections: Required<InflectionConfig>;
  readonly resources_path_names: { readonly new: string; readonly edit: string; readonly [action: string]: string };
  readonly controllers: readonly string[] | null;
  readonly relative_url_root: string;
  readonly resource_action_separator: string;
  readonly recognizer: 'tree' | 'linear';
}

export interface RouteSet {
  /** Every route in declaration order (frozen plain data). */
  readonly routes: readonly Route[];
  /** Named routes by name. */
  readonly named: Readonly<Record<string, Route>>;
  readonly config: RouteSetConfig;
  /**
   * Recognises a request path; throws `RoutingError`, `MethodNotAllowed` or `NotImplemented`.
   * @example routes.recognize('GET', '/posts/1') // { controller: 'posts', action: 'show', id: '1' }
   */
  recognize(method: string | null, path: string): Params;
  /** Like `recognize`, but also returns the route that matched. */
  recognizeRoute(method: string | null, path: string): Match;
  /**
   * The non-throwing lookup: the matching route and its parameters, or null.
   * (The request machine decides between 404, 405 and 501 afterwards, with `allowed_methods`.)
   */
  match(method: string | null, path: string): Match | null;
  /** Upper-case methods some route answers on this path (what a 405's `Allow` lists). */
  allowed_methods(path: string): string[];
  /**
   * Builds a path (with query string) from options, Rails-style; `recall` is the current request's path parameters.
   * With `{ generate_all: true }`, every path any route builds from them, in route order (Rails' `:generate_all`).
   * @example routes.generate({ controller: 'posts', action: 'show', id: 1 }) // '/posts/1'
   * @example routes.generate({ action: 'show', id: 10 }, { controller: 'post' }, { generate_all: true }) // ['/show_post/10', '/post/show/10']
   */
  generate(options: GenerateOptions, recall?: GenerateOptions, flags?: { readonly generate_all?: false }): string;
  generate(options: GenerateOptions, recall: GenerateOptions | undefined, flags: { readonly generate_all: true }): string[];
  /** The path without its query string, and the option keys the query string would carry. */
  generate_extras(options: GenerateOptions, recall?: GenerateOptions): { path: string; extra_keys: string[] };
  /** Option keys that `generate` would put in the query string. */
  extra_keys(options: GenerateOptions, recall?: GenerateOptions): string[];
  /**
   * Named helpers, `url_for` and polymorphic helpers bound to URL defaults and the current request.
   * @example routes.helpers({ host: 'example.com' }).post_url(1) // 'http://example.com/posts/1'
   */
  helpers(default_url_options?: UrlOptions, recall?: UrlOptions, params?: UrlOptions): Helpers;
  /** `url_for` without a request: paths by default, full URLs when given a host. */
  url_for(target: unknown, options?: UrlOptions): string;
  /** The table as aligned text, like `rake routes`. */
  print(): string;
  /** Plain data for `JSON.stringify`: routes, named-route names and configuration. */
  toJSON(): { routes: readonly Route[]; named: string[]; config: RouteSetConfig };
}

const deprecationsShown = new Set<string>();

// Route names whose `<name>_url` helper would be a built-in one.
const BUILTIN_ROUTE_NAMES: ReadonlySet<string> = new Set([...BUILTIN_HELPERS].filter((h) => h.endsWith('_url')).map((h) => h.slice(0, -'_url'.length)));

/** Emits a deprecation warning once per process for each form. */
export function deprecate(code: string, message: string): void {
  if (deprecationsShown.has(code)) return;
  deprecationsShown.add(code);
  process.emitWarning(message, { type: 'DeprecationWarning', code });
}

/** Tells a developer that a route name was declared again (once per name and paths); quiet in test and production. */
function warnRenamed(name: string, before: string, after: string): void {
  developmentWarning('SIGNALBOX_ROUTE_NAME_REDEFINED', `${name}\u0000${before}\u0000${after}`, `Route name ${JSON.stringify(name)} is declared again: it now names ${after}; the route ${before} keeps no name`);
}

/**
 * Draws a route set. The block receives `map`; the result is frozen.
 * @example const routes = draw((map) => { map.resources('posts'); map.root({ controller: 'posts' }) })
 */
export function draw(block: Block, given: DrawConfig | null = {}): RouteSet {
  const drawConfig = given ?? {};
  const config = resolveConfig(drawConfig);
  const inflector = createInflector(drawConfig.inflections);
  const routes: Route[] = [];
  const named = new Map<string, Route>();
  const pool: SegmentPool = new Map();
  let open = true;

  const target = {
    inflector,
    resources_path_names: config.resources_path_names,
    resource_action_separator: config.resource_action_separator,
    hasNamedRoute: (name: string) => named.has(name),
    namedRoute: (name: string) => named.get(name),
    addRoute(name: string | null, path: string, options: Record<string, unknown>) {
      if (!open) throw new ArgumentError('This route set is already drawn; routes cannot be added to it');
      if (name !== null && BUILTIN_ROUTE_NAMES.has(name)) throw new ArgumentError(`Route name ${JSON.stringify(name)} would define ${name}_url, which is a built-in helper`);
      // In the `named` table it would replace the object's prototype instead of naming a route.
      if (name === '__proto__') throw new ArgumentError('__proto__ cannot name a route');
      const route = buildRoute(path, options, routes.length, name, pool);
      if (name !== null) {
        const taken = named.get(name);
        // As in Rails 2.x, a later route of the same name takes the name and the earlier one stays, unnamed:
        // long-lived routes files redefine names, and refusing them would refuse the whole file.
        if (taken) {
          routes[taken.index] = Object.freeze({ ...taken, name: null });
          warnRenamed(name, taken.path, route.path);
        }
        named.set(name, route);
      }
      routes.push(route);
    },
  };
  if (typeof block !== 'function') throw new ArgumentError('draw needs a block: draw((map) => { ... })');
  block(new Mapper(target));
  open = false;
  warnUnusedPathNames(config.resources_path_names, routes);
  const table = Object.freeze(routes);
  return createRouteSet(table, config, compileGeneration(table, named, inflector, config.relative_url_root));
}

const DRAW_CONFIG_KEYS: ReadonlySet<string> = new Set(['inflections', 'resources_path_names', 'controllers', 'relative_url_root', 'resource_action_separator', 'recognizer']);

const isWordList = (v: unknown): v is readonly string[] => Array.isArray(v) && v.every((w) => typeof w === 'string' && w !== '');

/** The configuration as given by hand: a misspelt key or a value of the wrong shape is refused here, not met later as a TypeError. */
function checkDrawConfig(c: DrawConfig): void {
  checkOptionNames('draw()', c, DRAW_CONFIG_KEYS);
  if (c.controllers !== undefined && c.controllers !== null && !isWordList(c.controllers)) {
    throw new ArgumentError(`draw(): controllers must be a list of controller paths, got ${JSON.stringify(c.controllers) ?? shownValue(c.controllers)}`);
  }
  if (c.recognizer !== undefined && c.recognizer !== 'tree' && c.recognizer !== 'linear') {
    throw new ArgumentError(`draw(): recognizer must be 'tree' or 'linear', got ${shownValue(c.recognizer)}`);
  }
  const inflections: unknown = c.inflections;
  if (inflections !== undefined && inflections !== null) {
    checkOptionNames('draw() inflections', inflections, new Set(['irregular', 'uncountable']));
    const { irregular, uncountable } = inflections as Record<string, unknown>;
    if (irregular !== undefined && !(Array.isArray(irregular) && irregular.every((pair) => isWordList(pair) && pair.length === 2))) {
      throw new ArgumentError(`draw(): inflections.irregular must be a list of [singular, plural] pairs, got ${JSON.stringify(irregular) ?? String(irregular)}`);
    }
    if (uncountable !== undefined && !isWordList(uncountable)) {
      throw new ArgumentError(`draw(): inflections.uncountable must be a list of words, got ${JSON.stringify(uncountable) ?? String(uncountable)}`);
    }
  }
  const pathNames: unknown = c.resources_path_names;
  if (pathNames !== undefined && pathNames !== null) {
    if (!isPlainObject(pathNames)) throw new ArgumentError(`draw(): resources_path_names must be a hash of action names to path words, got ${JSON.stringify(pathNames) ?? String(pathNames)}`);
    // Any action may be named, as in Rails: a key no drawn action takes is pointed out once drawn (warnUnusedPathNames).
    for (const [action, word] of Object.entries(pathNames)) if (word !== undefined) pathWords(`resources_path_names ${action}`, word);
  }
}

/** The path words given for actions, without keys given as `undefined` (which mean the default word). */
function pathWordsGiven(given: DrawConfig['resources_path_names']): Record<string, string> {
  const words: Record<string, string> = {};
  for (const [action, word] of Object.entries(given ?? {})) if (word !== undefined) Object.defineProperty(words, action, { value: word, enumerable: true });
  return words;
}

/**
 * Rails took any key in `resources_path_names` and used those that name an action; one that names no drawn
 * action (a slip such as `nwe`) changes nothing, which in development is worth a word.
 */
function warnUnusedPathNames(words: RouteSetConfig['resources_path_names'], routes: readonly Route[]): void {
  const given = Object.keys(words).filter((action) => action !== 'new' && action !== 'edit');
  if (given.length === 0) return;
  const actions = new Set(routes.flatMap((r) => (r.defaults.action === undefined ? [] : [r.defaults.action])));
  for (const action of given) {
    if (actions.has(action)) continue;
    const meant = meantName(action, new Set(['new', 'edit', ...actions]));
    developmentWarning('SIGNALBOX_ROUTE_OPTION_IGNORED', `resources_path_names\u0000${action}`,
      `resources_path_names gives a path word to ${JSON.stringify(action)}, which no drawn route's action is${meant === null ? '' : ` (did you mean ${meant}?)`}`);
  }
}

function resolveConfig(c: DrawConfig): RouteSetConfig {
  checkDrawConfig(c);
  const separator = c.resource_action_separator ?? '/';
  if (separator !== '/') {
    if (separator !== ';') throw new ArgumentError(`resource_action_separator must be '/' (or the deprecated ';'), got ${JSON.stringify(separator)}`);
    deprecate('SIGNALBOX_DEP_SEMICOLON_SEPARATOR', "resource_action_separator ';' is deprecated: custom actions use a plain slash (/messages/1/mark).");
  }
  const controllers = c.controllers ? Object.freeze([...c.controllers]) : null;
  return Object.freeze({
    inflections: Object.freeze({ irregular: c.inflections?.irregular ?? [], uncountable: c.inflections?.uncountable ?? [] }),
    resources_path_names: Object.freeze({ ...pathWordsGiven(c.resources_path_names), new: c.resources_path_names?.new ?? 'new', edit: c.resources_path_names?.edit ?? 'edit' }),
    controllers,
    relative_url_root: mountPoint(c.relative_url_root),
    resource_action_separator: separator,
    recognizer: c.recognizer ?? 'tree',
  });
}

/**
 * What a table compiles to for generation and names: the same whatever its recognizer knows of the
 * application's controllers, so a copy that recognises them (`recognizingControllers`) shares it.
 */
interface Generation {
  readonly namedMap: ReadonlyMap<string, Route>;
  readonly generator: Generator;
  readonly prototype: HelperPrototype;
  readonly named: Readonly<Record<string, Route>>;
}

function compileGeneration(routes: readonly Route[], namedMap: ReadonlyMap<string, Route>, inflector: Inflector, relative_url_root: string): Generation {
  const genRoutes: GenRoute[] = [];
  for (const route of routes) genRoutes.push(prepareRoute(route));
  // Names are unique and every named route is in `routes`, so walking the routes visits the names in order.
  const genNamed = new Map<string, GenRoute>();
  for (const route of routes) if (route.name !== null) genNamed.set(route.name, genRoutes[route.index]);
  const generator = new Generator({ routes: genRoutes, named: genNamed });
  const prototype = createHelperPrototype({ generator, named: genNamed, inflector, relative_url_root });
  return { namedMap, generator, prototype, named: Object.freeze(namedTable(routes)) };
}

function createRouteSet(routes: readonly Route[], config: RouteSetConfig, generation: Generation): RouteSet {
  const recognizer: Recognizer = config.recognizer === 'linear'
    ? new LinearRecognizer(routes, { controllers: config.controllers })
    : new TreeRecognizer(routes, { controllers: config.controllers });
  const { namedMap, generator, prototype, named } = generation;
  const noRequest = bindHelpers(prototype, { default_url_options: {}, recall: {}, params: {} }, config.relative_url_root);

  const recognizeRoute = (method: string | null, path: string): Match => {
    const verb = normaliseMethod(method);
    const match = recognizer.match(verb, path);
    if (match) return match;
    const allowed = recognizer.allowed_methods(path);
    if (verb !== null && !ALL_METHODS.includes(verb)) throw new NotImplemented(allowed);
    if (allowed.length > 0) throw new MethodNotAllowed(allowed);
    throw new RoutingError(`No route matches ${JSON.stringify(path)}${verb ? ` with method ${verb}` : ''}`);
  };

  const set: RouteSet = {
    routes,
    named,
    config,
    recognize: (method, path) => recognizeRoute(method, path).params,
    recognizeRoute: recognizeRoute,
    match: (method, path) => {
      try {
        return recognizer.match(normaliseMethod(method), path);
      } catch (error) {
        // A path whose escapes do not decode matches nothing; `recognize` reports it as a 400.
        if (error instanceof MalformedPathError) return null;
        throw error;
      }
    },
    allowed_methods: (path) => {
      try {
        return recognizer.allowed_methods(path);
      } catch (error) {
        if (error instanceof MalformedPathError) return [];
        throw error;
      }
    },
    generate: ((options: GenerateOptions, recall: GenerateOptions = NO_RECALL, flags?: { readonly generate_all?: boolean }) => {
      // Rails takes the flag inside the options; here it changes the result's type, so it is an argument of its own.
      if (typeof options === 'object' && options !== null && 'generate_all' in options && isPlainObject(options)) throw new ArgumentError('generate: pass generate_all as the third argument, generate(options, recall, { generate_all: true })');
      return flags !== undefined && flags.generate_all === true ? generator.generateAll(options, recall) : generator.generate(options, recall);
    }) as RouteSet['generate'],
    generate_extras: (options, recall = {}) => {
      const r = generator.generateExtras(options, recall);
      return { path: r.path, extra_keys: r.extraKeys };
    },
    extra_keys: (options, recall = {}) => generator.generateExtras(options, recall).extraKeys,
    helpers: (default_url_options = {}, recall = {}, params = {}) => bindHelpers(prototype, { default_url_options, recall, params }, config.relative_url_root),
    url_for: (target, options = {}) => {
      // Without a request there is no host to default to: give paths unless a host is named.
      if (isPlainObject(target)) return noRequest.url_for({ only_path: !('host' in target) && !('host' in options), ...target }, options);
      return noRequest.url_for(target, { only_path: !('host' in options), ...options });
    },
    print: () => formatRoutes(routes),
    toJSON: () => ({ routes, named: [...namedMap.keys()], config }),
  };
  Object.freeze(set);
  drawnWith.set(set, generation);
  return set;
}

/** What each route set from `draw()` compiled for generation, so a copy that knows the application's controllers shares it. */
const drawnWith = new WeakMap<RouteSet, Generation>();

/**
 * The route set recognising a `:controller` segment as one of `controllers` only, as Rails 2.x's matched
 * only the controllers its application had (`Routing.possible_controllers`): a word that names none is
 * no match there, and a later route, or a 405 from the methods other routes answer, decides the request.
 * A set drawn with its own `controllers`, one with no `:controller` segment, or one `draw()` did not make,
 * is returned as it is. Everything but recognition is the same: names, helpers and generation.
 */
export function recognizingControllers(set: RouteSet, controllers: readonly string[]): RouteSet {
  const made = drawnWith.get(set);
  if (made === undefined || set.config.controllers !== null) return set;
  if (!set.routes.some((route) => route.segments.some((s) => s.type === 'controller'))) return set;
  // Longest first: where both `admin` and `admin/posts` could be the controller, the regexp tries `admin/posts` first.
  const names = Object.freeze([...new Set(controllers)].sort((a, b) => b.length - a.length));
  return createRouteSet(set.routes, Object.freeze({ ...set.config, controllers: names }), made);
}

/** The named routes as a plain object, in declaration order. */
function namedTable(routes: readonly Route[]): Record<string, Route> {
  // A table has hundreds of names: an object that starts out as a dictionary is spared one hidden-class
  // transition per name (building it key by key as a literal costs several times as much), and is still
  // an ordinary object with Object.prototype.
  const named: Record<string, Route> = Object.setPrototypeOf(Object.create(null), Object.prototype);
  for (const route of routes) if (route.name !== null) named[route.name] = route;
  return named;
}

/** Upper-cases a method and folds HEAD into GET, as requests see it. */
function normaliseMethod(method: string | null): string | null {
  if (method === null || method === undefined) return null;
  // Hot path: the usual spellings (requests carry upper-case methods, `Request#method` lower-case) need
  // no new string; a switch compares them without a table lookup.
  switch (method) {
    case 'GET': case 'HEAD': case 'get': case 'head': return 'GET';
    case 'POST': case 'post': return 'POST';
    case 'PUT': case 'put': return 'PUT';
    case 'DELETE': case 'delete': return 'DELETE';
    case 'OPTIONS': case 'options': return 'OPTIONS';
    default: {
      const upper = String(method).toUpperCase();
      return upper === 'HEAD' ? 'GET' : upper;
    }
  }
}
