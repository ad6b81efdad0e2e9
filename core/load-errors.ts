/**
 * Where an application's code that did not load went wrong. V8's message for a syntax error names
 * neither file nor line, and an import of a name a module does not export (a SyntaxError too) names
 * only the module imported: Node puts the importing line at the head of the error's stack (`file:///…:6`,
 * the line, a `^^^` under the name), where a page reading the stack's frames would not show it. The
 * template resolver, `signalbox routes` and a new application's `server.js` all read it here.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The application's own module directories: what `signalbox dev` watches and `explainLoadError` checks (templates reload on their own). */
export const APP_CODE_DIRS: readonly string[] = Object.freeze(['config', 'app/controllers', 'app/models', 'app/helpers']);

/** A place in a source file: its absolute path, and its line and column, from 1. */
export interface SourceSite {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

// The head of such a stack: the importing module's URL and line, the line's text, spaces, then the carets.
const IMPORT_SITE = /^(file:\/\/\S+):(\d+)\n[^\n]*\n( *)\^/;

/**
 * Where Node's loader says the error is, when it says so at the head of the stack (an import of a name a
 * module does not export); null for any other error.
 * @example importSiteOf(error) // { file: '/app/app/controllers/notes_controller.js', line: 6, column: 10 }
 */
export function importSiteOf(error: unknown): SourceSite | null {
  if (!(error instanceof SyntaxError)) return null;
  const site = IMPORT_SITE.exec(error.stack ?? '');
  if (site === null) return null;
  return { file: fileURLToPath(site[1]!), line: Number(site[2]), column: site[3]!.length + 1 };
}

/**
 * A SyntaxError saying `message`, caused by `cause`, whose whole trace is `site`: the line to fix, not the
 * frames of Node's loader, which is all a page reading the stack's frames would otherwise show.
 */
export function syntaxErrorAt(message: string, cause: Error, site: SourceSite): SyntaxError {
  const located = new SyntaxError(message, { cause });
  located.stack = `SyntaxError: ${message}\n    at ${site.file}:${site.line}:${site.column}`;
  return located;
}

/** `error` said again with where it is: `(in app/controllers/notes_controller.js:6)` after its message (the path from `root`, the line when known). */
function locatedError(error: Error, site: SourceSite, root: string, lineKnown = true): SyntaxError {
  return syntaxErrorAt(`${error.message} (in ${relative(root, site.file)}${lineKnown ? `:${site.line}` : ''})`, error, site);
}

/**
 * Why an application's code did not load, naming the file and line where it can: for an import of a name
 * not exported, from the error itself; for another syntax error, by `node --check` of each JavaScript
 * module under `dirs` of `root` until one fails (only after a failed start, so its cost is no
 * request's). Any other error is returned as it is.
 * @example
 *   try { await import('./config/application.js') } catch (e) { console.error(explainLoadError(e, import.meta.dirname).message) }
 */
export function explainLoadError(error: unknown, root: string, dirs: readonly string[] = APP_CODE_DIRS): Error {
  if (!(error instanceof SyntaxError)) return error instanceof Error ? error : new Error(String(error));
  const site = importSiteOf(error);
  if (site !== null) return locatedError(error, site, root);
  for (const file of javascriptModules(root, dirs)) {
    try {
      execFileSync(process.execPath, ['--check', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (failed) {
      const report = String((failed as { stderr?: unknown }).stderr ?? '');
      const line = /:(\d+)\n/.exec(report)?.[1];
      return locatedError(error, { file, line: line === undefined ? 1 : Number(line), column: 1 }, root, line !== undefined);
    }
  }
  return error;
}

/** The JavaScript modules under `dirs` of `root`, each directory searched through. */
function javascriptModules(root: string, dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => {
    try {
      return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.[cm]?js$/.test(name))
        .map((name) => join(root, dir, name));
    } catch {
      return [];
    }
  });
}
