/**
 * Which source file imports which, read with the TypeScript compiler's
 * parser, and the two rules the codebase keeps about it: no import cycle
 * between files, and a ladder of layers where each layer imports only
 * layers below it. Every kind of import counts, type-only ones included
 * (`import type`, `export ... from`, `import('./x.ts')` in code or in a
 * type): a cycle held together by types alone still ties the files' designs
 * together. Not a test file itself; tests/architecture/ladder.test.ts uses
 * it on the real tree and on small fake ones.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Files (paths relative to the root, `/`-separated) to the files they import, in the order written. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The relative module specifiers a TypeScript source imports or re-exports, by any syntax. */
export function importSpecifiers(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const take = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) take(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) take(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) take(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) take(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** The import graph of every `.ts` file under `dirs` (relative to `root`); imports of files outside them are left out. */
export function readImportGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const dir of dirs) walk(resolve(root, dir));
  const key = (file: string) => relative(root, file).split(sep).join('/');
  const known = new Set(files.map(key));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const spec of importSpecifiers(file, readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(resolve(dirname(file), spec));
      if (target !== null && known.has(key(target)) && !targets.includes(key(target))) targets.push(key(target));
    }
    graph.set(key(file), targets);
  }
  return graph;
}

function resolveSpecifier(path: string): string | null {
  for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * Every import cycle, one per group of files that reach each other (Tarjan's strongly connected
 * components), each given as one closed path through its files: `[a, b, c, a]`.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return components.map((component) => closedPath(graph, new Set(component)));
}

/** A shortest cycle through the component's first file (in sorted order), found breadth first. */
function closedPath(graph: ImportGraph, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0];
  const from = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const w of graph.get(queue[i]) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = queue[i]; at !== start; at = from.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, queue[i]);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/**
 * The layers, top first; each holds one or more units (a folder, or a single file), and units of
 * the same layer may not import each other either. A file belongs to the unit that is its longest
 * matching prefix.
 */
export type Ladder = readonly (readonly string[])[];

export interface LayerViolation {
  readonly from: string;
  readonly to: string;
  /** The units of both ends: `core/caching -> core/controller`. */
  readonly units: string;
}

/** The unit of `file` and the index of its layer, or null when no layer holds it. */
export function unitOf(ladder: Ladder, file: string): { readonly unit: string; readonly layer: number } | null {
  let best: { unit: string; layer: number } | null = null;
  for (let layer = 0; layer < ladder.length; layer++) {
    for (const unit of ladder[layer]) {
      if ((file === unit || file.startsWith(`${unit}/`)) && (best === null || unit.length > best.unit.length)) best = { unit, layer };
    }
  }
  return best;
}

/** Every import from one unit into another that is not on a lower layer; and files no layer holds, as `to: '(no layer)'`. */
export function layerViolations(graph: ImportGraph, ladder: Ladder): LayerViolation[] {
  const out: LayerViolation[] = [];
  for (const [from, targets] of graph) {
    const a = unitOf(ladder, from);
    if (a === null) {
      out.push({ from, to: '(no layer)', units: `${from} is on no layer` });
      continue;
    }
    for (const to of targets) {
      const b = unitOf(ladder, to);
      if (b === null || a.unit === b.unit || b.layer > a.layer) continue;
      out.push({ from, to, units: `${a.unit} -> ${b.unit}` });
    }
  }
  return out;
}
