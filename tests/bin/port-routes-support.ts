/**
 * Helpers for the `signalbox port-routes` suites (not a test file itself): porting in memory, importing
 * a ported module the way an application would (its `import ... from 'signalbox'` resolves to this
 * checkout through a `node_modules/signalbox` link), and drawing a `--json` draw through the
 * acceptance corpus's own reader.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { draw, type DrawConfig, type RouteSet } from '../../core/index.ts';
import { port, type PortFormat } from '../../bin/port-routes/index.ts';
import { replayDraw, type DrawCall } from '../support/acceptance.ts';
import { scratchDir } from '../support/temp.ts';
import { ROOT } from './support.ts';

export const ROUTES_FILE = 'config/routes.rb';

/** Ports one routes file held in memory. */
export function portText(text: string, format: PortFormat = 'json', name = ROUTES_FILE): ReturnType<typeof port> {
  return port([{ name, text }], format);
}

/** The `--json` draw of a routes file, parsed. */
export function drawOf(text: string): DrawCall[] {
  const { output, reports } = portText(text, 'json');
  if (output === '') throw new Error(`nothing was ported: ${reports.join('\n')}`);
  return JSON.parse(output) as DrawCall[];
}

/** The stderr lines of a port, without the reason lines under each `not ported` line. */
export function reportsOf(text: string, format: PortFormat = 'json'): string[] {
  return portText(text, format).reports.filter((l) => !l.startsWith('  '));
}

/** Draws a `--json` draw as the routing runner does. */
export function drawJson(json: string, config: DrawConfig = {}): RouteSet {
  return draw((map) => replayDraw(map, JSON.parse(json) as DrawCall[]), config);
}

let moduleDir: string | null = null;
let modules = 0;

/** Writes a ported module (TypeScript, or JavaScript) where `signalbox` resolves to this checkout, and imports it. */
export async function importPorted(text: string, language: 'ts' | 'js' = 'ts'): Promise<{ routes: RouteSet; default: RouteSet }> {
  if (moduleDir === null) {
    moduleDir = scratchDir('port-routes');
    // As in an application's package: the module is ESM, so it shares this process's one copy of Signalbox.
    writeFileSync(join(moduleDir, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(join(moduleDir, 'node_modules'));
    symlinkSync(ROOT, join(moduleDir, 'node_modules', 'signalbox'), 'dir');
  }
  const file = join(moduleDir, `routes-${++modules}.${language}`);
  writeFileSync(file, text);
  return import(pathToFileURL(file).href) as Promise<{ routes: RouteSet; default: RouteSet }>;
}

/** What drawing gives: the printed table, or the error's class and message. */
export function outcomeOf(build: () => RouteSet): string {
  try {
    return build().print();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}
