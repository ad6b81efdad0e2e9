/**
 * Random route tables drawn with the DSL, for the routing properties (not a
 * test file itself): resources with random options, nested by block and by
 * has_many/has_one, inside namespaces; connect and named routes with
 * requirements, defaults, nil options, method conditions, formats and globs;
 * Rails' default route. Tables are unambiguous by construction (each route
 * reachable: distinct words), so a property failing on one points at the
 * code under test, never at a shadowed route.
 */
import fc from 'fast-check';
import { draw, type DrawConfig, type Mapper, type RouteSet } from '../../../core/index.ts';

const TOP = ['posts', 'users', 'people', 'boxes', 'sheep'];
const SINGLETONS = ['account', 'profile'];
const NESTED = ['comments', 'tags', 'photos', 'news'];
const NESTED_SINGLETONS = ['avatar', 'session'];
const EXTRA_ACTIONS = ['mark', 'publish', 'search', 'preview'];
const DEFAULT_ACTIONS = ['index', 'create', 'new', 'edit', 'show', 'update', 'destroy'];
// Words of connect routes and of the default route's controllers: none is a resource's.
export const CONNECT_WORDS = ['archive', 'files', 'feeds', 'calendar', 'lookup'];
export const DEFAULT_ROUTE_CONTROLLERS = ['pages', 'reports', 'admin/reports'];

export type Requirement = 'none' | 'digits' | 'maybe_digits' | 'year' | 'letters_i' | 'dotted' | 'extended';
export const REQUIREMENTS: Record<Requirement, unknown> = {
  none: undefined,
  digits: /\d+/,
  // Accepts '': a trailing slash can then end an empty last segment.
  maybe_digits: /\d*/,
  year: /\d{4}/,
  letters_i: /id[a-z]+/i,
  dotted: /\d+\.\d+/,
  extended: { source: '\\d+ # digits only\n', flags: 'x' },
};

export interface ResourceDecl {
  readonly singleton: boolean;
  readonly name: string;
  readonly options: Record<string, unknown>;
  readonly children: readonly ResourceDecl[];
}

function resourceArb(depth: number): fc.Arbitrary<ResourceDecl> {
  const children = depth === 0 ? fc.constant([] as ResourceDecl[]) : fc.uniqueArray(resourceArb(depth - 1), { maxLength: 2, selector: (r) => r.name });
  const top = depth === 2;
  return fc.record({
    singleton: fc.boolean(),
    plural: fc.constantFrom(...(top ? TOP : NESTED)),
    singular: fc.constantFrom(...(top ? SINGLETONS : NESTED_SINGLETONS)),
    limit: fc.oneof(
      fc.constant({}),
      fc.subarray(DEFAULT_ACTIONS, { minLength: 1 }).map((only) => ({ only })),
      fc.subarray(DEFAULT_ACTIONS, { minLength: 1 }).map((except) => ({ except })),
    ),
    shallow: fc.boolean(),
    idRequirement: fc.constantFrom<Requirement>('none', 'none', 'digits', 'letters_i', 'dotted', 'extended'),
    // Extra actions by method, or as a plain list (any method).
    member: fc.oneof(
      fc.dictionary(fc.constantFrom(...EXTRA_ACTIONS), fc.constantFrom<string | string[]>('get', 'put', 'any', ['get', 'post']), { maxKeys: 2 }),
      fc.subarray(EXTRA_ACTIONS, { maxLength: 2 }),
    ),
    collection: fc.oneof(fc.dictionary(fc.constantFrom(...EXTRA_ACTIONS), fc.constantFrom('get', 'post'), { maxKeys: 1 }), fc.subarray(EXTRA_ACTIONS, { maxLength: 1 })),
    as: fc.boolean(),
    pathNames: fc.boolean(),
    pathPrefix: top ? fc.boolean() : fc.constant(false),
    hasMany: depth === 0 ? fc.constant<string[]>([]) : fc.subarray(['comments', 'tags'], { maxLength: 1 }),
    hasOne: depth === 0 ? fc.constant<string[]>([]) : fc.subarray(['avatar'], { maxLength: 1 }),
    children,
  }).map((r) => {
    const name = r.singleton ? r.singular : r.plural;
    const names = (x: Record<string, unknown> | string[]) => (Array.isArray(x) ? x : Object.keys(x));
    const memberNames = names(r.member);
    // A collection action named like a member one would shadow it; a nested resource declared twice shadows itself.
    const collection = Array.isArray(r.collection) ? r.collection.filter((a) => !memberNames.includes(a)) : Object.fromEntries(Object.entries(r.collection).filter(([a]) => !memberNames.includes(a)));
    const kids = r.children.filter((c) => c.name !== name);
    const options: Record<string, unknown> = { ...r.limit };
    if (r.shallow) options.shallow = true;
    if (r.idRequirement !== 'none') options.requirements = { id: REQUIREMENTS[r.idRequirement] };
    if (memberNames.length > 0) options.member = r.member;
    if (names(collection).length > 0) options.collection = collection;
    if (r.as) options.as = `${name}_x`;
    if (r.pathNames) options.path_names = { new: 'nuevo', edit: 'editar' };
    // Not with shallow: shallow member routes would keep a requirement on a key their path lost (as in Rails).
    if (r.pathPrefix) options.path_prefix = '/sites/:site_id';
    if (r.pathPrefix && !r.shallow) options.requirements = { ...(options.requirements as object), site_id: /\d+/ };
    // A resource nested in itself (`avatar/avatar`) generates its parent's path for the same parameters.
    const hasMany = r.hasMany.filter((n) => n !== name && !kids.some((c) => c.name === n));
    const hasOne = r.hasOne.filter((n) => n !== name && !kids.some((c) => c.name === n));
    if (hasMany.length > 0) options.has_many = hasMany;
    if (hasOne.length > 0) options.has_one = hasOne;
    return { singleton: r.singleton, name, options, children: kids };
  });
}

