/**
 * Property tests over random route tables drawn with the whole resource DSL:
 * random resource names, nesting by block and by has_many/has_one,
 * only/except, shallow, path_prefix/name_prefix (as options and through
 * with_options), requirements on ids and on prefix keys, nested namespaces,
 * singular resources, member, collection and new actions, `as`, `controller`,
 * `path_names`, a relative URL root.
 *
 * tests/core/routing/properties.test.ts runs a fixed vocabulary of names
 * (tree against linear, positional helpers against url_for, `_path` round
 * trips). This file widens the tables and checks:
 *
 * 1. Round trip: every named route's `_path` (positional, and by hash with
 *    extra query keys) and `_url` recognise back, with the route's method,
 *    to its controller, action, segment values and query values. The params
 *    recognised then generate a path that recognises to the same params.
 * 2. Any values: given arbitrary values (numbers, strings, booleans, NaN,
 *    null, records), a named helper either refuses with a routing error or
 *    yields a path that `recognize` accepts. It must refuse a value its
 *    route's requirement rejects, and must accept every value that is
 *    segment-safe. A value is segment-safe when its `to_param` is non-empty
 *    (`false` has none: Rails 2.1 reads it as absent, as Ruby does nil),
 *    has no `.`, is not a static word of the table and meets the key's
 *    requirement. A `.` or an empty value for a key without a requirement
 *    (`post_id`) is generated as is and not recognised, as in Rails 2.1,
 *    so nothing is asserted about it.
 * 3. Arbitrary paths (any code points, percent sequences good and bad, dot
 *    segments, very long segments and very many, route paths with pieces
 *    replaced): `recognize` returns params or throws RoutingError
 *    (MalformedPathError included), MethodNotAllowed or NotImplemented, and
 *    the tree recognizer agrees with the linear one.
 *
 * Run counts keep the file to a few seconds. SIGNALBOX_PROPERTY_RUNS
 * replaces every count, SIGNALBOX_PROPERTY_SEED replays a run, and a
 * failure prints the seed it used.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { awkwardValueArb } from '../support/awkward-values.ts';
import { outcome } from '../support/recognition-outcome.ts';
import {
  DEFAULT_ACTIONS, MethodNotAllowed, NotImplemented, RoutingError, UrlGenerationError, createInflector, draw, escapePathComponent, toParam,
  type Mapper, type Params, type Route, type RouteSet,
} from '../../core/index.ts';
import { helpersOf } from '../support/helpers-by-name.ts';

const RUNS = Number(process.env.SIGNALBOX_PROPERTY_RUNS ?? 0) || undefined;
const GIVEN_SEED = Number.parseInt(process.env.SIGNALBOX_PROPERTY_SEED ?? '', 10);
const SEED = Number.isFinite(GIVEN_SEED) ? GIVEN_SEED : (Math.random() * 0x7fffffff) | 0;

function holds<Ts extends [unknown, ...unknown[]]>(property: fc.IProperty<Ts>, numRuns: number): void {
  try {
    fc.assert(property, { seed: SEED, numRuns: RUNS ?? numRuns });
  } catch (error) {
    if (error instanceof Error) {
      // fast-check keeps the failing assertion as the cause; its message is the useful part.
      const cause = error.cause instanceof Error ? `\n${error.cause.message}` : '';
      error.message = `seed ${SEED} (SIGNALBOX_PROPERTY_SEED=${SEED} replays it)${cause}\n${error.message}`;
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Random tables: a shape first, names from a pool of random words after
// ---------------------------------------------------------------------------

type Verb = 'get' | 'post' | 'put' | 'delete' | 'any';
type IdRequirement = 'none' | 'digits' | 'letters';

interface ResourceShape {
  readonly singleton: boolean;
  readonly limit: { readonly only?: readonly string[] | 'all' | 'none'; readonly except?: readonly string[] };
  readonly shallow: boolean;
  readonly idRequirement: IdRequirement;
  /** `as` (another path word), `controller` (another controller) or `path_names` (other words for new and edit). */
  readonly rename: 'none' | 'as' | 'controller' | 'path_names';
  readonly member: readonly Verb[];
  readonly collection: readonly Verb[];
  /** Extra actions on the new form (`new: { preview: 'post' }`). */
  readonly newActions: readonly Verb[];
  readonly hasMany: number;
  readonly hasOne: number;
  readonly children: readonly ResourceShape[];
}

