/**
 * Building one route (Rails 2.1's RouteBuilder): splitting the path into
 * segments, dividing options into defaults, requirements and conditions,
 * and deciding which trailing segments are optional.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw, HTTP_METHODS, RoutingError } from '../../../core/index.ts';
import { buildRoute, parseSegments, printSegments } from '../../../core/routing/route.ts';
import type { Route } from '../../../core/index.ts';
import { throwsA } from './support.ts';

const test = suite('route');

/** Shows segments compactly: `/` divider, `=text` static, `:key`, `*glob`, `@controller`; optional ones end in `?`. */
function shape(route: Pick<Route, 'segments'>): string {
  return route.segments.map((s) => {
    const text = s.type === 'divider' ? s.value : s.type === 'static' ? `=${s.value}` : s.type === 'glob' ? `*${s.key}` : s.type === 'controller' ? '@controller' : `:${s.key}`;
    return s.optional ? `${text}?` : text;
  }).join(' ');
}

function build(path: string, options: Record<string, unknown> = { controller: 'c' }, name: string | null = null): Route {
  return buildRoute(path, options, 0, name);
}

/** Paths as declared, and how they print back (scanner/parser round trips). */
const CASES: readonly [declared: string, printed: string, segments: string][] = [
  ['posts', '/posts', '/ =posts /?'],
  ['/posts/', '/posts', '/ =posts /?'],
  ['', '/', '/?'],
  ['/', '/', '/?'],
  ['posts/:id', '/posts/:id', '/ =posts /? :id? /?'],
  ['posts/:id/edit', '/posts/:id/edit', '/ =posts / :id / =edit /?'],
  ['posts/:id.:format', '/posts/:id.:format', '/ =posts / :id . :format /?'],
  ['posts.:format', '/posts.:format', '/ =posts . :format /?'],
  ['files/*path', '/files/*path', '/ =files /? *path? /?'],
  ['a?b', '/a?b', '/ =a ? =b /?'],
  ['v:version', '/v:version', '/ =v:version /?'],
  ['a/:x-:y', '/a/:x-:y', '/ =a / :x =-:y /?'],
  ['a/:1x', '/a/:1x', '/ =a / :1x /?'],
  ['a/: b', '/a/: b', '/ =a / =: b /?'],
];

for (const [declared, printed, segments] of CASES) {
  test(`parses ${JSON.stringify(declared)} and prints it back as ${printed}`, () => {
    const r = build(declared);
    assert.is(r.path, printed);
    assert.is(shape(r), segments);
    assert.is(printSegments(parseSegments(`${printed === '/' ? '' : printed}/`)), printed);
  });
}

test('an optional static piece is written ?text? and prints back the same way', () => {
  const segs = parseSegments('/dl/?latest?/');
  assert.equal(segs[2], { type: 'divider', value: '/', optional: true });
  assert.equal(segs[3], { type: 'static', value: 'latest', optional: true });
  assert.is(printSegments(segs), '/dl/?latest?');
  // A `?` run that crosses a newline is not an optional piece.
  assert.equal(parseSegments('/?x\n?/').map((s) => s.type), ['divider', 'divider', 'static', 'divider', 'divider']);
});

test(':controller is its own segment type', () => {
  const r = build(':controller/:action/:id', {});
  assert.is(shape(r), '/ @controller /? :action? /? :id? /?');
  assert.equal(r.segment_keys, ['controller', 'action', 'id']);
});

test('the action defaults to index and may be left off; an unconstrained id may be left off', () => {
  const r = build(':controller/:action/:id', {});
  assert.equal(r.segments[3], { type: 'dynamic', key: 'action', optional: true, default: 'index', requirement: null });
  assert.equal(r.segments[5], { type: 'dynamic', key: 'id', optional: true, default: null, requirement: null });
  assert.equal(r.defaults, { action: 'index' });
});

test('an action requirement that rejects index makes the action required', () => {
  assert.is(shape(build('a/:action', { controller: 'c', requirements: { action: /show|index/ } })), '/ =a /? :action? /?');
  assert.is(shape(build('a/:action', { controller: 'c', requirements: { action: /show/ } })), '/ =a / :action /?');
});

test('an id requirement that rejects the empty string makes the id required', () => {
  assert.is(shape(build('a/:id', { controller: 'c', requirements: { id: /\d*/ } })), '/ =a /? :id? /?');
  assert.is(shape(build('a/:id', { controller: 'c', requirements: { id: /\d+/ } })), '/ =a / :id /?');
});

test('an option naming a path segment becomes its default and makes it optional', () => {
  const r = build('pages/:title', { controller: 'pages', title: 'home' });
  assert.is(shape(r), '/ =pages /? :title? /?');
  assert.equal(r.defaults, { title: 'home', controller: 'pages', action: 'index' });
  const viaDefaults = build('pages/:title', { controller: 'pages', defaults: { title: 'home' } });
  assert.equal(viaDefaults.segments, r.segments);
});

test('a null default makes a segment optional without a value', () => {
  const r = build('archive/:year/:month', { controller: 'blog', month: null });
  assert.is(shape(r), '/ =archive / :year /? :month? /?');
  assert.not.ok('month' in r.defaults);
});

