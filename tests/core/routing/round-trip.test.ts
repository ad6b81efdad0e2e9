/**
 * Generality as a property: random route tables drawn with the DSL
 * (resources with random options, nested by block and by has_many/has_one,
 * inside namespaces; connect and named routes with requirements, defaults,
 * nil options, method conditions, formats and globs; Rails' default route),
 * and on each table, for every route, with both recognizers:
 *
 * 1. recognize(generate(x)) = x: the parameters of a route generate a path
 *    that recognizes back to exactly those parameters (with the route's
 *    defaults for what was left off);
 * 2. generate(recognize(p)) = p: a path written out by hand from a route's
 *    segments recognizes to that route's parameters, and those generate the
 *    very same path.
 *
 * Tables are unambiguous by construction (each route reachable: distinct
 * words, values that are no static word of the table), so a failure is a
 * disagreement between recognition and generation, never a shadowed route.
 * Set `SIGNALBOX_PROPERTY_RUNS` to look harder locally.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { draw, escapePathComponent, type DrawConfig, type Mapper, type Params, type Route, type RouteSet } from '../../../core/index.ts';

const RUNS = Number(process.env.SIGNALBOX_PROPERTY_RUNS ?? 0) || undefined;
const runs = (n: number) => ({ numRuns: RUNS ?? n });

/** fc.assert, with the failing assertion's own message in the report. */
function holds<T>(property: fc.IProperty<T>, n: number): void {
  try {
    fc.assert(property, runs(n));
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new Error(`${(error as Error).message}${cause instanceof Error ? `\n${cause.message}` : ''}`);
  }
}

// ---------------------------------------------------------------------------
// Random tables
// ---------------------------------------------------------------------------

const TOP = ['posts', 'users', 'people', 'boxes', 'sheep'];
const SINGLETONS = ['account', 'profile'];
const NESTED = ['comments', 'tags', 'photos', 'news'];
const NESTED_SINGLETONS = ['avatar', 'session'];
const EXTRA_ACTIONS = ['mark', 'publish', 'search', 'preview'];
const DEFAULT_ACTIONS = ['index', 'create', 'new', 'edit', 'show', 'update', 'destroy'];
// Words of connect routes and of the default route's controllers: none is a resource's.
const CONNECT_WORDS = ['archive', 'files', 'feeds', 'calendar', 'lookup'];
const DEFAULT_ROUTE_CONTROLLERS = ['pages', 'reports', 'admin/reports'];

type Requirement = 'none' | 'digits' | 'year' | 'letters_i' | 'dotted' | 'extended';
const REQUIREMENTS: Record<Requirement, unknown> = {
  none: undefined,
  digits: /\d+/,
  year: /\d{4}/,
  letters_i: /id[a-z]+/i,
  dotted: /\d+\.\d+/,
  extended: { source: '\\d+ # digits only\n', flags: 'x' },
};

