/**
 * Named-route helpers (`<name>_path`, `<name>_url`, `hash_for_<name>_path`,
 * `hash_for_<name>_url`), `url_for` and the polymorphic helpers.
 *
 * The helper functions live on one prototype per route set, built once;
 * `helpers(default_url_options, recall)` makes a small object over it per
 * request, and each helper binds itself on first access, so destructuring
 * (`const { post_path } = helpers`) works and unused helpers cost nothing.
 *
 * Everything a request does here avoids V8's slow roads around a Proxy
 * prototype: the object is an instance of a class made once per route set,
 * whose prototype is an ordinary object with the Proxy above it (V8 makes an
 * object whose own prototype is a Proxy on a slow road, about 100 ns, and
 * one of a class in some 20 ns); its slots are class fields (an assignment
 * to a property it lacks would reach the Proxy's `set` trap), and a bound
 * helper becomes its own property by a class field definition too (no
 * descriptor object to read, no trap), so that later reads of it are
 * ordinary property reads.
 */
import { ArgumentError, MissingHost, UrlGenerationError } from '../errors.ts';
import { generateFromValues, inspect, type Generator } from './generate.ts';
import type { GenRoute } from './gen-route.ts';
import type { FixedLeaf } from './types.ts';
import { compileFastGenerator } from './fast-generate.ts';
import { copyFixed } from './fixed.ts';
import { underscore, type Inflector } from './inflector.ts';
import { cgiEscape, isPlainObject, mountPoint, toParam } from './params.ts';

/**
 * What a path segment's value may be: a string or a number, or a record, which gives its `to_param()`,
 * else its `id` (`post_path(post)`). A glob segment (`*path`) also takes a list of them.
 */
export type RouteParam = string | number | bigint | { to_param(): unknown } | { readonly id: unknown };

/**
 * The options hash `url_for` and every helper take (last, after any positional values): where the URL
 * points and how it is written, plus route parameters; keys no route segment takes become the query string.
 * @example posts_url({ host: 'example.com', page: 2, anchor: 'top' }) // 'http://example.com/posts?page=2#top'
 */
export interface UrlOptions {
  host?: string;
  protocol?: string;
  port?: number | string;
  /** A path without scheme and host (what `_path` helpers give). */
  only_path?: boolean;
  anchor?: RouteParam;
  trailing_slash?: boolean;
  relative_url_root?: string;
  skip_relative_url_root?: boolean;
  /** Credentials written into the URL, given together. */
  user?: string;
  password?: string;
  /** Parameters merged over the others (Rails' `:params`). */
  params?: Readonly<Record<string, unknown>>;
  /** The current request's parameters with these over them (Rails' `:overwrite_params`). */
  overwrite_params?: Readonly<Record<string, unknown>>;
  [key: string]: unknown;
}

type HelperFn = (...args: unknown[]) => unknown;

/** What a helpers object is bound to: the request's URL defaults and path parameters. */
export interface HelperContext {
  readonly default_url_options: UrlOptions;
  /** The current request's path parameters; generation falls back on them. */
  readonly recall: UrlOptions;
  /** The current request's full parameters, for `overwrite_params`. */
  readonly params: UrlOptions;
}

/**
 * The named-route helpers of the application's routes: `post_path(post)`, `post_url(post, options)`,
 * `hash_for_post_path(options)`, `formatted_post_path(post, 'xml')`, one member per helper. Empty in
 * the package: `signalbox routes --types routes.ts > routes.d.ts` writes a declaration that adds the
 * members of a routes file to it, with a parameter per segment key, so that `routes.helpers()`,
 * `this.routes` in controllers and templates' view contexts know every helper, and a misspelt or
 * removed one is a compile error.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface RouteHelpers {}

/** The helpers of a route set: its named helpers (`RouteHelpers`) plus `url_for` and the polymorphic family. */
export interface Helpers extends RouteHelpers {
  url_for(target?: unknown, options?: UrlOptions): string;
  polymorphic_url(target: unknown, options?: UrlOptions): string;
  polymorphic_path(target: unknown, options?: UrlOptions): string;
  new_polymorphic_url(target: unknown, options?: UrlOptions): string;
  new_polymorphic_path(target: unknown, options?: UrlOptions): string;
  edit_polymorphic_url(target: unknown, options?: UrlOptions): string;
  edit_polymorphic_path(target: unknown, options?: UrlOptions): string;
  formatted_polymorphic_url(target: unknown, options?: UrlOptions): string;
  formatted_polymorphic_path(target: unknown, options?: UrlOptions): string;
}

