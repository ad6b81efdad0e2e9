/**
 * Where `signalbox routes` finds an application's routes when it is given no file: from the
 * nearest package.json at or above the current directory (as npm finds its project), the module its
 * `"signalbox": { "routes": "…" }` names, else `config/routes.js` (or `.mjs`, `.ts`) beside it, where
 * `signalbox new` puts it. Outside an application it says what it needs rather than guess.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export type RoutesModule = { readonly file: string } | { readonly problem: string };

const CONVENTIONAL = ['config/routes.js', 'config/routes.mjs', 'config/routes.ts'];

export const WHAT_ROUTES_NEEDS = 'signalbox routes needs an application: run it inside one made by `signalbox new` (it reads config/routes.js), '
  + 'name the routes module in package.json ("signalbox": { "routes": "path/to/routes.js" }), or give the module: signalbox routes path/to/routes.js';

export function findRoutesModule(cwd: string): RoutesModule {
  const root = projectRoot(resolve(cwd));
  const manifest = join(root, 'package.json');
  if (existsSync(manifest)) {
    let named: unknown;
    try {
      named = (JSON.parse(readFileSync(manifest, 'utf8')) as { signalbox?: { routes?: unknown } }).signalbox?.routes;
    } catch (error) {
      return { problem: `${manifest} is not valid JSON (${(error as Error).message})` };
    }
    if (named !== undefined) {
      if (typeof named !== 'string' || named === '') return { problem: `${manifest}: "signalbox": { "routes" } must name a file` };
      const file = resolve(root, named);
      return existsSync(file) ? { file } : { problem: `${manifest} names ${named} as its routes module, and there is no such file` };
    }
  }
  for (const candidate of CONVENTIONAL) {
    const file = join(root, candidate);
    if (existsSync(file)) return { file };
  }
  return { problem: WHAT_ROUTES_NEEDS };
}

/** The nearest directory at or above `dir` holding a package.json; `dir` itself when none does. */
function projectRoot(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return dir;
  }
}
