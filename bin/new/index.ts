/**
 * `signalbox new DIR`: writes a new application into DIR, as `rails myapp` did: routes, an
 * ApplicationController and one resource (notes) with its model, views and layout, the public
 * error pages, a test of its own, a README, a .gitignore and a package.json whose `npm start`,
 * `npm run dev`, `npm test`, `npm run routes` and `npm run routes:types` work after `npm install`.
 *
 * The application is plain JavaScript (ES modules, types in JSDoc comments): it runs unchanged on
 * every supported Node with no build step, no loader and no experimental flag, and what production
 * runs is what was written. Its route helpers are declared for type checking in
 * config/routes.helpers.d.ts (kept current by a test of the skeleton; `npm run routes:types` rewrites
 * it after the routes change). The files are copied from ./skeleton, with the application's name put
 * in; package.json is written here, naming the version of Signalbox that made it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const USAGE = `usage: signalbox new DIR
  writes a new application into DIR (which must not exist, or be empty); its name is DIR's own name`;

const SKELETON = fileURLToPath(new URL('./skeleton/', import.meta.url));

/** Skeleton files stored under another name: npm leaves every .gitignore out of a package. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

/** npm's rule for new package names: lower case, URL-safe, not starting with `.` or `_`, at most 214 characters. */
const PACKAGE_NAME = /^[a-z0-9][a-z0-9._-]{0,213}$/;

/**
 * Names npm refuses outright. An app in a directory named node_modules cannot even load its
 * dependencies: Node takes that directory for the packages of the one above.
 */
const RESERVED: readonly string[] = ['node_modules', 'favicon.ico'];

/** Runs `signalbox new` with `args` (after `new`), relative to `cwd`. */
export function newAppCommand(args: readonly string[], cwd: string = process.cwd()): CommandResult {
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    // Help asked for is output; the usage after a mistake is part of the error.
    if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
    return { code: 2, stdout: '', stderr: `${USAGE}\n` };
  }
  const target = resolve(cwd, args[0]!);
  const name = basename(target);
  if (!PACKAGE_NAME.test(name)) {
    return fail(`cannot make an application named ${JSON.stringify(name)}: its directory's name is its package name, which takes lower-case letters, digits, -, _ and . and starts with a letter or a digit`);
  }
  if (RESERVED.includes(name)) {
    return fail(`cannot make an application named ${JSON.stringify(name)}: npm keeps that name for itself (and Node looks for packages in node_modules); choose another`);
  }
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    return fail(`${relative(cwd, target) || '.'} already exists and is not an empty directory: choose a new one`);
  }
  const manifest = signalboxManifest();
  const names = { app_name: name, session_key: `_${name.replace(/[^a-z0-9]/g, '_')}_session` };
  const written: string[] = [];
  for (const file of skeletonFiles(SKELETON)) {
    const out = file.split('/').map((part) => RENAMED[part] ?? part).join('/');
    writeInto(target, out, fill(readFileSync(join(SKELETON, file), 'utf8'), names));
    written.push(out);
  }
  writeInto(target, 'package.json', `${JSON.stringify(packageJson(name, manifest), null, 2)}\n`);
  written.push('package.json');
  const shown = relative(cwd, target) || '.';
  const lines = written.sort().map((file) => `      create  ${join(shown, file)}`);
  const next = `\nNext:\n  cd ${shown}\n  npm install\n  npm start        # then open http://127.0.0.1:3000/\n`;
  return { code: 0, stdout: `${lines.join('\n')}\n${next}`, stderr: '' };
}

function fail(message: string): CommandResult {
  return { code: 1, stdout: '', stderr: `signalbox new: ${message}\n` };
}

/** Every file under `root`, as `/`-separated paths relative to it. */
function skeletonFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(join(root, entry)).isFile())
    .map((entry) => entry.split(sep).join('/'));
}

function writeInto(root: string, file: string, text: string): void {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Puts the application's names in place of `{{app_name}}` and `{{session_key}}`. */
function fill(text: string, names: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => names[key] ?? whole);
}

interface Manifest {
  readonly version: string;
  readonly engines?: { readonly node?: string };
}

/** Signalbox's own package.json: the nearest one above this module named `signalbox` (in the repository and installed alike). */
function signalboxManifest(): Manifest {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest & { name?: string };
      if (manifest.name === 'signalbox') return manifest;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('signalbox new: cannot find Signalbox\'s own package.json');
    dir = parent;
  }
}

function packageJson(name: string, signalbox: Manifest): Record<string, unknown> {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: signalbox.engines?.node ?? '>=22' },
    scripts: {
      start: 'node server.js',
      // Restarts on code changes under config/ and app/ (views aside: development reads a changed template
      // again), files saved by renaming a new file over them included, which `node --watch-path` misses.
      dev: 'signalbox dev',
      test: 'node --test',
      routes: 'signalbox routes',
      // Declares the route helpers (notes_path...) for type checking; run it after changing config/routes.js.
      'routes:types': 'signalbox routes --types --out config/routes.helpers.d.ts',
    },
    // Where `signalbox routes` finds the routes module.
    signalbox: { routes: 'config/routes.js' },
    dependencies: { signalbox: `^${signalbox.version}` },
  };
}
