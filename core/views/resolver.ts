/**
 * Finding templates: `views/<controller>/<action>.<format>.ts` (or `.js`,
 * `.mjs`) modules whose default export is a function of the view context
 * returning markup. A name that could leave the views directory is refused
 * outright.
 *
 * A directory's templates are loaded together, on first use: after that
 * every lookup answers synchronously, which is what lets a template render a
 * partial in the middle of its own markup (core/views/render.ts). A file
 * that fails to load fails only the lookups of its own name.
 *
 * With `reload`, as Rails' development mode did when templates were not
 * cached, `refresh()` looks at the directory again before each render:
 * templates whose file changed are imported afresh, new files are added,
 * deleted ones dropped. Without it `refresh` is absent and a render pays
 * nothing for the feature.
 */
import { copyFileSync, readdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TemplateError } from '../errors.ts';
import { importSiteOf, syntaxErrorAt } from '../load-errors.ts';
import type { SafeString } from './html.ts';
import type { View } from './view.ts';

/** What a template gives back: markup, as a string or a `SafeString` (`html`'s). */
export type Markup = string | SafeString;

/**
 * A template: a function of its view context (`V`: `View<PostsController>`, say) returning markup, or
 * a promise of it. Its parameter is compared both ways (a method's, not a function's), so a template
 * written for one controller's view (`(v: View<PostsController>) => ...`) is a `Template` too, while an
 * unannotated one (`(v) => ...`) reads the helpers every view has. What a resolver holds is a
 * `Template<never>`: any template function, whatever it says its view holds (`(v: { id: string }) => ...`);
 * the renderer gives each the context made for it.
 * @example const show: Template<View<PostsController>> = (v) => html`<h1>${v.post.title}</h1>`;
 */
export type Template<V extends object = View> = { template(view: V): Markup | Promise<Markup> }['template'];

export interface ViewResolver {
  readonly root: string;
  /** The first template found among `names` (`posts/show.html`), or null; a promise only while templates first load. */
  find(names: readonly string[]): Promise<Template<never> | null> | Template<never> | null;
  /** Where a name would live, for error messages. */
  describe(name: string): string;
  /**
   * Brings the templates up to date with their files (reloading resolvers only); called before each
   * render. Resolves true when a template was added, changed or removed since the last look (the
   * first load is no change: nothing was rendered before it).
   */
  refresh?(): Promise<boolean>;
}

export interface DirectoryViewsOptions {
  /** Import a template again when its file changes (development). Default false: each file is imported once. */
  readonly reload?: boolean;
}

/** In order of preference when one name has several files. */
const EXTENSIONS = ['.ts', '.js', '.mjs'];
const SAFE_NAME = /^[A-Za-z0-9_]+(?:\/[A-Za-z0-9_]+)*(?:\.[A-Za-z0-9_]+)+$/;

/** One template file as last loaded. */
interface Loaded {
  readonly file: string;
  readonly stamp: string;
  readonly template: Template<never> | null;
  /** Why the file gave no template (it threw, or exports no function); thrown by lookups of its name. */
  readonly error: unknown;
  /** The module namespace, to tell whether a fresh import really was fresh. */
  readonly module: object | null;
}

/** Templates from a directory of modules. */
export function directoryViews(root: string, options: DirectoryViewsOptions = {}): ViewResolver {
  const base = resolve(root);
  const reload = options.reload === true;
  let loaded = new Map<string, Loaded>();
  let ready: Promise<void> | null = null;
  let complete = false;
  let scanning: Promise<boolean> | null = null;
  const reimport = freshImporter();

  /** Loads what changed; whether anything did (a file added, changed or gone) since the templates were first loaded. */
  const scan = async (): Promise<boolean> => {
    const files = [...templateFiles(base)];
    const fresh = await Promise.all(files.map(async ([name, file]): Promise<[string, Loaded] | null> => {
      const stats = statOrNull(file);
      if (stats === null) return null;
      const stamp = stampOf(stats);
      const before = loaded.get(name);
      if (before !== undefined && before.file === file && before.stamp === stamp) return [name, before];
      return [name, await load(file, stamp, before?.file === file ? before : null, reimport)];
    }));
    const next = new Map(fresh.filter((entry) => entry !== null));
    const changed = complete && (next.size !== loaded.size || [...next].some(([name, entry]) => loaded.get(name) !== entry));
    loaded = next;
    complete = true;
    return changed;
  };

  const lookup = (names: readonly string[]): Template<never> | null => {
    for (const name of names) {
      if (!SAFE_NAME.test(name)) continue;
      const hit = loaded.get(name);
      if (hit === undefined) continue;
      if (hit.template === null) throw hit.error;
      return hit.template;
    }
    return null;
  };

  const resolver: ViewResolver = {
    root: base,
    describe: (name) => `${join(base, name)}.{${EXTENSIONS.map((e) => e.slice(1)).join(',')}}`,
    find(names) {
      // Names are checked before anything is loaded: a refused name never touches the disk.
      if (!names.some((n) => SAFE_NAME.test(n))) return null;
      if (complete) return lookup(names);
      ready ??= scan().then(() => undefined);
      return ready.then(() => lookup(names));
    },
  };
  if (!reload) return resolver;
  return {
    ...resolver,
    refresh() {
      // One look at the directory at a time; renders that ask meanwhile share it.
      scanning ??= scan().finally(() => {
        scanning = null;
      });
      return scanning;
    },
  };
}

