/**
 * The `signalbox` command.
 *
 *   signalbox routes [--json] [file]   print a route table (the application's here, or the RouteSet a module exports)
 *   signalbox routes --types [file] [--out FILE [--watch]]
 *                                      print (or write, or keep writing) the declarations of its route helpers
 *   signalbox machines [--format mermaid|dot|json] [--machine id] [--update-readme]
 *                                      print every exported machine as a diagram, or refresh the README's
 *   signalbox port-routes [--js | --json] [--env NAME] FILE...
 *                                      port Rails config/routes.rb files to a Signalbox routes module (or a draw)
 *   signalbox new DIR                  write a new application into DIR
 *   signalbox dev [--watch DIR]... [SCRIPT]
 *                                      run an application's server, restarted when its code changes
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { routeRows } from '../core/index.ts';
import { EXPORT_FORMATS, exportMachines, type ExportFormat } from '../machines/export.ts';
import { exportedGraphs } from '../machines/registry.ts';
import { withReadmeDiagram } from './readme-diagram.ts';
import { loadRouteSet, routeTypesOf, watchRouteTypes, writeRouteTypes } from './route-types.ts';
import { findRoutesModule } from './routes-module.ts';

const USAGE = `usage: signalbox routes [--json] [file]
  file: a module exporting a RouteSet (default export, or \`routes\`); defaults to the application's
  (package.json's "signalbox": { "routes" }, else config/routes.js)
       signalbox routes --types [file] [--out <file.d.ts> [--watch]]
  prints declarations of the file's route helpers for TypeScript (RouteHelpers); --out writes them to a
  file when they changed, and --watch rewrites it whenever the routes file changes
       signalbox machines [--format mermaid|dot|json] [--machine <id>] [--update-readme]
  prints each machine Signalbox exports (default format: mermaid); --update-readme rewrites the
  diagrams between the <!-- machines:<id>:start/end --> markers of the project's README.md
       signalbox port-routes [--js | --json] [--env NAME] FILE...
  ports Rails config/routes.rb files (read in order as one draw) to a Signalbox routes module
       signalbox new DIR
  writes a new application into DIR (routes, controllers, views, public pages, a test, package.json)
       signalbox dev [--watch DIR]... [SCRIPT [ARGS...]]
  runs node SCRIPT (default server.js) and restarts it when a module under a watched directory changes
  (default: config, app/controllers, app/models, app/helpers)`;

const README = fileURLToPath(new URL('../README.md', import.meta.url));

const MACHINES_OPTIONS = {
  format: { type: 'string' },
  machine: { type: 'string' },
  'update-readme': { type: 'boolean' },
} as const;

/** Parses `machines`' arguments; a string is the usage error to print. */
function machinesArgs(args: string[]): { format: ExportFormat; machine: string | null; updateReadme: boolean } | string {
  // Not strict: a strict parse's errors do not name the flag that lacks its value; the tokens do.
  const { values, tokens } = parseArgs({ args, options: MACHINES_OPTIONS, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option' || !Object.hasOwn(MACHINES_OPTIONS, token.name)) return `unexpected argument ${JSON.stringify(args[token.index])}`;
    const takesValue = MACHINES_OPTIONS[token.name as keyof typeof MACHINES_OPTIONS].type === 'string';
    if (takesValue && token.value === undefined) return `${token.rawName} needs a value`;
    if (!takesValue && token.value !== undefined) return `${token.rawName} takes no value`;
  }
  const given = typeof values.format === 'string' ? values.format : 'mermaid';
  const format = EXPORT_FORMATS.find((f) => f === given);
  if (format === undefined) return `unknown format ${JSON.stringify(given)} (mermaid, dot or json)`;
  return { format, machine: typeof values.machine === 'string' ? values.machine : null, updateReadme: values['update-readme'] === true };
}

function machines(args: string[]): number {
  const parsed = machinesArgs(args);
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n${USAGE}`);
    return 2;
  }
  const all = exportedGraphs();
  const graphs = parsed.machine === null ? all : all.filter((g) => g.id === parsed.machine);
  if (graphs.length === 0) {
    console.error(`no machine ${JSON.stringify(parsed.machine)}; exported: ${all.map((g) => g.id).join(', ')}`);
    return 2;
  }
  if (parsed.updateReadme) {
    const before = readFileSync(README, 'utf8');
    const after = graphs.reduce(withReadmeDiagram, before);
    if (after !== before) writeFileSync(README, after);
    console.log(after === before ? 'README.md: machine diagrams already up to date' : 'README.md: machine diagrams updated');
    return 0;
  }
  process.stdout.write(exportMachines(graphs, parsed.format));
  return 0;
}

const ROUTES_OPTIONS = { json: { type: 'boolean' }, types: { type: 'boolean' }, out: { type: 'string' }, watch: { type: 'boolean' } } as const;

async function routes(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: ROUTES_OPTIONS, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const misuse = positionals.length > 1 ? 'one routes file at most'
    : (values.out !== undefined || values.watch) && !values.types ? '--out and --watch go with --types'
      : values.watch && values.out === undefined ? '--watch needs --out'
        : values.types && values.json ? '--types or --json, not both' : null;
  if (misuse !== null) {
    console.error(`${misuse}\n${USAGE}`);
    return 2;
  }
  let file = positionals[0];
  if (file === undefined) {
    const found = findRoutesModule(process.cwd());
    if ('problem' in found) {
      console.error(found.problem);
      return 1;
    }
    file = found.file;
  }
  if (values.types) {
    if (values.out === undefined) {
      process.stdout.write(await routeTypesOf(file));
      return 0;
    }
    if (!values.watch) {
      console.log(`${values.out}: ${(await writeRouteTypes(file, values.out)) ? 'written' : 'already up to date'}`);
      return 0;
    }
    if (!existsSync(resolve(file))) {
      // The watcher would wait for ever on a name that was misspelt.
      console.error(`${file}: no such file`);
      return 1;
    }
    const out = values.out;
    // The watcher keeps the process running until it is stopped (Ctrl-C).
    watchRouteTypes(file, out, { onWrite: () => console.log(`${out}: written`) });
    return 0;
  }
  const set = await loadRouteSet(file);
  console.log(values.json ? JSON.stringify(routeRows(set.routes), null, 2) : set.print());
  return 0;
}

/** Whether `args` ask for help (`--help` or `-h` before any `--`). */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if ((command === 'routes' || command === 'machines') && asksForHelp(rest)) {
    console.log(USAGE);
    return 0;
  }
  if (command === 'routes') return routes(rest);
  if (command === 'machines') return machines(rest);
  if (command === 'new') {
    const { newAppCommand } = await import('./new/index.ts');
    const { code, stdout, stderr } = newAppCommand(rest);
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    return code;
  }
  if (command === 'dev') {
    const { devCommand } = await import('./dev.ts');
    return devCommand(rest);
  }
  if (command === 'port-routes') {
    const { portRoutesCommand } = await import('./port-routes/index.ts');
    const { code, stdout, stderr } = portRoutesCommand(rest);
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    return code;
  }
  // Help asked for is the command's output (`signalbox --help | less`); without a command it is a reminder, on stderr.
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (command === undefined) {
    console.error(USAGE);
    return 0;
  }
  console.error(`signalbox: ${command.startsWith('-') ? 'unknown option' : 'unknown command'} ${JSON.stringify(command)} (routes, machines, port-routes, new or dev)\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
