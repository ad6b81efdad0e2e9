/**
 * `signalbox new DIR`: what it writes, and what it refuses. The application it writes is installed,
 * served and tested for real in tests/package/new-app.test.ts, from the packed package.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newAppCommand } from '../../bin/new/index.ts';
import { routeHelperTypes, type RouteSet } from '../../core/index.ts';
import { scratchDir } from '../support/temp.ts';
import { ROOT, signalboxIn } from './support.ts';

const test = suite('signalbox new writes a new application');

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).sort();
}

test('an application: routes, controllers, a resource with its views and layout, public pages, a test, README, .gitignore, package.json', () => {
  const cwd = scratchDir('new');
  const { code, stdout, stderr } = newAppCommand(['my-notes'], cwd);
  assert.is(code, 0, stderr);
  const app = join(cwd, 'my-notes');
  assert.equal(filesUnder(app), [
    '.gitignore', 'README.md',
    'app/controllers/application_controller.js', 'app/controllers/notes_controller.js',
    'app/helpers/application_helper.js', 'app/models/note.js',
    'app/views/layouts/application.html.js',
    'app/views/notes/_form.html.js', 'app/views/notes/_note.html.js', 'app/views/notes/edit.html.js',
    'app/views/notes/index.html.js', 'app/views/notes/new.html.js', 'app/views/notes/show.html.js',
    'config/application.js', 'config/routes.helpers.d.ts', 'config/routes.js', 'jsconfig.json', 'package.json',
    'public/404.html', 'public/422.html', 'public/500.html', 'public/favicon.ico', 'public/robots.txt',
    'public/stylesheets/application.css', 'server.js', 'test/notes.test.js',
  ]);
  const lines = stdout.split('\n');
  for (const line of ['      create  my-notes/config/routes.js', '      create  my-notes/.gitignore', '  cd my-notes', '  npm install']) {
    assert.ok(lines.includes(line), `prints ${JSON.stringify(line)}`);
  }
  assert.ok(lines.some((l) => l.startsWith('  npm start ')), 'and how to start it');
});

test('package.json: an ES module package with start, dev, test and routes, depending on this version of Signalbox', () => {
  const cwd = scratchDir('new');
  newAppCommand(['shop'], cwd);
  const manifest = JSON.parse(readFileSync(join(cwd, 'shop', 'package.json'), 'utf8')) as Record<string, any>;
  assert.is(manifest.name, 'shop');
  assert.is(manifest.private, true);
  assert.is(manifest.type, 'module');
  assert.equal(manifest.dependencies, { signalbox: `^${version}` });
  assert.equal(manifest.signalbox, { routes: 'config/routes.js' });
  assert.is(manifest.scripts.start, 'node server.js', 'one node process, no loader, no build');
  assert.is(manifest.scripts.test, 'node --test');
  assert.is(manifest.scripts.routes, 'signalbox routes');
  assert.is(manifest.scripts['routes:types'], 'signalbox routes --types --out config/routes.helpers.d.ts');
  assert.is(manifest.scripts.dev, 'signalbox dev', 'its watcher sees files saved by rename; templates reload without a restart');
  assert.is(manifest.engines.node, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node);
});

test('the name goes where it belongs, and no placeholder is left', () => {
  const cwd = scratchDir('new');
  newAppCommand(['field.notes'], cwd);
  const app = join(cwd, 'field.notes');
  for (const file of filesUnder(app)) assert.not.match(readFileSync(join(app, file), 'utf8'), /\{\{\w+\}\}/, file);
  assert.match(readFileSync(join(app, 'config/application.js'), 'utf8'), "session: { key: '_field_notes_session' }");
  assert.match(readFileSync(join(app, 'README.md'), 'utf8'), /^# field\.notes\n/);
  assert.match(readFileSync(join(app, 'app/views/layouts/application.html.js'), 'utf8'), "<a href=\"${v.root_path()}\">field.notes</a>");
});

test('the route helper declarations a new app starts with are those of its routes', async () => {
  // The skeleton is JavaScript importing 'signalbox', which this checkout's tsconfig maps to index.ts.
  const { routes } = (await import(pathToFileURL(join(ROOT, 'bin/new/skeleton/config/routes.js')).href)) as { routes: RouteSet };
  const declared = readFileSync(join(ROOT, 'bin/new/skeleton/config/routes.helpers.d.ts'), 'utf8');
  assert.is(declared, routeHelperTypes(routes.routes, { source: 'routes.js' }), 'stale: write routeHelperTypes of the skeleton\'s routes into it');
  assert.match(declared, 'note_path(');
});

test('.gitignore keeps node_modules and tmp/ (the development secret) out of version control', () => {
  const cwd = scratchDir('new');
  newAppCommand(['blog'], cwd);
  const ignored = readFileSync(join(cwd, 'blog', '.gitignore'), 'utf8').split('\n');
  assert.ok(ignored.includes('node_modules/'));
  assert.ok(ignored.includes('tmp/'));
});

test('an empty directory is used; a directory with anything in it, or a file, is refused and left as it was', () => {
  const cwd = scratchDir('new');
  mkdirSync(join(cwd, 'empty'));
  assert.is(newAppCommand(['empty'], cwd).code, 0);
  assert.ok(existsSync(join(cwd, 'empty', 'server.js')));
  mkdirSync(join(cwd, 'taken'));
  writeFileSync(join(cwd, 'taken', 'notes.txt'), 'mine\n');
  writeFileSync(join(cwd, 'afile'), '');
  for (const [dir, from] of [['taken', cwd], ['afile', cwd], ['.', join(cwd, 'taken')]] as const) {
    const { code, stdout, stderr } = newAppCommand([dir], from);
    assert.is(code, 1, dir);
    assert.is(stdout, '');
    assert.match(stderr, /already exists and is not an empty directory/);
  }
  assert.equal(readdirSync(join(cwd, 'taken')), ['notes.txt']);
});

test('a directory name that cannot be a package name is refused, saying what a name may hold', () => {
  const cwd = scratchDir('new');
  for (const name of ['My App', 'Shop', '.hidden', '_private', 'a'.repeat(215), 'café']) {
    const { code, stderr } = newAppCommand([name], cwd);
    assert.is(code, 1, name);
    assert.match(stderr, 'lower-case letters, digits, -, _ and .', name);
  }
  assert.equal(readdirSync(cwd), []);
});

test('a name npm keeps for itself (node_modules, favicon.ico) is refused, where the app made could not load its packages', () => {
  const cwd = scratchDir('new');
  for (const name of ['node_modules', 'favicon.ico']) {
    const { code, stderr } = newAppCommand([name], cwd);
    assert.is(code, 1, name);
    assert.match(stderr, `cannot make an application named "${name}": npm keeps that name for itself`, name);
  }
  assert.equal(readdirSync(cwd), []);
});

test('no directory, two, or an option is a usage error; --help prints the usage', () => {
  for (const args of [[], ['a', 'b'], ['--force']]) {
    const { code, stderr } = newAppCommand(args, scratchDir('new'));
    assert.is(code, 2, args.join(' '));
    assert.match(stderr, /^usage: signalbox new DIR/);
  }
  for (const flag of ['--help', '-h']) {
    const help = newAppCommand([flag]);
    assert.is(help.code, 0, flag);
    assert.match(help.stdout, /^usage: signalbox new DIR/, 'help asked for is output');
    assert.is(help.stderr, '');
  }
});

test('the signalbox command runs it', async () => {
  const cwd = scratchDir('new');
  const { code, stdout, stderr } = await signalboxIn(cwd, 'new', 'demo');
  assert.is(code, 0, stderr);
  assert.match(stdout, '      create  demo/test/notes.test.js\n');
  assert.ok(existsSync(join(cwd, 'demo', 'config', 'routes.js')));
});

test.run();
