/**
 * Every name the package shows its users, read with the TypeScript compiler from the entry points
 * package.json exports: each export, and, through the types of exported values, classes, interfaces
 * and function signatures, every property, method and option key reachable from them that the
 * package itself declares (what Node's or a dependency's types declare is theirs). Not a test file.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The package's entry points (package.json `exports`), as sources. */
export const ENTRY_POINTS = ['index.ts', 'core/index.ts', 'machines/index.ts', 'transport/index.ts', 'transport/tunnel-client.ts'];

export interface ExportedName {
  readonly name: string;
  /** `export` for an export of an entry point, else `member`. */
  readonly kind: 'export' | 'member';
  /** Where it is reachable from: `ServeOptions.tunnel.maxFrameBytes`, `createApp`. */
  readonly path: string;
  /** The declaring file, relative to the project root. */
  readonly file: string;
}

/** Every exported name and every member name reachable from them, each once per path that first reached it. */
export function exportedNames(entries: readonly string[] = ENTRY_POINTS): ExportedName[] {
  const files = entries.map((e) => join(ROOT, e));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true, noEmit: true, strict: true, types: ['node'],
  });
  const checker = program.getTypeChecker();
  const names: ExportedName[] = [];
  const seenTypes = new Set<ts.Type>();
  const seenExports = new Set<string>();

  const own = (decl: ts.Declaration | undefined): string | null => {
    const file = decl?.getSourceFile().fileName;
    if (file === undefined || file.includes('/node_modules/') || !file.startsWith(ROOT)) return null;
    return relative(ROOT, file);
  };

  const walkSignature = (signature: ts.Signature, path: string) => {
    for (const param of signature.getParameters()) {
      const decl = param.valueDeclaration;
      if (decl) walkType(checker.getTypeOfSymbolAtLocation(param, decl), `${path}(${param.name})`);
    }
    walkType(signature.getReturnType(), `${path}()`);
  };

  const walkType = (type: ts.Type, path: string): void => {
    if (seenTypes.has(type)) return;
    seenTypes.add(type);
    if (type.isUnionOrIntersection()) {
      for (const part of type.types) walkType(part, path);
      return;
    }
    for (const arg of checker.getTypeArguments(type as ts.TypeReference) ?? []) walkType(arg, path);
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      if (own(signature.getDeclaration()) !== null) walkSignature(signature, path);
    }
    if (!(type.flags & ts.TypeFlags.Object)) return;
    for (const property of checker.getPropertiesOfType(type)) {
      const decl = property.valueDeclaration ?? property.declarations?.[0];
      const file = own(decl);
      if (file === null || property.name.startsWith('__@') || property.name.startsWith('#')) continue;
      if (decl && ts.getCombinedModifierFlags(decl) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
      names.push({ name: property.name, kind: 'member', path: `${path}.${property.name}`, file });
      if (decl) walkType(checker.getTypeOfSymbolAtLocation(property, decl), `${path}.${property.name}`);
    }
  };

  for (const file of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const decl = target.valueDeclaration ?? target.declarations?.[0];
      const declared = own(decl);
      if (declared === null) continue;
      if (!seenExports.has(symbol.name)) {
        seenExports.add(symbol.name);
        names.push({ name: symbol.name, kind: 'export', path: symbol.name, file: declared });
      }
      if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class)) walkType(checker.getDeclaredTypeOfSymbol(target), symbol.name);
      if (target.flags & ts.SymbolFlags.Value && decl) walkType(checker.getTypeOfSymbolAtLocation(target, decl), symbol.name);
    }
  }
  return names;
}
