/**
 * The `map` object a routes file talks to. Every call merges the mapper's
 * scope (from `namespace`, `with_options`, or a resource block) under its own
 * options, the way Rails' option merger does: the call's own options win.
 */
import { ArgumentError } from '../errors.ts';
import { meantName, rubySymbolHint } from '../options.ts';
import { isPlainObject } from './params.ts';
import { mapResource, mapSingletonResource, nestedOptions, type Resource, type ResourceContext, type ResourceOptions } from './resources.ts';
import type { Route } from './types.ts';
import { developmentWarning } from './warnings.ts';

export type Options = Record<string, unknown>;
export type Block = (map: Mapper) => void;

/** What the mapper needs from the route set being drawn. */
export interface MapperTarget extends ResourceContext {
  namedRoute(name: string): Route | undefined;
}

/** Arguments of `resources`/`resource`: names, then optional options, then an optional block. */
export type ResourceArgs = (string | ResourceOptions | Block)[];

export class Mapper {
  readonly #target: MapperTarget;
  readonly #scope: Readonly<Options>;

  constructor(target: MapperTarget, scope: Readonly<Options> = {}) {
    this.#target = target;
    this.#scope = scope;
  }

  /**
   * Declares collection resources.
   * @example map.resources('posts', { has_many: 'comments' }, (posts) => posts.resource('author'))
   */
  resources(...args: ResourceArgs): void {
    const { names, options, block } = splitArgs('resources', args);
    warnIgnoredOptions('resources', names, options);
    checkOptionTypes('resources', options);
    for (const name of names) {
      const resource = mapResource(this.#target, name, { ...this.#scope, ...options } as ResourceOptions);
      this.#nest(resource, block);
    }
  }

  /**
   * Declares singleton resources (one per context, no index, controller named in the plural).
   * @example map.resource('account', { has_many: 'sessions' })
   */
  resource(...args: ResourceArgs): void {
    const { names, options, block } = splitArgs('resource', args);
    warnIgnoredOptions('resource', names, options);
    checkOptionTypes('resource', options);
    if (options.singular !== undefined && options.singular !== null) throw new ArgumentError('resource: use :plural to name a singleton\'s plural; :singular is for collections');
    for (const name of names) {
      const resource = mapSingletonResource(this.#target, name, { ...this.#scope, ...options } as ResourceOptions);
      this.#nest(resource, block);
    }
  }

  /**
   * Groups routes under a path prefix, a controller module and a name prefix.
   * @example map.namespace('admin', (admin) => admin.resources('products'))
   */
  namespace(name: string, optionsOrBlock: Options | Block, maybeBlock?: Block): void {
    const options = typeof optionsOrBlock === 'function' ? {} : optionsOrBlock;
    const block = typeof optionsOrBlock === 'function' ? optionsOrBlock : maybeBlock;
    if (typeof name !== 'string' || name === '') throw new ArgumentError('namespace needs a name');
    // The name becomes a path word, a controller module and a helper prefix at once.
    if (!WORD.test(name)) throw new ArgumentError(`namespace names must be words, got ${JSON.stringify(name) ?? String(name)}${rubySymbolHint(name)}`);
    if (typeof block !== 'function') throw new ArgumentError(`namespace ${JSON.stringify(name)} needs a block`);
    const merged: Options = { ...this.#scope, ...options };
    let scope: Options;
    if (merged.namespace) {
      const { path_prefix, name_prefix, namespace, ...rest } = merged;
      scope = { path_prefix: `${path_prefix ?? ''}/${name}`, name_prefix: `${name_prefix ?? ''}${name}_`, namespace: `${namespace}${name}/`, ...rest };
    } else {
      scope = { path_prefix: name, name_prefix: `${name}_`, namespace: `${name}/`, ...merged };
    }
    block(new Mapper(this.#target, scope));
  }

  /**
   * Routes the empty path: a controller/action hash, or the name of a route declared before.
   * @example map.root({ controller: 'welcome' }); map.root('people')
   */
  root(target: Options | string): void {
    if (typeof target === 'string') {
      const source = this.#target.namedRoute(target);
      if (!source) throw new ArgumentError(`root: there is no named route ${JSON.stringify(target)} to alias`);
      const options: Options = { ...source.defaults };
      if (source.methods) options.conditions = { ...source.conditions, method: source.methods.map((m) => m.toLowerCase()) };
      this.named('root', '', options);
    } else {
      this.named('root', '', target);
    }
  }

  /**
   * A plain route. `:controller` is required, from the path or the options.
   * @example map.connect(':controller/:action/:id')
   */
  connect(path: string, options: Options = {}): void {
    this.#add(null, path, options);
  }

  /**
   * A named plain route, Rails' `map.login 'login', :controller => ...`.
   * @example map.named('login', 'login', { controller: 'sessions', action: 'new' })
   */
  named(name: string, path: string, options: Options = {}): void {
    if (typeof name !== 'string' || name === '') throw new ArgumentError('named: a route name is required');
    this.#add(name, path, options);
  }

  /**
   * Every call inside the block gets these options merged in.
   * @example map.with_options({ controller: 'people' }, (people) => people.named('person', 'people/:id', { action: 'show' }))
   */
  with_options(options: Options, block: Block): void {
    if (!isPlainObject(options) || typeof block !== 'function') throw new ArgumentError('with_options takes an options hash and a block');
    block(new Mapper(this.#target, { ...this.#scope, ...options }));
  }

  #add(name: string | null, path: string, options: Options): void {
    if (typeof path !== 'string') throw new ArgumentError(`route path must be a string, got ${JSON.stringify(path)}`);
    if (!isPlainObject(options)) throw new ArgumentError(`route options must be a hash, got ${JSON.stringify(options)}`);
    const merged: Options = { ...this.#scope, ...options };
    const fullName = name === null ? null : `${merged.name_prefix ?? ''}${name}`;
    this.#target.addRoute(fullName, path, merged);
  }

  #nest(resource: Resource, block: Block | undefined): void {
    // Rails' resource block is `with_options(:path_prefix => ..., :name_prefix => ..., :namespace => options[:namespace])`:
    // the key is there even when nil, so a `namespace` called in the block of a resource outside any namespace merges
    // nil over its own module (and the nesting prefixes over its path and name), and names no module.
    if (block) block(new Mapper(this.#target, { namespace: null, ...nestedOptions(resource) }));
  }
}

/** The options `resources` and `resource` read (spec 2.2); `actions` is what `only`/`except` become for nested resources. */
const RESOURCE_OPTIONS: ReadonlySet<string> = new Set([
  'collection', 'member', 'new', 'controller', 'singular', 'plural', 'requirements', 'conditions', 'as', 'has_one', 'has_many',
  'path_names', 'path_prefix', 'name_prefix', 'shallow', 'only', 'except', 'namespace', 'actions',
]);

/** The options a warning may point to: `actions` is read, but only ever passed down to nested resources. */
const SUGGESTED_OPTIONS: ReadonlySet<string> = new Set([...RESOURCE_OPTIONS].filter((o) => o !== 'actions'));

// What each option given by hand must be; a wrong type would otherwise end up, stringified, in paths and helper names.
// A nil one is the default, as in Rails' `options[:controller] || plural` and `options[:singular] || plural.singularize`.
const WORD = /^\w+$/;
// A controller path, or a constant naming the controller: Rails found it by camelizing the route's controller, so
// `:controller => 'Community::Projects'` reached Community::ProjectsController as `'community/projects'` did.
const CONTROLLER_NAME = /^\w+(?:(?:\/|::)\w+)*$/;
const OPTION_TYPES: Readonly<Record<string, { readonly shape: string; readonly ok: (v: unknown) => boolean }>> = {
  controller: { shape: 'a controller name', ok: (v) => v === null || (typeof v === 'string' && CONTROLLER_NAME.test(v)) },
  singular: { shape: 'a word', ok: (v) => v === null || (typeof v === 'string' && WORD.test(v)) },
  plural: { shape: 'a word', ok: (v) => v === null || (typeof v === 'string' && WORD.test(v)) },
  path_prefix: { shape: 'a path or nil', ok: (v) => v === null || typeof v === 'string' },
  name_prefix: { shape: 'a string or nil', ok: (v) => v === null || typeof v === 'string' },
  requirements: { shape: 'a hash', ok: (v) => v === null || isPlainObject(v) },
  conditions: { shape: 'a hash', ok: (v) => v === null || isPlainObject(v) },
  path_names: { shape: 'a hash', ok: (v) => v === null || isPlainObject(v) },
  shallow: { shape: 'true or false', ok: (v) => v === null || typeof v === 'boolean' },
};

/** A declared value as an error shows it: JSON, but a RegExp as its source (JSON would show `{}`) and a Symbol as itself. */
function shownRouteValue(value: unknown): string {
  return value instanceof RegExp ? String(value) : JSON.stringify(value) ?? String(value);
}

function checkOptionTypes(method: string, options: Options): void {
  for (const [key, value] of Object.entries(options)) {
    const type = OPTION_TYPES[key];
    if (type === undefined || value === undefined || type.ok(value)) continue;
    throw new ArgumentError(`${method}: :${key} must be ${type.shape}, got ${shownRouteValue(value)}${rubySymbolHint(value)}`);
  }
}

/**
 * Rails 2.1 ignored an option `resources` does not read, and so does Signalbox, so that a routes file ports
 * as it is; in development a warning names it, since `{ onli: ['index'] }` routes all seven actions.
 */
function warnIgnoredOptions(method: string, names: readonly string[], options: Options): void {
  for (const key of Object.keys(options)) {
    if (RESOURCE_OPTIONS.has(key)) continue;
    const meant = meantName(key, SUGGESTED_OPTIONS);
    developmentWarning('SIGNALBOX_ROUTE_OPTION_IGNORED', `${method}\u0000${key}`,
      `${method}(${names.map((n) => JSON.stringify(n)).join(', ')}) ignores the option ${JSON.stringify(key)}${meant === null ? '' : ` (did you mean ${meant}?)`}, as Rails 2.1 did`);
  }
}

function splitArgs(method: string, args: ResourceArgs): { names: string[]; options: Options; block: Block | undefined } {
  const rest = [...args];
  const block = typeof rest[rest.length - 1] === 'function' ? (rest.pop() as Block) : undefined;
  const options = isPlainObject(rest[rest.length - 1]) ? (rest.pop() as Options) : {};
  // After an options hash only the block may come: `resources('posts', { only }, 5)` is a block gone wrong, not a name.
  if (block === undefined && rest.length > 1 && rest.slice(0, -1).some(isPlainObject)) {
    throw new ArgumentError(`${method}: after the options hash comes only the block, a function; got ${shownRouteValue(rest[rest.length - 1])}`);
  }
  const names = rest.map((n) => {
    if (typeof n !== 'string' || !WORD.test(n)) throw new ArgumentError(`${method}: resource names must be words, got ${shownRouteValue(n)}${rubySymbolHint(n)}`);
    return n;
  });
  if (names.length === 0) throw new ArgumentError(`${method} needs at least one name`);
  return { names, options, block };
}
