/**
 * Hash-based generation compiled per route set gives exactly what the
 * reference generator gives: the same path and query string, or, where it
 * stands aside, the reference's answer or error through the public API.
 *
 * The property draws random tables (random-tables.ts) and, on each, option
 * hashes built from the table's own routes and then bent: keys left out or
 * added, values of every kind Rails' `to_param` reads (numbers, text that
 * does and does not meet a requirement, nil, false, records, arrays, nested
 * hashes), controllers given relative or absolute, recalls from other
 * routes. Set `SIGNALBOX_PROPERTY_RUNS` to look harder locally.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { draw, type GenerateOptions, type Route, type RouteSet } from '../../../core/index.ts';
import { Generator } from '../../../core/routing/generate.ts';
import { prepareRoute, type GenRoute } from '../../../core/routing/gen-route.ts';
import { HashGenerator } from '../../../core/routing/hash-generate.ts';
import { DEFAULT_ROUTE_CONTROLLERS, drawTable, tableArb } from './random-tables.ts';

const RUNS = Number(process.env.SIGNALBOX_PROPERTY_RUNS ?? 0) || undefined;

const test = suite('compiled hash generation');

function holds<T>(property: fc.IProperty<T>, n: number): void {
  try {
    fc.assert(property, { numRuns: RUNS ?? n });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new Error(`${(error as Error).message}${cause instanceof Error ? `\n${cause.message}` : ''}`);
  }
}

interface Pair {
  readonly compiled: HashGenerator;
  readonly reference: Generator;
}

function generators(set: RouteSet): Pair {
  const routes = set.routes.map(prepareRoute);
  const named = new Map<string, GenRoute>();
  for (const g of routes) if (g.route.name !== null) named.set(g.route.name, g);
  return { compiled: new HashGenerator(routes), reference: new Generator({ routes, named }, { compiled: false }) };
}

type Outcome = { readonly path: string } | { readonly error: string };

function outcome(run: () => string): Outcome {
  try {
    return { path: run() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

// ---------------------------------------------------------------------------
// Option hashes from a table's routes
// ---------------------------------------------------------------------------

class Record7 {
  constructor(readonly id: number) {}
}

/** Values as callers pass them; thunks, so records are fresh for every call. */
const VALUES: readonly (() => unknown)[] = [
  () => 7, () => 0, () => 2008, () => 1.5, () => -3,
  () => '7', () => '2008', () => 'iddef', () => 'IDx', () => '1.5', () => 'home', () => 'xml',
  () => 'a b', () => 'x/y', () => 'né', () => '', () => 'Posts',
  () => null, () => false, () => true,
  () => ['a', 'b c'], () => [],
  () => ({ id: 5 }), () => new Record7(9), () => ({ to_param: () => 'slug-1' }), () => ({ to_param: () => null }),
  () => ({ nested: 'x', list: [1, 2] }),
];

interface Bend {
  readonly route: number;
  /** A value per key slot: an index into VALUES, or -1 to keep the route's own. */
  readonly values: readonly number[];
  /** Keys left out, by slot. */
  readonly drop: readonly boolean[];
  readonly extra: readonly { key: string; value: number }[];
  readonly controller: 'own' | 'absolute' | 'relative' | 'other' | 'none';
  readonly action: 'own' | 'other' | 'none';
  readonly reverse: boolean;
}

const bendArb: fc.Arbitrary<Bend> = fc.record({
  route: fc.nat(),
  values: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 2, arbitrary: fc.nat({ max: VALUES.length - 1 }) }), { minLength: 8, maxLength: 8 }),
  drop: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  extra: fc.array(fc.record({ key: fc.constantFrom('page', 'q', 'format', 'id', 'k0', 'only_path', 'flag'), value: fc.nat({ max: VALUES.length - 1 }) }), { maxLength: 2 }),
  controller: fc.constantFrom('own', 'own', 'absolute', 'relative', 'other', 'none'),
  action: fc.constantFrom('own', 'own', 'other', 'none'),
  reverse: fc.boolean(),
});

/** A value the route's own segment takes: one its requirement accepts where there is one. */
function ownValue(route: Route, key: string): unknown {
  const seg = route.segments.find((s) => 'key' in s && s.key === key);
  const req = seg !== undefined && 'requirement' in seg ? seg.requirement : null;
  if (key === 'format') return 'xml';
  if (req === null) return seg?.type === 'glob' ? ['a', 'b'] : 7;
  if (/d\{4\}/.test(req.source)) return '2008';
  if (/id\[a-z\]/.test(req.source)) return 'iddef';
  if (/\\\.\\d/.test(req.source)) return '1.5';
  return 3;
}

