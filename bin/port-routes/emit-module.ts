/**
 * Prints a ported draw as a Signalbox routes module, TypeScript or JavaScript (internal to
 * `signalbox port-routes`). Calls keep the routes file's order, block variable names and own-line
 * comments; statements left out appear as comments where they stood, so the module reads like the
 * file it came from.
 */
import type { Comment } from './lexer.ts';
import type { Declaration, Evaluation, MapperCall } from './evaluator.ts';
import { type Data, isDataHash, isDataRegexp, type MapperRef } from './values.ts';

export interface ModuleOptions {
  readonly language: 'ts' | 'js';
  /** The files in the order they were read, for the header. */
  readonly files: readonly string[];
  /** The Rails environment the conditions were decided for, if one was given. */
  readonly env?: string | null;
}

const RESERVED: ReadonlySet<string> = new Set([
  'arguments', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'eval',
  'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import', 'in', 'instanceof', 'interface', 'let', 'new',
  'null', 'package', 'private', 'protected', 'public', 'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof',
  'var', 'void', 'while', 'with', 'yield', 'draw', 'routes',
]);

/** A map in scope where a call is printed, and the name it has there. */
interface Live {
  readonly ref: MapperRef;
  readonly name: string;
}

/** Lines wider than this print their options hash one entry per line. */
const WIDTH = 110;

export function emitModule(evaluation: Evaluation, options: ModuleOptions): string {
  return new ModuleWriter(evaluation, options).write();
}

class ModuleWriter {
  readonly #evaluation: Evaluation;
  readonly #options: ModuleOptions;
  readonly #lines: string[] = [];
  readonly #names = new Map<MapperRef, string>();
  /** Per file: the next own-line comment not yet printed. */
  readonly #nextComment = new Map<string, number>();
  #file = '';

  constructor(evaluation: Evaluation, options: ModuleOptions) {
    this.#evaluation = evaluation;
    this.#options = options;
  }

  write(): string {
    const { language, files } = this.#options;
    const root = this.#evaluation.root;
    const rootName = identifier(root.name ?? 'map');
    this.#names.set(root, rootName);
    const header = [
      `// Ported from ${oneLine(files.join(', '))} by \`signalbox port-routes\`${this.#options.env ? ` for the ${oneLine(this.#options.env)} environment` : ''}.`,
      language === 'ts' ? "import { draw, type RouteSet } from 'signalbox';" : "import { draw } from 'signalbox';",
      '',
      `export const routes${language === 'ts' ? ': RouteSet' : ''} = draw((${rootName}) => {`,
    ];
    this.#body(this.#evaluation.declarations, 1, [{ ref: root, name: rootName }]);
    this.#flushFile(1);
    return [...header, ...this.#lines, `}${this.#settings()});`, '', 'export default routes;', ''].join('\n');
  }

  /** draw()'s second argument, from the settings the files gave ActionController::Base (the last of each name). */
  #settings(): string {
    const last = new Map<string, Data>();
    for (const s of this.#evaluation.settings) last.set(s.name, s.value);
    if (last.size === 0) return '';
    return `, { ${[...last].map(([k, v]) => `${key(k)}: ${literal(v, 1)}`).join(', ')} }`;
  }

  #comments(): readonly Comment[] {
    return this.#evaluation.comments.get(this.#file) ?? [];
  }

  /** Prints the file's own-line comments that come before `line`. */
  #commentsBefore(line: number, depth: number): void {
    const comments = this.#comments();
    let i = this.#nextComment.get(this.#file) ?? 0;
    while (i < comments.length && comments[i].line < line) {
      const c = comments[i];
      if (c.ownLine) this.#line(depth, `//${oneLine(c.text).trimEnd()}`);
      i++;
    }
    this.#nextComment.set(this.#file, i);
  }

  /** Skips comments inside a statement that spans lines (through `line`). */
  #consumeThrough(line: number): void {
    const comments = this.#comments();
    let i = this.#nextComment.get(this.#file) ?? 0;
    while (i < comments.length && comments[i].line <= line) i++;
    this.#nextComment.set(this.#file, i);
  }

  #flushFile(depth: number): void {
    if (this.#file !== '') this.#commentsBefore(Infinity, depth);
  }