/** Helper names the framework defines itself; a named route may not produce one of them. */
export const BUILTIN_HELPERS: ReadonlySet<string> = new Set([
  'url_for',
  ...['', 'new_', 'edit_', 'formatted_'].flatMap((p) => [`${p}polymorphic_url`, `${p}polymorphic_path`]),
]);

/** Names of the four helpers a named route defines. */
export function helperNames(name: string): string[] {
  return [`${name}_path`, `${name}_url`, `hash_for_${name}_path`, `hash_for_${name}_url`];
}

interface HelperTable {
  readonly generator: Generator;
  readonly named: ReadonlyMap<string, GenRoute>;
  readonly inflector: Inflector;
  readonly relative_url_root: string;
}

const CONTEXT = Symbol('signalbox.helpers.context');
const PLAIN_DEFAULTS = Symbol('signalbox.helpers.plainDefaults');
const PATH_PREFIX = Symbol('signalbox.helpers.pathPrefix');
/** The route set's helper by name (or null), on its helpers objects' shared prototype: `helperOf` binds with it, bypassing the Proxy. */
const RESOLVE = Symbol('signalbox.helpers.resolve');
/** The helpers `helperOf` has bound for this object, by name (made on its first). */
const BOUND = Symbol('signalbox.helpers.bound');
// Helpers are looked up by name here (the polymorphic helpers and a format twin call others), so this side sees them as a table.
type Bound = Helpers & Readonly<Record<string, HelperFn>> & { [CONTEXT]: HelperContext; [PLAIN_DEFAULTS]: boolean; [PATH_PREFIX]: string; [BOUND]: Map<string, HelperFn> | null };

// Options that shape the URL around the path; they never reach generation or the query string.
// `user` and `password` count only as a pair (credentials); alone, `user` is an ordinary parameter.
const WHERE_KEYS = ['host', 'protocol', 'port', 'relative_url_root', 'skip_relative_url_root', 'only_path'];
const URL_OPTION_KEYS = ['anchor', 'params', 'only_path', 'host', 'protocol', 'port', 'trailing_slash', 'skip_relative_url_root', 'overwrite_params', 'relative_url_root'];

type Impl = (this: Bound, ...args: unknown[]) => unknown;
type Resolve = (name: string) => Impl | null;

/** A route set's helpers: the class of its helpers objects, over the shared prototype. */
export interface HelperPrototype {
  readonly HelpersObject: new (context: HelperContext, plain: boolean, prefix: string) => Helpers;
}

/**
 * Builds the shared prototype for a route set's helpers. It is a Proxy that
 * makes a helper the first time any helpers object asks for its name, so a
 * table of hundreds of named routes costs nothing to draw; each helpers
 * object then keeps the bound function as its own property (or, read by
 * `helperOf`, in its Map).
 */
export function createHelperPrototype(table: HelperTable): HelperPrototype {
  const impls = new Map<string, Impl | null>();
  const builtins = builtinHelpers(table);
  const resolve: Resolve = (name) => {
    let impl = impls.get(name);
    if (impl === undefined) impls.set(name, (impl = builtins.get(name) ?? namedImpl(table, name)));
    return impl;
  };
  let allNames: string[] | null = null;
  const names = () => (allNames ??= [...builtins.keys(), ...[...table.named.keys()].flatMap(helperNames)]);
  const proto = new Proxy(Object.create(null) as object, {
    get: (_target, prop, receiver: Bound) => (typeof prop === 'string' ? bindOwn(receiver, prop, resolve) : undefined),
    has: (_target, prop) => typeof prop === 'string' && resolve(prop) !== null,
    ownKeys: () => names(),
    getOwnPropertyDescriptor: (_target, prop) =>
      typeof prop === 'string' && resolve(prop) !== null ? { configurable: true, enumerable: true, writable: false, value: resolve(prop) } : undefined,
    // Nothing is written through the prototype: a helpers object is made with its slots, and keeps helpers by definition.
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
    setPrototypeOf: () => false,
  });
  // Fields, not assignments: the instance has its slots before the constructor writes them, so no write looks up the chain to the Proxy.
  class HelpersObject {
    [CONTEXT]: HelperContext;
    [PLAIN_DEFAULTS]: boolean;
    [PATH_PREFIX]: string;
    [BOUND]: Map<string, HelperFn> | null = null;
    constructor(context: HelperContext, plain: boolean, prefix: string) {
      this[CONTEXT] = context;
      this[PLAIN_DEFAULTS] = plain;
      this[PATH_PREFIX] = prefix;
    }
  }
  // Shared by every request: nothing may be written to it, and it names nothing of its own (not even
  // `constructor`) but how `helperOf` finds a helper, the route set's, so no helpers object carries it.
  Reflect.deleteProperty(HelpersObject.prototype, 'constructor');
  Object.defineProperty(HelpersObject.prototype, RESOLVE, { value: resolve });
  Object.setPrototypeOf(HelpersObject.prototype, proto);
  Object.freeze(HelpersObject.prototype);
  return { HelpersObject: HelpersObject as unknown as HelperPrototype['HelpersObject'] };
}

