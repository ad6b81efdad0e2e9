/**
 * The table as text and as rows: what `rake routes` (and `signalbox routes`) print.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, formatRoutes, routeRows } from '../../../core/index.ts';

const test = suite('print');

const routes = draw((map) => {
  map.resources('posts', { only: ['index', 'show'] });
  map.named('login', 'login', { controller: 'sessions', action: 'new', conditions: { method: ['get', 'post'] } });
  map.connect('feeds/:id', { controller: 'feeds', lang: /en|fr/i });
  map.connect(':controller/:action/:id');
});

test('routeRows gives one plain row per route', () => {
  const rows = routeRows(routes.routes);
  assert.is(rows.length, routes.routes.length);
  assert.equal(rows[0], { name: 'posts', method: 'GET', path: '/posts', controller: 'posts', action: 'index', requirements: { controller: 'posts', action: 'index' } });
  assert.equal(rows[3], { name: 'formatted_post', method: 'GET', path: '/posts/:id.:format', controller: 'posts', action: 'show', requirements: { controller: 'posts', action: 'show' } });
  assert.equal(rows[4], { name: 'login', method: 'GET,POST', path: '/login', controller: 'sessions', action: 'new', requirements: { controller: 'sessions', action: 'new' } });
});

test('pattern requirements print as /source/flags; routes without a fixed controller or method leave those empty', () => {
  const rows = routeRows(routes.routes);
  assert.equal(rows[5].requirements, { controller: 'feeds', lang: '/en|fr/i', action: 'index' });
  assert.equal(rows[6], { name: '', method: '', path: '/:controller/:action/:id', controller: null, action: null, requirements: {} });
});

test('formatRoutes aligns the columns: names right-aligned, methods and paths padded', () => {
  const text = formatRoutes(routes.routes);
  const lines = text.split('\n');
  assert.is(lines.length, routes.routes.length);
  const nameWidth = Math.max(...routes.routes.map((r) => (r.name ?? '').length));
  const methodWidth = 'GET,POST'.length;
  for (const [i, line] of lines.entries()) {
    const r = routes.routes[i];
    assert.is(line.slice(0, nameWidth), (r.name ?? '').padStart(nameWidth), `name column of line ${i}`);
    assert.is(line.slice(nameWidth + 1, nameWidth + 1 + methodWidth), (r.methods?.join(',') ?? '').padEnd(methodWidth), `method column of line ${i}`);
    assert.is(line.slice(nameWidth + methodWidth + 2).split(' ')[0], r.path, `path column of line ${i}`);
    assert.is(line, line.trimEnd(), 'no trailing spaces');
  }
  const pathWidth = Math.max(...routes.routes.map((r) => r.path.length));
  assert.is(lines[0], `${'posts'.padStart(nameWidth)} GET      ${'/posts'.padEnd(pathWidth)} {controller: "posts", action: "index"}`);
  assert.is(lines[6], `${''.padStart(nameWidth)}          /:controller/:action/:id {}`);
});

test('an empty table prints as an empty string', () => {
  assert.is(formatRoutes([]), '');
  assert.equal(routeRows([]), []);
  assert.is(draw(() => {}).print(), '');
});

test('RouteSet#print is formatRoutes over its routes', () => {
  assert.is(routes.print(), formatRoutes(routes.routes));
});

test.run();