export interface SegmentDecl {
  readonly key: string;
  readonly requirement: Requirement;
  /** A default (the segment may be left off), 'nil' (optional without one), or none. */
  readonly fallback: 'none' | 'nil' | 'value';
}

export interface ConnectDecl {
  readonly word: string;
  readonly named: boolean;
  readonly segments: readonly SegmentDecl[];
  readonly format: boolean;
  readonly glob: boolean;
  readonly method: string | null;
  readonly nilOption: boolean;
}

const connectArb: fc.Arbitrary<ConnectDecl> = fc.record({
  word: fc.constantFrom(...CONNECT_WORDS),
  named: fc.boolean(),
  segments: fc.array(fc.record({
    requirement: fc.constantFrom<Requirement>('none', 'digits', 'maybe_digits', 'year', 'letters_i'),
    fallback: fc.constantFrom<'none' | 'nil' | 'value'>('none', 'nil', 'value'),
  }), { maxLength: 3 }).map((ss) => ss.map((s, i) => ({ ...s, key: `k${i}` }))),
  format: fc.boolean(),
  glob: fc.boolean(),
  method: fc.constantFrom(null, null, 'get', 'post'),
  nilOption: fc.boolean(),
}).map((c) => ({
  ...c,
  // A glob takes the rest of the path, so nothing follows it; defaults only make sense at the end.
  format: c.format && !c.glob,
  segments: c.segments.map((s, i, all) => ({ ...s, fallback: c.glob || c.format || all.slice(i + 1).some((t) => t.fallback === 'none') ? 'none' : s.fallback })),
}));

export interface TableDecl {
  readonly resources: readonly { namespace: string | null; resource: ResourceDecl }[];
  readonly connects: readonly ConnectDecl[];
  readonly defaultRoute: boolean;
  readonly controllersList: boolean;
}

export const tableArb: fc.Arbitrary<TableDecl> = fc.record({
  resources: fc.uniqueArray(fc.record({ namespace: fc.constantFrom(null, null, 'admin'), resource: resourceArb(2) }), {
    minLength: 1, maxLength: 3, selector: (r) => `${r.namespace}/${r.resource.name}`,
  }),
  connects: fc.uniqueArray(connectArb, { maxLength: 3, selector: (c) => c.word }),
  defaultRoute: fc.boolean(),
  controllersList: fc.boolean(),
}).map((t) => {
  const seen = new Set<string>();
  return { ...t, resources: t.resources.map(({ namespace, resource }) => ({ namespace, resource: onlyOnce(resource, namespace, seen)! })) };
});