interface ResourceDecl {
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

interface SegmentDecl {
  readonly key: string;
  readonly requirement: Requirement;
  /** A default (the segment may be left off), 'nil' (optional without one), or none. */
  readonly fallback: 'none' | 'nil' | 'value';
}

interface ConnectDecl {
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
    requirement: fc.constantFrom<Requirement>('none', 'digits', 'year', 'letters_i'),
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

interface TableDecl {
  readonly resources: readonly { namespace: string | null; resource: ResourceDecl }[];
  readonly connects: readonly ConnectDecl[];
  readonly defaultRoute: boolean;
  readonly controllersList: boolean;
}

const tableArb: fc.Arbitrary<TableDecl> = fc.record({
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
const DEFAULT_VALUES: Record<Requirement, string> = { none: 'home', digits: '0', year: '1999', letters_i: 'iddef', dotted: '0.0', extended: '0' };

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

function drawTable(t: TableDecl, recognizer: 'tree' | 'linear'): RouteSet {
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

// ---------------------------------------------------------------------------
// Values, paths and expected parameters
// ---------------------------------------------------------------------------

function requirementRegExp(seg: Route['segments'][number]): RegExp | null {
  if (!('requirement' in seg) || seg.requirement === null) return null;
  const { source, flags } = seg.requirement;
  const plain = flags.includes('x') ? source.replace(/#.*$/gm, '').replace(/\s+/g, '') : source;
  return new RegExp(`^(?:${plain})$`, flags.includes('i') ? 'i' : '');
}

const rawValueArb = fc.oneof(
  { weight: 3, arbitrary: fc.nat({ max: 99999 }).map(String) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }) },
  { weight: 2, arbitrary: fc.constantFrom('a b', 'x/y', 'q?r', '#frag', '%41', 'né', '✓', 'a+b', 'semi;colon', 'IDabc', 'idxyz', '2008', '1.5') },
);

interface Pick {
  readonly route: number;
  readonly raw: readonly string[];
  /** How many trailing optional key segments to leave off. */
  readonly leaveOff: number;
  readonly action: string;
}

const pickArb: fc.Arbitrary<Pick> = fc.record({
  route: fc.nat(),
  raw: fc.array(rawValueArb, { minLength: 6, maxLength: 6 }),
  leaveOff: fc.nat({ max: 3 }),
  action: fc.constantFrom('show', 'list', 'edit_all', 'go'),
});

/** The words a value must not spell: a static word elsewhere in the table would take the path. */
function staticWords(set: RouteSet): Set<string> {
  return new Set(set.routes.flatMap((r) => r.segments.flatMap((s) => (s.type === 'static' ? [s.value.toLowerCase()] : []))));
}

/**
 * A value for a segment: the raw one if the segment's requirement takes it, no static word spells it
 * and it is not `avoid`, else a fitting stand-in. Unconstrained values carry no dot (a dot ends a
 * segment for recognition; generation does not escape it, as in Rails).
 */
function fit(seg: Route['segments'][number], raw: string, n: number, statics: Set<string>, avoid: string | null = null): string {
  const re = requirementRegExp(seg);
  if ('key' in seg && seg.key === 'format') return /^[a-z]+$/.test(raw) && raw !== avoid ? raw : 'xml';
  const fits = (v: string) => v !== '' && v !== avoid && !statics.has(escapePathComponent(v).toLowerCase()) && (re === null ? !v.includes('.') : re.test(v));
  const candidates = [raw, String(n), String(2000 + (n % 100)), `${n}.${n % 10}`, `id${'abc'.slice(0, 1 + (n % 3))}`, `v${n}`, `${n + 1}`];
  const found = candidates.find(fits);
  if (found === undefined) throw new Error(`no value fits ${JSON.stringify(seg)}`);
  return found;
}

interface Chosen {
  readonly route: Route;
  readonly method: string;
  /** Options handed to generate. */
  readonly options: Record<string, unknown>;
  /** What recognition must give. */
  readonly expected: Params;
  /** The path written out from the segments (the canonical one). */
  readonly path: string;
}

/** Chooses parameters for a route, and writes out the path they take, from the segments alone. */
function choose(set: RouteSet, pick: Pick): Chosen {
  const route = set.routes[pick.route % set.routes.length];
  const statics = staticWords(set);
  const keys = route.segments.filter((s): s is Extract<typeof s, { key: string }> => 'key' in s);
  // Only a run of trailing optional keys may be left off; the default route's action is never left off alone.
  let leaveOff = 0;
  for (let i = keys.length - 1; i >= 0 && leaveOff < pick.leaveOff; i--) {
    if (!keys[i].optional || keys[i].type === 'controller') break;
    leaveOff++;
  }
  const included = new Set(keys.slice(0, keys.length - leaveOff));
  const options: Record<string, unknown> = {};
  const expected: Params = {};
  for (const [key, req] of Object.entries(route.requirements)) if (typeof req === 'string' || req === null) expected[key] = req;
  for (const [key, req] of Object.entries(route.requirements)) if (typeof req === 'string') options[key] = req;
  let path = '';
  let lastWritten = -1;
  const written: string[] = [];
  route.segments.forEach((s, i) => {
    let text: string;
    if (s.type === 'static') text = escapePathComponent(s.value);
    else if (s.type === 'divider') text = s.value;
    else if (!included.has(s)) {
      if (s.type === 'glob') expected[s.key] = [];
      else if (s.default !== null) expected[s.key] = s.default;
      text = '';
    } else if (s.type === 'controller') {
      const controller = DEFAULT_ROUTE_CONTROLLERS[pick.raw[0].length % (set.config.controllers ? 3 : 2)];
      options.controller = controller;
      expected.controller = controller;
      text = controller.split('/').map(escapePathComponent).join('/');
    } else if (s.type === 'glob') {
      const parts = pick.raw.slice(0, 1 + (pick.raw[1].length % 3)).map((r, j) => fit(s, r, j + 7, statics));
      options[s.key] = parts;
      expected[s.key] = parts;
      text = parts.map(escapePathComponent).join('/');
    } else {
      // A last value equal to its default would be left off by generation; keep values apart from defaults.
      const v = s.key === 'action' ? pick.action : fit(s, pick.raw[(i + 1) % pick.raw.length], i + 3, statics, s.default);
      options[s.key] = v;
      expected[s.key] = v;
      text = escapePathComponent(v);
    }
    written.push(text);
    if (s.type !== 'divider' && (!s.optional || text !== '') && ('key' in s ? included.has(s) : true)) lastWritten = i;
  });
  path = written.slice(0, lastWritten + 1).join('');
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (path === '') path = '/';
  return { route, method: route.methods?.[0] ?? 'GET', options, expected, path };
}

function show(v: unknown): string {
  return JSON.stringify(v);
}

// ---------------------------------------------------------------------------

const test = suite('route tables round-trip');

for (const recognizer of ['tree', 'linear'] as const) {
  test(`recognize(generate(x)) = x for every route of a random table (${recognizer})`, () => {
    holds(fc.property(tableArb, fc.array(pickArb, { minLength: 1, maxLength: 12 }), (t, picks) => {
      const set = drawTable(t, recognizer);
      // `except` every action leaves a table with no routes at all.
      if (set.routes.length === 0) return;
      for (const pick of picks) {
        const x = choose(set, pick);
        const path = set.generate(x.options);
        let got: Params;
        try {
          got = set.recognize(x.method, path);
        } catch (e) {
          throw new Error(`${x.route.path}: ${show(x.options)} generated ${path}, which did not recognise: ${String(e)}`);
        }
        assert.equal(got, x.expected, `${x.route.path}: ${show(x.options)} -> ${path} -> ${show(got)}`);
      }
    }), 150);
  });

  test(`generate(recognize(p)) = p for a path written out from any route of a random table (${recognizer})`, () => {
    holds(fc.property(tableArb, fc.array(pickArb, { minLength: 1, maxLength: 12 }), (t, picks) => {
      const set = drawTable(t, recognizer);
      // `except` every action leaves a table with no routes at all.
      if (set.routes.length === 0) return;
      for (const pick of picks) {
        const p = choose(set, pick);
        let params: Params;
        try {
          params = set.recognize(p.method, p.path);
        } catch (e) {
          throw new Error(`${p.route.path}: ${p.method} ${p.path} did not recognise: ${String(e)}`);
        }
        assert.equal(params, p.expected, `${p.route.path}: ${p.method} ${p.path}`);
        assert.is(set.generate(params), p.path, `${p.route.path}: ${show(params)} generates`);
      }
    }), 150);
  });
}

test('the two recognizers draw the same tables: both properties ran over resources, namespaces, connect routes and the default route', () => {
  // A table that holds every kind at once, checked by hand, so the properties above cannot pass vacuously.
  const t: TableDecl = {
    resources: [
      { namespace: null, resource: { singleton: false, name: 'posts', options: { member: ['preview'], has_many: ['comments'] }, children: [] } },
      { namespace: 'admin', resource: { singleton: true, name: 'account', options: {}, children: [] } },
    ],
    connects: [{ word: 'archive', named: true, segments: [{ key: 'k0', requirement: 'year', fallback: 'none' }, { key: 'k1', requirement: 'digits', fallback: 'nil' }], format: false, glob: false, method: null, nilOption: true }],
    defaultRoute: true,
    controllersList: true,
  };
  for (const recognizer of ['tree', 'linear'] as const) {
    const set = drawTable(t, recognizer);
    assert.is(set.generate({ controller: 'archive', action: 'go0', k0: '2008' }), '/archive/2008');
    assert.equal(set.recognize('GET', '/archive/2008'), { controller: 'archive', action: 'go0', flag: null, k0: '2008' });
    assert.equal(set.recognize('DELETE', '/posts/1/preview'), { controller: 'posts', action: 'preview', id: '1' });
    assert.equal(set.recognize('GET', '/admin/account'), { controller: 'admin/accounts', action: 'show' });
    assert.equal(set.recognize('GET', '/admin/reports/list/7'), { controller: 'admin/reports', action: 'list', id: '7' });
    const x = choose(set, { route: set.routes.findIndex((r) => r.path === '/posts/:post_id/comments/:id'), raw: ['a b', '1', '2', '3', '4', '5'], leaveOff: 0, action: 'show' });
    assert.match(x.path, /^\/posts\/\d\/comments\/\d$/);
    assert.equal(set.recognize(x.method, x.path), x.expected);
    assert.is(set.generate(x.options), x.path);
  }
});

test.run();