function bend(set: RouteSet, b: Bend): GenerateOptions {
  const route = set.routes[b.route % set.routes.length];
  const fixed = route.requirements;
  const options: GenerateOptions = {};
  route.significant_keys.forEach((key, slot) => {
    if (key === 'controller' || key === 'action' || b.drop[slot % 8]) return;
    const pick = b.values[slot % 8];
    const req = fixed[key];
    options[key] = pick >= 0 ? VALUES[pick]() : typeof req === 'string' || req === null ? req : ownValue(route, key);
  });
  const controller = typeof fixed.controller === 'string' ? fixed.controller : DEFAULT_ROUTE_CONTROLLERS[b.route % 3];
  if (b.controller === 'own') options.controller = controller;
  else if (b.controller === 'absolute') options.controller = `/${controller}`;
  else if (b.controller === 'relative') options.controller = controller.slice(controller.lastIndexOf('/') + 1);
  else if (b.controller === 'other') options.controller = DEFAULT_ROUTE_CONTROLLERS[(b.route + 1) % 3];
  const action = typeof fixed.action === 'string' ? fixed.action : 'show';
  if (b.action === 'own') options.action = action;
  else if (b.action === 'other') options.action = 'edit';
  for (const { key, value } of b.extra) options[key] = VALUES[value]();
  if (!b.reverse) return options;
  return Object.fromEntries(Object.entries(options).reverse());
}

/** A recall as a request gives it: another route's parameters, as text. */
function recallFrom(set: RouteSet, b: Bend | null): GenerateOptions {
  if (b === null) return {};
  const options = bend(set, { ...b, values: b.values.map(() => -1), extra: [], controller: b.controller === 'none' ? 'own' : b.controller });
  const recall: GenerateOptions = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === null) recall[key] = null;
    else if (Array.isArray(value)) recall[key] = value.map(String);
    else recall[key] = String(value).replace(/^\//, '');
  }
  return recall;
}

// `hole`: the recall names a key with no value (a key of its own, unlike one it lacks).
const callArb = fc.record({ options: bendArb, recall: fc.option(bendArb, { nil: null }), onlyPath: fc.boolean(), hole: fc.option(fc.nat(), { nil: null }) });

// ---------------------------------------------------------------------------

test('compiled generation agrees with the reference on random tables, option hashes and recalls', () => {
  let calls = 0;
  let answered = 0;
  let withRecall = 0;
  let withQuery = 0;
  holds(fc.property(tableArb, fc.array(callArb, { minLength: 1, maxLength: 25 }), (t, list) => {
    const set = drawTable(t, 'tree');
    if (set.routes.length === 0) return;
    // One pair per table, so its memo of pairs, key sets and compiled routes carries from call to call.
    const { compiled, reference } = generators(set);
    for (const call of list) {
      const options = bend(set, call.options);
      const recall = recallFrom(set, call.recall);
      const keys = Object.keys(options);
      if (call.hole !== null && keys.length > 0) recall[keys[call.hole % keys.length]] = undefined;
      const label = `${JSON.stringify(options)} recalling ${JSON.stringify(recall)}`;
      const expected = outcome(() => reference.generate(options, recall));
      calls++;
      const got = compiled.generate(options, recall, false);
      if (got !== undefined) {
        answered++;
        if (Object.keys(recall).length > 0) withRecall++;
        if (got.includes('?')) withQuery++;
        assert.equal({ path: got }, expected, label);
      }
      // Through the public API the reference answers what the compiled form leaves, errors included.
      assert.equal(outcome(() => set.generate(options, recall)), expected, `generate(${label})`);
      // url_for's form passes over only_path, which url_for takes out of the hash before generating.
      const target = { ...options, only_path: call.onlyPath };
      const forUrl = compiled.generate(target, recall, true);
      const { only_path: _o, ...hash } = target;
      const expectedPath = outcome(() => reference.generate(hash, recall));
      if (forUrl !== undefined) assert.equal({ path: forUrl }, expectedPath, `url_for(${label})`);
      // And through the helpers, which wrap the path in the URL.
      const url = outcome(() => set.helpers({ host: 'example.com' }, recall).url_for(target));
      assert.equal(url, 'path' in expectedPath ? { path: `${call.onlyPath ? '' : 'http://example.com'}${expectedPath.path}` } : expectedPath, `helpers.url_for(${label})`);
    }
  }), 800);
  // The property must not pass by standing aside: most calls are the compiled form's to answer.
  assert.ok(answered > calls * 0.4, `compiled generation answered ${answered} of ${calls} calls`);
  assert.ok(withRecall > 0 && withQuery > 0, `answered ${withRecall} calls with a recall and ${withQuery} with a query string`);
});

