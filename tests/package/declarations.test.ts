/**
 * The declarations the package publishes, as the build emits them (tsconfig.build.json, emitted in
 * memory rather than into dist/): every `.d.ts` a consumer can reach from an entry of package.json's
 * `exports` is free of `any`, so the public API says what it takes and gives; and an application
 * written against them (tests/package/consumer/typed.ts) compiles under a consumer's strictest
 * settings, its misuses (`@ts-expect-error`) refused. Without a registry, unlike packed.test.ts: the
 * emitted files are served to the compiler as if installed under node_modules/signalbox.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './support.ts';

const manifestText = readFileSync(join(ROOT, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText) as { exports: Record<string, string | { types: string; default: string }> };
const INSTALLED = join(ROOT, 'node_modules/signalbox');
const CONSUMER = join(ROOT, 'tests/package/consumer/typed.ts');
// Where the consumer's module is served from: a project of its own beside the package (from inside this
// repository, `signalbox` would name the checkout itself, and resolve to whatever dist/ holds).
const PROJECT = join(ROOT, 'node_modules/.signalbox-consumer');

/** The build's declarations, by absolute path under dist/, emitted in memory. */
function emitDeclarations(): Map<string, string> {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.build.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (parsed === undefined) throw new Error('tsconfig.build.json did not parse');
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true });
  const out = new Map<string, string>();
  const emitted = program.emit(undefined, (fileName, text) => {
    if (fileName.endsWith('.d.ts')) out.set(resolve(fileName), text);
  });
  assert.equal(emitted.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], 'the declarations emit');
  return out;
}

/** The declaration files reachable from `entries` through relative imports and re-exports. */
function reachable(files: ReadonlyMap<string, string>, entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    const text = files.get(file);
    assert.ok(text !== undefined, `${relative(ROOT, file)} is emitted`);
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName).replace(/\.(d\.)?[cm]?[tj]s$/, '');
      const found = [`${target}.d.ts`, join(target, 'index.d.ts')].find((candidate) => files.has(candidate));
      assert.ok(found !== undefined, `${relative(ROOT, file)} imports ${fileName}, which is emitted`);
      queue.push(found);
    }
  }
  return [...seen].sort();
}

/** Each `any` type written in a declaration file, as `line: text of the line` (a member named `any`, such as `format.any`, is not one). */
export function anyTypes(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${line + 1}: ${text.split('\n')[line]!.trim()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const test = suite('the published declarations');

let declarations = new Map<string, string>();
let published: string[] = [];

test.before(() => {
  declarations = emitDeclarations();
  const entries = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [] : [resolve(ROOT, target.types)]));
  published = reachable(declarations, entries);
});

test('what a consumer reaches from the package\'s exports declares no any', () => {
  assert.ok(published.length > 50, `every entry's declarations were followed (${published.length} files)`);
  const found = published.flatMap((file) => anyTypes(file, declarations.get(file)!).map((at) => `${relative(ROOT, file)}:${at}`));
  assert.equal(found, [], 'type these, or say in a comment which third-party type forces the any');
});

test('the search for any finds an any type wherever it is written, and nothing else', () => {
  const sample = [
    'export type Template = (view: any) => string;',
    'export interface Respond { any(...args: string[]): void; readonly many: number }',
    'export declare function f(options?: Record<string, any[]>): void; // any said in a comment',
  ].join('\n');
  assert.equal(anyTypes('sample.d.ts', sample), ['1: export type Template = (view: any) => string;', '3: export declare function f(options?: Record<string, any[]>): void; // any said in a comment']);
});

test("an application typed against them compiles under a consumer's strictest settings, and its misuses do not", () => {
  // The emitted files and the manifest, served as if installed: Node's resolution reads the real `exports` map.
  const installed = new Map<string, string>([
    [join(INSTALLED, 'package.json'), manifestText],
    [join(PROJECT, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' })],
    [join(PROJECT, 'typed.ts'), readFileSync(CONSUMER, 'utf8')],
  ]);
  for (const [file, text] of declarations) installed.set(join(INSTALLED, relative(ROOT, file)), text);
  const inside = (path: string): boolean => [INSTALLED, PROJECT].some((dir) => path === dir || path.startsWith(`${dir}/`));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023, lib: ['lib.es2023.d.ts'], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noImplicitOverride: true, verbatimModuleSyntax: true,
    skipLibCheck: false, noEmit: true, types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, directoryExists, getSourceFile, realpath } = host;
  host.fileExists = (path) => (inside(path) ? installed.has(path) : fileExists.call(host, path));
  host.readFile = (path) => (inside(path) ? installed.get(path) : readFile.call(host, path));
  host.directoryExists = (path) => (inside(path) ? [...installed.keys()].some((file) => file.startsWith(`${path}/`)) : directoryExists?.call(host, path) ?? true);
  host.realpath = (path) => (inside(path) ? path : realpath?.call(host, path) ?? path);
  host.getSourceFile = (path, language, onError, create) => {
    const text = inside(path) ? installed.get(path) : undefined;
    return text !== undefined ? ts.createSourceFile(path, text, language) : getSourceFile.call(host, path, language, onError, create);
  };
  const program = ts.createProgram([join(PROJECT, 'typed.ts')], options, host);
  const reported = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file === undefined || d.start === undefined ? '' : `${relative(ROOT, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `;
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.equal(reported, []);
  assert.ok(program.getSourceFiles().some((file) => file.fileName === join(INSTALLED, 'dist/index.d.ts')), 'signalbox resolved to the emitted declarations');
});

test.run();
