/**
 * The `signalbox` command.
 *
 *   signalbox routes [--json] [file]   print a route table (the example app's, or the RouteSet a module exports)
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { routeRows, type RouteSet } from '../core/index.ts';

const USAGE = `usage: signalbox routes [--json] [file]
  file: a module exporting a RouteSet (default export, or \`routes\`); defaults to the example blog`;

async function loadRouteSet(file: string | undefined): Promise<RouteSet> {
  const target = file ? pathToFileURL(resolve(process.cwd(), file)).href : new URL('../examples/blog/routes.ts', import.meta.url).href;
  const mod = (await import(target)) as { default?: unknown; routes?: unknown };
  const set = (mod.routes ?? mod.default) as RouteSet | undefined;
  if (!set || typeof set.recognize !== 'function' || !Array.isArray(set.routes)) {
    throw new Error(`${file ?? 'the example app'} does not export a RouteSet (as \`routes\` or default)`);
  }
  return set;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'routes') {
    const json = rest.includes('--json');
    const files = rest.filter((a) => !a.startsWith('--'));
    if (files.length > 1) {
      console.error(USAGE);
      return 2;
    }
    const set = await loadRouteSet(files[0]);
    console.log(json ? JSON.stringify(routeRows(set.routes), null, 2) : set.print());
    return 0;
  }
  console.error(USAGE);
  return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
