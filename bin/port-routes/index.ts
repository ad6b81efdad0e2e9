/**
 * `signalbox port-routes FILE...`: reads Rails `config/routes.rb` files (several are one draw, in the
 * order given) and prints a Signalbox routes module, or with `--json` the declarations in the
 * acceptance corpus's `draw` format. Statements that cannot be ported are reported on stderr as
 * `FILE:LINE: not ported: <statement>` (with the reason on the next line) and left out.
 *
 * @example
 *   const { output, reports } = port([{ name: 'config/routes.rb', text }], 'ts');
 */
import { readFileSync } from 'node:fs';
import { drawConfig, withoutUndrawable } from './check-draw.ts';
import { emitDraw } from './emit-draw.ts';
import { emitModule } from './emit-module.ts';
import { RubySyntaxError } from './errors.ts';
import { evaluate, type Omission, type ParsedFile } from './evaluator.ts';
import { parse } from './parser.ts';

export type PortFormat = 'ts' | 'js' | 'json';

export interface Source {
  readonly name: string;
  readonly text: string;
}

export interface PortResult {
  /** The module or draw; empty when no file could be read. */
  readonly output: string;
  /** Lines for stderr: syntax errors, then statements not ported, in file order. */
  readonly reports: readonly string[];
  /** How many of the files were read (parsed); none means there is nothing to print. */
  readonly read: number;
}

export const USAGE = `usage: signalbox port-routes [--js | --json] [--env NAME] FILE...
  prints a Signalbox routes module (TypeScript; --js for JavaScript) ported from Rails config/routes.rb
  files, read in order as one draw (- reads standard input); --json prints the same declarations in the
  draw format of the acceptance corpus. --env NAME ports for that Rails environment, deciding conditions on
  RAILS_ENV and Rails.env. Statements that cannot be ported are reported on stderr and left out.`;

export interface PortOptions {
  /** The Rails environment to port for: decides `if Rails.env.production?`, `RAILS_ENV == 'test'` and the like. */
  readonly env?: string | null;
}

/** Ports sources already in memory. */
export function port(sources: readonly Source[], format: PortFormat, options: PortOptions = {}): PortResult {
  const reports: string[] = [];
  const parsed: ParsedFile[] = [];
  for (const source of sources) {
    try {
      parsed.push({ name: source.name, text: source.text, program: parse(source.text) });
    } catch (error) {
      // Only RubySyntaxError is expected (a property test holds the parser to that); anything else is still
      // reported against the file rather than ending the command.
      if (error instanceof RubySyntaxError) reports.push(`${source.name}:${error.line}: syntax error: ${error.message}`);
      else reports.push(`${source.name}: cannot be ported: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (parsed.length === 0) return { output: '', reports, read: 0 };
  const evaluated = evaluate(parsed, { env: options.env ?? null });
  const omissions: Omission[] = [...evaluated.omissions];
  const config = drawConfig(evaluated.settings);
  const evaluation = { ...evaluated, declarations: withoutUndrawable(evaluated.declarations, evaluated.root, omissions, parsed.map((f) => f.name), config) };
  let output: string;
  if (format === 'json') {
    const draw = emitDraw(evaluation.declarations);
    omissions.push(...draw.omissions);
    // The draw format is a list of mapper calls: a setting of draw() itself has no place in it.
    for (const s of evaluation.settings) {
      omissions.push({
        kind: 'omitted', file: s.file, line: s.line, endLine: s.endLine, statement: s.statement,
        reason: `the --json draw holds mapper calls only; the TypeScript and JavaScript modules pass it to draw() as ${s.name}`,
      });
    }
    output = draw.json;
  } else {
    output = emitModule(evaluation, { language: format, files: parsed.map((f) => f.name), env: options.env ?? null });
  }
  const order = new Map(parsed.map((f, i) => [f.name, i]));
  omissions.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line);
  for (const o of omissions) reports.push(`${o.file}:${o.line}: not ported: ${o.statement}`, `  ${o.reason}`);
  return { output, reports, read: parsed.length };
}

/** The command: 0 when something was ported, 1 when no file could be read, 2 for a usage error. */
export function portRoutesCommand(args: readonly string[]): { code: number; stdout: string; stderr: string } {
  let format: PortFormat = 'ts';
  const files: string[] = [];
  let formatFlag: string | null = null;
  let env: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--env' || arg.startsWith('--env=')) {
      const value = arg === '--env' ? args[++i] : arg.slice('--env='.length);
      if (value === undefined || !/^[a-z][a-z0-9_]*$/.test(value)) return { code: 2, stdout: '', stderr: `--env needs an environment name (such as production)\n${USAGE}\n` };
      if (env !== null && env !== value) return { code: 2, stdout: '', stderr: `--env is given twice\n${USAGE}\n` };
      env = value;
    } else if (arg === '--js' || arg === '--json' || arg === '--ts') {
      if (formatFlag !== null && formatFlag !== arg) return { code: 2, stdout: '', stderr: `${formatFlag} and ${arg} cannot be combined\n${USAGE}\n` };
      formatFlag = arg;
      format = arg === '--js' ? 'js' : arg === '--json' ? 'json' : 'ts';
    } else if (arg === '--help' || arg === '-h') {
      return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
    } else if (arg.startsWith('-') && arg !== '-') {
      return { code: 2, stdout: '', stderr: `unknown option ${JSON.stringify(arg)}\n${USAGE}\n` };
    } else {
      files.push(arg);
    }
  }
  if (files.length === 0) return { code: 2, stdout: '', stderr: `${USAGE}\n` };
  const sources: Source[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    try {
      sources.push({ name: file, text: readFileSync(file === '-' ? 0 : file, 'utf8') });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      unreadable.push(`${file}: cannot read: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message}`);
    }
  }
  const result = port(sources, format, { env });
  const stderr = [...unreadable, ...result.reports].map((l) => `${l}\n`).join('');
  return { code: result.read === 0 ? 1 : 0, stdout: result.output, stderr };
}