/**
 * What `helpers[name]` gives (the helper bound to `helpers`, or undefined), for a reader that asks by
 * names it cannot know in advance, as a template's view context does. A helper met for the first
 * time is bound here directly: through the Proxy prototype, the trap call and V8's checks of what it
 * returns cost more than the binding itself. Any other object is simply read.
 */
export function helperOf(helpers: object, name: string): unknown {
  const resolve = (helpers as { [RESOLVE]?: Resolve })[RESOLVE];
  if (resolve === undefined) return (helpers as Record<string, unknown>)[name];
  const bound = helpers as Bound;
  // Kept in the object's own Map, not as its own property: a template reads a handful of helpers per
  // request, and a Map entry costs a fraction of defining a property on a fresh object.
  const kept = (bound[BOUND] ??= new Map());
  let fn = kept.get(name);
  if (fn !== undefined) return fn;
  if (Object.hasOwn(helpers, name)) return bound[name];
  const impl = resolve(name);
  if (impl === null) return undefined;
  fn = impl.bind(bound);
  kept.set(name, fn);
  return fn;
}

/** The helper `name` bound to `helpers`, kept as its own property for the next read; undefined when no helper has that name. */
function bindOwn(helpers: Bound, name: string, resolve: Resolve): HelperFn | undefined {
  const impl = resolve(name);
  if (impl === null) return undefined;
  const bound = impl.bind(helpers);
  keepOwn(helpers, name, bound);
  return bound;
}

function builtinHelpers(table: HelperTable): Map<string, Impl> {
  const builtins = new Map<string, Impl>();
  builtins.set('url_for', function (target, options) {
    // Rails' url_for(options = {}): with nothing given, the current request's own URL.
    if (target === undefined) return urlFor(this, table, {}, (options ?? {}) as UrlOptions);
    if (target === null) throw new ArgumentError('url_for needs an options hash, a URL, a record or a list of records, got null');
    return urlFor(this, table, target, (options ?? {}) as UrlOptions);
  });
  for (const prefix of ['', 'new_', 'edit_', 'formatted_']) {
    const action = prefix === '' ? undefined : prefix.slice(0, -1);
    for (const kind of ['url', 'path'] as const) {
      builtins.set(`${prefix}polymorphic_${kind}`, function (target, options) {
        const opts: UrlOptions = { ...((options ?? {}) as UrlOptions) };
        if (action !== undefined) opts.action = action;
        if (kind === 'path') opts.routing_type = 'path';
        return polymorphicUrl(this, table, target, opts);
      });
    }
  }
  return builtins;
}

