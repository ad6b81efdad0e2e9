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
import { escapePathComponent, type Params, type Route, type RouteSet } from '../../../core/index.ts';
import { DEFAULT_ROUTE_CONTROLLERS, drawTable, tableArb, type TableDecl } from './random-tables.ts';

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