interface TopShape {
  readonly resource: ResourceShape;
  /** How many namespaces (nested in each other) the resource is declared in. */
  readonly namespaces: number;
  readonly prefix: { readonly requirement: boolean; readonly name: boolean; readonly viaWithOptions: boolean } | null;
}

interface TableShape {
  readonly tops: readonly TopShape[];
  readonly root: string;
  readonly words: readonly string[];
}

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];
const wordArb = fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 3, maxLength: 8 });
const actionsArb = fc.subarray([...DEFAULT_ACTIONS], { minLength: 1 });

function resourceShape(depth: number): fc.Arbitrary<ResourceShape> {
  return fc.record({
    singleton: fc.boolean(),
    limit: fc.oneof(
      fc.constant({}),
      actionsArb.map((only) => ({ only })),
      actionsArb.map((except) => ({ except })),
      fc.constantFrom({ only: 'all' as const }, { only: 'none' as const }),
    ),
    shallow: fc.boolean(),
    idRequirement: fc.constantFrom<IdRequirement>('none', 'none', 'digits', 'letters'),
    rename: fc.constantFrom<ResourceShape['rename']>('none', 'none', 'none', 'as', 'controller', 'path_names'),
    member: fc.array(fc.constantFrom<Verb>('get', 'post', 'put', 'delete', 'any'), { maxLength: 2 }),
    collection: fc.array(fc.constantFrom<Verb>('get', 'post', 'put', 'delete'), { maxLength: 2 }),
    newActions: fc.array(fc.constantFrom<Verb>('get', 'post'), { maxLength: 1 }),
    hasMany: depth === 0 ? fc.constant(0) : fc.nat({ max: 1 }),
    hasOne: depth === 0 ? fc.constant(0) : fc.nat({ max: 1 }),
    children: depth === 0 ? fc.constant([]) : fc.array(resourceShape(depth - 1), { maxLength: 2 }),
  });
}

const tableShapeArb: fc.Arbitrary<TableShape> = fc.record({
  tops: fc.array(fc.record({
    resource: resourceShape(2),
    namespaces: fc.constantFrom(0, 0, 1, 2),
    prefix: fc.option(fc.record({ requirement: fc.boolean(), name: fc.boolean(), viaWithOptions: fc.boolean() }), { freq: 3 }),
  }), { minLength: 1, maxLength: 3 }),
  root: fc.constantFrom('', '', '/app'),
  // Repeats are skipped when names are handed out (cheaper than asking fast-check for unique words).
  words: fc.array(wordArb, { minLength: 100, maxLength: 100 }),
});

interface Decl {
  readonly singleton: boolean;
  readonly name: string;
  readonly options: Record<string, unknown>;
  readonly children: readonly Decl[];
}

interface TopDecl {
  readonly decl: Decl;
  readonly namespaces: readonly string[];
  readonly withOptions: Record<string, unknown> | null;
}

interface Table {
  readonly tops: readonly TopDecl[];
  readonly root: string;
}

// Words a resource, action or key must never be named: they are route words or parameter names already.
const RESERVED = new Set([...DEFAULT_ACTIONS, 'format', 'controller', 'action', 'id', 'app']);
const inflector = createInflector();

class OutOfNames extends Error {}

/**
 * Hands out words no two of which share an inflection (`abc` and `abcs` would name each other's
 * routes), so any overlap between routes comes from the DSL, not from a name drawn twice.
 */
