/**
 * `map.resources` / `map.resource`: a naming calculator (`Resource`,
 * `SingletonResource`) and the emitters that turn it into routes, in the
 * order Rails 2.1/2.2 emits them. Every default, custom and nested action
 * gets a plain route and a `.:format` twin named `formatted_<name>`.
 */
import { ArgumentError } from '../errors.ts';
import { meantName, rubySymbolHint } from '../options.ts';
import { isPlainObject } from '../util.ts';
import { withoutTrailingSlashes } from './params.ts';
import type { Inflector } from './inflector.ts';
import { HTTP_METHODS } from './route.ts';
import type { RequirementInput } from './requirement.ts';
import { developmentWarning } from './warnings.ts';

/** The seven RESTful actions and how each is reached. */
export const RESTFUL_ACTIONS = Object.freeze({
  index: { method: 'get', member: false },
  create: { method: 'post', member: false },
  new: { method: 'get', member: false },
  edit: { method: 'get', member: true },
  show: { method: 'get', member: true },
  update: { method: 'put', member: true },
  destroy: { method: 'delete', member: true },
} as const);

export type DefaultAction = keyof typeof RESTFUL_ACTIONS;
export const DEFAULT_ACTIONS = Object.freeze(['index', 'create', 'new', 'edit', 'show', 'update', 'destroy'] as const);

const ID_REQUIREMENT: RequirementInput = Object.freeze({ source: '[^/.?]+', flags: '' });

/** Options passed down to nested resources (`only`/`except` travel as the computed `actions`). */
export const INHERITABLE_OPTIONS = Object.freeze(['namespace', 'shallow', 'actions'] as const);

/** A method spec for extra actions: `'get'`, `['get', 'post']` or `'any'`. */
export type MethodSpec = string | readonly string[];

/**
 * Extra actions: `{ search: 'get' }` by method, or a list of names (`['preview']`), each then routed
 * for any method, as Rails reads `:collection => [:preview]`.
 */
export type ExtraActions = Readonly<Record<string, MethodSpec>> | readonly string[] | string;

/**
 * A resource's requirement: a pattern its segments must match, or (as Rails 2.x documents, `:requirements =>
 * { :protocol => 'https' }`) a fixed value, which recognition returns as a parameter and generation must be given.
 */
export type ResourceRequirement = RequirementInput | string | number | boolean | null;

export interface ResourceOptions {
  collection?: ExtraActions;
  member?: ExtraActions;
  new?: ExtraActions;
  controller?: string;
  singular?: string;
  plural?: string;
  requirements?: Readonly<Record<string, ResourceRequirement>>;
  conditions?: Readonly<Record<string, unknown>>;
  as?: string;
  has_one?: string | readonly string[] | null;
  has_many?: HasMany | null;
  path_names?: Readonly<Record<string, string>>;
  path_prefix?: string | null;
  name_prefix?: string | null;
  shallow?: boolean;
  only?: ActionList;
  except?: ActionList;
  namespace?: string;
  /** Computed from `only`/`except`; passed down to nested resources. */
  actions?: readonly string[] | null;
  [key: string]: unknown;
}

export type HasMany = string | readonly (string | HasManyHash)[] | HasManyHash;
export interface HasManyHash {
  readonly [name: string]: HasMany | null;
}
export type ActionList = 'all' | 'none' | string | readonly string[];

/** What a route emitter needs from the route set being drawn. */
export interface ResourceContext {
  readonly inflector: Inflector;
  readonly resources_path_names: Readonly<{ new: string; edit: string } & Record<string, string>>;
  readonly resource_action_separator: string;
  hasNamedRoute(name: string): boolean;
  addRoute(name: string | null, path: string, options: Record<string, unknown>): void;
}

type MethodGroups = { method: MethodSpec | null; actions: string[] }[];

/** Naming and path calculator for a collection resource. Reads its options, never changes them. */
export class Resource {
  readonly plural: string;
  readonly singular: string;
  readonly pathSegment: string;
  readonly pathPrefix: string;
  readonly namePrefix: string;
  readonly options: Readonly<ResourceOptions>;
  readonly collectionMethods: MethodGroups;
  readonly memberMethods: MethodGroups;
  readonly newMethods: MethodGroups;
  /** Default actions routed, or null for all seven. */
  readonly actions: readonly string[] | null;

