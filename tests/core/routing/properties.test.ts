/**
 * Property tests over random route tables drawn with the DSL.
 *
 * 1. The tree recognizer agrees with the reference linear scan on every path.
 * 2. Every named route's `_path` helper round-trips through recognition.
 * 3. The positional fast path of the helpers agrees with general generation.
 * 4. Recognition only ever throws the routing error family.
 *
 * Runs are bounded (the whole file stays within a few seconds); set
 * `SIGNALBOX_PROPERTY_RUNS` to look harder locally.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { awkwardValueArb } from '../../support/awkward-values.ts';
import { outcome } from '../../support/recognition-outcome.ts';
import {
  draw, escapePathComponent, MalformedPathError, MethodNotAllowed, NotImplemented, RoutingError,
  type DrawConfig, type Mapper, type Params, type Route, type RouteSet,
} from '../../../core/index.ts';
import { helpersOf } from '../../support/helpers-by-name.ts';

const RUNS = Number(process.env.SIGNALBOX_PROPERTY_RUNS ?? 0) || undefined;
const runs = (n: number) => ({ numRuns: RUNS ?? n });

// ---------------------------------------------------------------------------
// Random route tables
// ---------------------------------------------------------------------------

type IdRequirement = 'none' | 'digits' | 'maybe_digits' | 'letters_i' | 'dotted' | 'extended';

interface ResourceDecl {
  readonly singleton: boolean;
  readonly name: string;
  readonly namespace: string | null;
  readonly only: readonly string[] | 'all' | 'none' | null;
  readonly except: readonly string[] | null;
  readonly shallow: boolean;
  readonly pathPrefix: boolean;
  readonly idRequirement: IdRequirement;
  readonly member: Readonly<Record<string, string | string[]>>;
  readonly collection: Readonly<Record<string, string>>;
  readonly as: boolean;
  readonly pathNames: boolean;
  readonly hasMany: readonly string[];
  readonly hasOne: readonly string[];
  readonly children: readonly ResourceDecl[];
}

interface TableDecl {
  readonly resources: readonly ResourceDecl[];
  readonly glob: boolean;
  readonly archive: boolean;
  readonly catchAll: boolean;
  readonly controllersList: boolean;
  readonly relativeUrlRoot: string;
}

// Top-level and nested names are disjoint, so a shallow nested member route (`/comments/:id`) never
// meets a top-level resource of the same name declared with other options (first declared would win).
const TOP_PLURALS = ['posts', 'users', 'sheep', 'people', 'boxes'];
const TOP_SINGULARS = ['account', 'profile'];
const NESTED_PLURALS = ['comments', 'tags', 'photos', 'news', 'categories'];
const NESTED_SINGULARS = ['avatar', 'session'];
// Extra action names never collide with resource names, so a member action cannot shadow a nested resource.
const EXTRA_ACTIONS = ['mark', 'publish', 'search', 'rss', 'preview'];
const DEFAULTS = ['index', 'create', 'new', 'edit', 'show', 'update', 'destroy'];

const actionList = fc.subarray(DEFAULTS, { minLength: 1 });

function resourceArb(depth: number): fc.Arbitrary<ResourceDecl> {
  const children = depth === 0
    ? fc.constant([] as ResourceDecl[])
    : fc.uniqueArray(resourceArb(depth - 1), { maxLength: 2, selector: (r) => r.name });
  return fc.record({
    singleton: fc.boolean(),
    plural: fc.constantFrom(...(depth === 2 ? TOP_PLURALS : NESTED_PLURALS)),
    singular: fc.constantFrom(...(depth === 2 ? TOP_SINGULARS : NESTED_SINGULARS)),
    namespace: depth === 2 ? fc.constantFrom(null, null, 'admin') : fc.constant(null),
    limit: fc.oneof(
      fc.constant({ only: null, except: null }),
      actionList.map((only) => ({ only, except: null })),
      actionList.map((except) => ({ only: null, except })),
      fc.constantFrom({ only: 'all' as const, except: null }, { only: 'none' as const, except: null }),
    ),
    shallow: fc.boolean(),
    pathPrefix: depth === 2 ? fc.boolean() : fc.constant(false),
    idRequirement: fc.constantFrom<IdRequirement>('none', 'none', 'digits', 'maybe_digits', 'letters_i', 'dotted', 'extended'),
    member: fc.dictionary(fc.constantFrom(...EXTRA_ACTIONS), fc.constantFrom<string | string[]>('get', 'post', 'put', 'any', ['get', 'post']), { maxKeys: 2 }),
    collection: fc.dictionary(fc.constantFrom(...EXTRA_ACTIONS), fc.constantFrom('get', 'post'), { maxKeys: 1 }),
    as: fc.boolean(),
    pathNames: fc.boolean(),
    hasMany: depth === 0 ? fc.constant<string[]>([]) : fc.subarray(['comments', 'tags'], { maxLength: 1 }),
    hasOne: depth === 0 ? fc.constant<string[]>([]) : fc.subarray(['avatar'], { maxLength: 1 }),
    children,
  }).map((r) => ({
    singleton: r.singleton,
    name: r.singleton ? r.singular : r.plural,
    namespace: r.namespace,
    only: r.limit.only,
    except: r.limit.except,
    shallow: r.shallow,
    // A path_prefix option replaces a namespace's prefix (as in Rails), which would collide with the un-namespaced twin.
    pathPrefix: r.pathPrefix && r.namespace === null,
    idRequirement: r.idRequirement,
    member: r.member,
    // A member action named like a collection action on the same resource would shadow it.
    collection: Object.fromEntries(Object.entries(r.collection).filter(([k]) => !(k in r.member))),
    as: r.as,
    pathNames: r.pathNames,
    // Declaring a nested resource twice (shorthand and block) lets the first one's `:id` route shadow the second's words.
    hasMany: r.hasMany.filter((n) => !r.children.some((c) => c.name === n)),
    hasOne: r.hasOne.filter((n) => !r.children.some((c) => c.name === n)),
    children: r.children.filter((c) => c.name !== (r.singleton ? r.singular : r.plural)),
  }));
}

const tableArb: fc.Arbitrary<TableDecl> = fc.record({
  resources: fc.uniqueArray(resourceArb(2), { minLength: 1, maxLength: 3, selector: (r) => `${r.namespace}/${r.name}` }),
  glob: fc.boolean(),
  archive: fc.boolean(),
  catchAll: fc.boolean(),
  controllersList: fc.boolean(),
  relativeUrlRoot: fc.constantFrom('', '', '/blog'),
});

const ID_REQUIREMENTS: Record<IdRequirement, unknown> = {
  none: undefined,
  digits: /\d+/,
  // Accepts '': a trailing slash can then end an empty last segment (`/posts/1/comments/`).
  maybe_digits: /\d*/,
  letters_i: /id[a-z]+/i,
  dotted: /\d+\.\d+/,
  extended: { source: '\\d+ # digits only\n', flags: 'x' },
};