/**
 * Each resource name once per namespace, however it is declared (block, has_many, has_one). Rails
 * tables may declare one twice (under two parents, or a singleton that adds no key to its children's
 * paths), but then two routes answer to the very same parameters and generation can give only one of
 * them: such a table has no round trip to check.
 */
function onlyOnce(r: ResourceDecl, namespace: string | null, seen: Set<string>): ResourceDecl | null {
  const key = (name: string) => `${namespace}/${name}`;
  if (seen.has(key(r.name))) return null;
  seen.add(key(r.name));
  const options = { ...r.options };
  for (const association of ['has_many', 'has_one'] as const) {
    const names = ((options[association] ?? []) as string[]).filter((n) => !seen.has(key(n)));
    for (const n of names) seen.add(key(n));
    if (names.length > 0) options[association] = names;
    else delete options[association];
  }
  const children = r.children.map((c) => onlyOnce(c, namespace, seen)).filter((c): c is ResourceDecl => c !== null);
  return { ...r, options, children };
}

function declare(map: Mapper, r: ResourceDecl, namespaced: boolean): void {
  const options = namespaced ? forNamespace(r.options) : r.options;
  const block = r.children.length === 0 ? [] : [(inner: Mapper) => { for (const c of r.children) declare(inner, c, namespaced); }];
  if (r.singleton) map.resource(r.name, options, ...block);
  else map.resources(r.name, options, ...block);
}

/**
 * Inside a namespace: no shallow nesting (2.1 and 2.2 disagree on its member paths there), and no
 * path_prefix (it replaces the namespace's, so the route would collide with its un-namespaced twin).
 */
function forNamespace(options: Record<string, unknown>): Record<string, unknown> {
  const { shallow: _shallow, path_prefix: _prefix, ...rest } = options;
  if (_prefix !== undefined && rest.requirements) {
    const { site_id: _site, ...requirements } = rest.requirements as Record<string, unknown>;
    return Object.keys(requirements).length > 0 ? { ...rest, requirements } : (({ requirements: _r, ...r }) => r)(rest);
  }
  return rest;
}

// A default each requirement accepts.
const DEFAULT_VALUES: Record<Requirement, string> = { none: 'home', digits: '0', maybe_digits: '0', year: '1999', letters_i: 'iddef', dotted: '0.0', extended: '0' };

function declareConnect(map: Mapper, c: ConnectDecl, index: number): void {
  let path = c.word;
  const requirements: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = {};
  const options: Record<string, unknown> = { controller: c.word, action: `go${index}` };
  for (const s of c.segments) {
    path += `/:${s.key}`;
    if (s.requirement !== 'none') requirements[s.key] = REQUIREMENTS[s.requirement];
    if (s.fallback === 'nil') options[s.key] = null;
    if (s.fallback === 'value') defaults[s.key] = DEFAULT_VALUES[s.requirement];
  }
  if (c.glob) path += '/*rest';
  if (c.format) path += '.:format';
  if (Object.keys(requirements).length > 0) options.requirements = requirements;
  if (Object.keys(defaults).length > 0) options.defaults = defaults;
  if (c.method) options.conditions = { method: c.method };
  if (c.nilOption) options.flag = null;
  if (c.named) map.named(`${c.word}_route`, path, options);
  else map.connect(path, options);
}

export function drawTable(t: TableDecl, recognizer: 'tree' | 'linear'): RouteSet {
  const config: DrawConfig = {
    recognizer,
    ...(t.controllersList ? { controllers: [...DEFAULT_ROUTE_CONTROLLERS] } : {}),
  };
  return draw((map) => {
    for (const { namespace, resource } of t.resources) {
      if (namespace === null) declare(map, resource, false);
      else map.namespace(namespace, (ns) => declare(ns, resource, true));
    }
    t.connects.forEach((c, i) => declareConnect(map, c, i));
    if (t.defaultRoute) {
      map.connect(':controller/:action/:id.:format');
      map.connect(':controller/:action/:id');
    }
  }, config);
}
