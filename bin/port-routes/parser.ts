/**
 * Parses the tokens of a routes file into a syntax tree (internal to `signalbox port-routes`).
 *
 * A recursive-descent parser for the Ruby routes files are written in: statements with modifiers,
 * assignments, operators by Ruby's precedence, calls with and without parentheses (the "command"
 * form `map.connect 'x', :a => 1`, spread over lines after commas and operators), `do`/`{}` blocks
 * bound as Ruby binds them (a `do` block to the outermost command, a brace block to the nearest
 * call), literals, and the compound statements (`if`, `case`, `def`, `class`, `begin`…) that a
 * routes file may contain but that are only ever reported, never evaluated. Nothing backtracks, so
 * parsing is linear in the tokens; nesting is capped; the only error is `RubySyntaxError`.
 */
import type { Block, HashPair, Node, NodeFields, Param, Part, Program, When } from './ast.ts';
import { RubySyntaxError } from './errors.ts';
import { lex, type StrPart, type Token } from './lexer.ts';

/** Nesting deeper than this (brackets, blocks, operators) is refused instead of exhausting the stack. */
export const MAX_DEPTH = 100;

const ASSIGNMENT_OPERATORS: ReadonlySet<string> = new Set(['=', '**=', '<<=', '>>=', '&&=', '||=', '+=', '-=', '*=', '/=', '%=', '|=', '&=', '^=']);

/** Binary operators from the loosest to the tightest (after `||` and `&&`, as Ruby ranks them). */
const BINARY_LEVELS: readonly (readonly string[])[] = [
  ['||'], ['&&'], ['<=>', '==', '===', '!=', '=~', '!~'], ['<', '<=', '>', '>='], ['|', '^'], ['&'], ['<<', '>>'], ['+', '-'], ['*', '/', '%'],
];

/** Keywords that can start an argument of a call written without parentheses. */
const ARGUMENT_KEYWORDS: ReadonlySet<string> = new Set(['nil', 'true', 'false', 'self', 'not', 'defined?', '__FILE__', '__LINE__', '__ENCODING__', 'case', 'begin', 'super', 'yield', 'def']);

/** Operators that start an argument when spaced like one: `foo -1`, `foo *list`, `foo &blk`, `foo ::Const`. */
const PREFIX_OPERATORS: ReadonlySet<string> = new Set(['-', '+', '*', '**', '&', '::', '!', '~', '->', '..', '...']);

/** Parses a Ruby source. Throws `RubySyntaxError` and nothing else. */
export function parse(source: string): Program {
  const { tokens, comments } = lex(source);
  return { body: new Parser(tokens).program(), comments };
}

type Stop = (t: Token) => boolean;

const isKw = (t: Token, ...words: string[]): boolean => t.type === 'kw' && words.includes(t.value);
const isOp = (t: Token, ...ops: string[]): boolean => t.type === 'op' && ops.includes(t.value);

function describe(t: Token): string {
  switch (t.type) {
    case 'eof': return 'end of file';
    case 'nl': return t.value === ';' ? "';'" : 'end of line';
    case 'kw': return `keyword '${t.value}'`;
    case 'op': return `'${t.value}'`;
    case 'ident': case 'const': case 'ivar': case 'gvar': case 'cvar': return `'${t.value}'`;
    case 'label': return 'a hash key';
    case 'int': case 'float': return `number ${t.value}`;
    default: return `${t.type === 'str' ? 'string' : t.type === 'sym' || t.type === 'dsym' ? 'symbol' : t.type} literal`;
  }
}

class Parser {
  #tokens: Token[];
  #i = 0;
  #depth = 0;
  /** Inside the arguments of a call without parentheses, a `do` block belongs to that call, not to an argument. */
  #noDo = false;
  readonly #locals = new Set<string>();

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  program(): Node[] {
    const body = this.#statements(() => false);
    this.#expect('eof', null, 'end of file');
    return body;
  }

  // ---- token access ----