/** Every `<name>.<format>.<ext>` module under `base`, by template name (`posts/show.html`), first extension winning. */
function templateFiles(base: string): Map<string, string> {
  const found = new Map<string, { file: string; rank: number }>();
  let entries: string[];
  try {
    entries = readdirSync(base, { recursive: true, encoding: 'utf8' });
  } catch {
    return new Map();
  }
  for (const entry of entries) {
    const ext = extname(entry);
    const rank = EXTENSIONS.indexOf(ext);
    if (rank < 0 || entry.endsWith('.d.ts')) continue;
    const name = entry.slice(0, -ext.length).split(sep).join('/');
    if (!SAFE_NAME.test(name)) continue;
    const known = found.get(name);
    if (known === undefined || rank < known.rank) found.set(name, { file: join(base, entry), rank });
  }
  return new Map([...found].map(([name, { file }]) => [name, file]));
}

function statOrNull(file: string): Stats | null {
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats : null;
  } catch {
    return null;
  }
}

// Size and inode as well as the time: an editor that saves by replacing the file changes the inode.
function stampOf(stats: Stats): string {
  return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

async function load(file: string, stamp: string, before: Loaded | null, reimport: FreshImport): Promise<Loaded> {
  try {
    const mod = (before === null ? await import(pathToFileURL(file).href) : await reimport(file, before.module)) as { default?: unknown };
    if (typeof mod.default !== 'function') {
      return { file, stamp, template: null, error: new TypeError(`${file} must export a template function as default`), module: mod };
    }
    return { file, stamp, template: mod.default as Template<never>, error: null, module: mod };
  } catch (error) {
    return { file, stamp, template: null, error: loadFailure(file, error), module: null };
  }
}

/**
 * Why a template file did not load, naming it: Node's own message for a syntax error in an imported
 * module ("Unexpected end of input") names neither the file nor the line, and its stack holds only
 * Node's loader. An import of a name a module does not export is a SyntaxError too, which `node --check`
 * passes; Node puts its line at the head of the stack (`file:///…/_form.html.js:6`, the line, a `^^^`
 * under the name), where a page reading the stack's frames would not show it: it becomes the trace.
 */
function loadFailure(file: string, error: unknown): TemplateError {
  if (!(error instanceof SyntaxError)) return new TemplateError(file, error);
  const site = importSiteOf(error);
  if (site === null) return new TemplateError(file, new SyntaxError(`${error.message}; \`node --check ${file}\` shows where`, { cause: error }));
  return new TemplateError(file, syntaxErrorAt(`${error.message}, at ${site.file === file ? 'line ' : `${site.file}:`}${site.line}`, error, site));
}

type FreshImport = (file: string, previous: object | null) => Promise<unknown>;

/**
 * Imports a changed file again. Node keys modules by URL, so a new query string gives a new module.
 * Some loaders (tsx) drop the query and hand back the module already loaded; then the file is copied
 * beside itself under a hidden name (the same directory, so its relative imports mean the same),
 * imported from there, and the copy removed. Whether queries work is learnt from the first reload
 * of a file that had loaded; until then a file whose last load failed is reloaded through a copy,
 * which is right under either kind of loader.
 */
function freshImporter(): FreshImport {
  let version = 0;
  let queriesWork: boolean | null = null;
  return async (file, previous) => {
    version++;
    if (queriesWork === true || (queriesWork === null && previous !== null)) {
      const mod = (await import(`${pathToFileURL(file).href}?reload=${version}`)) as object;
      if (mod !== previous) {
        queriesWork = true;
        return mod;
      }
      queriesWork = false;
    }
    const ext = extname(file);
    const copy = join(dirname(file), `.${basename(file, ext)}.reload-${process.pid}-${version}${ext}`);
    copyFileSync(file, copy);
    try {
      return await import(pathToFileURL(copy).href);
    } finally {
      rmSync(copy, { force: true });
    }
  };
}

// Two signatures: the first types an unannotated template's view as the helpers every view has; the
// second takes templates that each say what their view holds, helpers or not (`(v: { id: string }) => ...`).
/** Templates held in memory, by name: for tests and for apps that bundle their views. */
export function memoryViews(templates: Readonly<Record<string, Template>>): ViewResolver;
export function memoryViews(templates: Readonly<Record<string, Template<never>>>): ViewResolver;
export function memoryViews(templates: Readonly<Record<string, Template<never>>>): ViewResolver {
  return {
    root: '(memory)',
    describe: (name) => `(memory)/${name}`,
    find(names) {
      for (const name of names) if (Object.prototype.hasOwnProperty.call(templates, name)) return templates[name];
      return null;
    },
  };
}
