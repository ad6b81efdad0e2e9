/**
 * Tokens of the Ruby that routes files are written in (internal to `signalbox port-routes`).
 *
 * Ruby's grammar cannot be tokenized without knowing whether a value may start at a given point:
 * `/` is a regexp or a division, `%w(` a word list or a modulo, `<<X` a heredoc or a shift, `:a` a
 * symbol or a colon. Like Ruby's own lexer, this one decides from the token before it (and, after an
 * identifier that is not a local variable, from the spacing, the way `map.connect /x/` differs from
 * `a / b`). Every loop advances through the source, and nesting is capped, so a file of any shape
 * costs time linear in its size and fails, if it fails, with a `RubySyntaxError` only.
 */
import { RubySyntaxError } from './errors.ts';

export type TokenType =
  | 'int' | 'float' | 'str' | 'xstr' | 'sym' | 'dsym' | 'regexp' | 'words' | 'symbols'
  | 'ident' | 'const' | 'ivar' | 'cvar' | 'gvar' | 'label' | 'kw' | 'op' | 'nl' | 'eof';

/** `#{...}` inside a literal: its tokens, ending with `eof`. */
export interface Interpolation {
  readonly tokens: Token[];
  readonly line: number;
}

export type StrPart = string | Interpolation;

export interface Token {
  readonly type: TokenType;
  /** The name, operator, keyword or number text; a label's key. */
  readonly value: string;
  readonly line: number;
  readonly start: number;
  readonly end: number;
  /** Whitespace (or a line continuation) directly before the token. */
  readonly spaceBefore: boolean;
  /** Contents of `str`, `xstr`, `dsym`, `regexp` (and a quoted label). A heredoc's are filled in at its body. */
  parts?: StrPart[];
  /** `%w`/`%W` words and `%i`/`%I` symbols. */
  words?: StrPart[][];
  /** Regexp options as written (`i`, `m`, `x`, `o` and the encoding letters). */
  flags?: string;
}

/** A `#` comment; `ownLine` when nothing but whitespace precedes it on its line. */
export interface Comment {
  readonly line: number;
  readonly text: string;
  readonly ownLine: boolean;
}

export interface Lexed {
  readonly tokens: Token[];
  readonly comments: Comment[];
}

/** Nesting of `#{}` inside literals deeper than this is refused rather than risking the stack. */
export const MAX_NESTING = 64;

const KEYWORDS: ReadonlySet<string> = new Set([
  'alias', 'and', 'begin', 'BEGIN', 'break', 'case', 'class', 'def', 'defined?', 'do', 'else', 'elsif', 'end', 'END',
  'ensure', 'false', 'for', 'if', 'in', 'module', 'next', 'nil', 'not', 'or', 'redo', 'rescue', 'retry', 'return',
  'self', 'super', 'then', 'true', 'undef', 'unless', 'until', 'when', 'while', 'yield', '__FILE__', '__LINE__', '__ENCODING__',
]);

/** Keywords after which an operator, not a value, comes next. */
const VALUE_KEYWORDS: ReadonlySet<string> = new Set(['end', 'self', 'nil', 'true', 'false', '__FILE__', '__LINE__', '__ENCODING__', 'redo', 'retry']);

// Longest first, so `**=` is not read as `**` then `=`.
const OPERATORS = [
  '**=', '<=>', '===', '...', '<<=', '>>=', '&&=', '||=',
  '**', '==', '!=', '=~', '!~', '>=', '<=', '&&', '||', '<<', '>>', '+=', '-=', '*=', '/=', '%=', '|=', '&=', '^=', '=>', '->', '::', '..', '&.',
  '+', '-', '*', '/', '%', '=', '<', '>', '!', '&', '|', '^', '~', '?', ':', ',', '.', '(', ')', '[', ']', '{', '}',
];

const ASSIGNMENT_OPERATORS: ReadonlySet<string> = new Set(['=', '**=', '<<=', '>>=', '&&=', '||=', '+=', '-=', '*=', '/=', '%=', '|=', '&=', '^=']);

const OPERATOR_SYMBOLS = ['[]=', '[]', '<=>', '===', '==', '=~', '!=', '!~', '**', '+@', '-@', '<<', '>>', '<=', '>=', '+', '-', '*', '/', '%', '<', '>', '!', '&', '|', '^', '~'];

const CLOSING: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '<': '>' };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isIdentStart = (c: string | undefined): boolean =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c.charCodeAt(0) >= 0x80);
const isIdentChar = (c: string | undefined): boolean => isIdentStart(c) || isDigit(c);
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';
const isSpace = (c: string | undefined): boolean => isBlank(c) || c === '\n';