function resourceOptions(r: ResourceDecl): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (r.only !== null) o.only = r.only;
  if (r.except !== null) o.except = r.except;
  if (r.shallow) o.shallow = true;
  if (r.pathPrefix) o.path_prefix = '/sites/:site_id';
  const requirements: Record<string, unknown> = {};
  if (r.idRequirement !== 'none') requirements.id = ID_REQUIREMENTS[r.idRequirement];
  // Not with shallow: as in Rails, shallow member routes would keep the requirement on a key their path lost.
  if (r.pathPrefix && !r.shallow) requirements.site_id = /\d+/;
  if (Object.keys(requirements).length > 0) o.requirements = requirements;
  if (Object.keys(r.member).length > 0) o.member = r.member;
  if (Object.keys(r.collection).length > 0) o.collection = r.collection;
  if (r.as) o.as = `${r.name}_x`;
  if (r.pathNames) o.path_names = { new: 'nuevo', edit: 'editar' };
  if (r.hasMany.length > 0) o.has_many = r.hasMany;
  if (r.hasOne.length > 0) o.has_one = r.hasOne;
  return o;
}

function declare(map: Mapper, r: ResourceDecl): void {
  const block = r.children.length === 0 ? [] : [(inner: Mapper) => { for (const c of r.children) declare(inner, c); }];
  if (r.singleton) map.resource(r.name, resourceOptions(r), ...block);
  else map.resources(r.name, resourceOptions(r), ...block);
}

function drawTable(t: TableDecl, recognizer: 'tree' | 'linear' = 'tree'): RouteSet {
  const config: DrawConfig = {
    recognizer,
    relative_url_root: t.relativeUrlRoot,
    controllers: t.controllersList ? ['posts', 'comments', 'users', 'admin/users', 'files', 'archive', 'accounts'] : undefined,
  };
  return draw((map) => {
    for (const r of t.resources) {
      if (r.namespace !== null) map.namespace(r.namespace, (ns) => declare(ns, r));
      else declare(map, r);
    }
    if (t.archive) {
      map.named('archive', 'archive/:year/:month/:day', { controller: 'archive', action: 'show', requirements: { year: /\d{4}/ }, month: null, day: null });
    }
    if (t.glob) map.named('file', 'files/*path', { controller: 'files', action: 'show' });
    if (t.catchAll) {
      map.connect(':controller/:action/:id');
      map.connect(':controller/:action/:id.:format');
    }
  }, config);
}

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