  #peek(k = 0): Token {
    return this.#tokens[Math.min(this.#i + k, this.#tokens.length - 1)];
  }

  #next(): Token {
    const t = this.#peek();
    if (this.#i < this.#tokens.length - 1) this.#i++;
    return t;
  }

  #last(): Token {
    return this.#tokens[Math.max(this.#i - 1, 0)];
  }

  #fail(message: string, t: Token = this.#peek()): never {
    throw new RubySyntaxError(message, t.line);
  }

  #unexpected(t: Token = this.#peek(), expecting?: string): never {
    return this.#fail(`unexpected ${describe(t)}${expecting ? `, expecting ${expecting}` : ''}`, t);
  }

  #expect(type: Token['type'], value: string | null, what: string): Token {
    const t = this.#peek();
    if (t.type !== type || (value !== null && t.value !== value)) this.#unexpected(t, what);
    return this.#next();
  }

  #accept(type: Token['type'], value: string): boolean {
    const t = this.#peek();
    if (t.type === type && t.value === value) {
      this.#next();
      return true;
    }
    return false;
  }

  #skipNl(): void {
    while (this.#peek().type === 'nl') this.#next();
  }

  #node(from: Token, fields: NodeFields): Node {
    return { ...fields, line: from.line, start: from.start, end: this.#last().end };
  }

  #enter(): void {
    if (++this.#depth > MAX_DEPTH) this.#fail(`nesting deeper than ${MAX_DEPTH} levels`);
  }

  #leave(): void {
    this.#depth--;
  }

  #withNoDo<T>(value: boolean, fn: () => T): T {
    const saved = this.#noDo;
    this.#noDo = value;
    try {
      return fn();
    } finally {
      this.#noDo = saved;
    }
  }

  // ---- statements ----

  #statements(stop: Stop): Node[] {
    const body: Node[] = [];
    this.#skipNl();
    while (!stop(this.#peek()) && this.#peek().type !== 'eof') {
      const before = this.#i;
      body.push(this.#statement());
      if (this.#i === before) this.#unexpected();
      const t = this.#peek();
      if (stop(t) || t.type === 'eof') break;
      if (t.type !== 'nl') this.#unexpected(t, 'end of line');
      this.#skipNl();
    }
    return body;
  }

  #statement(): Node {
    const from = this.#peek();
    let node = this.#multipleAssignment() ?? this.#expressionStatement();
    for (;;) {
      const t = this.#peek();
      if (isKw(t, 'if', 'unless')) {
        this.#next();
        const cond = this.#expressionStatement();
        node = this.#node(from, { type: 'if', keyword: t.value as 'if' | 'unless', cond, then: [node], else: null, modifier: true });
      } else if (isKw(t, 'while', 'until')) {
        this.#next();
        const cond = this.#expressionStatement();
        node = this.#node(from, { type: 'loop', keyword: t.value as 'while' | 'until', cond, body: [node], modifier: true });
      } else if (isKw(t, 'rescue')) {
        this.#next();
        const rescue = this.#expressionStatement();
        node = this.#node(from, { type: 'rescue_mod', body: node, rescue });
      } else {
        return node;
      }
    }
  }

  /** `a, b = 1, 2`: recognised by a run of plain targets separated by commas and ending in `=`. */
  #multipleAssignment(): Node | null {
    let j = 0;
    let targets = 0;
    for (;;) {
      if (isOp(this.#peek(j), '*')) j++;
      const t = this.#peek(j);
      if (!['ident', 'ivar', 'gvar', 'cvar', 'const'].includes(t.type)) return null;
      j++;
      targets++;
      if (isOp(this.#peek(j), ',')) {
        j++;
        if (isOp(this.#peek(j), '=')) break;
        continue;
      }
      if (isOp(this.#peek(j), '=') && targets > 1) break;
      return null;
    }
    const from = this.#peek();
    const list: Node[] = [];
    while (!isOp(this.#peek(), '=')) {
      const star = this.#accept('op', '*');
      const t = this.#next();
      if (t.type === 'ident') this.#locals.add(t.value);
      const target = this.#node(t, t.type === 'const' ? { type: 'const', scope: null, top: false, name: t.value } : { type: t.type as 'ident', name: t.value });
      list.push(star ? this.#node(t, { type: 'splat', value: target }) : target);
      this.#accept('op', ',');
    }
    this.#next();
    this.#skipNl();
    const first = this.#argument();
    let value: Node = first;
    if (isOp(this.#peek(), ',')) {
      const elements = [first];
      while (this.#accept('op', ',')) {
        this.#skipNl();
        elements.push(this.#argument());
      }
      value = this.#node(from, { type: 'array', elements });
    }
    return this.#node(from, { type: 'masgn', targets: list, value });
  }

  #expressionStatement(): Node {
    this.#enter();
    try {
      const from = this.#peek();
      let node = this.#notExpression();
      for (;;) {
        const t = this.#peek();
        if (!isKw(t, 'and', 'or')) return node;
        this.#next();
        this.#skipNl();
        const right = this.#notExpression();
        node = this.#node(from, { type: t.value as 'and' | 'or', left: node, right });
      }
    } finally {
      this.#leave();
    }
  }

  #notExpression(): Node {
    const t = this.#peek();
    if (isKw(t, 'not')) {
      this.#next();
      this.#enter();
      try {
        return this.#node(t, { type: 'not', value: this.#notExpression() });
      } finally {
        this.#leave();
      }
    }
    return this.#assignment();
  }

  #assignment(): Node {
    this.#enter();
    try {
      const from = this.#peek();
      const left = this.#ternary();
      const t = this.#peek();
      if (t.type !== 'op' || !ASSIGNMENT_OPERATORS.has(t.value)) return left;
      if (!isAssignable(left)) this.#unexpected(t);
      this.#next();
      this.#skipNl();
      if (left.type === 'ident') this.#locals.add(left.name);
      let value = this.#assignment();
      if (isKw(this.#peek(), 'rescue')) {
        this.#next();
        value = this.#node(from, { type: 'rescue_mod', body: value, rescue: this.#assignment() });
      }
      return this.#node(from, { type: 'assign', target: left, op: t.value, value });
    } finally {
      this.#leave();
    }
  }

  #ternary(): Node {
    const from = this.#peek();
    const cond = this.#range();
    if (!isOp(this.#peek(), '?')) return cond;
    this.#next();
    this.#skipNl();
    this.#enter();
    try {
      let then: Node;
      const t = this.#peek();
      if (t.type === 'label') {
        // `a ? b: c` was read as a hash key `b:`; here it is the branch and the colon.
        this.#next();
        then = t.parts ? this.#node(t, { type: 'str', parts: this.#parts(t.parts) }) : this.#node(t, { type: 'ident', name: t.value });
      } else {
        then = this.#ternary();
        this.#skipNl();
        this.#expect('op', ':', "':'");
      }
      this.#skipNl();
      const otherwise = this.#ternary();
      return this.#node(from, { type: 'if', keyword: 'ternary', cond, then: [then], else: [otherwise], modifier: false });
    } finally {
      this.#leave();
    }
  }

  #range(): Node {
    const from = this.#peek();
    const left = this.#binary(0);
    const t = this.#peek();
    if (!isOp(t, '..', '...')) return left;
    this.#next();
    const to = this.#startsExpression(this.#peek()) ? this.#binary(0) : null;
    return this.#node(from, { type: 'range', from: left, to, exclusive: t.value === '...' });
  }

  #binary(level: number): Node {
    if (level === BINARY_LEVELS.length) return this.#unary();
    const from = this.#peek();
    let left = this.#binary(level + 1);
    for (;;) {
      const t = this.#peek();
      if (t.type !== 'op' || !BINARY_LEVELS[level].includes(t.value)) return left;
      this.#next();
      this.#skipNl();
      const right = this.#binary(level + 1);
      left = this.#node(from, { type: 'binary', op: t.value, left, right });
    }
  }

  #unary(): Node {
    const t = this.#peek();
    if (t.type === 'op' && ['!', '-', '+', '~', '*', '**', '&'].includes(t.value)) {
      this.#next();
      this.#enter();
      try {
        const value = this.#unary();
        if (t.value === '!') return this.#node(t, { type: 'not', value });
        if (t.value === '*' || t.value === '**' || t.value === '&') return this.#node(t, { type: t.value === '*' ? 'splat' : t.value === '**' ? 'dsplat' : 'blockpass', value });
        if (t.value === '-' && (value.type === 'int' || value.type === 'float') && value.start === t.end) {
          return this.#node(t, { type: value.type, value: -value.value });
        }
        return this.#node(t, { type: 'unary', op: t.value, value });
      } finally {
        this.#leave();
      }
    }
    if (isKw(t, 'defined?')) {
      this.#next();
      this.#enter();
      try {
        return this.#node(t, { type: 'defined', value: this.#unary() });
      } finally {
        this.#leave();
      }
    }
    const base = this.#postfix();
    if (!isOp(this.#peek(), '**')) return base;
    this.#next();
    this.#skipNl();
    this.#enter();
    try {
      return this.#node(t, { type: 'binary', op: '**', left: base, right: this.#unary() });
    } finally {
      this.#leave();
    }
  }

  #postfix(): Node {
    const from = this.#peek();
    let node = this.#primary();
    for (;;) {
      const t = this.#peek();
      if (isOp(t, '.', '&.')) {
        this.#next();
        this.#skipNl();
        const name = this.#next();
        if (isOp(name, '(')) {
          // `callable.(args)` is `callable.call(args)`.
          this.#i--;
          node = this.#callRest(from, node, 'call');
        } else if (['ident', 'const', 'kw'].includes(name.type) || (name.type === 'op' && /^[^\w\s(){}[\],.;]+$/.test(name.value))) {
          node = this.#callRest(from, node, name.value);
        } else {
          this.#unexpected(name, 'a method name');
        }
      } else if (isOp(t, '::')) {
        this.#next();
        const name = this.#next();
        if (name.type === 'const' && !(isOp(this.#peek(), '(') && !this.#peek().spaceBefore)) {
          node = this.#node(from, { type: 'const', scope: node, top: false, name: name.value });
        } else if (name.type === 'ident' || name.type === 'const' || name.type === 'kw') {
          node = this.#callRest(from, node, name.value);
        } else {
          this.#unexpected(name, 'a constant or method name');
        }
      } else if (isOp(t, '[') && (!t.spaceBefore || (node.type === 'ident' && this.#locals.has(node.name)))) {
        this.#next();
        const args = this.#withNoDo(false, () => this.#argumentList(']'));
        this.#expect('op', ']', "']'");
        node = this.#node(from, { type: 'index', receiver: node, args });
      } else {
        return node;
      }
    }
  }

  /** A method call's arguments (in parentheses, or command-style) and its block, after its name. */
  #callRest(from: Token, receiver: Node | null, name: string): Node {
    let args: Node[] = [];
    let parens = false;
    const t = this.#peek();
    if (isOp(t, '(') && !t.spaceBefore) {
      this.#next();
      args = this.#withNoDo(false, () => this.#argumentList(')'));
      this.#expect('op', ')', "')'");
      parens = true;
    } else if (this.#startsCommandArgument(t)) {
      args = this.#withNoDo(true, () => this.#commandArguments());
    }
    const block = this.#blockIfAny();
    return this.#node(from, { type: 'call', receiver, name, args, block, parens });
  }

  #blockIfAny(): Block | null {
    const t = this.#peek();
    if (isOp(t, '{') || (isKw(t, 'do') && !this.#noDo)) return this.#block();
    return null;
  }

  /** Whether `t` can start an argument of a call written without parentheses (same line, spaced like an argument). */
  #startsCommandArgument(t: Token): boolean {
    switch (t.type) {
      case 'int': case 'float': case 'str': case 'xstr': case 'sym': case 'dsym': case 'regexp': case 'words': case 'symbols':
      case 'ident': case 'const': case 'ivar': case 'cvar': case 'gvar': case 'label':
        return true;
      case 'kw':
        return ARGUMENT_KEYWORDS.has(t.value);
      case 'op':
        if (t.value === '(' || t.value === '[') return t.spaceBefore;
        return PREFIX_OPERATORS.has(t.value) && t.spaceBefore && !this.#peek(1).spaceBefore && this.#peek(1).type !== 'nl' && this.#peek(1).type !== 'eof';
      default:
        return false;
    }
  }

  #startsExpression(t: Token): boolean {
    if (t.type === 'op') return ['(', '[', '{', '-', '+', '!', '~', '::', '->', '*', '&', '**', '..', '...'].includes(t.value);
    if (t.type === 'kw') return ARGUMENT_KEYWORDS.has(t.value) || ['if', 'unless', 'while', 'until', 'class', 'module', 'for', 'return', 'break', 'next', 'redo', 'retry', 'alias', 'undef'].includes(t.value);
    return t.type !== 'nl' && t.type !== 'eof';
  }

  #commandArguments(): Node[] {
    const args: Node[] = [];
    let hash: { from: Token; pairs: HashPair[] } | null = null;
    for (;;) {
      hash = this.#argumentInto(args, hash);
      if (!isOp(this.#peek(), ',')) break;
      this.#next();
      this.#skipNl();
    }
    if (hash) args.push(this.#node(hash.from, { type: 'hash', pairs: hash.pairs, braces: false }));
    return args;
  }

  /** Arguments up to `close` (not consumed): positional ones, then `key => value` / `key: value` pairs as one hash. */
  #argumentList(close: string): Node[] {
    const args: Node[] = [];
    let hash: { from: Token; pairs: HashPair[] } | null = null;
    this.#skipNl();
    while (!isOp(this.#peek(), close)) {
      hash = this.#argumentInto(args, hash);
      this.#skipNl();
      if (!this.#accept('op', ',')) break;
      this.#skipNl();
    }
    this.#skipNl();
    if (hash) args.push(this.#node(hash.from, { type: 'hash', pairs: hash.pairs, braces: false }));
    return args;
  }

  /** One argument; a pair joins the trailing hash, which is returned. */
  #argumentInto(args: Node[], hash: { from: Token; pairs: HashPair[] } | null): { from: Token; pairs: HashPair[] } | null {
    const t = this.#peek();
    const pair = this.#pairIfAny();
    if (pair) {
      const h = hash ?? { from: t, pairs: [] };
      h.pairs.push(pair);
      return h;
    }
    const value = this.#argument();
    if (isOp(this.#peek(), '=>')) {
      this.#next();
      this.#skipNl();
      const h = hash ?? { from: t, pairs: [] };
      h.pairs.push({ key: value, value: this.#argument() });
      return h;
    }
    if (hash && value.type !== 'blockpass') this.#fail('a positional argument cannot follow the hash arguments', t);
    args.push(value);
    return hash;
  }

  /** `key: value` (or `"key": value`, or `**hash`) where a hash element may start. */
  #pairIfAny(): HashPair | null {
    const t = this.#peek();
    if (t.type === 'label') {
      this.#next();
      this.#skipNl();
      const key: Node = t.parts
        ? this.#node(t, { type: 'dsym', parts: this.#parts(t.parts) })
        : this.#node(t, { type: 'sym', name: t.value });
      const n = this.#peek();
      // Ruby 3.1's `f(x:)` is `f(x: x)`.
      const value = isOp(n, ',', ')', '}', ']') || n.type === 'nl' || n.type === 'eof'
        ? this.#node(t, { type: 'ident', name: t.value })
        : this.#argument();
      return { key, value };
    }
    if (isOp(t, '**')) {
      this.#next();
      return { key: null, value: this.#argument() };
    }
    return null;
  }

  #argument(): Node {
    const t = this.#peek();
    if (isOp(t, '*', '&')) {
      this.#next();
      const bare = isOp(this.#peek(), ',', ')') || this.#peek().type === 'nl';
      const value = bare ? null : this.#assignment();
      return this.#node(t, { type: t.value === '*' ? 'splat' : 'blockpass', value });
    }
    return this.#assignment();
  }

  // ---- primaries ----

  #primary(): Node {
    this.#enter();
    try {
      return this.#primaryInner();
    } finally {
      this.#leave();
    }
  }

  #primaryInner(): Node {
    const t = this.#next();
    switch (t.type) {
      case 'int': case 'float':
        return this.#node(t, { type: t.type, value: Number(t.value) });
      case 'str': {
        const parts: Part[] = [...this.#parts(t.parts ?? [])];
        // Adjacent literals are one string: `"a" "b"`, or across a line continuation.
        while (this.#peek().type === 'str') parts.push(...this.#parts(this.#next().parts ?? []));
        return this.#node(t, { type: 'str', parts });
      }
      case 'xstr': case 'dsym':
        return this.#node(t, { type: t.type, parts: this.#parts(t.parts ?? []) });
      case 'sym':
        return this.#node(t, { type: 'sym', name: t.value });
      case 'regexp':
        return this.#node(t, { type: 'regexp', parts: this.#parts(t.parts ?? []), flags: t.flags ?? '' });
      case 'words': case 'symbols': {
        const elements = (t.words ?? []).map((w): Node => {
          const parts = this.#parts(w);
          if (t.type === 'words') return this.#node(t, { type: 'str', parts });
          return parts.every((p) => typeof p === 'string') ? this.#node(t, { type: 'sym', name: parts.join('') }) : this.#node(t, { type: 'dsym', parts });
        });
        return this.#node(t, { type: 'array', elements });
      }
      case 'ivar': case 'gvar': case 'cvar':
        return this.#node(t, { type: t.type, name: t.value });
      case 'const': {
        if (isOp(this.#peek(), '(') && !this.#peek().spaceBefore) return this.#callRest(t, null, t.value);
        return this.#node(t, { type: 'const', scope: null, top: false, name: t.value });
      }
      case 'ident': {
        const n = this.#peek();
        if (this.#locals.has(t.value) && !(isOp(n, '(') && !n.spaceBefore)) return this.#node(t, { type: 'ident', name: t.value });
        const call = this.#callRest(t, null, t.value);
        if (call.type === 'call' && call.args.length === 0 && call.block === null && !call.parens) return this.#node(t, { type: 'ident', name: t.value });
        return call;
      }
      case 'kw':
        return this.#keyword(t);
      case 'op':
        return this.#operatorPrimary(t);
      case 'label':
        return this.#fail('a hash key outside a hash or argument list', t);
      default:
        return this.#unexpected(t);
    }
  }

  #operatorPrimary(t: Token): Node {
    switch (t.value) {
      case '(': {
        const body = this.#withNoDo(false, () => this.#statements((x) => isOp(x, ')')));
        this.#skipNl();
        this.#expect('op', ')', "')'");
        return this.#node(t, { type: 'paren', body });
      }
      case '[': {
        const elements = this.#withNoDo(false, () => this.#argumentList(']'));
        this.#expect('op', ']', "']'");
        return this.#node(t, { type: 'array', elements });
      }
      case '{':
        return this.#withNoDo(false, () => this.#hashLiteral(t));
      case '->':
        return this.#lambda(t);
      case '::': {
        const name = this.#expect('const', null, 'a constant');
        return this.#node(t, { type: 'const', scope: null, top: true, name: name.value });
      }
      case '..': case '...':
        return this.#node(t, { type: 'range', from: null, to: this.#binary(0), exclusive: t.value === '...' });
      default:
        return this.#unexpected(t);
    }
  }

  #hashLiteral(open: Token): Node {
    const pairs: HashPair[] = [];
    this.#skipNl();
    while (!isOp(this.#peek(), '}')) {
      const pair = this.#pairIfAny();
      if (pair) {
        pairs.push(pair);
      } else {
        const key = this.#argument();
        this.#skipNl();
        // Ruby 1.8, which Rails 2.x ran on, also read `{ key, value, key, value }`: a list of keys and values
        // (`:has_many => { :features, :menus }`). It is all list or all pairs, of an even length.
        if (pairs.length === 0 && isOp(this.#peek(), ',')) return this.#listHash(open, key);
        this.#expect('op', '=>', "'=>'");
        this.#skipNl();
        pairs.push({ key, value: this.#argument() });
      }
      this.#skipNl();
      if (!this.#accept('op', ',')) break;
      this.#skipNl();
    }
    this.#skipNl();
    this.#expect('op', '}', "'}'");
    return this.#node(open, { type: 'hash', pairs, braces: true });
  }

  /** The rest of Ruby 1.8's `{ key, value, ... }`, its first element read. */
  #listHash(open: Token, first: Node): Node {
    const elements: Node[] = [first];
    while (this.#accept('op', ',')) {
      this.#skipNl();
      if (isOp(this.#peek(), '}')) break;
      elements.push(this.#argument());
      this.#skipNl();
    }
    const close = this.#peek();
    this.#expect('op', '}', "'}'");
    if (elements.length % 2 !== 0) this.#fail('odd number list for Hash', close);
    const pairs: HashPair[] = [];
    for (let i = 0; i < elements.length; i += 2) pairs.push({ key: elements[i], value: elements[i + 1] });
    return this.#node(open, { type: 'hash', pairs, braces: true });
  }

  #lambda(t: Token): Node {
    const params: Param[] = [];
    if (this.#accept('op', '(')) {
      params.push(...this.#parameters((x) => isOp(x, ')')));
      this.#expect('op', ')', "')'");
    } else {
      while (this.#peek().type === 'ident') {
        params.push(this.#parameter());
        if (!this.#accept('op', ',')) break;
      }
    }
    const open = this.#peek();
    if (!isOp(open, '{') && !isKw(open, 'do')) this.#unexpected(open, "'{' or 'do'");
    const block = this.#block(params);
    return this.#node(t, { type: 'lambda', block });
  }

  /** A `{ |params| ... }` or `do |params| ... end` block; `params` when the lambda syntax gave them. */
  #block(given?: Param[]): Block {
    const open = this.#next();
    const brace = isOp(open, '{');
    this.#enter();
    try {
      return this.#withNoDo(false, () => {
        let params: Param[] = given ?? [];
        if (!given) {
          if (this.#accept('op', '||')) params = [];
          else if (this.#accept('op', '|')) {
            params = this.#parameters((x) => isOp(x, '|'));
            this.#expect('op', '|', "'|'");
          }
        }
        const body = brace ? this.#statements((x) => isOp(x, '}')) : this.#bodyWithRescue(open);
        const close = this.#expect(brace ? 'op' : 'kw', brace ? '}' : 'end', brace ? "'}'" : "'end'");
        return { params, body, line: open.line, start: open.start, end: close.end, endLine: close.line };
      });
    } finally {
      this.#leave();
    }
  }

  #parameters(stop: Stop): Param[] {
    const params: Param[] = [];
    this.#skipNl();
    while (!stop(this.#peek())) {
      if (this.#peek().type === 'nl' && this.#peek().value === ';') {
        // Block-local variables: `|x; y, z|`.
        this.#next();
        while (this.#peek().type === 'ident') {
          this.#locals.add(this.#next().value);
          this.#accept('op', ',');
        }
        break;
      }
      params.push(this.#parameter());
      this.#skipNl();
      if (!this.#accept('op', ',')) break;
      this.#skipNl();
    }
    return params;
  }

  #parameter(): Param {
    const t = this.#next();
    if (t.type === 'ident') {
      this.#locals.add(t.value);
      if (this.#accept('op', '=')) return { name: t.value, kind: 'opt', default: this.#unary() };
      return { name: t.value, kind: 'req' };
    }
    if (t.type === 'label') {
      this.#locals.add(t.value);
      const n = this.#peek();
      if (!isOp(n, ',', '|', ')') && n.type !== 'nl') this.#unary();
      return { name: t.value, kind: 'kw' };
    }
    if (isOp(t, '*', '**', '&')) {
      const name = this.#peek().type === 'ident' ? this.#next().value : null;
      if (name !== null) this.#locals.add(name);
      return { name, kind: t.value === '*' ? 'rest' : t.value === '**' ? 'kwrest' : 'block' };
    }
    if (isOp(t, '(')) {
      const inner = this.#parameters((x) => isOp(x, ')'));
      this.#expect('op', ')', "')'");
      return { name: null, kind: 'destructure', names: inner.map((p) => p.name ?? '') };
    }
    return this.#unexpected(t, 'a parameter name');
  }

  /** The statements of a `do`/`def`/`begin` body with its `rescue`/`else`/`ensure` clauses (up to `end`, not consumed). */
  #bodyWithRescue(from: Token): Node[] {
    const clause = (x: Token) => isKw(x, 'rescue', 'else', 'ensure', 'end');
    const body = this.#statements(clause);
    let rescues = false;
    while (isKw(this.#peek(), 'rescue')) {
      rescues = true;
      this.#next();
      while (!isKw(this.#peek(), 'then') && !isOp(this.#peek(), '=>') && this.#peek().type !== 'nl' && this.#peek().type !== 'eof') {
        this.#argument();
        if (!this.#accept('op', ',')) break;
        this.#skipNl();
      }
      if (this.#accept('op', '=>')) this.#postfix();
      this.#accept('kw', 'then');
      body.push(...this.#statements(clause));
    }
    if (isKw(this.#peek(), 'else')) {
      rescues = true;
      this.#next();
      body.push(...this.#statements((x) => isKw(x, 'ensure', 'end')));
    }
    if (isKw(this.#peek(), 'ensure')) {
      rescues = true;
      this.#next();
      body.push(...this.#statements((x) => isKw(x, 'end')));
    }
    // A body with handlers is only ever reported, so it is kept as one statement.
    return rescues ? [this.#node(from, { type: 'begin', body, rescues: true })] : body;
  }

  #keyword(t: Token): Node {
    switch (t.value) {
      case 'nil': case 'true': case 'false': case 'self':
        return this.#node(t, { type: t.value });
      case '__FILE__': return this.#node(t, { type: 'file' });
      case '__LINE__': return this.#node(t, { type: 'lineno' });
      case '__ENCODING__': return this.#node(t, { type: 'encoding' });
      case 'if': case 'unless': return this.#conditional(t);
      case 'while': case 'until': {
        const cond = this.#withNoDo(true, () => this.#expressionStatement());
        if (!this.#accept('kw', 'do')) this.#terminator();
        const body = this.#statements((x) => isKw(x, 'end'));
        this.#expect('kw', 'end', "'end'");
        return this.#node(t, { type: 'loop', keyword: t.value, cond, body, modifier: false });
      }
      case 'for': {
        while (!isKw(this.#peek(), 'in')) {
          const v = this.#next();
          if (v.type === 'ident') this.#locals.add(v.value);
          else if (!isOp(v, ',')) this.#unexpected(v, "'in'");
        }
        this.#next();
        const cond = this.#withNoDo(true, () => this.#expressionStatement());
        if (!this.#accept('kw', 'do')) this.#terminator();
        const body = this.#statements((x) => isKw(x, 'end'));
        this.#expect('kw', 'end', "'end'");
        return this.#node(t, { type: 'loop', keyword: 'for', cond, body, modifier: false });
      }
      case 'case': {
        const subject = this.#peek().type === 'nl' ? null : this.#expressionStatement();
        this.#skipNl();
        const whens: When[] = [];
        if (!isKw(this.#peek(), 'when')) this.#unexpected(this.#peek(), "'when'");
        while (this.#accept('kw', 'when')) {
          const patterns: Node[] = [];
          do {
            this.#skipNl();
            patterns.push(this.#argument());
          } while (this.#accept('op', ','));
          if (!this.#accept('kw', 'then')) this.#terminator();
          whens.push({ patterns, body: this.#statements((x) => isKw(x, 'when', 'else', 'end', 'in')) });
        }
        const otherwise = this.#accept('kw', 'else') ? this.#statements((x) => isKw(x, 'end')) : null;
        this.#expect('kw', 'end', "'end'");
        return this.#node(t, { type: 'case', subject, whens, else: otherwise });
      }
      case 'def': return this.#def(t);
      case 'class': case 'module': {
        let name = '';
        if (t.value === 'class' && this.#accept('op', '<<')) {
          name = '<<';
          this.#expressionStatement();
        } else {
          const path = this.#postfix();
          name = path.type === 'const' ? path.name : '?';
          if (t.value === 'class' && this.#accept('op', '<')) this.#expressionStatement();
        }
        const body = this.#bodyWithRescue(t);
        this.#expect('kw', 'end', "'end'");
        return this.#node(t, { type: t.value, name, body });
      }
      case 'begin': {
        const body = this.#bodyWithRescue(t);
        this.#expect('kw', 'end', "'end'");
        return this.#node(t, { type: 'begin', body, rescues: body.length === 1 && body[0].type === 'begin' });
      }
      case 'return': case 'break': case 'next': case 'redo': case 'retry': case 'yield': case 'super': {
        let args: Node[] = [];
        const n = this.#peek();
        if (isOp(n, '(') && !n.spaceBefore) {
          this.#next();
          args = this.#withNoDo(false, () => this.#argumentList(')'));
          this.#expect('op', ')', "')'");
        } else if (this.#startsCommandArgument(n) || (t.value !== 'yield' && t.value !== 'super' && isOp(n, '(', '['))) {
          args = this.#withNoDo(true, () => this.#commandArguments());
        }
        const block = t.value === 'super' ? this.#blockIfAny() : null;
        return this.#node(t, { type: 'jump', keyword: t.value, args, block });
      }
      case 'defined?':
        return this.#node(t, { type: 'defined', value: this.#unary() });
      case 'not':
        return this.#node(t, { type: 'not', value: this.#expressionStatement() });
      case 'alias': {
        for (let k = 0; k < 2; k++) {
          const n = this.#next();
          if (!['ident', 'const', 'sym', 'dsym', 'gvar', 'kw', 'op'].includes(n.type) || n.type === 'nl') this.#unexpected(n, 'a method name');
        }
        return this.#node(t, { type: 'directive', keyword: 'alias', body: [] });
      }
      case 'undef': {
        do {
          const n = this.#next();
          if (!['ident', 'const', 'sym', 'dsym', 'kw'].includes(n.type)) this.#unexpected(n, 'a method name');
        } while (this.#accept('op', ','));
        return this.#node(t, { type: 'directive', keyword: 'undef', body: [] });
      }
      case 'BEGIN': case 'END': {
        this.#expect('op', '{', "'{'");
        const body = this.#statements((x) => isOp(x, '}'));
        this.#expect('op', '}', "'}'");
        return this.#node(t, { type: 'directive', keyword: t.value, body });
      }
      default:
        return this.#unexpected(t);
    }
  }

  /** `then`, a newline or `;` after a condition. */
  #terminator(): void {
    if (this.#accept('kw', 'then')) return;
    if (this.#peek().type !== 'nl') this.#unexpected(this.#peek(), "'then' or end of line");
    this.#skipNl();
  }

  /** `if`/`unless` with its `elsif` and `else` branches; an `elsif` chain is read in a loop, however long. */
  #conditional(t: Token): Node {
    const branches: { from: Token; cond: Node; then: Node[] }[] = [];
    let from = t;
    for (;;) {
      const cond = this.#expressionStatement();
      this.#terminator();
      branches.push({ from, cond, then: this.#statements((x) => isKw(x, 'elsif', 'else', 'end')) });
      from = this.#peek();
      if (t.value !== 'if' || !this.#accept('kw', 'elsif')) break;
    }
    let otherwise: Node[] | null = this.#accept('kw', 'else') ? this.#statements((x) => isKw(x, 'end')) : null;
    this.#expect('kw', 'end', "'end'");
    for (let k = branches.length - 1; k >= 0; k--) {
      const b = branches[k];
      otherwise = [this.#node(k === 0 ? t : b.from, { type: 'if', keyword: t.value as 'if' | 'unless', cond: b.cond, then: b.then, else: otherwise, modifier: false })];
    }
    return otherwise![0];
  }

  #def(t: Token): Node {
    let nameTok = this.#next();
    let singleton: Node | null = null;
    if (isOp(this.#peek(), '.') && ['ident', 'const', 'kw', 'ivar', 'gvar', 'cvar'].includes(nameTok.type)) {
      singleton = this.#node(nameTok, nameTok.type === 'const' ? { type: 'const', scope: null, top: false, name: nameTok.value } : { type: 'ident', name: nameTok.value });
      this.#next();
      nameTok = this.#next();
    }
    if (!['ident', 'const', 'kw', 'op'].includes(nameTok.type) || (nameTok.type === 'op' && /^[(){},;.]$/.test(nameTok.value))) this.#unexpected(nameTok, 'a method name');
    let name = nameTok.value;
    if (isOp(nameTok, '[') && this.#accept('op', ']')) name = '[]';
    const eq = this.#peek();
    if (isOp(eq, '=') && !eq.spaceBefore && (isOp(this.#peek(1), '(') || this.#peek(1).spaceBefore)) {
      this.#next();
      name += '=';
    }
    // The parameters, in parentheses or up to the end of the line; their names are locals of the body.
    let params: Param[] = [];
    if (this.#accept('op', '(')) {
      params = this.#parameters((x) => isOp(x, ')'));
      this.#expect('op', ')', "')'");
    } else {
      while (this.#peek().type !== 'nl' && this.#peek().type !== 'eof' && !isOp(this.#peek(), '=')) {
        params.push(this.#parameter());
        if (!this.#accept('op', ',')) break;
      }
    }
    if (this.#accept('op', '=')) {
      // An endless method: `def name(args) = expression`.
      this.#skipNl();
      return this.#node(t, { type: 'def', name, singleton, params, body: [this.#statement()] });
    }
    const body = this.#bodyWithRescue(t);
    this.#expect('kw', 'end', "'end'");
    return this.#node(t, { type: 'def', name, singleton, params, body });
  }

  /** Parses the code of each `#{...}` with this parser (same locals, same nesting budget). */
  #parts(parts: readonly StrPart[]): Part[] {
    return parts.map((p) => {
      if (typeof p === 'string') return p;
      const saved = { tokens: this.#tokens, i: this.#i, noDo: this.#noDo };
      this.#tokens = p.tokens;
      this.#i = 0;
      this.#noDo = false;
      this.#enter();
      try {
        const body = this.#statements(() => false);
        this.#expect('eof', null, "'}'");
        return { body, line: p.line };
      } finally {
        this.#leave();
        this.#tokens = saved.tokens;
        this.#i = saved.i;
        this.#noDo = saved.noDo;
      }
    });
  }
}

function isAssignable(node: Node): boolean {
  switch (node.type) {
    case 'ident': case 'ivar': case 'gvar': case 'cvar': case 'const': case 'index':
      return true;
    case 'call':
      return node.receiver !== null && node.args.length === 0 && node.block === null && !node.parens;
    default:
      return false;
  }
}
