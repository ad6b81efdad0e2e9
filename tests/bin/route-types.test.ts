/**
 * `signalbox routes --types`: the declarations of a routes module's helpers,
 * printed, written to a file when they changed, or kept current while the
 * routes file changes (`watchRouteTypes`, as the example blog's development
 * start runs it). The example's own declarations are checked in, and must
 * say what its routes say.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { routeHelperTypes } from '../../core/index.ts';
import { routes as blogRoutes } from '../../examples/blog/routes.ts';
import { watchRouteTypes, writeRouteTypes } from '../../bin/route-types.ts';
import { scratchDir } from '../support/temp.ts';
import { ROOT, signalbox } from './support.ts';

const test = suite('signalbox routes --types');

const CORE = pathToFileURL(join(ROOT, 'core/index.ts')).href;

/** A routes module in JavaScript, drawing what `body` declares on `map`. */
function routesModule(body: string): string {
  return `import { draw } from ${JSON.stringify(CORE)};\nexport const routes = draw((map) => {\n${body}\n});\n`;
}

test('prints the declarations of a routes module\'s helpers, naming the file', async () => {
  const { code, stdout, stderr } = await signalbox('routes', '--types', 'examples/blog/routes.ts');
  assert.is(code, 0, stderr);
  assert.is(stdout, routeHelperTypes(blogRoutes.routes, { source: 'examples/blog/routes.ts' }));
});

test('the example blog\'s checked-in declarations are those of its routes (npm run routes:types rewrites them)', () => {
  const checkedIn = readFileSync(join(ROOT, 'examples/blog/routes.helpers.d.ts'), 'utf8');
  assert.is(checkedIn, routeHelperTypes(blogRoutes.routes, { source: 'routes.ts' }));
});

test('--out writes the file once, then leaves it alone while the routes say the same', async () => {
  const dir = scratchDir('route-types');
  const routesFile = join(dir, 'routes.mjs');
  const typesFile = join(dir, 'routes.helpers.d.ts');
  writeFileSync(routesFile, routesModule("  map.resources('widgets');"));
  const first = await signalbox('routes', '--types', routesFile, '--out', typesFile);
  assert.is(first.code, 0, first.stderr);
  assert.is(first.stdout, `${typesFile}: written\n`);
  const text = readFileSync(typesFile, 'utf8');
  assert.match(text, '// The route helpers of routes.mjs, written by');
  assert.match(text, 'widget_path(id: RouteParam, options?: UrlOptions): string;');
  const written = statSync(typesFile).mtimeMs;
  const second = await signalbox('routes', '--types', routesFile, '--out', typesFile);
  assert.is(second.stdout, `${typesFile}: already up to date\n`);
  assert.is(statSync(typesFile).mtimeMs, written, 'not touched, so watchers see no change');
});

test('--out refuses the name TypeScript would take for the routes file\'s own declarations', async () => {
  const dir = scratchDir('route-types');
  writeFileSync(join(dir, 'routes.ts'), routesModule("  map.resources('widgets');"));
  const { code, stderr } = await signalbox('routes', '--types', join(dir, 'routes.ts'), '--out', join(dir, 'routes.d.ts'));
  assert.is(code, 1);
  assert.match(stderr, /routes\.d\.ts would be read as the declarations of .*routes\.ts and ignored: give it another name \(routes\.helpers\.d\.ts\)/);
  const refused = await writeRouteTypes(join(dir, 'routes.ts'), join(dir, 'routes.d.ts')).then(() => null, (error: unknown) => error);
  assert.instance(refused, Error, 'the library function refuses it too');
});

test('misused options are usage errors', async () => {
  for (const args of [['--watch', '--types'], ['--out', 'x.d.ts'], ['--types', '--json'], ['--types', 'a.ts', 'b.ts'], ['--types', '--nope']]) {
    const { code, stderr } = await signalbox('routes', ...args);
    assert.is(code, 2, args.join(' '));
    assert.match(stderr, 'usage: signalbox routes', args.join(' '));
  }
});

test('--watch on a routes file that does not exist says so and exits 1, rather than watching for ever', async () => {
  const dir = scratchDir('route-types');
  const missing = join(dir, 'rotues.mjs');
  const ran = await new Promise<{ code: number | null; stderr: string }>((done) => {
    execFile(process.execPath, [join(ROOT, 'bin/signalbox.js'), 'routes', '--types', missing, '--out', join(dir, 'routes.helpers.d.ts'), '--watch'],
      { timeout: 10_000, encoding: 'utf8' }, (error, _stdout, stderr) => done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr }));
  });
  assert.is(ran.code, 1, 'exited 1 (null: still watching when killed)');
  assert.is(ran.stderr, `${missing}: no such file\n`);
});

/** Resolves with the next value `listen` is handed, or rejects after `ms`. */
function next<T>(listen: (handler: (value: T) => void) => void, ms = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
    listen((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

test('watchRouteTypes writes at once, rewrites when the routes file changes, and keeps the last good file through an error', async () => {
  const dir = scratchDir('route-types');
  const routesFile = join(dir, 'routes.mjs');
  const typesFile = join(dir, 'routes.helpers.d.ts');
  writeFileSync(routesFile, routesModule("  map.resources('widgets');"));
  let onWrite: (file: string) => void = () => {};
  let onError: (error: unknown) => void = () => {};
  const watcher = watchRouteTypes(routesFile, typesFile, { onWrite: (f) => onWrite(f), onError: (e) => onError(e), settleMs: 20 });
  try {
    assert.is(await next<string>((h) => { onWrite = h; }), typesFile);
    assert.not.match(readFileSync(typesFile, 'utf8'), 'gadget_path');
    const rewritten = next<string>((h) => { onWrite = h; });
    writeFileSync(routesFile, routesModule("  map.resources('widgets');\n  map.resources('gadgets');"));
    await rewritten;
    assert.match(readFileSync(typesFile, 'utf8'), 'gadget_path(id: RouteParam, options?: UrlOptions): string;');
    const failed = next<unknown>((h) => { onError = h; });
    writeFileSync(routesFile, routesModule("  map.resources('widgets', { member: { mark: 'head' } });"));
    assert.match(String(await failed), 'HEAD');
    assert.match(readFileSync(typesFile, 'utf8'), 'gadget_path', 'the last good declarations stay');
  } finally {
    watcher.close();
  }
});

test.run();