class Names {
  readonly #words: readonly string[];
  readonly #used = new Set<string>(RESERVED);
  #next = 0;
  constructor(words: readonly string[]) {
    this.#words = words;
  }
  take(): string {
    while (this.#next < this.#words.length) {
      const w = this.#words[this.#next++];
      const forms = [w, inflector.singular(w), inflector.plural(w)];
      if (forms.some((f) => this.#used.has(f))) continue;
      for (const f of forms) this.#used.add(f);
      return w;
    }
    throw new OutOfNames();
  }
}

const ID_REQUIREMENTS: Record<IdRequirement, RegExp | null> = { none: null, digits: /\d+/, letters: /[a-z]+/i };

function resolveResource(shape: ResourceShape, names: Names, extra: { requirements?: Record<string, unknown>; options?: Record<string, unknown> } = {}): Decl {
  const name = names.take();
  const options: Record<string, unknown> = { ...shape.limit, ...extra.options };
  if (shape.shallow) options.shallow = true;
  const requirements: Record<string, unknown> = { ...extra.requirements };
  const id = ID_REQUIREMENTS[shape.idRequirement];
  if (id !== null) requirements.id = id;
  if (Object.keys(requirements).length > 0) options.requirements = requirements;
  if (shape.rename === 'as') options.as = names.take();
  if (shape.rename === 'controller') options.controller = names.take();
  if (shape.rename === 'path_names') options.path_names = { new: names.take(), edit: names.take() };
  if (shape.member.length > 0) options.member = Object.fromEntries(shape.member.map((v) => [names.take(), v]));
  // A singleton has no collection.
  if (!shape.singleton && shape.collection.length > 0) options.collection = Object.fromEntries(shape.collection.map((v) => [names.take(), v]));
  if (shape.newActions.length > 0) options.new = Object.fromEntries(shape.newActions.map((v) => [names.take(), v]));
  if (shape.hasMany > 0) options.has_many = Array.from({ length: shape.hasMany }, () => names.take());
  if (shape.hasOne > 0) options.has_one = Array.from({ length: shape.hasOne }, () => names.take());
  const children = shape.children.map((c) => resolveResource(c, names));
  return { singleton: shape.singleton, name, options, children };
}

function resolveTable(shape: TableShape): Table | null {
  const names = new Names(shape.words);
  try {
    const tops = shape.tops.map((top): TopDecl => {
      const namespaces = Array.from({ length: top.namespaces }, () => names.take());
      if (top.prefix === null) return { decl: resolveResource(top.resource, names), namespaces, withOptions: null };
      const word = names.take();
      const key = names.take();
      const prefix: Record<string, unknown> = { path_prefix: `/${word}/:${key}` };
      if (top.prefix.name) prefix.name_prefix = `${word}_`;
      // Not with shallow: shallow member routes lose the prefix, and Rails would keep the requirement on a key they no longer have.
      const requirements = top.prefix.requirement && !top.resource.shallow ? { [key]: /\d+/ } : {};
      if (top.prefix.viaWithOptions) return { decl: resolveResource(top.resource, names, { requirements }), namespaces, withOptions: prefix };
      return { decl: resolveResource(top.resource, names, { requirements, options: prefix }), namespaces, withOptions: null };
    });
    return { tops, root: shape.root };
  } catch (error) {
    if (error instanceof OutOfNames) return null;
    throw error;
  }
}

function declare(map: Mapper, d: Decl): void {
  const block = d.children.length === 0 ? [] : [(inner: Mapper) => { for (const c of d.children) declare(inner, c); }];
  if (d.singleton) map.resource(d.name, d.options, ...block);
  else map.resources(d.name, d.options, ...block);
}

function declareTop(map: Mapper, top: TopDecl, level = 0): void {
  if (level < top.namespaces.length) {
    map.namespace(top.namespaces[level], (ns) => declareTop(ns, top, level + 1));
  } else if (top.withOptions !== null) {
    map.with_options(top.withOptions, (scoped) => declare(scoped, top.decl));
  } else {
    declare(map, top.decl);
  }
}

function drawTable(t: Table, recognizer: 'tree' | 'linear' = 'tree'): RouteSet {
  return draw((map) => {
    for (const top of t.tops) declareTop(map, top);
  }, { recognizer, relative_url_root: t.root });
}

/** Draws the table the shape describes, or skips the run when the shape needs more names than the pool has. */
function tableFor(shape: TableShape, recognizer: 'tree' | 'linear' = 'tree'): RouteSet {
  const table = resolveTable(shape);
  fc.pre(table !== null);
  return drawTable(table!, recognizer);
}

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

function requirementOf(route: Route, key: string): RegExp | null {
  const seg = route.segments.find((s) => 'key' in s && s.key === key);
  if (!seg || !('requirement' in seg) || seg.requirement === null) return null;
  const { source, flags } = seg.requirement;
  return new RegExp(`^(?:${source})$`, flags.includes('i') ? 'i' : '');
}

/** Static words of the table: an id spelling one is routed to that word's route, as in Rails. */
function staticWords(set: RouteSet): Set<string> {
  return new Set(set.routes.flatMap((r) => r.segments.flatMap((s) => (s.type === 'static' ? [s.value] : []))));
}

const rawValueArb = fc.oneof(
  { weight: 3, arbitrary: fc.nat({ max: 99999 }).map(String) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom('a b', 'x/y', 'q?r', '#frag', '%41', '%', 'né', '✓', 'a+b', 'semi;colon', 'new', 'edit', '..', 'a.b', '&=') },
);

/** A value for `key` that the route accepts and no other route claims. */
function fitValue(route: Route, key: string, raw: string, n: number, statics: Set<string>): string {
  if (key === 'format') return raw.replace(/[^a-z]/gi, '') || 'xml';
  const re = requirementOf(route, key);
  // Two letters: never a static word (those are three letters or more).
  const letters = LETTERS[n % 26] + LETTERS[Math.floor(n / 26) % 26];
  const candidates = [raw.replace(/\./g, ''), String(n), letters];
  return candidates.find((c) => c !== '' && !statics.has(escapePathComponent(c)) && (re === null || re.test(c))) ?? String(n);
}

const methodOf = (route: Route): string => route.methods?.[0] ?? 'GET';

function recognised(set: RouteSet, method: string, path: string, what: string): Params {
  try {
    return set.recognize(method, path);
  } catch (error) {
    assert.unreachable(`${what}: ${method} ${path} did not recognise: ${String(error)}`);
    throw error;
  }
}

function show(v: unknown): string {
  return JSON.stringify(v);
}

// ---------------------------------------------------------------------------

const properties = suite('route properties over the whole DSL');

properties('named helpers round-trip: path, hash with query, url, and recognize -> generate -> recognize', () => {
  holds(fc.property(tableShapeArb, fc.array(rawValueArb, { minLength: 6, maxLength: 6 }), fc.nat({ max: 9999 }), fc.string({ unit: 'grapheme', maxLength: 6 }), (shape, raws, n, extra) => {
    const set = tableFor(shape);
    const root = set.config.relative_url_root;
    const paths = helpersOf(set);
    const urls = helpersOf(set, { host: 'example.com', port: 8080 });
    const statics = staticWords(set);
    for (const [name, route] of Object.entries(set.named)) {
      const values = route.segment_keys.map((key, i) => fitValue(route, key, raws[i % raws.length], n + i, statics));
      const keyed = Object.fromEntries(route.segment_keys.map((k, i) => [k, values[i]]));
      const method = methodOf(route);
      const expectRoute = (params: Params, what: string) => {
        assert.is(params.controller, route.requirements.controller, `${what}: controller`);
        assert.is(params.action, route.requirements.action, `${what}: action`);
        route.segment_keys.forEach((key, i) => assert.is(params[key], values[i], `${what}: ${key}`));
      };

      const path = paths[`${name}_path`](...values) as string;
      const what = `${name}_path(${show(values)}) = ${path}`;
      assert.ok(path.startsWith(`${root}/`), `${what}: starts with the relative URL root`);
      const params = recognised(set, method, path.slice(root.length), what);
      expectRoute(params, what);

      const withQuery = paths[`${name}_path`]({ ...keyed, q: extra, pg: n }) as string;
      const [bare, query = ''] = withQuery.split(/\?(.*)/s, 2);
      const queryWhat = `${name}_path(${show({ ...keyed, q: extra, pg: n })}) = ${withQuery}`;
      assert.is(bare, path, `${queryWhat}: the same path as positionally`);
      expectRoute(recognised(set, method, bare.slice(root.length), queryWhat), queryWhat);
      const q = new URLSearchParams(query);
      assert.is(q.get('q'), extra, `${queryWhat}: q`);
      assert.is(q.get('pg'), String(n), `${queryWhat}: pg`);

      assert.is(urls[`${name}_url`](...values), `http://example.com:8080${path}`, `${name}_url(${show(values)})`);

      // Rails' assert_routing, both ways: what a path recognises to generates a path recognising to it again.
      const generated = set.generate(params);
      const generatedWhat = `generate(${show(params)}) = ${generated}`;
      assert.equal(recognised(set, method, generated, generatedWhat), params, generatedWhat);
    }
  }), 50);
});

/** A record as models are: something with `to_param()` or `id`. */
class Model {
  constructor(readonly id: unknown) {}
}

const anyValueArb = awkwardValueArb((id) => new Model(id), { strings: ['ab', 'AB'] });

properties('a named helper given any values refuses with a routing error or yields a path recognize accepts', () => {
  holds(fc.property(tableShapeArb, fc.array(anyValueArb, { minLength: 6, maxLength: 6 }), (shape, given) => {
    const set = tableFor(shape);
    const root = set.config.relative_url_root;
    const helpers = helpersOf(set);
    const statics = staticWords(set);
    for (const [name, route] of Object.entries(set.named)) {
      const args = route.segment_keys.map((_, i) => given[i]);
      // `false` is no value, as in Ruby, where it is falsy like nil.
      const params = args.map((a) => (a === false ? null : toParam(a)));
      const what = `${name}_path(${args.map((a) => (a instanceof Model ? `Model(${show(a.id)})` : show(a))).join(', ')})`;
      const breaksRequirement = route.segment_keys.some((key, i) => {
        const re = requirementOf(route, key);
        return re !== null && (params[i] === null || !re.test(params[i]!));
      });
      const safe = route.segment_keys.every((key, i) => {
        const p = params[i];
        const re = requirementOf(route, key);
        return p !== null && p !== '' && !p.includes('.') && !statics.has(escapePathComponent(p)) && (re === null || re.test(p)) && (key !== 'format' || /^[a-z]+$/i.test(p));
      });
      let path: string;
      try {
        path = helpers[`${name}_path`](...args) as string;
      } catch (error) {
        assert.instance(error, UrlGenerationError, `${what} threw ${String(error)}`);
        assert.not.ok(safe, `${what} refused segment-safe values: ${String(error)}`);
        continue;
      }
      assert.not.ok(breaksRequirement, `${what} = ${path}, although a value breaks its route's requirement`);
      if (!safe) continue;
      const recognisedParams = recognised(set, methodOf(route), path.slice(root.length), `${what} = ${path}`);
      assert.is(recognisedParams.action, route.requirements.action, `${what} = ${path}: action`);
      route.segment_keys.forEach((key, i) => assert.is(recognisedParams[key], params[i], `${what} = ${path}: ${key}`));
    }
  }), 80);
});

// ---------------------------------------------------------------------------
// Arbitrary paths
// ---------------------------------------------------------------------------

const hexArb = fc.constantFrom(...'0123456789abcdefABCDEFgz');
const percentArb = fc.array(fc.oneof(
  fc.tuple(hexArb, hexArb).map(([a, b]) => `%${a}${b}`),
  fc.constantFrom('%', '%%', '%0', '%C0%AF', '%E2%82', '%F0%9F%98%80', '%00', '%2F', '%2f', '%2e%2E', '%u2603', '%FF%FE', '%ED%A0%80'),
), { minLength: 1, maxLength: 6 }).map((a) => a.join(''));

const segmentArb = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 3, arbitrary: percentArb },
  { weight: 2, arbitrary: fc.constantFrom('.', '..', '...', '', '.%2e', '%2e.', 'new', 'edit', 'a.b', 'x.json', '*', ':id') },
  { weight: 2, arbitrary: fc.nat({ max: 99999 }).map(String) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'é', '%41', '.', '%'), fc.integer({ min: 256, max: 20000 })).map(([c, k]) => c.repeat(k)) },
);