/** The helper a name calls for (`post_path`, `hash_for_post_url`, ...), or null when it names none. */
function namedImpl(table: HelperTable, helper: string): Impl | null {
  const m = /^(hash_for_)?(.+)_(url|path)$/.exec(helper);
  if (!m) return null;
  const [, hash, name, kindText] = m;
  const g = table.named.get(name);
  if (!g) return null;
  const kind = kindText as 'url' | 'path';
  const lists = Object.entries(g.shell).filter(([, v]) => v !== null && typeof v !== 'string') as [string, FixedLeaf][];
  // Rails' Route#defaults holds every fixed requirement, a boolean, list (`path: ['home']`) or hash too; each call gets its own copy of one.
  const defaults = (): UrlOptions => (lists.length === 0 ? g.route.defaults : { ...g.route.defaults, ...Object.fromEntries(lists.map(([k, v]) => [k, copyFixed(v)])) });
  const hashFor = (options: UrlOptions | undefined): UrlOptions => ({ ...defaults(), use_route: name, only_path: kind === 'path', ...(options ?? {}) });
  if (hash) {
    return (...args) => {
      // Rails' hash_for_ helpers merge one options hash; positional values would be dropped without a word.
      if (args.length > 1 || (args[0] !== undefined && args[0] !== null && !isPlainObject(args[0]))) {
        const keys = g.route.segment_keys.map((k) => `${k}: ...`).join(', ');
        throw new ArgumentError(`${helper} takes one options hash${keys === '' ? '' : ` ({ ${keys} })`}, got ${args.map((a) => inspect(a)).join(', ')}`);
      }
      return hashFor((args[0] ?? undefined) as UrlOptions | undefined);
    };
  }
  // A route that fixes part of the URL itself (Rails' `:protocol => 'https'` among its options) hands it to url_for
  // through its defaults, as Rails' hash_for_ does; the fast paths decorate with the request's defaults alone.
  const fixesUrl = Object.keys(g.route.defaults).some((k) => URL_OPTION_KEYS.includes(k) || k === 'user' || k === 'password');
  const fast = fixesUrl ? null : compileFastGenerator(g);
  return function (...args) {
    // Hot path: one positional value per key, defaults that only say where the app lives.
    if (fast !== null && args.length === fast.arity && this[PLAIN_DEFAULTS] && (fast.arity === 0 || !isPlainObject(args[fast.arity - 1]))) {
      const path = fast.generate(args);
      if (path !== null) return kind === 'path' ? this[PATH_PREFIX] + path : decorate(table, this[CONTEXT].default_url_options, path, false);
    }
    return namedHelper(this, table, name, g, kind, hashFor, args, fixesUrl);
  };
}

/**
 * A class whose constructor returns the object it is given: a subclass's fields are then defined on
 * that object. Defining a field is V8's fast road to a new own property, where `Object.defineProperty`
 * reads a descriptor object and an assignment would reach the Proxy prototype.
 */
class OwnPropertyStamp {
  constructor(target: object) {
    return target;
  }
}

/** The value the next stamp defines; set and cleared around one synchronous `new`. */
let stamping: unknown;

type Stamper = new (target: object) => OwnPropertyStamp;
/** One stamping class per helper name (the names a route set has, made on first use). */
const STAMPERS = new Map<string, Stamper>();

/** Makes `value` the own property `name` of `target`. */
function keepOwn(target: object, name: string, value: unknown): void {
  let Stamp = STAMPERS.get(name);
  if (Stamp === undefined) {
    Stamp = class extends OwnPropertyStamp {
      [name] = stamping;
    };
    STAMPERS.set(name, Stamp);
  }
  stamping = value;
  new Stamp(target);
  stamping = undefined;
}

/** A helpers object over a prototype, bound to one request's context. */
export function bindHelpers({ HelpersObject }: HelperPrototype, context: HelperContext, relativeUrlRoot: string): Helpers {
  const d = context.default_url_options;
  // Defaults that only name where the app lives (host, port, root) leave the path alone, so positional helpers may take the fast path.
  const credentials = hasCredentials(d) ? ['user', 'password'] : [];
  const plain = Object.keys(d).every((k) => WHERE_KEYS.includes(k) || credentials.includes(k));
  const prefix = d.skip_relative_url_root ? '' : d.relative_url_root === undefined ? relativeUrlRoot : mountPoint(d.relative_url_root);
  return new HelpersObject(context, plain, prefix);
}