interface Heredoc {
  readonly token: Token;
  readonly id: string;
  /** `-` or `~`: the terminator may be indented; `~` also strips the body's common indentation. */
  readonly indent: '' | '-' | '~';
  readonly interpolates: boolean;
}

type State = 'beg' | 'arg' | 'end';

/** Tokenizes a Ruby source; throws `RubySyntaxError` (and nothing else) on text that is not Ruby. */
export function lex(source: string): Lexed {
  return new Lexer(source).run();
}

class Lexer {
  readonly #src: string;
  #pos = 0;
  #line = 1;
  #depth = 0;
  #pending: Heredoc[] = [];
  readonly #comments: Comment[] = [];
  /** Names assigned or bound as block parameters so far: after one of them, `/` divides. */
  readonly #locals = new Set<string>();
  #inBlockParams = false;
  /** Where the script ends: `__END__`, or a NUL / ^D / ^Z character, as in Ruby. */
  #end: number;

  constructor(source: string) {
    this.#src = source;
    this.#end = source.length;
    // A UTF-8 byte-order mark before the first line is not part of the script, as in Ruby.
    if (source.charCodeAt(0) === 0xfeff) this.#pos = 1;
  }

  run(): Lexed {
    this.#skipBlankLines();
    const tokens: Token[] = [];
    this.#scan(tokens, false);
    if (this.#pending.length > 0) this.#readHeredocs();
    tokens.push(this.#token('eof', '', this.#pos, this.#pos, this.#line, false));
    return { tokens, comments: this.#comments };
  }

  #fail(message: string, line = this.#line): never {
    throw new RubySyntaxError(message, line);
  }

  #token(type: TokenType, value: string, start: number, end: number, line: number, spaceBefore: boolean): Token {
    return { type, value, line, start, end, spaceBefore };
  }

  #state(out: readonly Token[]): State {
    const last = out[out.length - 1];
    if (last === undefined) return 'beg';
    switch (last.type) {
      case 'nl': case 'label': return 'beg';
      case 'kw': return VALUE_KEYWORDS.has(last.value) ? 'end' : 'beg';
      case 'op': return last.value === ')' || last.value === ']' || last.value === '}' ? 'end' : 'beg';
      case 'ident': {
        const before = out[out.length - 2];
        const afterDot = before !== undefined && before.type === 'op' && (before.value === '.' || before.value === '&.' || before.value === '::');
        const defName = before !== undefined && before.type === 'kw' && before.value === 'def';
        return !afterDot && (defName || this.#locals.has(last.value)) ? 'end' : 'arg';
      }
      default: return 'end';
    }
  }

  /**
   * Whether the next token starts a statement: at the start of the file, after `;`, or after a line break that
   * ends one (Ruby skips a line break where a value is still expected, as after `{` or `,`).
   */
  #statementStarts(out: readonly Token[]): boolean {
    const last = out[out.length - 1];
    if (last === undefined) return true;
    if (last.type !== 'nl') return false;
    return last.value === ';' || out.length === 1 || this.#state(out.slice(out.length - 2, out.length - 1)) !== 'beg';
  }