  #line(depth: number, text: string): void {
    this.#lines.push(`${'  '.repeat(depth)}${text}`);
  }

  #body(declarations: readonly Declaration[], depth: number, live: readonly Live[]): void {
    for (const d of declarations) {
      if (d.kind === 'file') {
        this.#flushFile(depth);
        this.#file = d.file;
        if (this.#options.files.length > 1) this.#line(depth, `// ${oneLine(d.file)}`);
        continue;
      }
      this.#commentsBefore(d.line, depth);
      if (d.kind === 'method') {
        this.#line(depth, `// ${oneLine(d.file)}:${d.line}: ${oneLine(d.statement)}: its routes are drawn where it is called`);
        this.#consumeThrough(d.endLine);
        continue;
      }
      if (d.kind === 'omitted') {
        this.#line(depth, `// ${oneLine(d.file)}:${d.line}: not ported: ${oneLine(d.statement)}`);
        this.#line(depth, `//   ${oneLine(d.reason)}`);
        this.#consumeThrough(d.endLine);
        continue;
      }
      this.#call(d, depth, live);
    }
  }

  #call(call: MapperCall, depth: number, live: readonly Live[]): void {
    const receiver = this.#names.get(call.receiver) ?? identifier(call.receiver.name ?? 'map');
    const args = call.args.map((a) => literal(a, depth));
    let param: string | null = null;
    if (call.block?.param) {
      param = this.#paramName(call.block.param, call.block.body, live);
      this.#names.set(call.block.param, param);
    }
    const open = call.block ? `${call.args.length > 0 ? ', ' : ''}(${param ?? ''}) => {` : ');';
    let text = `${receiver}.${call.method}(${args.join(', ')}${open}`;
    const last = call.args[call.args.length - 1];
    if (`${'  '.repeat(depth)}${text}`.length > WIDTH && last !== undefined && isDataHash(last) && last.entries.length > 1) {
      // One option per line: `map.resources('posts', {` ... `});`
      const head = args.slice(0, -1).map((a) => `${a}, `).join('');
      this.#line(depth, `${receiver}.${call.method}(${head}{`);
      for (const [k, v] of last.entries) this.#line(depth + 1, `${key(k)}: ${literal(v, depth + 1)},`);
      text = `}${call.block ? `, (${param ?? ''}) => {` : ');'}`;
    }
    if (!call.block) {
      this.#line(depth, text);
      this.#consumeThrough(call.endLine);
      return;
    }
    this.#consumeThrough(call.endLine);
    if (call.block.body.length === 0 && this.#nextCommentLine() >= call.block.endLine) {
      this.#line(depth, `${text}});`);
      this.#consumeThrough(call.block.endLine);
      return;
    }
    this.#line(depth, text);
    this.#body(call.block.body, depth + 1, param === null || call.block.param === null ? live : [...live, { ref: call.block.param, name: param }]);
    this.#commentsBefore(call.block.endLine, depth + 1);
    this.#consumeThrough(call.block.endLine);
    this.#line(depth, '});');
  }

  #nextCommentLine(): number {
    const comments = this.#comments();
    const next = comments[this.#nextComment.get(this.#file) ?? 0];
    return next === undefined ? Infinity : next.line;
  }

  /**
   * The block parameter keeps its Ruby name unless it would hide an enclosing map that the block
   * still calls (possible through a variable), in which case it gets a numbered name.
   */
  #paramName(param: MapperRef, body: readonly Declaration[], live: readonly Live[]): string {
    const base = identifier(param.name ?? 'map');
    const hidden = live.filter((l) => l.name === base);
    if (hidden.length === 0 || !hidden.some((l) => calls(body, l.ref))) return base;
    let n = 2;
    while (live.some((l) => l.name === `${base}${n}`)) n++;
    return `${base}${n}`;
  }
}

function calls(body: readonly Declaration[], ref: MapperRef): boolean {
  return body.some((d) => d.kind === 'call' && (d.receiver === ref || (d.block !== null && calls(d.block.body, ref))));
}

function identifier(name: string): string {
  const clean = name.replace(/[^\w$]/g, '_');
  return RESERVED.has(clean) ? `${clean}_` : clean;
}

/**
 * Text for a `//` comment. JavaScript ends a line (and so the comment) at \r, \n, U+2028 and U+2029: left in,
 * the rest of a Ruby comment or quoted statement would become code in the module.
 */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/** A JavaScript string literal in single quotes. */
export function quote(text: string): string {
  let out = "'";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    // Line separators end a line in JavaScript source; a lone surrogate would not survive being written as UTF-8.
    else if (code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff)) out += `\\u${code.toString(16)}`;
    else out += ch;
  }
  return `${out}'`;
}

/**
 * An `x` pattern spread over lines reads best as written: a raw template keeps its lines and backslashes
 * (unless it holds what a template would read differently: a backtick, `${`, a carriage return, or a final backslash).
 */
function extendedSource(source: string): string {
  let trailing = 0;
  while (source[source.length - 1 - trailing] === '\\') trailing++;
  const raw = source.includes('\n') && !/[`\r]|\$\{/.test(source) && trailing % 2 === 0;
  return raw ? `String.raw\`${source}\`` : quote(source);
}

function key(k: string): string {
  if (k === '__proto__') return "['__proto__']";
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k);
}

/** A value as a JavaScript literal; regexps as RegExp literals, or `{ source, flags: 'x' }` where Ruby's `x` is kept. */
export function literal(d: Data, depth = 0): string {
  if (d === null) return 'null';
  if (typeof d === 'boolean') return String(d);
  if (typeof d === 'number') return Object.is(d, -0) ? '0' : String(d);
  if (typeof d === 'string') return quote(d);
  if (Array.isArray(d)) return `[${d.map((x) => literal(x, depth)).join(', ')}]`;
  if (isDataRegexp(d)) {
    if (d.flags.includes('x')) return `{ source: ${extendedSource(d.source)}, flags: ${quote(d.flags)} }`;
    return `/${d.source === '' ? '(?:)' : d.source}/${d.flags}`;
  }
  if (isDataHash(d)) {
    if (d.entries.length === 0) return '{}';
    return `{ ${d.entries.map(([k, v]) => `${key(k)}: ${literal(v, depth)}`).join(', ')} }`;
  }
  return 'null';
}