function namedHelper(self: Bound, table: HelperTable, name: string, g: GenRoute, kind: 'url' | 'path', hashFor: (o: UrlOptions | undefined) => UrlOptions, input: unknown[], fixesUrl: boolean): string {
  if (input.length === 0 || isPlainObject(input[0])) return urlFor(self, table, hashFor(input[0] as UrlOptions | undefined), {});
  const args = [...input];
  const trailing = isPlainObject(args[args.length - 1]) ? (args.pop() as UrlOptions) : null;
  const keys = g.route.segment_keys;
  if (args.length > keys.length) {
    // `post_path(post, 'xml')`: one value past the route's keys is a format, handled by the formatted twin.
    const twin = table.named.get(`formatted_${name}`);
    if (twin && twin.route.segment_keys.length === args.length) {
      return (self[`formatted_${name}_${kind}`] as HelperFn)(...args, ...(trailing ? [trailing] : [])) as string;
    }
    throw new ArgumentError(`${name}_${kind} takes at most ${keys.length} positional argument(s) (${keys.map((k) => `:${k}`).join(', ')}), got ${args.length}`);
  }
  const positional: UrlOptions = {};
  for (let i = 0; i < args.length; i++) positional[keys[i]] = args[i];

  // Every key given positionally and nothing else: the result cannot depend on the request, so skip the hash machinery.
  if (!fixesUrl && self[PLAIN_DEFAULTS] && (trailing === null || Object.keys(trailing).length === 0) && args.length === keys.length && args.every((a) => a !== null && a !== undefined)) {
    const path = generateFromValues(g, { ...g.shell, ...positional });
    if (path !== null) return decorate(table, self[CONTEXT].default_url_options, path, kind === 'path');
  }
  return urlFor(self, table, hashFor({ ...(trailing ?? {}), ...positional }), {});
}

function urlFor(self: Bound, table: HelperTable, target: unknown, extra: UrlOptions): string {
  if (typeof target === 'string') return target;
  if (!isPlainObject(target)) return polymorphicUrl(self, table, target, extra);
  const ctx = self[CONTEXT];
  // Hot path: defaults that only say where the app lives, no second hash, and no URL option in the target
  // but `only_path`: the target is the generation hash itself, and no copy of it is needed.
  if (self[PLAIN_DEFAULTS] && isEmpty(extra)) {
    const path = table.generator.generateForUrl(target, ctx.recall);
    if (path !== undefined) {
      const d = ctx.default_url_options;
      // The compiled form stood aside for undefined values, so a target's own `only_path` is never undefined here.
      const onlyPath = target.only_path !== undefined ? target.only_path : d.only_path;
      return decorate(table, d, path, Boolean(onlyPath));
    }
  }
  const options: UrlOptions = { ...ctx.default_url_options, ...target, ...extra };
  let route: UrlOptions = { ...options };
  if (isPlainObject(options.params)) route = { ...route, ...options.params };
  if (isPlainObject(options.overwrite_params)) route = { ...route, ...ctx.params, ...options.overwrite_params };
  for (const key of URL_OPTION_KEYS) delete route[key];
  if (hasCredentials(options)) {
    delete route.user;
    delete route.password;
  }
  const path = table.generator.generate(route, ctx.recall);
  return decorate(table, options, path, Boolean(options.only_path));
}

/** Wraps a generated path with scheme, credentials, host, port, URL root, trailing slash and anchor. */
function decorate(table: HelperTable, options: UrlOptions, path: string, onlyPath: boolean): string {
  let url = '';
  if (!onlyPath) {
    const protocol = String(options.protocol ?? 'http');
    url += protocol.includes('://') ? protocol : `${protocol}://`;
    if (hasCredentials(options)) {
      url += `${cgiEscape(String(options.user))}:${cgiEscape(String(options.password))}@`;
    }
    const host = options.host;
    if (host === undefined || host === null || host === '') {
      throw new MissingHost();
    }
    url += String(host);
    if (options.port !== undefined && options.port !== null) url += `:${String(options.port)}`;
  }
  if (!options.skip_relative_url_root) url += options.relative_url_root === undefined ? table.relative_url_root : mountPoint(options.relative_url_root);
  if (options.trailing_slash) {
    const q = path.indexOf('?');
    const bare = q < 0 ? path : path.slice(0, q);
    if (!bare.endsWith('/')) path = `${bare}/${q < 0 ? '' : path.slice(q)}`;
  }
  url += path;
  if (options.anchor !== undefined && options.anchor !== null) url += `#${escapeFragment(toParam(options.anchor) ?? '')}`;
  return url;
}

function isEmpty(options: UrlOptions): boolean {
  for (const _ in options) return false;
  return true;
}

function hasCredentials(options: UrlOptions): boolean {
  return options.user !== undefined && options.user !== null && options.password !== undefined && options.password !== null;
}

function escapeFragment(text: string): string {
  return text.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu, (c) => encodeURIComponent(c));
}