const methodArb = fc.oneof(
  fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'get', 'BREW', '', null),
  fc.string({ maxLength: 5 }),
);

interface PathPick {
  readonly kind: 'segments' | 'raw' | 'many' | 'route';
  readonly segments: readonly string[];
  readonly raw: string;
  readonly count: number;
  readonly route: number;
}

const pathPickArb: fc.Arbitrary<PathPick> = fc.record({
  kind: fc.constantFrom('segments', 'segments', 'raw', 'many', 'route', 'route'),
  segments: fc.array(segmentArb, { maxLength: 6 }),
  raw: fc.string({ unit: 'binary', maxLength: 30 }),
  count: fc.integer({ min: 1, max: 3000 }),
  route: fc.nat(),
});

/** A path to try: arbitrary segments, an arbitrary string, very many segments, or one of the table's routes with its keys (and some words) replaced. */
function pathOf(set: RouteSet, pick: PathPick): string {
  switch (pick.kind) {
    case 'segments': return `/${pick.segments.join('/')}`;
    case 'raw': return pick.raw;
    case 'many': return `/${pick.segments[0] ?? 'a'}`.repeat(pick.count);
    case 'route': {
      const routes = set.routes;
      if (routes.length === 0) return `/${pick.segments.join('/')}`;
      const route = routes[pick.route % routes.length];
      let k = 0;
      let path = '';
      for (const s of route.segments) {
        const garbage = pick.segments[k++ % Math.max(1, pick.segments.length)] ?? '';
        if (s.type === 'divider') path += s.value;
        else if (s.type === 'static') path += (pick.route + k) % 5 === 0 ? garbage : s.value;
        else path += garbage;
      }
      return path;
    }
  }
}

const ROUTING_ERRORS = [RoutingError, MethodNotAllowed, NotImplemented];

properties('recognize on arbitrary paths returns params or throws a routing error, and the tree agrees with the linear scan', () => {
  holds(fc.property(tableShapeArb, fc.array(fc.tuple(pathPickArb, methodArb), { minLength: 1, maxLength: 12 }), (shape, picks) => {
    const tree = tableFor(shape, 'tree');
    const linear = tableFor(shape, 'linear');
    for (const [pick, method] of picks) {
      const path = pathOf(tree, pick);
      const label = `${show(method)} ${show(path.length > 200 ? `${path.slice(0, 200)}… (${path.length} chars)` : path)}`;
      try {
        tree.recognize(method as string, path);
      } catch (e) {
        assert.ok(ROUTING_ERRORS.some((C) => e instanceof C), `${label} threw ${String(e)}`);
      }
      assert.equal(outcome(tree, method, path), outcome(linear, method, path), `${label}: tree and linear recognizers agree`);
    }
  }), 60);
});

properties.run();