test('an optional segment before a required one is made required, with a warning unless optionality was implied', async () => {
  const warnings: Error[] = [];
  const listener = (w: Error) => warnings.push(w);
  process.on('warning', listener);
  try {
    const r = build('a/:x/b', { controller: 'c', x: 'd' });
    assert.is(shape(r), '/ =a / :x / =b /?');
    assert.is(r.defaults.x, 'd', 'the default is kept for generation');
    build('a/:id/b');
    build('a/*path/b');
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  const ours = warnings.filter((w) => (w as { code?: string }).code === 'SIGNALBOX_ROUTE_SEGMENT');
  assert.equal(ours.map((w) => w.message), ['Route segment ":x" cannot be optional because it precedes a required segment. This segment will be required.']);
});

test('options that name no segment become fixed requirements; patterns stay patterns; nil stays nil', () => {
  const r = build('x', { controller: 'c', lang: /en|fr/i, count: 3, flag: null });
  assert.equal(r.requirements, { controller: 'c', lang: { source: 'en|fr', flags: 'i' }, count: '3', flag: null, action: 'index' });
  // Rails' Route#defaults leaves nil out; the parameter shell (what recognition returns) keeps it.
  assert.equal(r.defaults, { controller: 'c', count: '3', action: 'index' });
  assert.equal(r.significant_keys, ['controller', 'lang', 'count', 'flag', 'action']);
});

test('a nil action or controller option reads as none given', () => {
  assert.equal(build('x', { controller: 'c', action: null }).requirements, { controller: 'c', action: 'index' });
  throwsA(() => build('x', { controller: null }), RoutingError);
});

test('a requirement descriptor given as an option on a path key is that segment\'s pattern', () => {
  const r = build('x/:y', { controller: 'c', y: { source: 'a+', flags: 'i' } });
  assert.equal(r.segments[3], { type: 'dynamic', key: 'y', optional: false, default: null, requirement: { source: 'a+', flags: 'i' } });
});

test('the method condition becomes an upper-case, de-duplicated, frozen list shared between routes', () => {
  const a = build('x', { controller: 'c', conditions: { method: ['get', 'GET', 'post'], subdomain: 'admin' } });
  const b = build('y', { controller: 'c', conditions: { method: ['get', 'GET', 'post'] } });
  assert.equal(a.methods, ['GET', 'POST']);
  assert.ok(Object.isFrozen(a.methods));
  assert.is(a.methods, b.methods);
  assert.equal(a.conditions, { subdomain: 'admin' }, 'other conditions are kept as declared');
  assert.is(build('x', { controller: 'c', conditions: { method: null } }).methods, null);
});

test('HTTP_METHODS lists the methods a route condition may name, HEAD included', () => {
  assert.equal([...HTTP_METHODS], ['get', 'head', 'post', 'put', 'delete', 'options']);
  assert.ok(Object.isFrozen(HTTP_METHODS));
});

test('a path_prefix is put in front, its variables becoming required keys', () => {
  assert.is(build('x', { controller: 'c', path_prefix: '/p/:pid' }).path, '/p/:pid/x');
  assert.is(build('x', { controller: 'c', path_prefix: 'p' }).path, '/p/x');
  assert.equal(build('x', { controller: 'c', path_prefix: '/p/:pid' }).segment_keys, ['pid']);
});

test('a namespace puts its module in front of the controller', () => {
  assert.is(build('x', { controller: 'c', namespace: 'admin/' }).requirements.controller, 'admin/c');
  assert.is(build('x', { controller: 'c', namespace: 'admin' }).requirements.controller, 'admin/c');
});

test('builder options never reach the requirements', () => {
  const r = build('x', { controller: 'c', path_prefix: '', name_prefix: 'n_', shallow: true, actions: ['index'], conditions: {} });
  assert.equal(r.requirements, { controller: 'c', action: 'index' });
});

test('the route is frozen, and records its index and name', () => {
  const r = buildRoute('x', { controller: 'c' }, 7, 'home');
  assert.is(r.index, 7);
  assert.is(r.name, 'home');
  assert.ok(Object.isFrozen(r));
  assert.ok(r.segments.every((s) => Object.isFrozen(s)));
});

test('routes of one set share their frozen static and divider segments; the data is unchanged', () => {
  const routes = draw((map) => map.resources('posts')).routes;
  const [index, formatted] = routes;
  assert.is(formatted.segments[1], index.segments[1], 'the `posts` static');
  assert.is(formatted.segments[0], index.segments[0], 'the leading slash');
  assert.equal(index.segments, [
    { type: 'divider', value: '/', optional: false },
    { type: 'static', value: 'posts', optional: false },
    { type: 'divider', value: '/', optional: true },
  ]);
  assert.ok(routes.every((r) => r.segments.every((s) => Object.isFrozen(s))));
  // A set drawn separately builds its own.
  assert.is.not(draw((map) => map.resources('posts')).routes[0].segments[1], index.segments[1]);
});

test('a glob records an empty default', () => {
  assert.equal(build('files/*path').defaults, { path: '', controller: 'c', action: 'index' });
});

test('declaration errors', () => {
  throwsA(() => build('x', {}), RoutingError, 'Illegal route "x": the :controller must be specified!');
  throwsA(() => build('a/:__proto__'), ArgumentError, '__proto__ cannot name a route parameter');
  throwsA(() => build('x', { controller: 'c', defaults: { nope: 1 } }), ArgumentError, 'nope: No matching segment exists; cannot assign default');
  throwsA(() => build('x', { controller: 'c', defaults: [1] }), ArgumentError, ':defaults must be a hash, got [1]');
  throwsA(() => build('x', { controller: 'c', conditions: 'get' }), ArgumentError, ':conditions must be a hash, got "get"');
  throwsA(() => build('files/*path', { controller: 'c', path: 'x' }), RoutingError, 'paths cannot have non-empty default values');
});

test.run();