/** Values a path piece may take: ordinary ids, separators, escapes good and bad, unicode. */
const pieceArb = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 999 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('new', 'edit', 'search', 'idabc', 'IDabc', 'admin', 'users', 'admin/users', 'xml', 'a.b', '1.2', '1.2.3') },
  { weight: 2, arbitrary: fc.constantFrom('', '.', '..', '?', '/', '//', '%', '%zz', '%2F', '%2e%2e', '%E2%9C%93', '%C3', '%0A', ' ', ';', 'é', '✓') },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
);

const METHODS = ['GET', 'GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'get', 'BACON', null] as const;
const methodArb = fc.constantFrom(...METHODS);

interface PathPick {
  readonly route: number;
  readonly values: readonly string[];
  readonly trailing: 'none' | 'slash' | 'double' | 'cut';
  readonly upper: boolean;
}

const pickArb: fc.Arbitrary<PathPick> = fc.record({
  route: fc.nat(),
  values: fc.array(pieceArb, { minLength: 6, maxLength: 6 }),
  trailing: fc.constantFrom('none', 'none', 'slash', 'double', 'cut'),
  upper: fc.boolean(),
});

/** A request path shaped like one of the table's routes, with its keys filled from `pick`. */
function pathFor(routes: readonly Route[], pick: PathPick): string {
  if (routes.length === 0) return '/';
  const route = routes[pick.route % routes.length];
  let k = 0;
  let path = '';
  for (const s of route.segments) {
    if (s.type === 'static' || s.type === 'divider') path += s.value;
    else path += pick.values[k++ % pick.values.length];
  }
  if (pick.upper) path = path.toUpperCase();
  switch (pick.trailing) {
    case 'none': return path.length > 1 ? path.replace(/\/$/, '') : path;
    case 'slash': return path;
    case 'double': return `${path}/`;
    case 'cut': return path.slice(0, Math.max(1, path.lastIndexOf('/', path.length - 2)));
  }
}

const arbitraryPathArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.stringMatching(/^(\/[a-z0-9%.?*:;~-]{0,5}){0,6}\/?$/),
  fc.array(pieceArb, { maxLength: 5 }).map((ps) => `/${ps.join('/')}`),
);

function show(v: unknown): string {
  return JSON.stringify(v);
}

// ---------------------------------------------------------------------------

const properties = suite('routing properties');

properties('the tree recognizer agrees with the linear reference on every path of a random table', () => {
  fc.assert(
    fc.property(tableArb, fc.array(fc.tuple(pickArb, methodArb), { minLength: 1, maxLength: 25 }), fc.array(fc.tuple(arbitraryPathArb, methodArb), { maxLength: 10 }), (t, picks, arbitrary) => {
      const tree = drawTable(t, 'tree');
      const linear = drawTable(t, 'linear');
      const requests: [string, string | null][] = [
        ...picks.map(([pick, method]) => [pathFor(tree.routes, pick), method] as [string, string | null]),
        ...arbitrary,
      ];
      for (const [path, method] of requests) {
        const a = outcome(tree, method, path);
        const b = outcome(linear, method, path);
        assert.equal(a, b, `${method} ${show(path)}: tree ${show(a)} vs linear ${show(b)}`);
        assert.equal(tree.allowed_methods(path), linear.allowed_methods(path), `allowed_methods ${show(path)}`);
        if ('index' in a) assert.is(tree.match(method, path)?.route.index, a.index, `match ${show(path)}`);
        else if (a.error !== 'MalformedPathError') assert.is(tree.match(method, path), null, `match ${show(path)}`);
      }
    }),
    runs(120),
  );
});

/** Raw ids for the round trip: numbers, any graphemes, and values that need escaping. */
function idArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat({ max: 99999 }).map(String),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
    fc.constantFrom('a b', 'x/y', 'q?r', '#frag', '%41', 'né', '✓', 'a+b', 'semi;colon', 'idabc'),
  );
}