  constructor(entity: string, options: ResourceOptions, ctx: ResourceContext, singleton = false) {
    this.options = options;
    this.plural = entity;
    this.singular = singleton ? entity : (options.singular ?? ctx.inflector.singular(entity));
    // An empty `:as` mounts the resource at its prefix, as Rails' `"#{path_prefix}/#{path_segment}"` did: an
    // account singleton with `:as => ''` answers `/` on its own subdomain (and edits at `//edit`, as in Rails).
    this.pathSegment = options.as === undefined || options.as === null ? entity : options.as === '' ? '' : pathWords('as', options.as);
    for (const [action, word] of Object.entries(options.path_names ?? {})) pathWords(`path_names ${action}`, word);
    // Paths are joined as `${prefix}/${segment}`: a prefix written with a trailing slash would double it.
    this.pathPrefix = withoutTrailingSlashes(options.path_prefix ?? '');
    this.namePrefix = options.name_prefix ?? '';
    this.collectionMethods = arrangeByMethod(options.collection);
    this.memberMethods = arrangeByMethod(options.member);
    this.newMethods = arrangeByMethod(options.new);
    addDefaultAction(this.memberMethods, 'edit');
    addDefaultAction(this.newMethods, 'new');
    this.actions = allowedActions(singleton ? 'resource' : 'resources', entity, options);
  }

  #controller: string | null = null;

  get controller(): string {
    return (this.#controller ??= `${this.options.namespace ?? ''}${this.options.controller ?? this.plural}`);
  }

  get path(): string {
    return `${this.pathPrefix}/${this.pathSegment}`;
  }

  newPath(ctx: ResourceContext): string {
    return `${this.path}/${this.options.path_names?.new ?? ctx.resources_path_names.new}`;
  }

  /** Member routes of a shallow resource keep only the namespace's prefix, never their parents'. */
  get shallowPathPrefix(): string {
    return this.options.shallow ? namespacePath(this.options.namespace) : this.pathPrefix;
  }

  get memberPath(): string {
    return `${this.shallowPathPrefix}/${this.pathSegment}/:id`;
  }

  get nestingPathPrefix(): string {
    return `${this.shallowPathPrefix}/${this.pathSegment}/:${this.singular}_id`;
  }

  get shallowNamePrefix(): string {
    return this.options.shallow ? namespaceName(this.options.namespace) : this.namePrefix;
  }

  get nestingNamePrefix(): string {
    return `${this.shallowNamePrefix}${this.singular}_`;
  }

  get uncountable(): boolean {
    return this.singular === this.plural;
  }

  hasAction(action: string): boolean {
    return !(DEFAULT_ACTIONS as readonly string[]).includes(action) || this.actions === null || this.actions.includes(action);
  }

  #requirements: [Record<string, ResourceRequirement>, Record<string, ResourceRequirement>] | null = null;

  /** Requirements of collection routes; `:id`'s is kept for member routes only (default: `[^/.?]+`). */
  requirements(withId: boolean): Record<string, ResourceRequirement> {
    if (this.#requirements === null) {
      const { id, ...rest } = this.options.requirements ?? {};
      this.#requirements = [rest, { ...rest, id: id ?? ID_REQUIREMENT }];
    }
    return this.#requirements[withId ? 1 : 0];
  }

  #conditions = new Map<string | null, Record<string, unknown>>();

  /**
   * The resource's conditions with `method` set to the chosen one (or left out for none or `any`).
   * Routes only read their options, so routes that choose the same method share one object.
   */
  conditionsFor(chosen: MethodSpec | null): Record<string, unknown> {
    const cacheable = chosen === null || typeof chosen === 'string';
    let conditions = cacheable ? this.#conditions.get(chosen) : undefined;
    if (conditions === undefined) {
      conditions = { ...(this.options.conditions ?? {}) };
      if (chosen !== null && chosen !== 'any') conditions.method = chosen;
      else delete conditions.method;
      if (cacheable) this.#conditions.set(chosen, conditions);
    }
    return conditions;
  }

  /** Whether member routes carry an `:id` (false for singletons). */
  get requiresId(): boolean {
    return true;
  }
}

/** A singleton resource: one per context, no index, no `:id`; the controller is named in the plural. */
export class SingletonResource extends Resource {
  constructor(entity: string, options: ResourceOptions, ctx: ResourceContext) {
    super(entity, { ...options, controller: options.controller ?? options.plural ?? ctx.inflector.plural(entity) }, ctx, true);
  }

