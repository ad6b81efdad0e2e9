/**
 * Finding templates: `views/<controller>/<action>.<format>.ts` modules whose
 * default export is a function of the view context returning markup.
 * Lookups are cached per name; a name that could leave the views directory
 * is refused outright.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SafeString } from './html.ts';
import { isThenable } from '../util.ts';

/** A template: a function of the view context returning markup. */
export type Template = (view: any) => string | SafeString | Promise<string | SafeString>;

export interface ViewResolver {
  readonly root: string;
  /** The first template found among `names` (`posts/show.html`), or null. */
  find(names: readonly string[]): Promise<Template | null> | Template | null;
  /** Where a name would live, for error messages. */
  describe(name: string): string;
}

const EXTENSIONS = ['.ts', '.js', '.mjs'];
const SAFE_NAME = /^[A-Za-z0-9_]+(?:\/[A-Za-z0-9_]+)*(?:\.[A-Za-z0-9_]+)+$/;

/** Templates from a directory of modules. */
export function directoryViews(root: string): ViewResolver {
  const base = resolve(root);
  const cache = new Map<string, Template | null | Promise<Template | null>>();
  const load = async (name: string): Promise<Template | null> => {
    for (const ext of EXTENSIONS) {
      const file = join(base, name + ext);
      if (!existsSync(file)) continue;
      const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
      if (typeof mod.default !== 'function') throw new TypeError(`${file} must export a template function as default`);
      return mod.default as Template;
    }
    return null;
  };
  const lookup = (name: string): Template | null | Promise<Template | null> => {
    if (!SAFE_NAME.test(name)) return null;
    let hit = cache.get(name);
    if (hit === undefined) {
      hit = load(name).then((t) => {
        cache.set(name, t);
        return t;
      });
      cache.set(name, hit);
    }
    return hit;
  };
  return {
    root: base,
    describe: (name) => join(base, `${name}.ts`),
    find(names) {
      // Resolved lookups answer synchronously; only a first load waits on import().
      for (let i = 0; i < names.length; i++) {
        const hit = lookup(names[i]);
        if (isThenable(hit)) return findAsync(hit, names.slice(i + 1), lookup);
        if (hit !== null) return hit;
      }
      return null;
    },
  };
}

async function findAsync(first: Promise<Template | null>, rest: readonly string[], lookup: (n: string) => Template | null | Promise<Template | null>): Promise<Template | null> {
  const t = await first;
  if (t !== null) return t;
  for (const name of rest) {
    const hit = await lookup(name);
    if (hit !== null) return hit;
  }
  return null;
}

/** Templates held in memory, by name: for tests and for apps that bundle their views. */
export function memoryViews(templates: Readonly<Record<string, Template>>): ViewResolver {
  return {
    root: '(memory)',
    describe: (name) => `(memory)/${name}`,
    find(names) {
      for (const name of names) if (Object.prototype.hasOwnProperty.call(templates, name)) return templates[name];
      return null;
    },
  };
}