  /** Whether an ambiguous character starts a value: always where one is expected, and after a method name when spaced like an argument. */
  #valueStarts(out: readonly Token[], space: boolean, next: string | undefined): boolean {
    const state = this.#state(out);
    if (state === 'beg') return true;
    return state === 'arg' && space && next !== undefined && !isSpace(next) && next !== '=';
  }

  #scan(out: Token[], inInterpolation: boolean): void {
    const src = this.#src;
    let braces = 0;
    let space = false;
    const push = (type: TokenType, value: string, start: number, line: number): Token => {
      const t = this.#token(type, value, start, this.#pos, line, space);
      out.push(t);
      space = false;
      this.#track(out, t);
      return t;
    };
    for (;;) {
      if (this.#pos >= this.#end) {
        if (inInterpolation) this.#fail('unterminated string interpolation meets end of file');
        return;
      }
      const start = this.#pos;
      const line = this.#line;
      const c = src[start];
      if (isBlank(c)) {
        this.#pos++;
        space = true;
        continue;
      }
      if (c === '\\' && (src[start + 1] === '\n' || (src[start + 1] === '\r' && src[start + 2] === '\n'))) {
        this.#pos += src[start + 1] === '\n' ? 2 : 3;
        this.#line++;
        space = true;
        continue;
      }
      if (c === '#') {
        const eol = this.#lineEnd(start);
        this.#comments.push({ line, text: src.slice(start + 1, eol), ownLine: false });
        this.#pos = eol;
        continue;
      }
      if (c === '\n') {
        this.#pos++;
        this.#line++;
        if (this.#pending.length > 0) this.#readHeredocs();
        const continues = this.#skipBlankLines();
        const last = out[out.length - 1];
        if (!continues && last !== undefined && last.type !== 'nl') {
          out.push(this.#token('nl', '\n', start, start + 1, line, space));
        }
        space = true;
        continue;
      }
      if (c === ';') {
        this.#pos++;
        push('nl', ';', start, line);
        continue;
      }
      if (isDigit(c)) {
        this.#number(push, start, line);
        continue;
      }
      if (isIdentStart(c)) {
        this.#identifier(out, push, start, line);
        continue;
      }
      if (c === '@') {
        const cvar = src[start + 1] === '@';
        const nameStart = start + (cvar ? 2 : 1);
        if (!isIdentStart(src[nameStart]) || isDigit(src[nameStart])) this.#fail(`'${cvar ? '@@' : '@'}' without identifiers is not allowed as a variable name`);
        this.#pos = nameStart;
        while (isIdentChar(src[this.#pos])) this.#pos++;
        push(cvar ? 'cvar' : 'ivar', src.slice(start, this.#pos), start, line);
        continue;
      }
      if (c === '$') {
        this.#pos = this.#globalEnd(start);
        push('gvar', src.slice(start, this.#pos), start, line);
        continue;
      }
      if (c === '"' || c === '`') {
        this.#pos++;
        const parts = this.#readParts('dq', c, null, line);
        const label = c === '"' && this.#labelFollows(out);
        const t = push(label ? 'label' : c === '"' ? 'str' : 'xstr', '', start, line);
        t.parts = parts;
        continue;
      }
      if (c === "'") {
        this.#pos++;
        const parts = this.#readParts('sq', "'", null, line);
        const label = this.#labelFollows(out);
        const t = push(label ? 'label' : 'str', '', start, line);
        t.parts = parts;
        continue;
      }
      if (c === ':') {
        if (src[start + 1] === ':') {
          this.#pos += 2;
          push('op', '::', start, line);
          continue;
        }
        if ((this.#state(out) !== 'end' || space) && this.#symbol(push, start, line)) continue;
        this.#pos++;
        push('op', ':', start, line);
        continue;
      }
      if (c === '/' && this.#valueStarts(out, space, src[start + 1])) {
        this.#pos++;
        const parts = this.#readParts('regexp', '/', null, line);
        const t = push('regexp', '', start, line);
        t.parts = parts;
        t.flags = this.#regexpFlags();
        (t as { end: number }).end = this.#pos;
        continue;
      }
      if (c === '%' && this.#valueStarts(out, space, src[start + 1]) && this.#percentLiteral(push, start, line)) continue;
      if (c === '?' && this.#valueStarts(out, space, src[start + 1]) && this.#character(push, start, line)) continue;
      if (c === '<' && src[start + 1] === '<' && this.#valueStarts(out, space, src[start + 2]) && this.#heredoc(push, start, line)) continue;
      if (c === '\0' || c === '\x04' || c === '\x1a') {
        this.#end = start;
        continue;
      }
      const op = OPERATORS.find((o) => src.startsWith(o, start));
      if (op === undefined) this.#fail(`invalid character ${JSON.stringify(c)}`);
      if (op === '{') braces++;
      if (op === '}') {
        if (braces === 0 && inInterpolation) {
          this.#pos++;
          out.push(this.#token('eof', '', start, start, line, space));
          return;
        }
        braces--;
      }
      this.#pos += op.length;
      push('op', op, start, line);
    }
  }

  /** Remembers local variable names, so that `x /2/` after `x = 1` reads as a division, as Ruby does. */
  #track(out: readonly Token[], t: Token): void {
    const prev = out[out.length - 2];
    if (t.type === 'op' && (t.value === '|' || t.value === '||')) {
      if (this.#inBlockParams) this.#inBlockParams = false;
      else if (t.value === '|' && prev !== undefined && ((prev.type === 'kw' && prev.value === 'do') || (prev.type === 'op' && prev.value === '{'))) this.#inBlockParams = true;
      return;
    }
    if (t.type === 'ident' && this.#inBlockParams) this.#locals.add(t.value);
    if (t.type === 'op' && ASSIGNMENT_OPERATORS.has(t.value) && prev !== undefined && prev.type === 'ident') {
      const before = out[out.length - 3];
      if (before === undefined || before.type !== 'op' || (before.value !== '.' && before.value !== '&.' && before.value !== '::')) this.#locals.add(prev.value);
    }
  }

  #lineEnd(from: number): number {
    const eol = this.#src.indexOf('\n', from);
    return eol === -1 || eol > this.#end ? this.#end : eol;
  }

  /**
   * At the start of a line: skips blank lines, comment lines, `=begin`/`=end` documents and everything
   * after `__END__`. True when the next line starts with `.method`, which continues the statement.
   */
  #skipBlankLines(): boolean {
    const src = this.#src;
    for (;;) {
      const p0 = this.#pos;
      if (src.startsWith('=begin', p0) && (p0 + 6 >= this.#end || isSpace(src[p0 + 6]))) {
        this.#skipDocument();
        continue;
      }
      if (src.startsWith('__END__', p0) && (p0 + 7 >= this.#end || src[p0 + 7] === '\n' || (src[p0 + 7] === '\r' && src[p0 + 8] === '\n'))) {
        this.#end = p0;
        return false;
      }
      let p = p0;
      while (p < this.#end && isBlank(src[p])) p++;
      if (p < this.#end && src[p] === '\n') {
        this.#pos = p + 1;
        this.#line++;
        if (this.#pending.length > 0) this.#readHeredocs();
        continue;
      }
      if (p < this.#end && src[p] === '#') {
        const eol = this.#lineEnd(p);
        this.#comments.push({ line: this.#line, text: src.slice(p + 1, eol), ownLine: true });
        this.#pos = eol;
        if (eol < this.#end) {
          this.#pos++;
          this.#line++;
        }
        continue;
      }
      if ((src[p] === '.' && src[p + 1] !== '.') || (src[p] === '&' && src[p + 1] === '.')) {
        this.#pos = p;
        return true;
      }
      return false;
    }
  }

  #skipDocument(): void {
    const src = this.#src;
    const startLine = this.#line;
    for (;;) {
      const eol = this.#lineEnd(this.#pos);
      if (eol >= this.#end) this.#fail('embedded document meets end of file', startLine);
      this.#pos = eol + 1;
      this.#line++;
      if (src.startsWith('=end', this.#pos) && (this.#pos + 4 >= this.#end || isSpace(src[this.#pos + 4]))) {
        const close = this.#lineEnd(this.#pos);
        this.#pos = close < this.#end ? close + 1 : close;
        if (close < this.#end) this.#line++;
        return;
      }
    }
  }

  #number(push: (type: TokenType, value: string, start: number, line: number) => Token, start: number, line: number): void {
    const src = this.#src;
    let p = start;
    let type: TokenType = 'int';
    const radix = src[p] === '0' ? (src[p + 1] ?? '').toLowerCase() : '';
    const digitsOf = (re: RegExp) => {
      while (p < this.#end && (re.test(src[p]) || (src[p] === '_' && re.test(src[p + 1] ?? '')))) p++;
    };
    let text: string;
    if (radix === 'x' || radix === 'b' || radix === 'o' || radix === 'd') {
      p += 2;
      const from = p;
      digitsOf(radix === 'x' ? /[0-9a-fA-F]/ : radix === 'b' ? /[01]/ : radix === 'o' ? /[0-7]/ : /[0-9]/);
      if (p === from) this.#fail('numeric literal without digits');
      const digits = src.slice(from, p).replaceAll('_', '');
      text = String(parseInt(digits, radix === 'x' ? 16 : radix === 'b' ? 2 : radix === 'o' ? 8 : 10));
    } else {
      digitsOf(/[0-9]/);
      if (src[p] === '.' && isDigit(src[p + 1])) {
        p++;
        digitsOf(/[0-9]/);
        type = 'float';
      }
      if ((src[p] === 'e' || src[p] === 'E') && (isDigit(src[p + 1]) || ((src[p + 1] === '+' || src[p + 1] === '-') && isDigit(src[p + 2])))) {
        p += 2;
        digitsOf(/[0-9]/);
        type = 'float';
      }
      const raw = src.slice(start, p).replaceAll('_', '');
      // A leading zero makes an octal integer in Ruby (`0755`).
      const octal = type === 'int' && raw.length > 1 && raw[0] === '0';
      if (octal && !/^[0-7]+$/.test(raw)) this.#fail(`invalid octal digit in ${raw}`);
      text = octal ? String(parseInt(raw, 8)) : raw;
    }
    if (isIdentChar(src[p])) this.#fail(`unexpected ${JSON.stringify(src[p])} after a number`);
    this.#pos = p;
    push(type, text, start, line);
  }

  #identifier(out: readonly Token[], push: (type: TokenType, value: string, start: number, line: number) => Token, start: number, line: number): void {
    const src = this.#src;
    let p = start;
    while (p < this.#end && isIdentChar(src[p])) p++;
    // `nil?`, `save!`: but not `a!=b` or `a?b:c` read as a name.
    if ((src[p] === '?' || src[p] === '!') && (src[p + 1] !== '=' || src[p + 2] === '=' || src[p + 2] === '~') && src[p + 1] !== ':') p++;
    const name = src.slice(start, p);
    const prev = out[out.length - 1];
    const afterDot = prev !== undefined && prev.type === 'op' && (prev.value === '.' || prev.value === '&.' || (prev.value === '::' && !/^[A-Z]/.test(name)));
    const afterDef = prev !== undefined && prev.type === 'kw' && prev.value === 'def';
    // A method's name (after `.` or `def`) is never a hash key, nor is a name that starts a statement: Ruby reads
    // `map.resources:posts` and a plugin file's `resources:posts` as calls with the symbol :posts.
    if (src[p] === ':' && src[p + 1] !== ':' && !/[?!]$/.test(name) && !afterDot && !afterDef && !this.#statementStarts(out) && this.#state(out) !== 'end') {
      this.#pos = p + 1;
      push('label', name, start, line);
      return;
    }
    this.#pos = p;
    if (!afterDot && !afterDef && KEYWORDS.has(name)) push('kw', name, start, line);
    else if (name === 'defined' && src[p] === '?') {
      this.#pos++;
      push('kw', 'defined?', start, line);
    } else push(/^[A-Z]/.test(name) ? 'const' : 'ident', name, start, line);
  }

  #globalEnd(start: number): number {
    const src = this.#src;
    const n = src[start + 1];
    if (isIdentStart(n)) {
      let p = start + 1;
      while (isIdentChar(src[p])) p++;
      return p;
    }
    if (isDigit(n)) {
      let p = start + 1;
      while (isDigit(src[p])) p++;
      return p;
    }
    if (n === '-' && isIdentChar(src[start + 2])) return start + 3;
    if (n !== undefined && '~*$?!@/\\;,.=:<>"&`\'+0'.includes(n)) return start + 2;
    return this.#fail("'$' without identifiers is not allowed as a global variable name");
  }

  /** A quoted string directly followed by `:` (and not `::`) where a value starts is a hash key: `"key": value`. Consumes the colon. */
  #labelFollows(out: readonly Token[]): boolean {
    const src = this.#src;
    if (src[this.#pos] !== ':' || src[this.#pos + 1] === ':' || this.#state(out) === 'end') return false;
    this.#pos++;
    return true;
  }

  #symbol(push: (type: TokenType, value: string, start: number, line: number) => Token, start: number, line: number): boolean {
    const src = this.#src;
    const n = src[start + 1];
    if (n === '"') {
      this.#pos = start + 2;
      const parts = this.#readParts('dq', '"', null, line);
      push('dsym', '', start, line).parts = parts;
      return true;
    }
    if (n === "'") {
      this.#pos = start + 2;
      const parts = this.#readParts('sq', "'", null, line);
      push('sym', parts.join(''), start, line);
      return true;
    }
    if (isIdentStart(n) || ((n === '@' || n === '$') && (isIdentStart(src[start + 2]) || src[start + 2] === '@'))) {
      let p = start + 1;
      if (src[p] === '@' || src[p] === '$') p++;
      if (src[p] === '@') p++;
      while (isIdentChar(src[p])) p++;
      if ((src[p] === '?' || src[p] === '!') && src[p + 1] !== '=') p++;
      // `:name=` is a setter's name, but `:name=>` is a symbol and a hash arrow.
      else if (src[p] === '=' && src[p + 1] !== '=' && src[p + 1] !== '~' && src[p + 1] !== '>') p++;
      this.#pos = p;
      push('sym', src.slice(start + 1, p), start, line);
      return true;
    }
    const op = OPERATOR_SYMBOLS.find((o) => src.startsWith(o, start + 1));
    if (op === undefined) return false;
    this.#pos = start + 1 + op.length;
    push('sym', op, start, line);
    return true;
  }

  #percentLiteral(push: (type: TokenType, value: string, start: number, line: number) => Token, start: number, line: number): boolean {
    const src = this.#src;
    let kind = src[start + 1];
    let open = src[start + 2];
    if (kind === undefined) return false;
    if (/[qQwWiIrsx]/.test(kind)) {
      if (open === undefined || isIdentChar(open) || isSpace(open)) return false;
      this.#pos = start + 3;
    } else if (!isIdentChar(kind) && !isSpace(kind)) {
      open = kind;
      kind = 'Q';
      this.#pos = start + 2;
    } else {
      return false;
    }
    const close = CLOSING[open] ?? open;
    const nests = close !== open ? open : null;
    switch (kind) {
      case 'w': case 'W': case 'i': case 'I': {
        const words = this.#readWords(close, nests, kind === 'W' || kind === 'I', line);
        push(kind === 'w' || kind === 'W' ? 'words' : 'symbols', kind, start, line).words = words;
        return true;
      }
      case 'r': {
        const parts = this.#readParts('regexp', close, nests, line);
        const t = push('regexp', '', start, line);
        t.parts = parts;
        t.flags = this.#regexpFlags();
        (t as { end: number }).end = this.#pos;
        return true;
      }
      case 's': {
        const parts = this.#readParts('sq', close, nests, line);
        push('sym', parts.join(''), start, line);
        return true;
      }
      default: {
        const parts = this.#readParts(kind === 'q' ? 'sq' : 'dq', close, nests, line);
        push(kind === 'x' ? 'xstr' : 'str', '', start, line).parts = parts;
        return true;
      }
    }
  }

  #regexpFlags(): string {
    const src = this.#src;
    const from = this.#pos;
    while (/[a-z]/.test(src[this.#pos] ?? '')) this.#pos++;
    const flags = src.slice(from, this.#pos);
    const unknown = flags.replace(/[imxonesu]/g, '');
    if (unknown !== '') this.#fail(`unknown regexp option - ${unknown}`);
    return flags;
  }

  /** `?a` is the one-character string "a". */
  #character(push: (type: TokenType, value: string, start: number, line: number) => Token, start: number, line: number): boolean {
    const src = this.#src;
    const n = src[start + 1];
    if (n === undefined || isSpace(n)) return false;
    if (n === '\\') {
      this.#pos = start + 1;
      const value = this.#escape();
      push('str', '', start, line).parts = [value];
      return true;
    }
    const width = (n.codePointAt(0) ?? 0) > 0xffff ? 2 : 1;
    if (isIdentChar(n) && isIdentChar(src[start + 1 + width])) return false;
    this.#pos = start + 1 + width;
    push('str', '', start, line).parts = [src.slice(start + 1, start + 1 + width)];
    return true;
  }

  #heredoc(push: (type: TokenType, value: string, start: number, line: number) => Token, start: number, line: number): boolean {
    // A quoted terminator is bounded, so a line of unterminated `<<"` costs linear time to reject.
    const m = /<<([-~]?)(?:(["'`])([^"'`\n]{0,256})\2|([A-Za-z_][A-Za-z0-9_]*))/y;
    m.lastIndex = start;
    const found = m.exec(this.#src);
    if (found === null) return false;
    this.#pos = start + found[0].length;
    const quote = found[2];
    const t = push(quote === '`' ? 'xstr' : 'str', '', start, line);
    t.parts = [];
    this.#pending.push({ token: t, id: found[3] ?? found[4], indent: found[1] as '' | '-' | '~', interpolates: quote !== "'" });
    return true;
  }

  /** Reads the bodies of the heredocs opened on the line that just ended. */
  #readHeredocs(): void {
    const src = this.#src;
    const list = this.#pending;
    this.#pending = [];
    for (const h of list) {
      const lines: { start: number; end: number; line: number }[] = [];
      for (;;) {
        if (this.#pos >= this.#end) this.#fail(`can't find string "${h.id}" anywhere before EOF`, h.token.line);
        const lineStart = this.#pos;
        const eol = this.#lineEnd(lineStart);
        const next = eol < this.#end ? eol + 1 : eol;
        let text = src.slice(lineStart, eol);
        if (text.endsWith('\r')) text = text.slice(0, -1);
        const line = this.#line;
        this.#pos = next;
        this.#line++;
        if ((h.indent === '' ? text : text.trimStart()) === h.id) break;
        lines.push({ start: lineStart, end: next, line });
      }
      const after = { pos: this.#pos, line: this.#line };
      let indent = 0;
      if (h.indent === '~') {
        indent = Infinity;
        for (const l of lines) {
          let p = l.start;
          while (p < l.end && (src[p] === ' ' || src[p] === '\t')) p++;
          if (p < l.end && src[p] !== '\n' && src[p] !== '\r') indent = Math.min(indent, p - l.start);
        }
        if (indent === Infinity) indent = 0;
      }
      const parts: StrPart[] = [];
      for (const l of lines) {
        let from = l.start;
        while (from < l.start + indent && (src[from] === ' ' || src[from] === '\t')) from++;
        if (!h.interpolates) {
          parts.push(src.slice(from, l.end));
          continue;
        }
        this.#pos = from;
        this.#line = l.line;
        parts.push(...this.#readParts('dq', null, null, l.line, l.end));
      }
      h.token.parts = joinText(parts);
      this.#pos = after.pos;
      this.#line = after.line;
    }
  }

  /**
   * Reads a literal's contents up to `close` (past nested `open`/`close` pairs), or up to `limit` when
   * `close` is null (a heredoc line). `dq` handles escapes and `#{}`; `sq` only `\\` and the delimiter;
   * `regexp` keeps escapes as written (the regexp translator reads them) and interpolates.
   */
  #readParts(mode: 'dq' | 'sq' | 'regexp', close: string | null, open: string | null, startLine: number, limit = this.#end): StrPart[] {
    const src = this.#src;
    const parts: StrPart[] = [];
    let buf = '';
    let nest = 0;
    for (;;) {
      if (this.#pos >= limit) {
        if (close !== null) this.#fail('unterminated literal meets end of file', startLine);
        break;
      }
      const c = src[this.#pos];
      if (c === close && nest === 0) {
        this.#pos++;
        break;
      }
      if (open !== null && c === open) nest++;
      else if (c === close) nest--;
      if (c === '\\') {
        const n = src[this.#pos + 1];
        if (mode === 'sq') {
          if (n === '\\' || (n !== undefined && (n === close || n === open))) {
            buf += n;
            this.#pos += 2;
          } else {
            buf += '\\';
            this.#pos++;
          }
          continue;
        }
        if (mode === 'regexp') {
          if (n === undefined || this.#pos + 1 >= limit) this.#fail('unterminated regexp meets end of file', startLine);
          if (n === '\n') this.#line++;
          // `\/` in `/.../` is just the delimiter; other escapes are the pattern's own.
          buf += n === close && close === '/' ? '/' : `\\${n}`;
          this.#pos += 2;
          continue;
        }
        buf += this.#escape();
        continue;
      }
      if (c === '#' && mode !== 'sq') {
        const n = src[this.#pos + 1];
        if (n === '{') {
          if (buf !== '') parts.push(buf);
          buf = '';
          const line = this.#line;
          this.#pos += 2;
          const tokens: Token[] = [];
          this.#enter();
          this.#scan(tokens, true);
          this.#depth--;
          parts.push({ tokens, line });
          continue;
        }
        if ((n === '@' && (isIdentStart(src[this.#pos + 2]) || (src[this.#pos + 2] === '@' && isIdentStart(src[this.#pos + 3])))) || (n === '$' && isIdentStart(src[this.#pos + 2]))) {
          if (buf !== '') parts.push(buf);
          buf = '';
          const start = this.#pos + 1;
          let p = start + 1;
          if (src[p] === '@') p++;
          while (isIdentChar(src[p])) p++;
          this.#pos = p;
          const name = src.slice(start, p);
          const type: TokenType = name.startsWith('@@') ? 'cvar' : name.startsWith('@') ? 'ivar' : 'gvar';
          parts.push({ tokens: [this.#token(type, name, start, p, this.#line, false), this.#token('eof', '', p, p, this.#line, false)], line: this.#line });
          continue;
        }
      }
      if (c === '\n') this.#line++;
      buf += c;
      this.#pos++;
    }
    if (buf !== '') parts.push(buf);
    return parts;
  }

  #enter(): void {
    if (++this.#depth > MAX_NESTING) this.#fail(`interpolation nested more than ${MAX_NESTING} deep`);
  }

  /** `%w(a b)`, `%W(a#{b} c)`, `%i(a b)`: words split at unescaped whitespace. */
  #readWords(close: string, open: string | null, interpolates: boolean, startLine: number): StrPart[][] {
    const src = this.#src;
    const words: StrPart[][] = [];
    let word: StrPart[] | null = null;
    let buf = '';
    let nest = 0;
    const append = (text: string) => {
      word ??= [];
      buf += text;
    };
    const finish = () => {
      if (word === null) return;
      if (buf !== '') word.push(buf);
      words.push(word);
      word = null;
      buf = '';
    };
    for (;;) {
      if (this.#pos >= this.#end) this.#fail('unterminated list meets end of file', startLine);
      const c = src[this.#pos];
      if (c === close && nest === 0) {
        this.#pos++;
        finish();
        return words;
      }
      if (isSpace(c)) {
        finish();
        if (c === '\n') this.#line++;
        this.#pos++;
        continue;
      }
      if (open !== null && c === open) nest++;
      else if (c === close) nest--;
      if (c === '\\') {
        const n = src[this.#pos + 1];
        if (n !== undefined && (isSpace(n) || n === close || n === open || n === '\\')) {
          if (n === '\n') this.#line++;
          append(n);
          this.#pos += 2;
        } else if (interpolates) {
          append(this.#escape());
        } else {
          append('\\');
          this.#pos++;
        }
        continue;
      }
      if (interpolates && c === '#' && src[this.#pos + 1] === '{') {
        word ??= [];
        if (buf !== '') word.push(buf);
        buf = '';
        const line = this.#line;
        this.#pos += 2;
        const tokens: Token[] = [];
        this.#enter();
        this.#scan(tokens, true);
        this.#depth--;
        word.push({ tokens, line });
        continue;
      }
      append(c);
      this.#pos++;
    }
  }

  /** A double-quoted string's escape at `pos` (a backslash); returns the text it stands for. */
  #escape(): string {
    const src = this.#src;
    const n = src[this.#pos + 1];
    this.#pos += 2;
    switch (n) {
      case undefined: return this.#fail('unterminated string meets end of file');
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'f': return '\f';
      case 'v': return '\v';
      case 'a': return '\x07';
      case 'b': return '\b';
      case 'e': return '\x1b';
      case 's': return ' ';
      case '\n': this.#line++; return '';
      case 'x': {
        const m = /[0-9a-fA-F]{1,2}/y;
        m.lastIndex = this.#pos;
        const hex = m.exec(src);
        if (hex === null) this.#fail('invalid hex escape');
        this.#pos += hex[0].length;
        return String.fromCharCode(parseInt(hex[0], 16));
      }
      case 'u': {
        if (src[this.#pos] === '{') {
          const closeAt = src.indexOf('}', this.#pos);
          const body = closeAt === -1 ? '' : src.slice(this.#pos + 1, closeAt);
          if (closeAt === -1 || !/^\s*[0-9a-fA-F]{1,6}(\s+[0-9a-fA-F]{1,6})*\s*$/.test(body)) this.#fail('invalid Unicode escape');
          this.#pos = closeAt + 1;
          return body.trim().split(/\s+/).map((h) => this.#codePoint(parseInt(h, 16))).join('');
        }
        const m = /[0-9a-fA-F]{4}/y;
        m.lastIndex = this.#pos;
        const hex = m.exec(src);
        if (hex === null) this.#fail('invalid Unicode escape');
        this.#pos += 4;
        return this.#codePoint(parseInt(hex[0], 16));
      }
      case 'c': case 'C': case 'M': {
        // Control and meta characters (`\cx`, `\C-x`, `\M-x`): rare in routes, but they are one character each.
        if (n !== 'c') {
          if (src[this.#pos] !== '-') this.#fail(`invalid escape \\${n}`);
          this.#pos++;
        }
        const ch = src[this.#pos] === '\\' ? this.#escape() : src[this.#pos++];
        if (ch === undefined || ch === '') this.#fail('unterminated string meets end of file');
        const code = ch.charCodeAt(0);
        return String.fromCharCode(n === 'M' ? (code | 0x80) & 0xff : code & 0x1f);
      }
      default: {
        if (n >= '0' && n <= '7') {
          const m = /[0-7]{1,3}/y;
          m.lastIndex = this.#pos - 1;
          const oct = m.exec(src)!;
          this.#pos += oct[0].length - 1;
          return String.fromCharCode(parseInt(oct[0], 8) & 0xff);
        }
        const code = n.codePointAt(0)!;
        if (code > 0xffff) {
          this.#pos++;
          return String.fromCodePoint(code);
        }
        return n;
      }
    }
  }

  #codePoint(code: number): string {
    if (!(code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) this.#fail(`invalid Unicode codepoint ${code.toString(16)}`);
    return String.fromCodePoint(code);
  }
}

function joinText(parts: StrPart[]): StrPart[] {
  const out: StrPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (typeof p === 'string' && typeof last === 'string') out[out.length - 1] = last + p;
    else out.push(p);
  }
  return out;
}