function requirementOf(route: Route, key: string): RegExp | null {
  const seg = route.segments.find((s) => 'key' in s && s.key === key);
  if (!seg || !('requirement' in seg) || seg.requirement === null) return null;
  const { source, flags } = seg.requirement;
  const plain = flags.includes('x') ? source.replace(/\s+|#.*$/gm, '') : source;
  return new RegExp(`^(?:${plain})$`, flags.includes('i') ? 'i' : '');
}

/** Adapts an arbitrary id to what the route's requirement on `key` accepts (round trips need valid ids). */
function fitValue(route: Route, key: string, raw: string, n: number): string {
  const re = requirementOf(route, key);
  if (re === null) return raw.replace(/\./g, '') || `v${n}`;
  const candidates = [raw, String(n), String(1000 + (n % 9000)), `${n}.${n}`, `id${'x'.repeat(1 + (n % 3))}`];
  return candidates.find((c) => re.test(c)) ?? raw;
}

properties('every named route round-trips: its _path helper recognizes back to its controller, action and ids', () => {
  fc.assert(
    fc.property(tableArb, fc.array(idArb(), { minLength: 6, maxLength: 6 }), fc.nat({ max: 9999 }), (t, ids, n) => {
      const set = drawTable(t);
      const helpers = helpersOf(set);
      const statics = new Set(set.routes.flatMap((r) => r.segments.flatMap((s) => (s.type === 'static' ? [s.value] : []))));
      for (const [name, route] of Object.entries(set.named)) {
        const values = route.segment_keys.map((key, i) => {
          let v = fitValue(route, key, ids[i % ids.length], n + i);
          // A value spelling a static word (`new`, an action name) is routed to that word's route, as in Rails.
          if (statics.has(escapePathComponent(v)) || v === '') v = `${n + i}`;
          return key === 'format' ? v.replace(/[^a-z]/gi, '') || 'xml' : v;
        });
        if (route.segments.some((s) => s.type === 'glob')) continue;
        const path = helpers[`${name}_path`](...values) as string;
        const bare = path.slice(set.config.relative_url_root.length);
        const method = route.methods?.[0] ?? 'GET';
        let params: Params = {};
        try {
          params = set.recognize(method, bare);
        } catch (e) {
          assert.unreachable(`${name}_path(${show(values)}) = ${path} did not recognise: ${String(e)}`);
        }
        assert.is(params.controller, route.requirements.controller, `${name}: controller of ${path}`);
        assert.is(params.action, route.requirements.action, `${name}: action of ${path}`);
        route.segment_keys.forEach((key, i) => assert.is(params[key], values[i], `${name}: ${key} of ${path}`));
      }
    }),
    runs(100),
  );
});

/** A record as models are: something with `to_param()` or `id`. */
class Post {
  constructor(readonly id: unknown) {}
}
class Slug {
  constructor(readonly slug: string) {}
  to_param(): string {
    return this.slug;
  }
}

const positionalArb = awkwardValueArb((id) => new Post(id), {
  strings: ['idAB', '2008'],
  more: [fc.string({ maxLength: 4 }).map((s) => new Slug(s))],
});

function attempt(fn: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: (e as Error).constructor.name };
  }
}

properties('positional helpers agree with url_for over hash_for_ (escaping, dots, slashes, unicode, records)', () => {
  fc.assert(
    fc.property(tableArb, fc.array(positionalArb, { minLength: 6, maxLength: 6 }), fc.boolean(), (t, ids, url) => {
      const set = drawTable(t);
      const helpers = helpersOf(set, url ? { host: 'example.com', port: 8080 } : {});
      const kind = url ? 'url' : 'path';
      for (const [name, route] of Object.entries(set.named)) {
        const args = route.segment_keys.map((_, i) => ids[i]);
        const keyed = Object.fromEntries(route.segment_keys.map((k, i) => [k, args[i]]));
        const fast = attempt(() => helpers[`${name}_${kind}`](...args));
        const general = attempt(() => helpers.url_for(helpers[`hash_for_${name}_${kind}`](keyed)));
        assert.equal(fast, general, `${name}_${kind}(${show(args.map(String))}): ${show(fast)} vs ${show(general)}`);
      }
    }),
    runs(120),
  );
});

const ROUTING_ERRORS = [RoutingError, MethodNotAllowed, NotImplemented];

properties('recognize throws nothing but RoutingError (incl. MalformedPathError), MethodNotAllowed or NotImplemented', () => {
  fc.assert(
    fc.property(tableArb, fc.boolean(), fc.array(fc.tuple(arbitraryPathArb, fc.oneof(methodArb, fc.string({ maxLength: 5 }))), { minLength: 1, maxLength: 20 }), (t, linear, requests) => {
      const set = drawTable(t, linear ? 'linear' : 'tree');
      for (const [path, method] of requests) {
        try {
          set.recognize(method, path);
        } catch (e) {
          assert.ok(ROUTING_ERRORS.some((C) => e instanceof C), `${show(method)} ${show(path)} threw ${String(e)}`);
          if (e instanceof MalformedPathError) assert.is(e.status, 400);
        }
        // The non-throwing lookup really never throws, except to report a malformed escape.
        try {
          set.match(method, path);
        } catch (e) {
          assert.instance(e, MalformedPathError);
        }
      }
    }),
    runs(150),
  );
});

properties.run();
