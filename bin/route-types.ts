/**
 * Reading an application's routes module, and keeping the declarations of
 * its route helpers (`routeHelperTypes`) in a file beside it: written once
 * (`writeRouteTypes`, what `signalbox routes --types FILE --out OUT` and a
 * new application's generator call), or again whenever the routes file
 * changes (`watchRouteTypes`, for a development server's start).
 *
 * @example
 *   await writeRouteTypes('config/routes.ts', 'config/routes.helpers.d.ts');
 *   const watcher = watchRouteTypes('config/routes.ts', 'config/routes.helpers.d.ts', { onError: console.error });
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importSiteOf, routeHelperTypes, type RouteSet } from '../core/index.ts';

let imports = 0;

/**
 * The `RouteSet` a module exports (as `routes`, or as its default export). JavaScript modules load as
 * they are; a TypeScript one needs Node's type stripping (Node 22.18 and later) or `tsx` installed in
 * the application. `fresh` imports the module anew, to read a file that changed since it was loaded.
 */
export async function loadRouteSet(file: string, fresh = false): Promise<RouteSet> {
  // A fresh import is a new module instance, kept for the life of the process: a few per edit of a routes file.
  const path = resolve(process.cwd(), file);
  if (!existsSync(path)) throw new Error(`${file}: no such file`);
  const url = pathToFileURL(path).href + (fresh ? `?signalbox-routes=${++imports}` : '');
  let mod: { default?: unknown; routes?: unknown };
  try {
    mod = (await import(url)) as typeof mod;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw loadFailure(file, error);
    // Only TypeScript is for tsx to read: any other file Node does not know is no module at all.
    if (!/\.[cm]?ts$/.test(path)) throw new Error(`${file} is not a routes module: that is JavaScript (.js, .mjs) or TypeScript (.ts, .mts) exporting a RouteSet`);
    await registerTsx();
    try {
      mod = (await import(url)) as typeof mod;
    } catch (again) {
      throw loadFailure(file, again);
    }
  }
  const set = (mod.routes ?? mod.default) as RouteSet | undefined;
  if (!set || typeof set.recognize !== 'function' || !Array.isArray(set.routes)) {
    throw new Error(`${file} does not export a RouteSet (as \`routes\` or default)`);
  }
  return set;
}

/** Why the routes module did not load, naming it: Node's own message for a syntax error in a module says neither file nor line. */
function loadFailure(file: string, error: unknown): Error {
  if (!(error instanceof Error)) return new Error(`${file} could not be loaded: ${String(error)}`, { cause: error });
  const site = importSiteOf(error);
  const where = site !== null ? ` (at ${relative(process.cwd(), site.file)}:${site.line})`
    : error instanceof SyntaxError && !error.message.includes(file) ? ` (\`node --check ${file}\` shows where)` : '';
  return new Error(`${file} could not be loaded: ${error.name}: ${error.message}${where}`, { cause: error });
}

/** Loads the application's own tsx, when it has one, so TypeScript modules import on a Node without type stripping. */
async function registerTsx(): Promise<boolean> {
  let api: string;
  try {
    api = createRequire(join(process.cwd(), 'package.json')).resolve('tsx/esm/api');
  } catch {
    throw new Error('reading a TypeScript routes file needs Node 22.18 or later, or tsx installed in the application (npm install -D tsx)');
  }
  const { register } = (await import(pathToFileURL(api).href)) as { register(): unknown };
  register();
  return true;
}

/**
 * The helper declarations of the routes `routesFile` exports; their header names the routes file
 * relative to `from` (the directory the declarations are written to, else the working directory).
 */
export async function routeTypesOf(routesFile: string, fresh = false, from = process.cwd()): Promise<string> {
  const routes = await loadRouteSet(routesFile, fresh);
  return routeHelperTypes(routes.routes, { source: relative(from, resolve(routesFile)).split('\\').join('/') });
}

/**
 * Writes the helper declarations of `routesFile` to `typesFile` (a `.d.ts` the application's tsconfig
 * includes, named otherwise than the routes file: `routes.helpers.d.ts` beside `routes.ts`), unless the file already says the same: a watcher or a compiler in watch mode sees no
 * change then. Written to a temporary file and renamed, so no reader sees half a file. True when written.
 */
export async function writeRouteTypes(routesFile: string, typesFile: string, fresh = false): Promise<boolean> {
  const shadowed = resolve(routesFile).replace(/\.[cm]?ts$/, '.d.ts');
  if (/\.[cm]?ts$/.test(routesFile) && resolve(typesFile) === shadowed) {
    // TypeScript takes routes.d.ts for the declarations of routes.ts itself, and leaves it out of the program.
    throw new Error(`${typesFile} would be read as the declarations of ${routesFile} and ignored: give it another name (${basename(routesFile).replace(/\.[cm]?ts$/, '')}.helpers.d.ts)`);
  }
  const text = await routeTypesOf(routesFile, fresh, dirname(resolve(typesFile)));
  const before = await readFile(typesFile, 'utf8').catch(() => null);
  if (before === text) return false;
  const temporary = `${typesFile}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, typesFile);
  return true;
}

export interface RouteTypesWatcher {
  /** Stops watching. */
  close(): void;
}

export interface WatchRouteTypesOptions {
  /** Called after each rewrite of the types file. */
  readonly onWrite?: (typesFile: string) => void;
  /** Called when the routes no longer load (a syntax error, a declaration `draw` refuses); the old file stays. */
  readonly onError?: (error: unknown) => void;
  /** How long the routes file must stay unchanged before it is read (editors write in several steps). Default 50 ms. */
  readonly settleMs?: number;
}

/**
 * Rewrites `typesFile` whenever `routesFile` changes, importing the changed file afresh each time. The
 * directory is watched rather than the file, so an editor that saves by replacing the file is seen too.
 * Writes once at the start, so the types are current from the first moment.
 */
export function watchRouteTypes(routesFile: string, typesFile: string, options: WatchRouteTypesOptions = {}): RouteTypesWatcher {
  const { onWrite, onError = (error: unknown) => console.error(error instanceof Error ? error.message : error), settleMs = 50 } = options;
  const name = basename(routesFile);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  const regenerate = () => {
    running = running.then(async () => {
      if (closed) return;
      try {
        if (await writeRouteTypes(routesFile, typesFile, true)) onWrite?.(typesFile);
      } catch (error) {
        onError(error);
      }
    });
  };
  const watcher: FSWatcher = watch(dirname(resolve(routesFile)), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      regenerate();
    }, settleMs);
  });
  watcher.on('error', onError);
  regenerate();
  return {
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      watcher.close();
    },
  };
}
