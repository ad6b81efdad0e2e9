/**
 * The codebase is a ladder: transport/ above machines/ above core/, and
 * inside core/ each folder imports only folders below it, so any one of
 * them can be read, tested and changed knowing only what is under it.
 * No file imports itself back through others, type-only imports included.
 * The checker is tried on small fake trees first, so a broken checker
 * cannot pass the real tree by finding nothing.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importCycles, importSpecifiers, layerViolations, readImportGraph, type Ladder } from '../support/import-graph.ts';
import { scratchTree } from '../support/temp.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The layers, top first. Units on one layer (controller and public; caching and views; request and
 * routing; errors, util, generated code and load errors) may not import each other either.
 */
const LADDER: Ladder = [
  ['transport'],
  ['machines'],
  ['core/index.ts'],
  ['core/pipeline'],
  ['core/controller', 'core/public'],
  ['core/caching', 'core/views'],
  ['core/session'],
  ['core/http'],
  ['core/request', 'core/routing'],
  ['core/mime', 'core/redis', 'core/options.ts'],
  ['core/errors.ts', 'core/util.ts', 'core/generated-code.ts', 'core/load-errors.ts'],
];

const checker = suite('the import checker');

function tree(files: Record<string, string>): string {
  return scratchTree('ladder', files);
}

checker('reads every kind of import, type-only ones included, and only relative ones', () => {
  const source = [
    "import { a } from './a.ts';",
    "import type { B } from '../b.ts';",
    "import './side-effect.ts';",
    "export { c } from './c.ts';",
    "export type { D } from './d.ts';",
    "export * from './e.ts';",
    "type F = import('./f.ts').F;",
    "const g = await import('./g.ts');",
    "import { readFileSync } from 'node:fs';",
    "import pino from 'pino';",
  ].join('\n');
  assert.equal(importSpecifiers('x.ts', source), ['./a.ts', '../b.ts', './side-effect.ts', './c.ts', './d.ts', './e.ts', './f.ts', './g.ts']);
});

checker('finds a cycle held only by type imports, and names its files in order', () => {
  const root = tree({
    'lib/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
    'lib/b.ts': "import { c } from './c.ts';\nexport type B = number;\nexport const b = c;\n",
    'lib/c.ts': "export type { A } from './a.ts';\nexport const c = 1;\n",
    'lib/d.ts': "import { c } from './c.ts';\nexport const d = c;\n",
  });
  const graph = readImportGraph(root, ['lib']);
  assert.equal(graph.get('lib/d.ts'), ['lib/c.ts']);
  assert.equal(importCycles(graph), [['lib/a.ts', 'lib/b.ts', 'lib/c.ts', 'lib/a.ts']]);
});

checker('finds a file that imports itself, and nothing in a tree without cycles', () => {
  const looped = readImportGraph(tree({ 'lib/a.ts': "export * from './a.ts';\n" }), ['lib']);
  assert.equal(importCycles(looped), [['lib/a.ts', 'lib/a.ts']]);
  const clean = readImportGraph(tree({ 'lib/a.ts': "import './b.ts';\n", 'lib/b.ts': '' }), ['lib']);
  assert.equal(importCycles(clean), []);
});

checker('refuses an import up the ladder, across one rung, and from a file on no rung', () => {
  const root = tree({
    'top/a.ts': "import '../low/b.ts';\n",
    'mid/left/x.ts': "import '../right/y.ts';\n",
    'mid/right/y.ts': "import '../../low/b.ts';\n",
    'low/b.ts': "import type { A } from '../top/a.ts';\n",
    'stray/z.ts': '',
  });
  const ladder: Ladder = [['top'], ['mid/left', 'mid/right'], ['low']];
  const found = layerViolations(readImportGraph(root, ['top', 'mid', 'low', 'stray']), ladder);
  assert.equal(found.map((v) => v.units).sort(), ['low -> top', 'mid/left -> mid/right', 'stray/z.ts is on no layer']);
  assert.equal(layerViolations(readImportGraph(root, ['top', 'mid/right']), ladder), [], 'downward imports are fine');
});

checker.run();

const codebase = suite('core, machines and transport');
const graph = readImportGraph(ROOT, ['core', 'machines', 'transport']);

codebase('read enough of the tree to mean something', () => {
  assert.ok(graph.size > 100, `only ${graph.size} files read`);
  assert.ok(graph.get('core/controller/base.ts')!.includes('core/controller/declarations.ts'));
});

codebase('have no import cycle', () => {
  const cycles = importCycles(graph);
  assert.equal(cycles.map((c) => c.join(' -> ')), []);
});

codebase('import only down the ladder', () => {
  const found = layerViolations(graph, LADDER);
  assert.equal(found.map((v) => `${v.units} (${v.from} -> ${v.to})`), []);
});

codebase.run();
