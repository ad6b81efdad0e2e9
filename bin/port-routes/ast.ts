/**
 * The syntax tree of a parsed routes file (internal to `signalbox port-routes`). It covers the Ruby that
 * routes files are written in with enough fidelity to evaluate the declarative part and to report the
 * rest by statement: every node knows its first line and its span in the source.
 */
import type { Comment } from './lexer.ts';

interface Span {
  readonly line: number;
  readonly start: number;
  end: number;
}

/** A literal's text or an interpolated `#{...}` (its statements). */
export type Part = string | { readonly body: Node[]; readonly line: number };

export interface Param {
  readonly name: string | null;
  readonly kind: 'req' | 'opt' | 'rest' | 'kw' | 'kwrest' | 'block' | 'destructure';
  /** The names a `(a, b)` parameter takes apart. */
  readonly names?: readonly string[];
  /** An optional parameter's default (`options = {}`), evaluated when a call leaves it out. */
  readonly default?: Node;
}

export interface Block extends Span {
  readonly params: readonly Param[];
  readonly body: Node[];
  /** The line of the closing `end` or `}`. */
  readonly endLine: number;
}

/** One `when a, b then ...` of a case: the values it compares the subject with, and its statements. */
export interface When {
  readonly patterns: readonly Node[];
  readonly body: Node[];
}

export interface HashPair {
  readonly key: Node | null;
  /** `**other` when `key` is null. */
  readonly value: Node;
}

export type Node = Span & (
  | { readonly type: 'nil' | 'true' | 'false' | 'self' | 'file' | 'lineno' | 'encoding' }
  | { readonly type: 'int' | 'float'; readonly value: number }
  | { readonly type: 'str' | 'xstr' | 'dsym'; readonly parts: readonly Part[] }
  | { readonly type: 'sym'; readonly name: string }
  | { readonly type: 'regexp'; readonly parts: readonly Part[]; readonly flags: string }
  | { readonly type: 'array'; readonly elements: readonly Node[] }
  | { readonly type: 'hash'; readonly pairs: readonly HashPair[]; readonly braces: boolean }
  /** A local variable, or a call of a method without receiver or arguments: which one is decided when evaluating. */
  | { readonly type: 'ident'; readonly name: string }
  | { readonly type: 'ivar' | 'gvar' | 'cvar'; readonly name: string }
  | { readonly type: 'const'; readonly scope: Node | null; readonly top: boolean; readonly name: string }
  | {
      readonly type: 'call'; readonly receiver: Node | null; readonly name: string; readonly args: readonly Node[];
      readonly block: Block | null; readonly parens: boolean;
    }
  | { readonly type: 'index'; readonly receiver: Node; readonly args: readonly Node[] }
  | { readonly type: 'splat' | 'dsplat' | 'blockpass'; readonly value: Node | null }
  | { readonly type: 'assign'; readonly target: Node; readonly op: string; readonly value: Node }
  | { readonly type: 'masgn'; readonly targets: readonly Node[]; readonly value: Node }
  | { readonly type: 'binary'; readonly op: string; readonly left: Node; readonly right: Node }
  | { readonly type: 'and' | 'or'; readonly left: Node; readonly right: Node }
  | { readonly type: 'unary'; readonly op: string; readonly value: Node }
  | { readonly type: 'not' | 'defined'; readonly value: Node }
  | { readonly type: 'range'; readonly from: Node | null; readonly to: Node | null; readonly exclusive: boolean }
  | { readonly type: 'if'; readonly keyword: 'if' | 'unless' | 'ternary'; readonly cond: Node; readonly then: Node[]; readonly else: Node[] | null; readonly modifier: boolean }
  | { readonly type: 'loop'; readonly keyword: 'while' | 'until' | 'for'; readonly cond: Node; readonly body: Node[]; readonly modifier: boolean }
  | { readonly type: 'case'; readonly subject: Node | null; readonly whens: readonly When[]; readonly else: Node[] | null }
  | { readonly type: 'def'; readonly name: string; readonly singleton: Node | null; readonly params: readonly Param[]; readonly body: Node[] }
  | { readonly type: 'class' | 'module'; readonly name: string; readonly body: Node[] }
  | { readonly type: 'begin'; readonly body: Node[]; readonly rescues: boolean }
  | { readonly type: 'paren'; readonly body: Node[] }
  | { readonly type: 'rescue_mod'; readonly body: Node; readonly rescue: Node }
  | { readonly type: 'jump'; readonly keyword: string; readonly args: readonly Node[]; readonly block: Block | null }
  | { readonly type: 'lambda'; readonly block: Block }
  | { readonly type: 'directive'; readonly keyword: 'alias' | 'undef' | 'BEGIN' | 'END'; readonly body: Node[] }
);

export type NodeType = Node['type'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A node without its position, as the parser builds it. */
export type NodeFields = DistributiveOmit<Node, 'line' | 'start' | 'end'>;
export type NodeOf<T extends NodeType> = Extract<Node, { type: T }>;

/** A parsed file: its statements, and its comments for the emitters to carry over. */
export interface Program {
  readonly body: Node[];
  readonly comments: readonly Comment[];
}