/** A resolved polymorphic call: which named helper to call, with which arguments. */
export interface PolymorphicCall {
  readonly name: string;
  readonly args: unknown[];
}

/**
 * Resolves `polymorphic_url(target, options)` to a named helper call, as
 * Rails 2.1 does: leading strings in an array are namespaces, later strings
 * singleton resources; a new record as last element names the collection.
 * @example polymorphicCall([post, comment], {}, inflector) // { name: 'post_comment_url', args: [post, comment] }
 */
export function polymorphicCall(given: unknown, options: UrlOptions, inflector: Inflector): PolymorphicCall {
  // Rails drops nils from an array, and reads an array of one as that one target.
  const compacted = Array.isArray(given) ? given.filter((x) => x !== null && x !== undefined) : null;
  const target = compacted !== null && compacted.length === 1 ? compacted[0] : (compacted ?? given);
  const list = Array.isArray(target) ? [...target] : null;
  if (list !== null && list.length === 0) throw new ArgumentError('polymorphic_url needs a record or a list of records, got an empty list');
  if (target === null || target === undefined) throw new ArgumentError(`polymorphic_url needs a record or a list of records, got ${String(target)}`);
  const action = options.action === undefined || options.action === null ? null : String(options.action);
  const routingType = String(options.routing_type ?? 'url');
  // A hash target (`{ id: post, format: 'pdf' }`) takes its record from `id` and is passed on whole.
  const record = list ? list[list.length - 1] : isPlainObject(target) ? target.id : target;
  let format: unknown = null;
  if (action === 'formatted' && list) format = list.pop();
  else if (options.format !== undefined && options.format !== null) format = options.format;

  let args: unknown[] = list ? [...list] : [target];
  let inflection: 'singular' | 'plural' = 'singular';
  if (action === 'new') args.pop();
  else if (isNewRecord(record)) {
    args.pop();
    inflection = 'plural';
  }
  args = args.filter((a) => typeof a !== 'string');
  if (format !== null) args.push(format);

  let route = '';
  let last: unknown = record;
  if (list) {
    const parents = [...list];
    last = parents.pop();
    for (const p of parents) route += `${typeof p === 'string' ? p : singularName(p)}_`;
  }
  if (typeof last === 'string') route += `${last}_`;
  else route += `${inflection === 'plural' ? inflector.plural(singularName(last)) : singularName(last)}_`;
  const name = `${action ? `${action}_` : ''}${route}${routingType}`;

  const urlOptions: UrlOptions = { ...options };
  delete urlOptions.action;
  delete urlOptions.routing_type;
  delete urlOptions.format;
  if (Object.keys(urlOptions).length > 0) {
    const tail = args[args.length - 1];
    if (isPlainObject(tail)) args[args.length - 1] = { ...tail, ...urlOptions };
    else args.push(urlOptions);
  }
  return { name, args };
}

function polymorphicUrl(self: Bound, table: HelperTable, target: unknown, options: UrlOptions): string {
  const call = polymorphicCall(target, options, table.inflector);
  const fn = self[call.name];
  if (typeof fn !== 'function') throw new UrlGenerationError(`No route helper ${call.name} for ${describe(target)}`);
  return fn(...call.args) as string;
}

function describe(target: unknown): string {
  return Array.isArray(target) ? `[${target.map(describe).join(', ')}]` : typeof target === 'string' ? target : modelName(target);
}

/** A record's model name: `constructor.model_name`, else the constructor's name. */
export function modelName(record: unknown): string {
  const ctor = (record as { constructor?: { model_name?: unknown; name?: string } } | null)?.constructor;
  const name = ctor?.model_name ?? ctor?.name;
  if (typeof name !== 'string' || name === '' || name === 'Object') {
    throw new ArgumentError(`Cannot tell the model of ${describeValue(record)}: give its class a name or a static model_name`);
  }
  return name;
}

function describeValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function singularName(record: unknown): string {
  return underscore(modelName(record)).replace(/\//g, '_');
}

/** A record is new when it says so (`new_record`), or has no `to_param`/`id` value. */
export function isNewRecord(record: unknown): boolean {
  if (record === null || typeof record !== 'object') return false;
  const r = record as { new_record?: unknown };
  if (typeof r.new_record === 'function') return Boolean((r.new_record as () => unknown).call(record));
  if (typeof r.new_record === 'boolean') return r.new_record;
  return toParam(record) === null;
}