test('stands aside for what the reference alone answers: use_route, undefined values, and calls no route serves', () => {
  const set = draw((map) => {
    map.resources('posts');
    map.connect(':controller/:action/:id');
  });
  const { compiled } = generators(set);
  assert.is(compiled.generate({ controller: 'posts', action: 'show', id: 1 }, {}, false), '/posts/1');
  assert.is(compiled.generate({ use_route: 'post', id: 1 }, {}, false), undefined);
  assert.is(compiled.generate({ controller: 'posts', action: 'show', id: 1, page: undefined }, {}, false), undefined);
  assert.is(compiled.generate({ controller: 'posts', action: 'show', id: () => 1 }, {}, false), undefined);
  assert.is(compiled.generate({ controller: 'posts', action: 'show', id: null }, {}, false), '/posts/show');
  assert.is(compiled.generate({ action: 'show' }, {}, false), undefined);
  assert.throws(() => set.generate({ action: 'show' }), /Need controller and action/);
});

test('answers stay right past the limits of its memo: thousands of actions and of key sets', () => {
  const set = draw((map) => map.connect(':controller/:action/:id'));
  const { compiled } = generators(set);
  for (let i = 0; i < 2500; i++) {
    assert.is(compiled.generate({ controller: 'pages', action: `a${i}`, id: i }, {}, false), `/pages/a${i}/${i}`);
    assert.is(compiled.generate({ controller: 'pages', action: 'show', [`k${i}`]: 1 }, {}, false), `/pages/show?k${i}=1`);
  }
  assert.is(compiled.generate({ controller: 'pages', action: 'a0', id: 0 }, {}, false), '/pages/a0/0');
});

test('an enumerable property added to Object.prototype changes no generated path', () => {
  const set = draw((map) => map.resources('posts'));
  const { compiled } = generators(set);
  const proto = Object.prototype as Record<string, unknown>;
  proto.page = 2;
  try {
    assert.is(compiled.generate({ controller: 'posts', action: 'index', q: 'a' }, {}, false), undefined);
    assert.is(set.generate({ controller: 'posts', action: 'index', q: 'a' }), '/posts?q=a');
  } finally {
    delete proto.page;
  }
  assert.is(compiled.generate({ controller: 'posts', action: 'index', q: 'a' }, {}, false), '/posts?q=a');
});

test('a controller is relative to the recalled one, and recalled values hold only up to the first changed segment', () => {
  const set = draw((map) => {
    map.connect(':controller/:action/:id');
  }, { controllers: ['admin/posts', 'admin/users', 'posts'] });
  const { compiled } = generators(set);
  const recall = { controller: 'admin/posts', action: 'show', id: '5' };
  assert.is(compiled.generate({ controller: 'users' }, recall, false), '/admin/users');
  assert.is(compiled.generate({ controller: '/posts' }, recall, false), '/posts');
  assert.is(compiled.generate({ action: 'edit' }, recall, false), '/admin/posts/edit');
  assert.is(compiled.generate({ id: 6 }, recall, false), '/admin/posts/show/6');
  assert.is(compiled.generate({ page: 2 }, recall, false), '/admin/posts/show/5?page=2');
});

test('url_for from a hash through the helpers takes the compiled form and gives the same URLs', () => {
  const set = draw((map) => {
    map.resources('posts', (posts) => posts.resources('comments'));
  });
  const helpers = set.helpers({ host: 'example.com' }, { controller: 'posts', action: 'show', id: '3' });
  assert.is(helpers.url_for({ action: 'edit' }), 'http://example.com/posts/3/edit');
  assert.is(helpers.url_for({ action: 'edit', only_path: true }), '/posts/3/edit');
  assert.is(helpers.url_for({ controller: 'comments', action: 'show', post_id: 3, id: 4 }), 'http://example.com/posts/3/comments/4');
  assert.is(helpers.url_for({ controller: 'posts', action: 'index', anchor: 'top', page: 2 }), 'http://example.com/posts?page=2#top');
  assert.is(set.url_for({ controller: 'posts', action: 'show', id: 1, format: 'xml' }), '/posts/1.xml');
});

test.run();
