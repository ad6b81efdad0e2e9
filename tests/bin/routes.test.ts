/**
 * `signalbox routes`: the command prints a route table like `rake routes`
 * (aligned columns) or as JSON rows: the application's own when run inside
 * one, or a module's. Runs the real command, as a user would.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, signalbox, signalboxIn } from './support.ts';
import { routes as blogRoutes } from '../../examples/blog/routes.ts';

// The commands start node and tsx; run them side by side once, then check each result.
const APPS = join(ROOT, 'tests/bin/fixtures/apps');
const results = Promise.all([
  signalbox('routes', 'examples/blog/routes.ts'),
  signalbox('routes', '--json', 'examples/blog/routes.ts'),
  signalbox('routes', 'tests/bin/fixtures/no-route-set.ts'),
  signalbox('routes', '--json', 'tests/bin/fixtures/default-export.ts'),
  signalbox('routes', 'a.ts', 'b.ts'),
  signalbox('routes', 'tests/bin/fixtures/syntax-error.mjs'),
  signalbox('routes', 'tests/bin/fixtures/nowhere.ts'),
  signalbox('routes', 'tests/bin/fixtures/missing-export.mjs'),
]);
const found = Promise.all([
  signalbox('routes'),
  signalboxIn(join(APPS, 'conventional'), 'routes', '--json'),
  signalboxIn(join(APPS, 'conventional', 'app'), 'routes', '--json'),
  signalboxIn(join(APPS, 'named'), 'routes', '--json'),
  signalboxIn(join(APPS, 'missing'), 'routes'),
]);

test('routes prints a module\'s table, one line per route', async () => {
  const [{ code, stdout, stderr }] = await results;
  assert.is(code, 0, stderr);
  const lines = stdout.trimEnd().split('\n');
  assert.is(lines.length, blogRoutes.routes.length);
  assert.is(stdout.trimEnd(), blogRoutes.print());
  for (const expected of [/^\s*posts GET\s+\/posts\s+\{controller: "posts", action: "index"\}$/, /^\s*login GET\s+\/login\s+\{controller: "sessions", action: "new"\}$/, /^\s*admin_post GET\s+\/admin\/posts\/:id\s+\{controller: "admin\/posts", action: "show"\}$/, /^\s*root\s+\/\s+\{controller: "posts", action: "index"\}$/]) {
    assert.ok(lines.some((l) => expected.test(l)), `a line matches ${expected}`);
  }
});

test('routes aligns its columns: names right-aligned, paths in one column', async () => {
  const [{ stdout }] = await results;
  const lines = stdout.trimEnd().split('\n');
  const width = Math.max(...blogRoutes.routes.map((r) => (r.name ?? '').length));
  lines.forEach((line, i) => {
    assert.is(line.slice(0, width + 1), `${(blogRoutes.routes[i].name ?? '').padStart(width)} `, `name column of line ${i}`);
  });
  const pathStarts = new Set(lines.map((l) => l.indexOf(' /') + 1));
  assert.is(pathStarts.size, 1, 'every path starts in the same column');
});

test('routes --json prints rows with name, method, path, controller and action', async () => {
  const [, { code, stdout, stderr }] = await results;
  assert.is(code, 0, stderr);
  const rows = JSON.parse(stdout) as Record<string, unknown>[];
  assert.ok(Array.isArray(rows));
  assert.is(rows.length, blogRoutes.routes.length);
  for (const row of rows) {
    for (const key of ['name', 'method', 'path', 'controller', 'action']) assert.ok(key in row, `${key} in ${JSON.stringify(row)}`);
  }
  assert.ok(rows.some((r) => r.name === 'post_comments' && r.method === 'GET' && r.path === '/posts/:post_id/comments' && r.controller === 'comments' && r.action === 'index'));
  assert.ok(rows.some((r) => r.name === 'logout' && r.method === 'DELETE' && r.controller === 'sessions' && r.action === 'destroy'));
});

test('a module that exports no RouteSet exits non-zero with a clear message', async () => {
  const [, , { code, stdout, stderr }] = await results;
  assert.is.not(code, 0);
  assert.is(stdout, '');
  assert.is(stderr.trim(), 'tests/bin/fixtures/no-route-set.ts does not export a RouteSet (as `routes` or default)');
});

test('a routes file that does not parse, or is not there, exits non-zero naming it', async () => {
  const [, , , , , broken, missing] = await results;
  assert.is(broken.code, 1);
  assert.is(broken.stdout, '');
  assert.match(broken.stderr.trim(), /^tests\/bin\/fixtures\/syntax-error\.mjs could not be loaded: SyntaxError: .+ \(`node --check tests\/bin\/fixtures\/syntax-error\.mjs` shows where\)$/);
  assert.is(missing.code, 1);
  assert.is(missing.stderr.trim(), 'tests/bin/fixtures/nowhere.ts: no such file');
});

test('a routes file importing a name its module does not export exits non-zero naming the importing line', async () => {
  const [, , , , , , , unexported] = await results;
  assert.is(unexported.code, 1);
  assert.is(unexported.stdout, '');
  assert.is(unexported.stderr.trim(), "tests/bin/fixtures/missing-export.mjs could not be loaded: SyntaxError: The requested module './helper.mjs' does not provide an export named 'nothing_here' (at tests/bin/fixtures/missing-export.mjs:2)");
});

test('a module\'s default export is used when it is a RouteSet', async () => {
  const [, , , { code, stdout, stderr }] = await results;
  assert.is(code, 0, stderr);
  const rows = JSON.parse(stdout) as { name: string; path: string }[];
  assert.equal(rows.map((r) => `${r.name} ${r.path}`), ['widgets /widgets', 'formatted_widgets /widgets.:format', 'widget /widgets/:id', 'formatted_widget /widgets/:id.:format', 'root /']);
});

test('more than one file is a usage error', async () => {
  const [, , , , { code, stderr }] = await results;
  assert.is(code, 2);
  assert.match(stderr, /^one routes file at most\nusage: signalbox routes \[--json\] \[file\]/);
});

test('inside an application, routes finds config/routes by convention, from any directory of it', async () => {
  const [, atRoot, below] = await found;
  assert.is(atRoot.code, 0, atRoot.stderr);
  const rows = JSON.parse(atRoot.stdout) as { name: string; path: string }[];
  assert.equal(rows.map((r) => `${r.name} ${r.path}`), ['gadgets /gadgets', 'formatted_gadgets /gadgets.:format', 'gadget /gadgets/:id', 'formatted_gadget /gadgets/:id.:format']);
  assert.is(below.code, 0, below.stderr);
  assert.is(below.stdout, atRoot.stdout);
});

test('package.json\'s "signalbox": { "routes" } names the module; a name with no file behind it is an error', async () => {
  const [, , , named, missing] = await found;
  assert.is(named.code, 0, named.stderr);
  assert.equal((JSON.parse(named.stdout) as { name: string }[]).map((r) => r.name), ['dashboard']);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'names config/nowhere.js as its routes module, and there is no such file');
});

test('outside an application, routes says what it needs instead of printing anything', async () => {
  const [outside] = await found;
  assert.is(outside.code, 1);
  assert.is(outside.stdout, '');
  assert.match(outside.stderr, 'signalbox routes needs an application');
  assert.match(outside.stderr, '`signalbox new`');
  assert.match(outside.stderr, 'signalbox routes path/to/routes.js');
});

test.run();
