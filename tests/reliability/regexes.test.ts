/**
 * Every regular expression written in the framework's source (core/,
 * machines/, transport/) is checked by recheck, a ReDoS checker: none may
 * backtrack polynomially or exponentially, since most of them meet request
 * text (headers, paths, parameters, bodies) and the rest may come to. The
 * expressions are found in the source itself, so a new one is checked the
 * day it is written. Route patterns compiled from a table are checked too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePattern } from '../../core/routing/pattern.ts';
import { routes as blogRoutes } from '../../examples/blog/routes.ts';

const test = suite('regular expressions run in linear time');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

interface Literal { readonly where: string; readonly source: string; readonly flags: string }

function literals(): Literal[] {
  const found: Literal[] = [];
  for (const dir of ['core', 'machines', 'transport']) {
    for (const file of sources(join(ROOT, dir))) {
      const text = readFileSync(file, 'utf8');
      const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const literal = node.getText(tree);
          const slash = literal.lastIndexOf('/');
          const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
          found.push({ where: `${relative(ROOT, file)}:${line}`, source: literal.slice(1, slash), flags: literal.slice(slash + 1) });
        }
        ts.forEachChild(node, visit);
      };
      visit(tree);
    }
  }
  return found;
}

function verdict(source: string, flags: string): string | null {
  const result = checkSync(source, flags, { timeout: 10_000 });
  if (result.status === 'safe') return null;
  if (result.status === 'vulnerable') return `${result.complexity.summary}, e.g. ${result.attack.pattern}`;
  return `${result.status}: ${result.error.kind}`;
}

test('every regular expression literal in core/, machines/ and transport/ is safe', () => {
  const all = literals();
  // A floor, so that a broken source scan cannot pass by finding nothing.
  assert.ok(all.length > 100, `found only ${all.length} literals`);
  const unsafe = all.flatMap(({ where, source, flags }) => {
    const problem = verdict(source, flags);
    return problem === null ? [] : [`${where} /${source}/${flags}: ${problem}`];
  });
  assert.equal(unsafe, []);
});

test('the checker does find a backtracking pattern (the old Basic-auth one)', () => {
  assert.match(verdict('^Basic\\s+([A-Za-z0-9+/=\\s]*)$', 'i') ?? '', /polynomial/);
});

test('the patterns a route table compiles for recognition are safe', () => {
  const patterns = new Set(blogRoutes.routes.map((route) => compilePattern(route.segments, null).regexp.source));
  assert.ok(patterns.size > 10);
  const unsafe = [...patterns].flatMap((source) => {
    const problem = verdict(source, '');
    return problem === null ? [] : [`${source}: ${problem}`];
  });
  assert.equal(unsafe, []);
});

test.run();