  override get shallowPathPrefix(): string {
    return this.pathPrefix;
  }

  override get shallowNamePrefix(): string {
    return this.namePrefix;
  }

  override get memberPath(): string {
    return `${this.pathPrefix}/${this.pathSegment}`;
  }

  override get nestingPathPrefix(): string {
    return `${this.pathPrefix}/${this.pathSegment}`;
  }

  override get requiresId(): boolean {
    return false;
  }
}

// `admin/` (a namespace's controller module) as a path prefix and as a name prefix.
function namespacePath(namespace: string | undefined): string {
  return namespace ? namespace.replace(/\/$/, '') : '';
}

function namespaceName(namespace: string | undefined): string {
  return namespace ? namespace.replace(/\//g, '_') : '';
}

function arrangeByMethod(actions: ExtraActions | undefined | null): MethodGroups {
  const groups: MethodGroups = [];
  for (const [action, method] of extraActionEntries(actions)) {
    validateMethodSpec(action, method);
    const key = methodKey(method);
    let group = groups.find((g) => methodKey(g.method) === key);
    if (!group) groups.push((group = { method: method ?? null, actions: [] }));
    group.actions.push(action);
  }
  return groups;
}

/** `[action, method]` pairs; a name given in a list has no method (null: any method). */
function extraActionEntries(actions: ExtraActions | undefined | null): [string, MethodSpec | null][] {
  if (actions === undefined || actions === null) return [];
  if (typeof actions === 'string') return [[extraActionName(actions), null]];
  if (Array.isArray(actions)) {
    return actions.map((name: unknown) => {
      if (typeof name !== 'string' || name === '') throw new ArgumentError(`Extra action names in a list must be strings, got ${JSON.stringify(name)}`);
      return [extraActionName(name), null];
    });
  }
  if (typeof actions !== 'object') throw new ArgumentError(`Extra actions must be a hash of action => method or a list of names, got ${JSON.stringify(actions)}`);
  return Object.entries(actions as Readonly<Record<string, MethodSpec>>).map(([name, method]) => [extraActionName(name), method]);
}

// An extra action's name is pasted into its path and its route's name: a `:` or `*` there would declare a
// parameter, a separator would split the segment, and an empty name would shadow the resource's own route.
const PATH_WORD_BREAKERS = /[\s/.?:*#%]|[\u0000-\u001f\u007f]/u;
/** The same but for '/': path words may span segments, one word per segment. */
const PATH_WORDS_BREAKERS = /[\s.?:*#%]|[\u0000-\u001f\u007f]/u;

// A whole segment written `:name`: Rails pasted these words into the route's path, where such a segment declares a
// parameter as in any path (`:path_names => { :has_git_access => 'has_git_access/:user' }`).
const PARAMETER_SEGMENT = /^:[A-Za-z_]\w*$/;

// `:as` and `:path_names` replace path words; they may span segments (`/`) and declare parameters, but not globs,
// formats or optional pieces, which a word cannot be told from.
export function pathWords(option: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || /^\/|\/$|\/\//.test(value) || value.split('/').some((part) => !PARAMETER_SEGMENT.test(part) && PATH_WORDS_BREAKERS.test(part))) {
    throw new ArgumentError(`:${option} must be path words: a string without whitespace, '.', '?', '*', '#' or '%', with '/' only between words and ':' only to start a parameter (:name); got ${JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}

function extraActionName(name: string): string {
  if (name === '' || PATH_WORD_BREAKERS.test(name)) {
    throw new ArgumentError(`Extra action ${JSON.stringify(name)} cannot name a path segment: action names may not be empty or contain whitespace, '/', '.', '?', ':', '*', '#' or '%'`);
  }
  return name;
}

function methodKey(method: MethodSpec | null): string {
  return Array.isArray(method) ? `[${method.map((m) => String(m).toLowerCase()).join(',')}]` : String(method ?? 'nil').toLowerCase();
}

function validateMethodSpec(action: string, method: MethodSpec | null | undefined): void {
  if (method === null || method === undefined) return;
  for (const m of Array.isArray(method) ? method : [method]) {
    const name = String(m).toLowerCase();
    if (name === 'any') continue;
    if (name === 'head') throw new ArgumentError(`HTTP method HEAD is invalid for the ${action} action: HEAD requests are answered by GET routes`);
    if (!(HTTP_METHODS as readonly string[]).includes(name)) throw new ArgumentError(`Invalid HTTP method ${JSON.stringify(m)} for the ${action} action${rubySymbolHint(m) || ': use get, post, put, delete, options or any'}`);
  }
}

function addDefaultAction(groups: MethodGroups, action: string): void {
  let group = groups.find((g) => methodKey(g.method) === 'get');
  if (!group) groups.push((group = { method: 'get', actions: [] }));
  group.actions.unshift(action);
}

function allowedActions(method: string, entity: string, options: ResourceOptions): readonly string[] | null {
  // A nil :only or :except is no list at all: Rails 2.2 asked `if only` and `elsif except`, so `:only => nil` (a
  // routes file's variable left unset, say) drew every action, or the ones the enclosing resource allowed.
  const only = options.only ?? undefined;
  const except = options.except ?? undefined;
  for (const [option, value] of [['only', only], ['except', except]] as const) {
    if (value !== undefined && typeof value !== 'string' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      throw new ArgumentError(`${method}(${JSON.stringify(entity)}): :${option} takes :all, :none, an action name or a list of action names, got ${JSON.stringify(value) ?? String(value)}`);
    }
  }
  if (only !== undefined && except !== undefined) {
    // Rails 2.2 read both and let :only decide (after :all and :none of either), so a routes file that
    // gives both draws as it did there; development says which one was ignored.
    developmentWarning('SIGNALBOX_ROUTE_OPTION_IGNORED', `${method}\u0000only+except\u0000${entity}`,
      `${method}(${JSON.stringify(entity)}) was given both :only and :except; as Rails 2.2 did, ${bothDecides(only, except)}`);
  }
  if (only === 'all' || except === 'none') return DEFAULT_ACTIONS;
  if (only === 'none' || except === 'all') return [];
  if (only !== undefined) { const names = actionNames(method, entity, 'only', only); return DEFAULT_ACTIONS.filter((a) => names.includes(a)); }
  if (except !== undefined) { const names = actionNames(method, entity, 'except', except); return DEFAULT_ACTIONS.filter((a) => !names.includes(a)); }
  return options.actions ?? null;
}

/** Which of :only and :except given together decides, in the words of the warning. */
function bothDecides(only: ActionList, except: ActionList): string {
  if (only === 'all' || only === 'none') return `:only => :${only} decides and :except is ignored`;
  if (except === 'all' || except === 'none') return `:except => :${except} decides and :only is ignored`;
  return ':only decides and :except is ignored';
}

const DEFAULT_ACTION_SET: ReadonlySet<string> = new Set(DEFAULT_ACTIONS);

/**
 * The action names an `:only`/`:except` list gives. Rails 2.2 kept only the default actions a list names, so a
 * name that is none of them (`:except => [:delete]`) routes as if absent; in development a warning names it.
 */
function actionNames(method: string, entity: string, option: 'only' | 'except', value: ActionList): string[] {
  const names = (Array.isArray(value) ? value : [value]).map(String);
  for (const n of names) {
    if (DEFAULT_ACTION_SET.has(n)) continue;
    const meant = meantName(n, DEFAULT_ACTION_SET);
    developmentWarning('SIGNALBOX_ROUTE_OPTION_IGNORED', `${method}\u0000${option}\u0000${n}`,
      `${method}(${JSON.stringify(entity)}) ignores ${JSON.stringify(n)} in :${option}${meant === null ? '' : ` (did you mean ${meant}?)`}, which is none of the default actions (${DEFAULT_ACTIONS.join(', ')}), as Rails 2.2 did`);
  }
  return names;
}

/**
 * Options of one resource route: controller, action, method condition and requirements. A route on
 * the member path (`onMember`: the default member actions and the `:member` extras) carries the `:id`
 * requirement, so an id the resource's requirements admit reaches every member action.
 *
 * An extra action named like a default one takes that action's requirements wherever it is drawn, as
 * Rails' action_options_for chose them by the action's name before its place: a `:member => { :create
 * => :get }` route has no `:id` requirement (an id with a dot, or one a custom `:id` requirement
 * refuses, still reaches it), and a `:collection => { :destroy => :delete }` route has one, though its
 * path has no `:id`, so it generates only from an id the requirement admits.
 */
function actionOptions(action: string, resource: Resource, method: MethodSpec | null, onMember: boolean): Record<string, unknown> {
  const restful = Object.hasOwn(RESTFUL_ACTIONS, action) ? RESTFUL_ACTIONS[action as DefaultAction] : undefined;
  const chosen = method ?? restful?.method ?? null;
  const withId = restful === undefined ? onMember : restful.member;
  return { controller: resource.controller, action, conditions: resource.conditionsFor(chosen), ...resource.requirements(withId && resource.requiresId) };
}

/** Emits a route and its `.:format` twin; the first route to claim a name keeps it. */
function mapResourceRoutes(ctx: ResourceContext, resource: Resource, action: string, path: string, name: string | null, method: MethodSpec | null = null, onMember = false): void {
  if (!resource.hasAction(action)) return;
  const options = actionOptions(action, resource, method, onMember);
  if (name !== null && !ctx.hasNamedRoute(name)) {
    ctx.addRoute(name, path, options);
    ctx.addRoute(`formatted_${name}`, `${path}.:format`, options);
  } else {
    ctx.addRoute(null, path, options);
    ctx.addRoute(null, `${path}.:format`, options);
  }
}

function eachMethod(method: MethodSpec | null, fn: (m: MethodSpec | null) => void): void {
  if (Array.isArray(method)) for (const m of method) fn(m);
  else fn(method);
}

function mapCollectionActions(ctx: ResourceContext, r: Resource): void {
  for (const { method, actions } of r.collectionMethods) {
    for (const action of actions) {
      eachMethod(method, (m) => mapResourceRoutes(ctx, r, action, `${r.path}${ctx.resource_action_separator}${action}`, `${action}_${r.namePrefix}${r.plural}`, m));
    }
  }
}

function mapDefaultCollectionActions(ctx: ResourceContext, r: Resource): void {
  // An uncountable name (sheep/sheep) needs `_index` to tell the collection from a member.
  const name = `${r.namePrefix}${r.plural}${r.uncountable ? '_index' : ''}`;
  mapResourceRoutes(ctx, r, 'index', r.path, name);
  mapResourceRoutes(ctx, r, 'create', r.path, name);
}

function mapNewActions(ctx: ResourceContext, r: Resource): void {
  for (const { method, actions } of r.newMethods) {
    for (const action of actions) {
      let path = r.newPath(ctx);
      let name = `new_${r.namePrefix}${r.singular}`;
      if (action !== 'new') {
        path = `${path}${ctx.resource_action_separator}${action}`;
        name = `${action}_${name}`;
      }
      mapResourceRoutes(ctx, r, action, path, name, method);
    }
  }
}

/**
 * The path word a table of path names gives an action, read from the table's own keys only: an action may
 * be named like a property every object inherits (`constructor`, `valueOf`), and its word is then its name,
 * not the text of a built-in function.
 */
function ownWord(names: Readonly<Record<string, string>> | null | undefined, action: string): string | undefined {
  return names !== undefined && names !== null && Object.hasOwn(names, action) ? names[action] : undefined;
}

function mapMemberActions(ctx: ResourceContext, r: Resource): void {
  for (const { method, actions } of r.memberMethods) {
    for (const action of actions) {
      const word = ownWord(r.options.path_names, action) ?? ownWord(ctx.resources_path_names, action) ?? action;
      eachMethod(method, (m) => mapResourceRoutes(ctx, r, action, `${r.memberPath}${ctx.resource_action_separator}${word}`, `${action}_${r.shallowNamePrefix}${r.singular}`, m, true));
    }
  }
  const name = `${r.shallowNamePrefix}${r.singular}`;
  mapResourceRoutes(ctx, r, 'show', r.memberPath, name, null, true);
  mapResourceRoutes(ctx, r, 'update', r.memberPath, name, null, true);
  mapResourceRoutes(ctx, r, 'destroy', r.memberPath, name, null, true);
}

/** Options a nested resource inherits, plus the prefixes that nest it. */
export function nestedOptions(r: Resource): ResourceOptions {
  const inherited: Record<string, unknown> = {};
  const withActions: Record<string, unknown> = { ...r.options, actions: r.actions };
  for (const key of INHERITABLE_OPTIONS) if (withActions[key] !== undefined && withActions[key] !== null) inherited[key] = withActions[key];
  return { ...inherited, path_prefix: r.nestingPathPrefix, name_prefix: r.nestingNamePrefix };
}

function mapAssociations(ctx: ResourceContext, r: Resource): void {
  // nil (and Ruby's false) declare nothing, as `if options[:has_many]` and `Array(nil)` do in Rails.
  const hasMany: unknown = r.options.has_many;
  if (hasMany !== undefined && hasMany !== null && hasMany !== false) mapHasMany(ctx, r, hasMany as HasMany);
  const hasOne: unknown = r.options.has_one;
  if (hasOne === undefined || hasOne === null || hasOne === false) return;
  for (const name of Array.isArray(hasOne) ? hasOne : [hasOne]) {
    mapSingletonResource(ctx, associationName('has_one', name, 'a name or a list of names'), nestedOptions(r));
  }
}

function mapHasMany(ctx: ResourceContext, r: Resource, associations: HasMany, nested?: HasMany): void {
  const inner: unknown = nested;
  const deeper = inner === undefined || inner === null || inner === false ? undefined : nested;
  if (Array.isArray(associations)) {
    for (const a of associations) mapHasMany(ctx, r, a as HasMany, deeper);
  } else if (isPlainObject(associations)) {
    for (const [name, more] of Object.entries(associations as Record<string, HasMany>)) mapHasMany(ctx, r, name, more);
  } else {
    const name = associationName('has_many', associations, 'a name, a list of names or a hash of names');
    mapResource(ctx, name, deeper === undefined ? nestedOptions(r) : { ...nestedOptions(r), has_many: deeper });
  }
}

// Association names become paths, controllers and helper names, as resource names do, so they must be words too.
function associationName(option: string, name: unknown, shape: string): string {
  if (typeof name !== 'string' || !/^\w+$/.test(name)) throw new ArgumentError(`:${option} takes ${shape}; association names must be words, got ${JSON.stringify(name) ?? String(name)}${rubySymbolHint(name)}`);
  return name;
}

/** Declares one collection resource; returns its calculator so a block can nest under it. */
export function mapResource(ctx: ResourceContext, entity: string, options: ResourceOptions): Resource {
  const r = new Resource(entity, options, ctx);
  mapCollectionActions(ctx, r);
  mapDefaultCollectionActions(ctx, r);
  mapNewActions(ctx, r);
  mapMemberActions(ctx, r);
  mapAssociations(ctx, r);
  return r;
}

/**
 * Declares one singleton resource; returns its calculator so a block can nest under it.
 *
 * Rails 2.1.2 draws a singleton's create route (and its twin) right after the collection actions, before
 * the new, edit and show routes, and leaves it unnamed. Rails 2.2 moved it after the member routes so that
 * show, not create, would claim the shared name; the order here is 2.1.2's, and the name is what 2.2
 * gives: create is `<name>` only when `:only`/`:except` leave it none of show, update and destroy to name.
 */
export function mapSingletonResource(ctx: ResourceContext, entity: string, options: ResourceOptions): Resource {
  const r = new SingletonResource(entity, options, ctx);
  const name = `${r.shallowNamePrefix}${r.singular}`;
  const memberNamed = r.hasAction('show') || r.hasAction('update') || r.hasAction('destroy');
  mapCollectionActions(ctx, r);
  mapResourceRoutes(ctx, r, 'create', r.path, memberNamed ? null : name);
  mapNewActions(ctx, r);
  mapMemberActions(ctx, r);
  mapAssociations(ctx, r);
  return r;
}
