/**
 * Runs the declarative part of routes files and records the routing calls they make (internal to
 * `signalbox port-routes`).
 *
 * What it evaluates is what a routes file can say without code from elsewhere: the `draw` block (or
 * bare `map.` statements), literals, local variables and constants assigned in the file, `#{}`
 * interpolation, `Hash#merge` and friends, `.each` over a literal list, `map.send(:name, ...)`, blocks kept
 * in variables (`settings = lambda do |m| … end`, handed on as `&settings` or run with `settings.call(map)`),
 * methods the file defines with `def` (run at each call, `yield` included), and the mapper's own methods,
 * with Rails 2.x's `method_missing` rule for named routes. Anything else
 * (a plugin hook, a `require`, a condition, a method defined elsewhere) is not guessed at: the
 * statement is left out and reported with its file and line, and evaluation goes on with the next.
 * Work is charged against a budget proportional to the input, so no file (loops within loops,
 * strings doubled in a loop) can make the port cost more than linear time and memory.
 */
import type { Block, Node, NodeOf, Part, Program } from './ast.ts';
import type { Comment } from './lexer.ts';
import { NotPorted } from './errors.ts';
import { translateRegexp } from './regexp.ts';
import { type Data, type DataHash, type HashKey, MapperRef, RubyHash, RubyProc, RubyRegexp, Sym, type Value } from './values.ts';

/** ActiveSupport's inflections: their answers come from Rails' inflector and the application's own rules, which the file does not hold. */
const INFLECTIONS: ReadonlySet<string> = new Set(['pluralize', 'singularize', 'camelize', 'camelcase', 'classify', 'tableize', 'underscore', 'humanize', 'titleize', 'titlecase', 'demodulize', 'foreign_key', 'constantize']);

/** The routing methods of Signalbox's mapper that a ported call can be. */
export type MapperMethod = 'resources' | 'resource' | 'namespace' | 'with_options' | 'connect' | 'root' | 'named';

export interface MapperCall {
  readonly kind: 'call';
  readonly file: string;
  readonly line: number;
  /** The last line of the statement (before its block, if it has one). */
  readonly endLine: number;
  /** The statement as written, for a report. */
  readonly statement: string;
  readonly receiver: MapperRef;
  readonly method: MapperMethod;
  /** For `named`: the name, the path, then the options if given. */
  readonly args: readonly Data[];
  readonly block: { readonly param: MapperRef | null; readonly body: readonly Declaration[]; readonly endLine: number } | null;
}

export interface Omission {
  readonly kind: 'omitted';
  readonly file: string;
  readonly line: number;
  readonly endLine: number;
  readonly statement: string;
  readonly reason: string;
}

/** A `def` of the file: its routes are declared where it is called, so the module only marks where it stood. */
export interface MethodDefinition {
  readonly kind: 'method';
  readonly file: string;
  readonly line: number;
  readonly endLine: number;
  readonly statement: string;
}

/** Where the declarations of the next file start. */
export interface FileStart {
  readonly kind: 'file';
  readonly file: string;
}

export type Declaration = MapperCall | Omission | MethodDefinition | FileStart;

/**
 * A routing setting the file gives `ActionController::Base` (`resources_path_names`, `resource_action_separator`):
 * Rails' resources read it when drawn, and Signalbox's draw() takes it as a setting of the whole draw.
 */
export interface DrawSetting {
  readonly file: string;
  readonly line: number;
  readonly endLine: number;
  readonly statement: string;
  readonly name: 'resources_path_names' | 'resource_action_separator';
  readonly value: Data;
}

export interface ParsedFile {
  readonly name: string;
  readonly text: string;
  readonly program: Program;
}

export interface Evaluation {
  /** The draw's own `map`; named after the first `draw do |name|` block. */
  readonly root: MapperRef;
  readonly declarations: Declaration[];
  /** Every statement left out, in order, once each. */
  readonly omissions: Omission[];
  readonly comments: ReadonlyMap<string, readonly Comment[]>;
  /** The draw settings the files assign, in order (a later one of the same name wins). */
  readonly settings: readonly DrawSetting[];
}

const BLOCK_METHODS: ReadonlySet<string> = new Set(['resources', 'resource', 'namespace', 'with_options']);
const SEND_METHODS: ReadonlySet<string> = new Set(['send', '__send__', 'public_send']);
const LOADING_METHODS: ReadonlySet<string> = new Set(['require', 'require_dependency', 'load', 'require_relative', 'autoload', 'gem']);
const ROUTES_CONSTANT = ['ActionController', 'Routing', 'Routes'];
const BASE_CONSTANT = ['ActionController', 'Base'];

/** Evaluation ran past the work a routes file of this size can need; it ends the statement at the top of the file or draw. */
class BudgetExceeded extends NotPorted {
  constructor() {
    super('evaluating it costs more than a routes file can (the work is bounded by the size of the input)');
  }
}

class TooDeep extends NotPorted {
  constructor() {
    super('an expression nests too deeply');
  }
}

/** How deeply a value may nest (a hash in a hash ...) before it is refused rather than recursed into. */
const MAX_VALUE_DEPTH = 64;
/** How deeply an expression may nest (operands of operands ...) before it is refused rather than recursed into. */
const MAX_EXPRESSION_DEPTH = 200;
/** How deeply methods of the file may call each other (a recursive one is refused, not run until the stack ends). */
const MAX_CALL_DEPTH = 32;

/** Ruby methods that change the list, hash or string they are called on. */
const MUTATORS: ReadonlySet<string> = new Set([
  'push', 'append', 'prepend', 'unshift', 'insert', 'concat', 'replace', 'clear', 'store', 'update', 'delete', 'delete_if',
  'keep_if', 'shift', 'pop', 'fill', 'merge!', 'reject!', 'select!', 'map!', 'collect!', 'uniq!', 'compact!', 'flatten!',
  'sort!', 'sort_by!', 'reverse!', 'gsub!', 'sub!', 'strip!', 'chomp!', 'squeeze!', 'downcase!', 'upcase!', 'capitalize!',
]);

/** What {@link changedVariables} found for a statement: a statement left out in a loop is looked into once. */
const changedCache = new WeakMap<Node, Map<string, boolean>>();

/**
 * The variables (locals and constants) a statement assigns or changes in place, with whether the statement itself
 * assigns the name (so Ruby creates it there). A method defined inside has a scope of its own and is not looked into.
 * The walk keeps its own stack, so a deeply nested statement costs time linear in its size and no call depth.
 */
function changedVariables(statement: Node): Map<string, boolean> {
  const cached = changedCache.get(statement);
  if (cached !== undefined) return cached;
  const found = new Map<string, boolean>();
  const named = (n: Node): string | null => (n.type === 'ident' || n.type === 'ivar' || (n.type === 'const' && n.scope === null && !n.top) ? n.name : null);
  const note = (n: Node, assigned: boolean): void => {
    const name = named(n);
    if (name !== null) found.set(name, (found.get(name) ?? false) || assigned);
  };
  // Only the statement itself creates a name it assigns: blocks and branches inside run in scopes of their own.
  const stack: { value: unknown; top: boolean }[] = [{ value: statement, top: true }];
  while (stack.length > 0) {
    const { value, top } = stack.pop() as { value: unknown; top: boolean };
    if (Array.isArray(value)) {
      for (const v of value) stack.push({ value: v, top: false });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const n = value as Node;
    if (typeof n.type === 'string') {
      if (n.type === 'def' || n.type === 'class' || n.type === 'module') continue;
      if (n.type === 'assign') {
        if (n.target.type === 'index') note(n.target.receiver, false);
        else note(n.target, top);
      } else if (n.type === 'masgn') {
        for (const t of n.targets) note(t, top);
      } else if (n.type === 'binary' && n.op === '<<') {
        note(n.left, false);
      } else if (n.type === 'call' && n.receiver !== null && MUTATORS.has(n.name)) {
        note(n.receiver, false);
      }
    }
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'line' && key !== 'start' && key !== 'end' && child !== null && typeof child === 'object') stack.push({ value: child, top: false });
    }
  }
  changedCache.set(statement, found);
  return found;
}

/** Local variables and constants, with Ruby's block scoping: a block sees and updates its parents'. */
class Scope {
  readonly #vars = new Map<string, Value>();
  /** Locals (and constants) a statement left out of the port assigned or changed: why their value is unknown. */
  readonly #leftOut = new Map<string, string>();

  /** `gate`: a method body's scope, which sees the file's constants but none of the locals around its `def`. */
  constructor(readonly parent: Scope | null, readonly gate = false) {}

  lookup(name: string): { value: Value; leftOut?: string } | null {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      if (s.#vars.has(name)) {
        const leftOut = s.#leftOut.get(name);
        return leftOut === undefined ? { value: s.#vars.get(name) as Value } : { value: null, leftOut };
      }
      if (s.gate && !isConstantName(name)) return null;
    }
    return null;
  }

  assign(name: string, value: Value): void {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      if (s.#vars.has(name)) {
        s.#vars.set(name, value);
        s.#leftOut.delete(name);
        return;
      }
      if (s.gate && !isConstantName(name)) break;
    }
    this.#vars.set(name, value);
  }

  define(name: string, value: Value): void {
    this.#vars.set(name, value);
    this.#leftOut.delete(name);
  }

  /** A constant belongs to the file (its module), not to the block that assigns it. */
  defineConstant(name: string, value: Value): void {
    this.#root().define(name, value);
  }

  /**
   * Marks a variable whose value a statement left out gave or changed, where Ruby keeps it: the scope that already
   * has it, or (a name the statement itself assigns first) this one; a constant at the file's level.
   */
  markLeftOut(name: string, reason: string, assigned: boolean): void {
    for (let s: Scope | null = isConstantName(name) ? this.#root() : this; s !== null; s = s.parent) {
      if (s.#vars.has(name)) {
        s.#leftOut.set(name, reason);
        return;
      }
      if (s.gate && !isConstantName(name)) break;
    }
    if (!assigned) return;
    const home = isConstantName(name) ? this.#root() : this;
    home.#vars.set(name, null);
    home.#leftOut.set(name, reason);
  }

  #root(): Scope {
    let s: Scope = this;
    while (s.parent !== null) s = s.parent;
    return s;
  }
}

export interface EvaluateOptions {
  /**
   * The Rails environment to port for (`--env production`): decides `RAILS_ENV`, `Rails.env`,
   * `Rails.env.production?` and `ENV['RAILS_ENV']`. Without it, a statement that depends on the
   * environment is reported, not guessed at.
   */
  readonly env?: string | null;
}

/** Evaluates parsed routes files in order, as one draw. */
export function evaluate(files: readonly ParsedFile[], options: EvaluateOptions = {}): Evaluation {
  const size = files.reduce((n, f) => n + f.text.length, 0);
  return new Evaluator(250_000 + 100 * size, options.env ?? null).run(files);
}

/** The environment variables that name the Rails environment. */
const ENV_VARIABLES: ReadonlySet<string> = new Set(['RAILS_ENV', 'RACK_ENV']);

class Evaluator {
  #budget: number;
  #exhausted = false;
  readonly #root = new MapperRef('map', null);
  #rootNamed = false;
  /**
   * Whether the file being read runs with the mapper as self: a plugin's routes file, which the engines plugin,
   * Desert and their like `eval` inside a method of the mapper (`from_plugin`, `routes_from_plugin`), so that a call
   * without a receiver (`resources :posts`, `profile 'profile', ...`) is the mapper's. A file that draws with
   * `ActionController::Routing::Routes.draw` runs at the top level, where such a call is no routing call.
   */
  #selfIsMapper = false;
  readonly #omissions: Omission[] = [];
  readonly #omitted = new Set<string>();
  #file: ParsedFile = { name: '', text: '', program: { body: [], comments: [] } };
  /** Methods the current file defines with `def`: a call of one is not a named route. */
  #defined = new Set<string>();
  /** The methods whose `def` has run, by name (Ruby defines a method when its `def` is executed). */
  #methods = new Map<string, NodeOf<'def'>>();
  /** The scope of the file being run: a method body sees its constants. */
  #fileScope = new Scope(null);
  /**
   * The file's instance variables: those of its `self`, which is the same object in every block and in the methods
   * it calls without a receiver, so they are one table for the whole file (read before any assignment, one is set
   * elsewhere, as an initializer may have done, and is left out).
   */
  #ivars = new Scope(null);
  readonly #settings: DrawSetting[] = [];
  /** Whether a resource has been declared yet: Rails read the path words and separator as each one was drawn. */
  #resourcesDeclared = false;
  /** The block each running method was called with (for `yield` and `block_given?`), innermost last. */
  readonly #frames: (RubyProc | null)[] = [];
  /** Where each line of the current file starts, to find a statement's last line. */
  #lineStarts: number[] = [0];

  readonly #env: string | null;
  /** How deeply #value is nested now. */
  #depth = 0;
  /** Expressions found to nest too deeply (and the nodes around them). */
  readonly #tooDeep = new WeakSet<Node>();

  constructor(budget: number, env: string | null) {
    this.#budget = budget;
    this.#env = env;
  }

  /** The environment being ported for; a statement that needs it without `--env` is reported. */
  #environment(what: string): string {
    if (this.#env === null) throw new NotPorted(`it depends on the Rails environment (${what}); port with --env NAME to decide it`);
    return this.#env;
  }

  run(files: readonly ParsedFile[]): Evaluation {
    const declarations: Declaration[] = [];
    const comments = new Map<string, readonly Comment[]>();
    for (const file of files) {
      this.#file = file;
      this.#omitted.clear();
      this.#defined = new Set();
      this.#methods = new Map();
      this.#lineStarts = lineStarts(file.text);
      collectDefinitions(file.program.body, this.#defined);
      this.#selfIsMapper = !drawsRoutes(file.program.body);
      comments.set(file.name, file.program.comments);
      declarations.push({ kind: 'file', file: file.name });
      const scope = new Scope(null);
      this.#fileScope = scope;
      this.#ivars = new Scope(null);
      // Plugins' routes files are bare `map.` statements, run with the draw's `map` in scope.
      scope.define('map', this.#root);
      this.#topStatements(file.program.body, scope, declarations);
    }
    return { root: this.#root, declarations, omissions: this.#omissions, comments, settings: this.#settings };
  }

  #charge(cost: number): void {
    this.#budget -= cost;
    if (this.#budget < 0) throw new BudgetExceeded();
  }

  /**
   * Statements of the file, or of the draw block: each one is ported or reported on its own. A statement
   * that runs out of budget is abandoned whole (a loop stops at once, and none of its routes are kept);
   * after that, each later statement gets an allowance proportional to its own text, so a plain route
   * still ports while the total stays linear in the input.
   */
  #topStatements(nodes: readonly Node[], scope: Scope, out: Declaration[]): void {
    for (const node of nodes) {
      if (this.#exhausted) this.#budget = 1000 + 50 * (node.end - node.start);
      this.#statement(node, scope, out, true);
    }
  }

  #statements(nodes: readonly Node[], scope: Scope, out: Declaration[]): void {
    for (const node of nodes) this.#statement(node, scope, out, false);
  }

  /** Runs one statement; if it cannot be ported, whatever it declared is taken back and it is reported instead. */
  #statement(node: Node, scope: Scope, out: Declaration[], top: boolean): void {
    const mark = out.length;
    const settingsMark = this.#settings.length;
    try {
      this.#charge(1);
      this.#execute(node, scope, out);
    } catch (error) {
      this.#settings.length = settingsMark;
      if (error instanceof BudgetExceeded) {
        if (!top) throw error;
        this.#exhausted = true;
      }
      out.length = mark;
      const reason = error instanceof NotPorted ? error.message : `it could not be evaluated (${error instanceof Error ? error.message : String(error)})`;
      this.#omit(node, reason, out);
      // What the statement would have assigned or changed is unknown now: a later use of it is left out with this
      // reason, rather than taken for a method defined elsewhere or read as the value it had before.
      const because = `which the statement on line ${node.line} (not ported) ${node.type === 'assign' || node.type === 'masgn' ? 'assigns' : 'assigns or changes'}`;
      for (const [name, assigned] of changedVariables(node)) {
        // An instance variable is not scoped by blocks: whatever the statement did to it, it did to the file's.
        if (name.startsWith('@')) this.#ivars.markLeftOut(name, because, true);
        else scope.markLeftOut(name, because, assigned);
      }
    }
  }

  /** Reports a piece of the file left out, once however often a loop meets it. */
  #omit(span: { readonly line: number; readonly start: number; readonly end: number }, reason: string, out: Declaration[]): void {
    const key = `${this.#file.name}:${span.start}`;
    if (this.#omitted.has(key)) return;
    this.#omitted.add(key);
    const omission: Omission = {
      kind: 'omitted', file: this.#file.name, line: span.line, endLine: this.#lineAt(span.end), statement: summarize(this.#file.text, span), reason,
    };
    this.#omissions.push(omission);
    out.push(omission);
  }

  #execute(node: Node, scope: Scope, out: Declaration[]): void {
    switch (node.type) {
      case 'call':
        this.#call(node, scope, out);
        return;
      case 'paren':
        this.#statements(node.body, scope, out);
        return;
      case 'if': {
        // Ruby's if/unless/elsif (and the modifiers): the branch the condition picks, when the file itself decides it.
        const holds = truthy(this.#value(node.cond, scope)) !== (node.keyword === 'unless');
        this.#statements(holds ? node.then : node.else ?? [], scope, out);
        return;
      }
      case 'case':
        this.#statements(this.#caseBranch(node, scope), scope, out);
        return;
      case 'def':
        // A method of the file's own (some applications keep their per-context routes in such helpers): defined now,
        // its body run at each call. A method defined on an object (`def map.page`) is not run.
        if (node.singleton !== null) throw new NotPorted(`it defines the method ${node.name}; calls of it are left out too`);
        this.#methods.set(node.name, node);
        out.push({ kind: 'method', file: this.#file.name, line: node.line, endLine: this.#lineAt(node.end), statement: summarize(this.#file.text, node) });
        return;
      case 'jump':
        if (node.keyword === 'yield') {
          this.#yieldToCaller(node, scope, out);
          return;
        }
        throw new NotPorted(`the port evaluates assignments and routing calls, not ${describeNode(node)}`);
      case 'class': case 'module':
        throw new NotPorted(`it defines a ${node.type}`);
      case 'loop': case 'begin': case 'rescue_mod': case 'directive': case 'and': case 'or': case 'masgn':
        throw new NotPorted(`the port evaluates assignments and routing calls, not ${describeNode(node)}`);
      default:
        // An assignment, or an expression whose value is dropped: evaluate it for its effects on variables.
        this.#value(node, scope);
    }
  }

  /** The 1-based line of a source offset. */
  #lineAt(offset: number): number {
    const starts = this.#lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  #text(node: Node): string {
    this.#charge(node.end - node.start);
    return summarize(this.#file.text, node);
  }

  // ---- calls ----

  #call(node: NodeOf<'call'>, scope: Scope, out: Declaration[], forValue = false): Value {
    const proc = this.#procLiteral(node, scope);
    if (proc !== null) return proc;
    if (isRailsEnv(node, scope)) return this.#environment('Rails.env');
    // ActiveSupport's StringInquirer: `Rails.env.production?`.
    if (node.receiver !== null && isRailsEnv(node.receiver, scope) && /^[a-z_][a-z0-9_]*\?$/.test(node.name) && node.args.length === 0 && node.block === null) {
      return this.#environment(`Rails.env.${node.name}`) === node.name.slice(0, -1);
    }
    if (node.receiver === null) {
      const method = this.#methods.get(node.name);
      if (method !== undefined) return this.#invoke(method, node, scope, out, forValue);
      if (node.name === 'block_given?' && node.args.length === 0 && node.block === null && this.#frames.length > 0) return this.#frames[this.#frames.length - 1] !== null;
      if (LOADING_METHODS.has(node.name)) throw new NotPorted(`it loads code (${node.name}) the port does not read`);
      if (this.#selfIsMapper && !forValue && scope.lookup(node.name) === null) {
        this.#mapperCall(this.#root, node, scope, out);
        return null;
      }
      throw new NotPorted(this.#unknownMethod(node.name));
    }
    if (node.name === 'draw' && isRoutesConstant(node.receiver)) return this.#draw(node, scope, out);
    if (node.name === 'draw' && node.block !== null) throw new NotPorted('it draws routes with a DSL other than Rails 2.x\'s ActionController::Routing::Routes.draw');
    if (isCoreRegexp(node.receiver, scope)) return this.#regexpClassMethod(node, scope);
    const receiver = this.#value(node.receiver, scope);
    if (receiver instanceof MapperRef) {
      this.#mapperCall(receiver, node, scope, out);
      return null;
    }
    return this.#builtin(receiver, node, scope, out);
  }

  /** `lambda do |m| … end`, `proc { … }` or `Proc.new { … }` (Ruby's own, unless the file defines the name): a block as a value. */
  #procLiteral(node: NodeOf<'call'>, scope: Scope): RubyProc | null {
    if (node.block === null || node.args.length > 0) return null;
    const kernel = node.receiver === null && (node.name === 'lambda' || node.name === 'proc') && !this.#defined.has(node.name) && scope.lookup(node.name) === null;
    const procNew = node.name === 'new' && isOwnConstant(node.receiver, 'Proc', scope);
    return kernel || procNew ? new RubyProc(node.block, scope) : null;
  }

  /**
   * Calls a method the file defines: its parameters bound from the arguments (defaults evaluated in the
   * method's own scope, as Ruby does), its body run statement by statement, each left out on its own if it
   * cannot be ported. Used as a value, the call gives its last statement's value.
   */
  #invoke(method: NodeOf<'def'>, node: NodeOf<'call'>, scope: Scope, out: Declaration[], forValue: boolean): Value {
    if (this.#frames.length >= MAX_CALL_DEPTH) throw new NotPorted(`it calls ${method.name} through more than ${MAX_CALL_DEPTH} nested method calls`);
    const args = this.#arguments(node.args, scope);
    let block: RubyProc | null = node.block === null ? null : new RubyProc(node.block, scope);
    const passed = node.args.find((a) => a.type === 'blockpass');
    if (passed !== undefined && passed.type === 'blockpass') {
      const value = passed.value === null ? null : this.#value(passed.value, scope);
      if (value !== null && !(value instanceof RubyProc)) throw new NotPorted('it passes a block from elsewhere (&block)');
      block = value;
    }
    const inner = new Scope(this.#fileScope, true);
    const required = method.params.filter((p) => p.kind === 'req' || p.kind === 'destructure').length;
    const optional = method.params.filter((p) => p.kind === 'opt').length;
    const rest = method.params.some((p) => p.kind === 'rest');
    if (method.params.some((p) => p.kind === 'kw' || p.kind === 'kwrest')) throw new NotPorted(`${method.name} takes keyword arguments, which the port does not bind`);
    if (args.length < required || (!rest && args.length > required + optional)) {
      throw new NotPorted(`it calls ${method.name} with ${args.length} argument${args.length === 1 ? '' : 's'}, where it takes ${rest ? `at least ${required}` : optional > 0 ? `${required} to ${required + optional}` : required} (an ArgumentError in Ruby)`);
    }
    // Ruby fills the optional parameters left to right with what the required ones leave over.
    let spare = args.length - required;
    let next = 0;
    const restCount = Math.max(0, args.length - required - optional);
    for (const p of method.params) {
      if (p.kind === 'req' || p.kind === 'destructure') {
        const v = args[next++] ?? null;
        if (p.kind === 'destructure') {
          const parts = Array.isArray(v) ? v : [v];
          (p.names ?? []).forEach((n, j) => n && inner.define(n, parts[j] ?? null));
        } else if (p.name) inner.define(p.name, v);
      } else if (p.kind === 'opt') {
        if (spare > restCount) {
          spare--;
          if (p.name) inner.define(p.name, args[next++] ?? null);
        } else if (p.name) inner.define(p.name, p.default === undefined ? null : this.#value(p.default, inner));
      } else if (p.kind === 'rest') {
        if (p.name) inner.define(p.name, args.slice(next, next + restCount));
        next += restCount;
      } else if (p.kind === 'block' && p.name) {
        inner.define(p.name, block);
      }
    }
    this.#frames.push(block);
    try {
      return this.#body(method.body, inner, out, forValue);
    } finally {
      this.#frames.pop();
    }
  }

  /** `yield` in a method of the file: runs the block the method was called with, in the caller's scope. */
  #yieldToCaller(node: NodeOf<'jump'>, scope: Scope, out: Declaration[]): void {
    const block = this.#frames.length > 0 ? this.#frames[this.#frames.length - 1] : null;
    if (block === null) throw new NotPorted('it yields where no block was given (a LocalJumpError in Ruby)');
    if (node.block !== null) throw new NotPorted('it yields with a block');
    // The block belongs to the caller: while it runs, its own yield (if any) is the caller's frame's.
    const frame = this.#frames.pop() ?? null;
    try {
      this.#yield(block.block, this.#arguments(node.args, scope), block.closure as Scope, out);
    } finally {
      this.#frames.push(frame);
    }
  }

  #unknownMethod(name: string): string {
    // Only a call on a map reaches here for a method whose def has run: Ruby calls the file's own methods without a receiver.
    if (this.#methods.has(name)) return `it calls ${name} on a map, where the file's own method ${name} is called without a receiver (a NoMethodError in Ruby)`;
    return this.#defined.has(name)
      ? `it calls ${name}, which the file defines where the port does not run it (in a class or module) or only after this call`
      : `it calls ${name}, which is not defined in the routes file (a plugin or a method defined elsewhere)`;
  }

  #draw(node: NodeOf<'call'>, scope: Scope, out: Declaration[]): Value {
    if (node.args.length > 0 || node.block === null) throw new NotPorted('Routes.draw is given something other than a block');
    const block = node.block;
    const inner = new Scope(scope);
    const param = block.params[0];
    if (param?.name) {
      inner.define(param.name, this.#root);
      if (!this.#rootNamed) this.#root.name = param.name;
    }
    this.#rootNamed = true;
    for (const p of block.params.slice(1)) if (p.name) inner.define(p.name, null);
    this.#topStatements(block.body, inner, out);
    return null;
  }

  #mapperCall(map: MapperRef, node: NodeOf<'call'>, scope: Scope, out: Declaration[]): void {
    if (!map.live) throw new NotPorted(`it calls ${map.name ?? 'a map'} after the block that gave it has ended`);
    let name = node.name;
    let args = this.#arguments(node.args, scope);
    if (SEND_METHODS.has(name)) {
      const target = args[0];
      if (typeof target !== 'string' && !(target instanceof Sym)) throw new NotPorted(`${name} is given no method name`);
      name = typeof target === 'string' ? target : target.name;
      args = args.slice(1);
    }
    // Mapper#method_missing is public in Rails 2.x, and an OptionMerger sends a call of its private one on to the
    // mapper with the options merged: `map.method_missing(:name, path, options)`, which helper methods use to name a
    // route from a variable, is the named route `name` whatever the name (even `connect`).
    // The mapper method a call names; a route named through method_missing names none, whatever its name.
    let called = name;
    if (name === 'method_missing') {
      const target = args[0];
      if (typeof target !== 'string' && !(target instanceof Sym)) throw new NotPorted('method_missing is given no route name');
      name = typeof target === 'string' ? target : target.name;
      args = args.slice(1);
      called = '';
    }
    if (this.#defined.has(called)) throw new NotPorted(this.#unknownMethod(name));
    // A block is written here, or handed on (`&settings`) from a lambda or proc the file keeps in a variable.
    let block: Block | null = node.block;
    let blockScope = scope;
    const passed = node.args.find((a) => a.type === 'blockpass');
    if (passed !== undefined && passed.type === 'blockpass') {
      const handed = passed.value;
      const value = handed === null ? null : this.#value(handed, scope);
      if (!(value instanceof RubyProc)) throw new NotPorted('it passes a block from elsewhere (&block)');
      block = value.block;
      blockScope = value.closure as Scope;
    }
    let method: MapperMethod;
    let callArgs: Value[] = args;
    if (BLOCK_METHODS.has(called)) {
      method = name as MapperMethod;
      // A block's map is Rails' OptionMerger, which supplies its own options as a missing last argument:
      // `merger.with_options do |m|` is `with_options(options)`. Signalbox's map already carries them.
      if (name === 'with_options' && map.parent !== null && !args.some((a) => a instanceof RubyHash)) callArgs = [...args, new RubyHash()];
    } else if (called === 'connect' || called === 'root') {
      method = called;
    } else if (called === 'named_route') {
      method = 'named';
      const routeName = args[0];
      if (typeof routeName !== 'string' && !(routeName instanceof Sym)) throw new NotPorted('named_route is given no route name');
      callArgs = [typeof routeName === 'string' ? routeName : routeName.name, ...args.slice(1)];
    } else {
      // Rails 2.x's Mapper#method_missing: `map.name path, options` is a named route; anything else is no route.
      if (block !== null || typeof args[0] !== 'string' || args.length > 2 || (args.length === 2 && !(args[1] instanceof RubyHash))) {
        throw new NotPorted(`${map.name ?? 'map'}.${name} is not a routing method (a plugin hook, or a method defined elsewhere)`);
      }
      // Rails 2.x's mapper refuses a route that names no controller ("Illegal route: the :controller must be
      // specified!"), so an application that ran had this method from elsewhere: routing-filter's `map.filter
      // 'locale'` is the common one. Drawn as a route, it would stop the whole table at draw().
      if (!map.suppliesController && !namesController(args[0], args[1])) {
        throw new NotPorted(`${map.name ?? 'map'}.${name} names no controller, which Rails 2.x's own mapper refuses as a route (the :controller must be specified), so ${name} came from a plugin or code elsewhere`);
      }
      method = 'named';
      callArgs = [name, ...args];
    }
    // Rails 2.x's Mapper#connect, #root and #named_route take no block, and Ruby drops one given to them: the route
    // is drawn and the block never runs. Some applications hand their default route one; the port draws the route and
    // reports the block. (A named route by method_missing with a block is no route in Rails: refused above.)
    let unrun: Block | null = null;
    if (block !== null && !BLOCK_METHODS.has(method)) {
      if (passed === undefined) unrun = block;
      block = null;
    }
    // Rails 2.x's resources and resource take their options from a last hash only (extract_options!): a hash among
    // the names is one more name to Rails, which (under Ruby 1.8) drew a resource named by the hash's to_s, while the
    // names around it got none of its options. The port draws the names as Rails did and reports each such hash.
    const strays: Node[] = [];
    if (method === 'resources' || method === 'resource') {
      const last = callArgs.length - 1;
      const kept = callArgs.filter((a, i) => !(a instanceof RubyHash && i !== last));
      if (kept.length !== callArgs.length) {
        const written = node.args.filter((a) => a.type !== 'blockpass');
        const exact = written.length === node.args.length - (passed === undefined ? 0 : 1) && !written.some((a) => a.type === 'splat' || a.type === 'dsplat');
        const offset = written.length - args.length;
        callArgs.forEach((a, i) => {
          if (!(a instanceof RubyHash) || i === last) return;
          const at = exact ? written[i + offset] : undefined;
          strays.push(at !== undefined && at.type === 'hash' ? at : node);
        });
        callArgs = kept;
      }
    }
    const data = callArgs.map((a) => this.#data(emptyListOptions(a), 0));
    let body: { param: MapperRef | null; body: Declaration[]; endLine: number } | null = null;
    if (block !== null) {
      const param = block.params[0];
      // A block's map merges its call's options into every call made on it: with_options' and namespace's options
      // reach the routes inside; a resource's block gives only prefixes (and what its own map already merges).
      const merged = (method === 'with_options' || method === 'namespace') && namesController(null, args[args.length - 1]);
      const child = new MapperRef(param?.name ?? null, map, map.suppliesController || merged);
      const inner = new Scope(blockScope);
      if (param?.name) inner.define(param.name, child);
      for (const p of block.params.slice(1)) if (p.name) inner.define(p.name, null);
      const declarations: Declaration[] = [];
      try {
        this.#statements(block.body, inner, declarations);
      } finally {
        child.live = false;
      }
      body = { param: param?.name ? child : null, body: declarations, endLine: block.endLine };
    }
    const opened = block ?? unrun;
    const endLine = this.#lineAt(opened === null || passed !== undefined ? node.end : opened.start);
    this.#charge(node.end - node.start);
    const statement = summarize(this.#file.text, unrun === null ? node : { start: node.start, end: unrun.start });
    out.push({ kind: 'call', file: this.#file.name, line: node.line, endLine, statement, receiver: map, method, args: data, block: body });
    if (method === 'resources' || method === 'resource') this.#resourcesDeclared = true;
    if (unrun !== null) this.#omit(unrun, `${method === 'named' ? 'named_route' : method} takes no block: Rails 2.x draws the route and never runs the block`, out);
    for (const stray of strays) {
      this.#omit(stray, `${method} takes its options from a last hash only: Rails 2.x took this hash for one more resource name (a path made of the hash's text) and gave the names around it none of these options`, out);
    }
  }

  #arguments(nodes: readonly Node[], scope: Scope): Value[] {
    const values: Value[] = [];
    for (const n of nodes) {
      if (n.type === 'blockpass') continue;
      if (n.type === 'splat') {
        const v = n.value === null ? null : this.#value(n.value, scope);
        if (!Array.isArray(v)) throw new NotPorted('it splats (*) something other than a list');
        values.push(...v);
      } else {
        values.push(this.#value(n, scope));
      }
    }
    return values;
  }

  // ---- values ----

  #value(node: Node, scope: Scope): Value {
    this.#charge(1);
    // Conditions are evaluated now, and a condition can be as long as the file: walk a bounded depth of it, so
    // an expression nested thousands deep is refused at once (and in every pass of a loop) instead of overflowing the stack.
    // Each node on the way is remembered, so a loop that meets it again refuses it without the walk.
    if (this.#depth >= MAX_EXPRESSION_DEPTH || this.#tooDeep.has(node)) throw new TooDeep();
    this.#depth++;
    try {
      return this.#valueOf(node, scope);
    } catch (error) {
      if (error instanceof TooDeep) this.#tooDeep.add(node);
      throw error;
    } finally {
      this.#depth--;
    }
  }

  #valueOf(node: Node, scope: Scope): Value {
    switch (node.type) {
      case 'nil': return null;
      case 'true': return true;
      case 'false': return false;
      case 'int': case 'float': return node.value;
      case 'str': return this.#string(node.parts, scope);
      case 'sym': return Sym.of(node.name);
      case 'dsym': return Sym.of(this.#string(node.parts, scope));
      case 'regexp': {
        const source = this.#string(node.parts, scope, (v) => (v instanceof RubyRegexp ? v.toS() : undefined));
        return new RubyRegexp(source, node.flags.replace(/[^imx]/g, ''));
      }
      case 'array': {
        const list = this.#arguments(node.elements, scope);
        this.#charge(list.length);
        return list;
      }
      case 'hash': {
        const hash = new RubyHash();
        for (const pair of node.pairs) {
          if (pair.key === null) {
            const other = this.#value(pair.value, scope);
            if (!(other instanceof RubyHash)) throw new NotPorted('it splats (**) something other than a hash');
            for (const [k, v] of other.entries) hash.entries.set(k, v);
            this.#charge(other.entries.size);
          } else {
            hash.entries.set(this.#key(this.#value(pair.key, scope)), this.#value(pair.value, scope));
          }
        }
        return hash;
      }
      case 'ident': {
        const found = scope.lookup(node.name);
        if (found?.leftOut !== undefined) throw new NotPorted(`it uses ${node.name}, ${found.leftOut}`);
        if (found !== null) return found.value;
        if (this.#methods.has(node.name) || node.name === 'block_given?') {
          const out: Declaration[] = [];
          const call: NodeOf<'call'> = { line: node.line, start: node.start, end: node.end, type: 'call', receiver: null, name: node.name, args: [], block: null, parens: false };
          const value = this.#call(call, scope, out, true);
          if (out.length > 0) throw new NotPorted('it uses the result of a routing call as a value');
          return value;
        }
        throw new NotPorted(this.#unknownMethod(node.name));
      }
      case 'ivar': {
        const found = this.#ivars.lookup(node.name);
        if (found === null) throw new NotPorted(`it uses ${node.name}, an instance variable the file does not assign before it`);
        if (found.leftOut !== undefined) throw new NotPorted(`it uses ${node.name}, ${found.leftOut}`);
        return found.value;
      }
      case 'const': {
        if (node.scope !== null && isCoreRegexp(node.scope, scope) && node.name in REGEXP_OPTIONS) return REGEXP_OPTIONS[node.name];
        if (node.scope !== null && isCoreDate(node.scope, scope) && Object.hasOwn(DATE_NAMES, node.name)) {
          const names = DATE_NAMES[node.name];
          this.#charge(names.length);
          return [...names];
        }
        if (node.scope !== null && isRailsVersion(node.scope, scope)) {
          // The file runs on the Rails 2.x whose routing Signalbox follows; a file that asks (a plugin's routes
          // for Rails 2 and 3, `if Rails::VERSION::MAJOR >= 3`) takes the branch Rails 2 took. Which 2.x is not
          // one answer: Signalbox draws 2.1.2's routes with 2.2's :only, :except and :shallow.
          if (node.name === 'MAJOR') return 2;
          throw this.#oneRelease(node);
        }
        if (node.scope !== null && isRailsRouting(node.scope, scope)) {
          // Rails' own routing settings, not the application's: Signalbox keeps their Rails defaults, and a file that
          // changes them (SEPARATORS.concat %w( ; ), for Rails 1.2's 'posts/:id;edit') has its paths read with those.
          throw new NotPorted(`it uses ${this.#text(node)}, a setting of Rails' routing that Signalbox keeps at Rails' default${node.name === 'SEPARATORS' ? ' (/ . ?): the routes are read as Rails read them with those, another character being text in a path and matched by its keys' : ''}`);
        }
        if (node.scope !== null || node.top) throw new NotPorted(`it uses ${this.#text(node)}, a constant defined elsewhere`);
        const found = scope.lookup(node.name);
        if (found === null && node.name === 'RAILS_ENV') return this.#environment('RAILS_ENV');
        if (found === null) throw new NotPorted(`it uses ${node.name}, a constant defined elsewhere`);
        if (found.leftOut !== undefined) throw new NotPorted(`it uses ${node.name}, ${found.leftOut}`);
        return found.value;
      }
      case 'paren': {
        let last: Value = null;
        for (const n of node.body) last = this.#value(n, scope);
        return last;
      }
      case 'assign': return this.#assign(node, scope);
      case 'lambda': return new RubyProc(node.block, scope);
      case 'range': {
        // `(1..3).each`: a range of integers the file wrote runs as the list of them (each element charged, so
        // a range as long as the input allows is refused, not walked).
        const from = node.from === null ? null : this.#value(node.from, scope);
        const to = node.to === null ? null : this.#value(node.to, scope);
        if (!Number.isInteger(from) || !Number.isInteger(to)) throw new NotPorted('the port evaluates ranges of integers only');
        const last = (to as number) - (node.exclusive ? 1 : 0);
        const list: Value[] = [];
        for (let i = from as number; i <= last; i++) {
          this.#charge(1);
          list.push(i);
        }
        return list;
      }
      case 'if': {
        // `cond ? a : b`, or an if/unless used for its value (`as = if ... end`): the branch the file's own condition
        // picks, whose last expression is the value (nil when the branch is empty, as in Ruby).
        const holds = truthy(this.#value(node.cond, scope)) !== (node.keyword === 'unless');
        let last: Value = null;
        for (const n of holds ? node.then : node.else ?? []) last = this.#value(n, scope);
        return last;
      }
      case 'case': {
        // A case used for its value (`style = case RAILS_ENV when ... end`): the last expression of the branch taken.
        let last: Value = null;
        for (const n of this.#caseBranch(node, scope)) last = this.#value(n, scope);
        return last;
      }
      case 'not': return !truthy(this.#value(node.value, scope));
      case 'and': {
        const left = this.#value(node.left, scope);
        return truthy(left) ? this.#value(node.right, scope) : left;
      }
      case 'or': {
        const left = this.#value(node.left, scope);
        return truthy(left) ? left : this.#value(node.right, scope);
      }
      case 'call': {
        const out: Declaration[] = [];
        const value = this.#call(node, scope, out, true);
        if (out.length > 0) throw new NotPorted('it uses the result of a routing call as a value');
        return value;
      }
      case 'index': {
        if (isOwnConstant(node.receiver, 'ENV', scope)) {
          const [variable] = this.#arguments(node.args, scope);
          if (node.args.length === 1 && typeof variable === 'string' && ENV_VARIABLES.has(variable)) return this.#environment(`ENV['${variable}']`);
          throw new NotPorted(`it reads ${this.#text(node)}, an environment variable the port does not know`);
        }
        const receiver = this.#value(node.receiver, scope);
        return this.#index(receiver, this.#arguments(node.args, scope));
      }
      case 'binary': {
        const release = this.#railsReleaseComparison(node, scope);
        if (release !== null) return release;
        const left = this.#value(node.left, scope);
        // && and || short-circuit, as `and`/`or` do: the right side is evaluated only when it decides.
        if (node.op === '&&') return truthy(left) ? this.#value(node.right, scope) : left;
        if (node.op === '||') return truthy(left) ? left : this.#value(node.right, scope);
        return this.#operator(node.op, left, this.#value(node.right, scope));
      }
      case 'unary': {
        const value = this.#value(node.value, scope);
        if (node.op === '-' && typeof value === 'number') return -value;
        if (node.op === '+' && typeof value === 'number') return value;
        throw new NotPorted(`the port does not evaluate the operator ${node.op}`);
      }
      default:
        throw new NotPorted(`the port evaluates literals, variables and routing calls, not ${describeNode(node)}`);
    }
  }

  /**
   * `Rails.version < '3.0.0'` (or `Rails::VERSION::STRING`), as a routes file written for Rails 2 and 3 asks: decided
   * when every Rails 2 release answers it alike, as Rails::VERSION::MAJOR is; a comparison that depends on the
   * release (`>= '2.3'`) is left out, as Signalbox follows no single 2.x. Null when the node is no such comparison.
   */
  #railsReleaseComparison(node: NodeOf<'binary'>, scope: Scope): boolean | null {
    if (!RELEASE_COMPARISONS.has(node.op)) return null;
    const versionOnLeft = isRailsVersionString(node.left, scope);
    if (!versionOnLeft && !isRailsVersionString(node.right, scope)) return null;
    const other = this.#value(versionOnLeft ? node.right : node.left, scope);
    if (typeof other !== 'string') throw new NotPorted(`it compares ${this.#text(node)}, the Rails version, with something other than a string`);
    const answers = new Set(RAILS_2_RELEASES.map((release) => compareStrings(node.op, versionOnLeft ? release : other, versionOnLeft ? other : release)));
    if (answers.size === 1) return answers.has(true);
    throw this.#oneRelease(node);
  }

  /** What a file that asks which Rails 2 release runs it is told: Signalbox follows no single one. */
  #oneRelease(node: Node): NotPorted {
    return new NotPorted(`it uses ${this.#text(node)}: the port reads routes for Rails 2 (Rails::VERSION::MAJOR is 2), but not for one release of it`);
  }

  #key(v: Value): HashKey {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Sym) return v;
    throw new NotPorted('a hash key is not a symbol, string or number');
  }

  #string(parts: readonly Part[], scope: Scope, special?: (v: Value) => string | undefined): string {
    let text = '';
    for (const part of parts) {
      let piece: string;
      if (typeof part === 'string') {
        piece = part;
      } else {
        let value: Value = null;
        for (const n of part.body) value = this.#value(n, scope);
        piece = special?.(value) ?? toS(value);
      }
      this.#charge(piece.length);
      text += piece;
    }
    return text;
  }

  #assign(node: NodeOf<'assign'>, scope: Scope): Value {
    const target = node.target;
    if (target.type === 'call') return this.#drawSetting(node, target, scope);
    const current = (): Value => {
      if (target.type === 'ident' || target.type === 'const') {
        const found = scope.lookup(target.name);
        if (found?.leftOut !== undefined) throw new NotPorted(`it uses ${target.name}, ${found.leftOut}`);
        return found?.value ?? null;
      }
      if (target.type === 'ivar') return this.#value(target, scope);
      if (target.type === 'index') return this.#index(this.#value(target.receiver, scope), this.#arguments(target.args, scope));
      throw new NotPorted('it assigns to something other than a variable or a hash element');
    };
    let value: Value;
    if (node.op === '=') {
      value = this.#value(node.value, scope);
    } else if (node.op === '||=') {
      const now = current();
      if (now !== null && now !== false) return now;
      value = this.#value(node.value, scope);
    } else if (node.op === '+=' || node.op === '-=') {
      value = this.#operator(node.op[0], current(), this.#value(node.value, scope));
    } else {
      throw new NotPorted(`the port does not evaluate ${node.op}`);
    }
    if (target.type === 'ident') {
      scope.assign(target.name, value);
    } else if (target.type === 'const') {
      scope.defineConstant(target.name, value);
    } else if (target.type === 'ivar') {
      this.#ivars.define(target.name, value);
    } else if (target.type === 'index') {
      const receiver = this.#value(target.receiver, scope);
      const [key] = this.#arguments(target.args, scope);
      if (receiver instanceof RubyHash) receiver.entries.set(this.#key(key), value);
      else if (Array.isArray(receiver) && typeof key === 'number' && Number.isInteger(key) && key >= 0 && key <= receiver.length) receiver[key] = value;
      else throw new NotPorted('it assigns to an element of something other than a hash or list');
    } else {
      throw new NotPorted('it assigns to something other than a variable or a hash element');
    }
    return value;
  }

  /**
   * `ActionController::Base.resources_path_names = { :new => 'novo', :edit => 'editar' }` (or the separator) at the
   * top of a routes file: kept as a setting of the draw, which is what it was to the resources drawn after it.
   */
  #drawSetting(node: NodeOf<'assign'>, target: NodeOf<'call'>, scope: Scope): Value {
    const name = target.name;
    if (target.receiver === null || !isConstantPath(target.receiver, BASE_CONSTANT) || target.args.length > 0 || target.block !== null
      || (name !== 'resources_path_names' && name !== 'resource_action_separator')) {
      throw new NotPorted('it assigns to something other than a variable or a hash element');
    }
    if (node.op !== '=') throw new NotPorted(`the port does not evaluate ${node.op} on ActionController::Base.${name}`);
    // Signalbox's draw() has one value for the whole table; Rails gave the resources drawn before this the old one.
    if (this.#resourcesDeclared) throw new NotPorted(`it changes ActionController::Base.${name} after resources above it were drawn with the value before`);
    const value = this.#value(node.value, scope);
    let data: Data;
    if (name === 'resource_action_separator') {
      if (value !== '/' && value !== ';') throw new NotPorted("Signalbox's draw() takes '/' or ';' as the resource action separator");
      data = value;
    } else {
      if (!(value instanceof RubyHash)) throw new NotPorted('ActionController::Base.resources_path_names is given something other than a hash');
      const entries: [string, Data][] = [];
      for (const [k, word] of value.entries) {
        if (!(k instanceof Sym || typeof k === 'string') || !(word instanceof Sym || typeof word === 'string')) {
          throw new NotPorted('ActionController::Base.resources_path_names maps something other than action names to path words');
        }
        entries.push([k instanceof Sym ? k.name : k, word instanceof Sym ? word.name : word]);
      }
      // Rails joined a missing word as nothing (each new route at its collection's own path), which no setting of draw() gives.
      if (!entries.some(([k]) => k === 'new')) throw new NotPorted('ActionController::Base.resources_path_names gives no word for new, which Rails then drew as an empty path segment');
      data = { kind: 'hash', entries };
    }
    const endLine = this.#lineAt(node.end);
    this.#settings.push({ file: this.#file.name, line: node.line, endLine, statement: summarize(this.#file.text, node), name, value: data });
    return value;
  }

  /**
   * The statements of the `when` a case takes: its values are compared with the subject in order (`===`, which for
   * the strings, numbers and symbols routes files compare is ==), and without a subject the first true one wins.
   */
  #caseBranch(node: NodeOf<'case'>, scope: Scope): readonly Node[] {
    const subject = node.subject === null ? undefined : this.#value(node.subject, scope);
    for (const when of node.whens) {
      // One value at a time, as Ruby does: a later value is not evaluated once an earlier one matched.
      for (const pattern of when.patterns) {
        for (const value of this.#arguments([pattern], scope)) {
          if (subject === undefined ? truthy(value) : caseEquals(value, subject)) return when.body;
        }
      }
    }
    return node.else ?? [];
  }

  #index(receiver: Value, args: Value[]): Value {
    const [key] = args;
    if (args.length !== 1) throw new NotPorted('the port evaluates [] with one argument only');
    if (receiver instanceof RubyHash) return receiver.entries.get(this.#key(key)) ?? null;
    if (Array.isArray(receiver) && typeof key === 'number' && Number.isInteger(key)) return receiver.at(key) ?? null;
    throw new NotPorted('it indexes something other than a hash or list');
  }

  #operator(op: string, left: Value, right: Value): Value {
    if ((op === '==' || op === '!=') && isPlain(left) && isPlain(right)) return (left === right) === (op === '==');
    // Array#<< adds to the list itself and answers it, as push does: `pages << 'faq'`.
    if (op === '<<' && Array.isArray(left)) {
      this.#charge(1);
      left.push(right);
      return left;
    }
    // Array#- keeps the elements of the left list that the right one does not hold: `Date::MONTHNAMES - [nil]`.
    if (op === '-' && Array.isArray(left) && Array.isArray(right) && left.every(isPlain) && right.every(isPlain)) {
      this.#charge(left.length + right.length);
      const removed = new Set(right);
      return left.filter((v) => !removed.has(v));
    }
    if (op === '+') {
      if (typeof left === 'string' && typeof right === 'string') {
        this.#charge(left.length + right.length);
        return left + right;
      }
      if (Array.isArray(left) && Array.isArray(right)) {
        this.#charge(left.length + right.length);
        return [...left, ...right];
      }
    }
    if (typeof left === 'number' && typeof right === 'number') {
      if (op === '|' && Number.isInteger(left) && Number.isInteger(right)) return left | right;
      if (op === '+') return left + right;
      if (op === '-') return left - right;
      if (op === '*') return left * right;
      if (op === '<') return left < right;
      if (op === '>') return left > right;
      if (op === '<=') return left <= right;
      if (op === '>=') return left >= right;
    }
    throw new NotPorted(`the port does not evaluate ${op} on these values`);
  }

  /** Ruby's own `Regexp.new` / `Regexp.compile` and `Regexp.escape` / `Regexp.quote`, given values the file wrote. */
  #regexpClassMethod(node: NodeOf<'call'>, scope: Scope): Value {
    if (node.block !== null) throw new NotPorted(`the port does not evaluate Regexp.${node.name} with a block`);
    const args = this.#arguments(node.args, scope);
    const [source, options] = args;
    if ((node.name === 'escape' || node.name === 'quote') && args.length === 1 && typeof source === 'string') {
      this.#charge(source.length);
      return escapeRegexp(source);
    }
    if ((node.name === 'new' || node.name === 'compile') && args.length >= 1 && args.length <= 3) {
      if (source instanceof RubyRegexp) return source;
      if (typeof source !== 'string') throw new NotPorted(`Regexp.${node.name} is given something other than a string`);
      // Options are a bitmask of IGNORECASE (1), EXTENDED (2) and MULTILINE (4), or any other true value for ignore case.
      let flags = '';
      if (typeof options === 'number') flags = `${options & 4 ? 'm' : ''}${options & 1 ? 'i' : ''}${options & 2 ? 'x' : ''}`;
      else if (options !== undefined && options !== null && options !== false) flags = 'i';
      return new RubyRegexp(source, flags);
    }
    throw new NotPorted(`the port does not evaluate Regexp.${node.name} here`);
  }

  // ---- methods of values ----

  #builtin(receiver: Value, node: NodeOf<'call'>, scope: Scope, out: Declaration[]): Value {
    const name = node.name;
    const block = node.block;
    const passed = node.args.find((a) => a.type === 'blockpass');
    if (passed !== undefined && passed.type === 'blockpass') return this.#symbolBlock(receiver, node, passed.value, scope, out);
    const args = this.#arguments(node.args, scope);
    if (receiver instanceof RubyProc && (name === 'call' || name === '()' || name === 'yield' || name === '[]') && block === null) {
      return this.#yield(receiver.block, args, receiver.closure as Scope, out);
    }
    const noBlock = () => {
      if (block !== null) throw new NotPorted(`the port does not evaluate ${name} with a block`);
    };
    if (['freeze', 'dup', 'clone', 'to_s', 'to_sym', 'intern', 'to_a', 'to_hash', 'to_h', 'to_str', 'id2name'].includes(name) && args.length === 0) {
      noBlock();
      return this.#conversion(receiver, name);
    }
    if (Array.isArray(receiver) || receiver instanceof RubyHash) {
      const elements: Value[] = Array.isArray(receiver) ? receiver : [...receiver.entries].map(([k, v]) => [k, v]);
      if ((name === 'each' || name === 'each_pair' || name === 'each_with_index') && args.length === 0 && block !== null) {
        this.#charge(elements.length);
        elements.forEach((element, index) => this.#yield(block, name === 'each_with_index' ? [element, index] : [element], scope, out));
        return receiver;
      }
      if ((name === 'map' || name === 'collect') && args.length === 0 && block !== null) {
        this.#charge(elements.length);
        return elements.map((element) => this.#yield(block, [element], scope, out, true));
      }
      if (Array.isArray(receiver) && (name === 'select' || name === 'find_all' || name === 'reject') && args.length === 0 && block !== null) {
        this.#charge(elements.length);
        return elements.filter((element) => truthy(this.#yield(block, [element], scope, out, true)) === (name !== 'reject'));
      }
    }
    // Integer#times: the block runs with 0 up to the count, each pass charged.
    if (name === 'times' && Number.isInteger(receiver) && args.length === 0 && block !== null) {
      for (let i = 0; i < (receiver as number); i++) {
        this.#charge(1);
        this.#yield(block, [i], scope, out);
      }
      return receiver;
    }
    noBlock();
    if ((name === 'length' || name === 'size') && args.length === 0 && (typeof receiver === 'string' || Array.isArray(receiver))) return receiver.length;
    if (name === 'empty?' && args.length === 0) {
      if (typeof receiver === 'string' || Array.isArray(receiver)) return receiver.length === 0;
      if (receiver instanceof RubyHash) return receiver.entries.size === 0;
    }
    // String#sub and #gsub with a string pattern replace that text literally (a Regexp pattern would need Ruby's
    // matching and replacement rules, and is reported); a replacement string's backslashes still name groups in Ruby.
    if ((name === 'sub' || name === 'gsub') && typeof receiver === 'string' && args.length === 2 && typeof args[0] === 'string' && typeof args[1] === 'string' && !args[1].includes('\\')) {
      const [pattern, replacement] = args as [string, string];
      this.#charge(receiver.length);
      if (pattern === '') throw new NotPorted(`the port does not evaluate ${name} with an empty pattern`);
      return name === 'sub' ? receiver.replace(pattern, () => replacement) : receiver.split(pattern).join(replacement);
    }
    if (receiver instanceof RubyHash) return this.#hashMethod(receiver, name, args);
    if (Array.isArray(receiver)) return this.#listMethod(receiver, name, args);
    if (typeof receiver === 'string') {
      if (name === '+' && args.length === 1) return this.#operator('+', receiver, args[0]);
      if (args.length === 0 && name === 'downcase') return receiver.toLowerCase();
      if (args.length === 0 && name === 'upcase') return receiver.toUpperCase();
      if (args.length === 0 && name === 'capitalize') return receiver.charAt(0).toUpperCase() + receiver.slice(1).toLowerCase();
      // Ruby's strip removes ASCII whitespace and NUL; chomp one line ending.
      if (args.length === 0 && name === 'strip') return strip(receiver);
      if (args.length === 0 && name === 'chomp') return receiver.replace(/\r?\n$|\r$/, '');
    }
    if (receiver instanceof RubyRegexp && name === 'source' && args.length === 0) return receiver.source;
    if (INFLECTIONS.has(name)) throw new NotPorted(`it calls ${name}, whose answer depends on the application's inflections (Rails' inflector and its own rules)`);
    throw new NotPorted(`the port does not evaluate the method ${name} here`);
  }

  /**
   * `list.map(&:to_sym)`: Ruby's Symbol#to_proc calls the method the symbol names on each element, as a block
   * calling it would; whatever the method, the port evaluates it as it would that call (or says it cannot).
   */
  #symbolBlock(receiver: Value, node: NodeOf<'call'>, handed: Node | null, scope: Scope, out: Declaration[]): Value {
    const proc = handed === null ? null : this.#value(handed, scope);
    if (!(proc instanceof Sym)) throw new NotPorted('it passes a block from elsewhere (&block)');
    const name = node.name;
    if (!Array.isArray(receiver) || node.args.length !== 1 || !['map', 'collect', 'each'].includes(name)) {
      throw new NotPorted(`the port does not evaluate ${name} with a block`);
    }
    this.#charge(receiver.length);
    const call: NodeOf<'call'> = { ...node, name: proc.name, args: [], block: null };
    const results = receiver.map((element) => this.#builtin(element, call, scope, out));
    return name === 'each' ? receiver : results;
  }

  #conversion(receiver: Value, name: string): Value {
    switch (name) {
      case 'freeze': return receiver;
      case 'dup': case 'clone':
        if (receiver instanceof RubyHash) return copyHash(receiver);
        return Array.isArray(receiver) ? [...receiver] : receiver;
      case 'to_s': case 'to_str': case 'id2name':
        if (typeof receiver === 'string' || receiver instanceof Sym || typeof receiver === 'number' || receiver === null) return toS(receiver);
        break;
      case 'to_sym': case 'intern':
        if (typeof receiver === 'string' || receiver instanceof Sym) return Sym.of(toS(receiver));
        break;
      case 'to_a':
        if (Array.isArray(receiver)) return receiver;
        if (receiver === null) return [];
        break;
      default:
        if (receiver instanceof RubyHash) return receiver;
    }
    throw new NotPorted(`the port does not evaluate ${name} on this value`);
  }

  #hashMethod(hash: RubyHash, name: string, args: Value[]): Value {
    const hashes = () => args.map((a) => {
      if (!(a instanceof RubyHash)) throw new NotPorted(`${name} is given something other than a hash`);
      this.#charge(a.entries.size);
      return a;
    });
    switch (name) {
      case 'merge': case 'update': case 'merge!': {
        const target = name === 'merge' ? copyHash(hash) : hash;
        this.#charge(hash.entries.size);
        for (const other of hashes()) for (const [k, v] of other.entries) target.entries.set(k, v);
        return target;
      }
      case 'reverse_merge': case 'reverse_merge!': {
        // ActiveSupport: the argument's entries are the defaults, the receiver's win.
        const result = new RubyHash();
        for (const other of hashes()) for (const [k, v] of other.entries) result.entries.set(k, v);
        for (const [k, v] of hash.entries) result.entries.set(k, v);
        this.#charge(hash.entries.size);
        if (name === 'reverse_merge') return result;
        hash.entries.clear();
        for (const [k, v] of result.entries) hash.entries.set(k, v);
        return hash;
      }
      case 'except': case 'slice': {
        const keys = new Set(args.map((a) => this.#key(a)));
        const result = new RubyHash();
        for (const [k, v] of hash.entries) if (keys.has(k) === (name === 'slice')) result.entries.set(k, v);
        this.#charge(hash.entries.size);
        return result;
      }
      case 'fetch': case '[]':
        if (args.length >= 1 && hash.entries.has(this.#key(args[0]))) return hash.entries.get(this.#key(args[0])) ?? null;
        if (name === '[]') return null;
        if (args.length === 2) return args[1];
        break;
      case 'keys': return [...hash.entries.keys()];
      case 'values': return [...hash.entries.values()];
      default: break;
    }
    throw new NotPorted(`the port does not evaluate Hash#${name}`);
  }

  #listMethod(list: Value[], name: string, args: Value[]): Value {
    switch (name) {
      case '+': return this.#operator('+', list, args[0] ?? null);
      case 'first': if (args.length === 0) return list[0] ?? null; break;
      case 'last': if (args.length === 0) return list[list.length - 1] ?? null; break;
      case '[]': return this.#index(list, args);
      case 'compact': return list.filter((v) => v !== null);
      // Array#push adds to the list itself and answers it: `%w(a b).push(:controller => 'x')`.
      case 'push': this.#charge(args.length); list.push(...args); return list;
      case 'include?': case 'member?':
        if (args.length === 1 && isPlain(args[0])) {
          this.#charge(list.length);
          return list.some((v) => v === args[0]);
        }
        break;
      case 'flatten': {
        const flat: Value[] = [];
        const walk = (xs: Value[], depth: number) => {
          if (depth > MAX_VALUE_DEPTH) throw new NotPorted('a list nests too deeply');
          for (const x of xs) {
            this.#charge(1);
            if (Array.isArray(x)) walk(x, depth + 1);
            else flat.push(x);
          }
        };
        walk(list, 0);
        return flat;
      }
      case 'join': {
        const sep = args[0] ?? '';
        if (typeof sep !== 'string') break;
        const text = list.map((v) => toS(v)).join(sep);
        this.#charge(text.length);
        return text;
      }
      default: break;
    }
    throw new NotPorted(`the port does not evaluate Array#${name}`);
  }

  /** Runs a block for one element; `forValue` returns its last statement's value (for `map`). */
  #yield(block: Block, args: Value[], scope: Scope, out: Declaration[], forValue = false): Value {
    const inner = new Scope(scope);
    const params = block.params;
    // Ruby spreads one list over several parameters: `each do |name, path|` over pairs. A lone `|(name, path)|` is one
    // parameter, and takes the pair apart itself.
    const spread = args.length === 1 && Array.isArray(args[0]) && params.filter((p) => p.kind !== 'block').length > 1 ? (args[0] as Value[]) : args;
    params.forEach((p, i) => {
      if (p.kind === 'destructure') {
        const parts = Array.isArray(spread[i]) ? (spread[i] as Value[]) : [spread[i] ?? null];
        (p.names ?? []).forEach((n, j) => n && inner.define(n, parts[j] ?? null));
      } else if (p.kind === 'rest' && p.name) {
        inner.define(p.name, spread.slice(i));
      } else if (p.name) {
        inner.define(p.name, spread[i] ?? null);
      }
    });
    return this.#body(block.body, inner, out, forValue);
  }

  /** Runs a method's or a block's body: as statements, or (`forValue`) for its last statement's value. */
  #body(nodes: readonly Node[], scope: Scope, out: Declaration[], forValue: boolean): Value {
    if (!forValue) {
      this.#statements(nodes, scope, out);
      return null;
    }
    let last: Value = null;
    for (const n of nodes) last = this.#value(n, scope);
    return last;
  }

  // ---- values to data ----

  #data(v: Value, depth: number): Data {
    // A string is charged by its length: printing it costs that much.
    this.#charge(typeof v === 'string' ? 1 + v.length : 1);
    if (depth > MAX_VALUE_DEPTH) throw new NotPorted('a value nests too deeply');
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new NotPorted('a number has no JavaScript equivalent');
      return v;
    }
    if (v instanceof Sym) return v.name;
    if (v instanceof RubyRegexp) {
      const js = translateRegexp(v.source, v.flags);
      return { kind: 'regexp', source: js.source, flags: js.flags };
    }
    if (v instanceof MapperRef) throw new NotPorted('it passes the routing map itself as a value');
    if (v instanceof RubyProc) throw new NotPorted('it uses a block (a lambda or proc) as a value, where routes take data');
    if (Array.isArray(v)) return v.map((x) => this.#data(x, depth + 1));
    const entries = new Map<string, Data>();
    for (const [k, x] of v.entries) {
      if (k === null || typeof k === 'boolean') throw new NotPorted(`a hash key ${String(k ?? 'nil')} has no JavaScript equivalent`);
      entries.set(k instanceof Sym ? k.name : String(k), this.#data(x, depth + 1));
    }
    const hash: DataHash = { kind: 'hash', entries: [...entries] };
    return hash;
  }
}

/** Ruby's `to_s` for what interpolation may meet; lists and hashes print differently across Ruby versions, so they are refused. */
function toS(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Sym) return v.name;
  if (v instanceof RubyRegexp) return v.toS();
  throw new NotPorted('it interpolates a value whose text differs between Ruby versions (a list, hash or map)');
}

/** A Ruby constant's name starts with a capital letter. */
function isConstantName(name: string): boolean {
  return /^[A-Z]/.test(name);
}

/** Ruby's truth: everything but nil and false. */
function truthy(v: Value): boolean {
  return v !== null && v !== false;
}

/** A value Ruby compares by its contents the way JavaScript's === does (symbols are interned). */
/** Ruby's `pattern === subject` for a `when`, on the values whose === is ==; a class, regexp or range is not compared. */
function caseEquals(pattern: Value, subject: Value): boolean {
  if (!isPlain(pattern)) throw new NotPorted('the port compares a case\'s subject with strings, numbers, symbols, true, false and nil only');
  return pattern === subject;
}

function isPlain(v: Value): v is null | boolean | number | string | Sym {
  return v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string' || v instanceof Sym;
}

/**
 * The top-level constant `name` (`Name` or `::Name`), when the file has not given the name a meaning of its
 * own: Ruby's or Rails' own, which the port knows.
 */
function isOwnConstant(node: Node | null, name: string, scope: Scope): boolean {
  return node !== null && node.type === 'const' && node.scope === null && node.name === name && (node.top || scope.lookup(name) === null);
}

/** `Rails.<name>` without arguments or block, Rails' own. */
function isRailsCall(node: Node, name: string, scope: Scope): boolean {
  return node.type === 'call' && node.name === name && node.args.length === 0 && node.block === null && isOwnConstant(node.receiver, 'Rails', scope);
}

/** `Rails.env` (Rails' own, unless the file gives `Rails` a meaning). */
function isRailsEnv(node: Node, scope: Scope): boolean {
  return isRailsCall(node, 'env', scope);
}

const REGEXP_OPTIONS: Readonly<Record<string, number>> = { IGNORECASE: 1, EXTENDED: 2, MULTILINE: 4 };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Ruby's `Date` (and so `DateTime`) name lists, which routes files use for date segments; a month list starts with nil. */
const DATE_NAMES: Readonly<Record<string, readonly (string | null)[]>> = {
  MONTHNAMES: [null, ...MONTHS],
  ABBR_MONTHNAMES: [null, ...MONTHS.map((m) => m.slice(0, 3))],
  DAYNAMES: DAYS,
  ABBR_DAYNAMES: DAYS.map((d) => d.slice(0, 3)),
};

/** `Date` or `DateTime` (or `::Date`, `::DateTime`) when the file has not given the name a meaning of its own. */
function isCoreDate(node: Node, scope: Scope): boolean {
  return isOwnConstant(node, 'Date', scope) || isOwnConstant(node, 'DateTime', scope);
}

/** `Rails::VERSION` (or `::Rails::VERSION`) when the file has not given `Rails` a meaning of its own. */
function isRailsVersion(node: Node, scope: Scope): boolean {
  return node.type === 'const' && node.name === 'VERSION' && isOwnConstant(node.scope, 'Rails', scope);
}

/** `ActionController::Routing` (with or without a leading `::`), when the file has not given `ActionController` a meaning of its own. */
function isRailsRouting(node: Node, scope: Scope): boolean {
  return node.type === 'const' && node.name === 'Routing' && isOwnConstant(node.scope, 'ActionController', scope);
}

/** `Rails.version` or `Rails::VERSION::STRING` (with or without a leading `::`), when the file has not given `Rails` a meaning of its own. */
function isRailsVersionString(node: Node, scope: Scope): boolean {
  if (node.type === 'const') return node.name === 'STRING' && node.scope !== null && isRailsVersion(node.scope, scope);
  return isRailsCall(node, 'version', scope);
}

/** The version strings of Rails 2's releases: a comparison with one is decided when all of them answer it alike. */
const RAILS_2_RELEASES: readonly string[] = [
  '2.0.0', '2.0.1', '2.0.2', '2.0.4', '2.0.5', '2.1.0', '2.1.1', '2.1.2', '2.2.2', '2.2.3', '2.3.2', '2.3.3', '2.3.4', '2.3.5',
  '2.3.6', '2.3.7', '2.3.8', '2.3.9', '2.3.10', '2.3.11', '2.3.12', '2.3.14', '2.3.15', '2.3.16', '2.3.17', '2.3.18',
];

const RELEASE_COMPARISONS: ReadonlySet<string> = new Set(['<', '<=', '>', '>=', '==', '!=']);

/** Ruby's String comparison of two version strings (bytewise; these are ASCII). */
function compareStrings(op: string, left: string, right: string): boolean {
  switch (op) {
    case '<': return left < right;
    case '<=': return left <= right;
    case '>': return left > right;
    case '>=': return left >= right;
    case '==': return left === right;
    default: return left !== right;
  }
}

/** `Regexp` (or `::Regexp`) when the file has not given the name a meaning of its own. */
function isCoreRegexp(node: Node, scope: Scope): boolean {
  return isOwnConstant(node, 'Regexp', scope);
}

/** Ruby's `Regexp.escape`: metacharacters and space get a backslash, whitespace controls their escape. */
function escapeRegexp(text: string): string {
  const named: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\f': '\\f', '\v': '\\v', ' ': '\\ ' };
  let out = '';
  for (const ch of text) out += named[ch] ?? ('[]{}()|-*.\\?+^$#'.includes(ch) ? `\\${ch}` : ch);
  return out;
}

function strip(text: string): string {
  const blank = (c: string | undefined) => c === ' ' || c === '\0' || (c !== undefined && c >= '\t' && c <= '\r');
  let from = 0;
  let to = text.length;
  while (from < to && blank(text[from])) from++;
  while (to > from && blank(text[to - 1])) to--;
  return text.slice(from, to);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * Rails reads `:only` and `:except` through Ruby's `Array()`, which makes an empty hash an empty list:
 * `:only => {}` allows no default action. Given as `[]`, it says so in Signalbox's terms.
 */
function emptyListOptions(value: Value): Value {
  if (!(value instanceof RubyHash)) return value;
  let copy: RubyHash | null = null;
  for (const [key, v] of value.entries) {
    const name = key instanceof Sym ? key.name : key;
    if ((name === 'only' || name === 'except') && v instanceof RubyHash && v.entries.size === 0) (copy ??= copyHash(value)).entries.set(key, []);
  }
  return copy ?? value;
}

function copyHash(hash: RubyHash): RubyHash {
  const copy = new RubyHash();
  for (const [k, v] of hash.entries) copy.entries.set(k, v);
  return copy;
}

/** `ActionController::Routing::Routes`, or `::ActionController::Routing::Routes`. */
function isRoutesConstant(node: Node): boolean {
  return isConstantPath(node, ROUTES_CONSTANT);
}

/** A constant path such as `ActionController::Base`, written from the top (`::`) or not. */
function isConstantPath(node: Node, path: readonly string[]): boolean {
  const names: string[] = [];
  let n: Node | null = node;
  while (n !== null && n.type === 'const') {
    names.unshift(n.name);
    if (n.scope === null) break;
    n = n.scope;
  }
  return n !== null && n.type === 'const' && n.scope === null && names.join('::') === path.join('::');
}

function collectDefinitions(nodes: readonly Node[], into: Set<string>): void {
  const stack: Node[] = [...nodes];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'def') into.add(n.name);
    if (n.type === 'class' || n.type === 'module' || n.type === 'begin' || n.type === 'def') stack.push(...n.body);
    if (n.type === 'if') stack.push(...n.then, ...(n.else ?? []));
    if (n.type === 'call' && n.block) stack.push(...n.block.body);
  }
}

/** Whether a file draws its routes with `ActionController::Routing::Routes.draw`, anywhere in it. */
function drawsRoutes(nodes: readonly Node[]): boolean {
  const stack: unknown[] = [...nodes];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const n = value as Node;
    if (n.type === 'call' && n.name === 'draw' && n.receiver !== null && isRoutesConstant(n.receiver)) return true;
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'line' && key !== 'start' && key !== 'end' && child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return false;
}

function describeNode(node: Node): string {
  switch (node.type) {
    case 'loop': return `a ${node.keyword} loop`;
    case 'case': return 'a case statement';
    case 'begin': return node.rescues ? 'a begin/rescue block' : 'a begin block';
    case 'rescue_mod': return 'a rescue modifier';
    case 'jump': return `${node.keyword}`;
    case 'directive': return node.keyword;
    case 'and': case 'or': case 'not': return `a boolean expression (${node.type})`;
    case 'masgn': return 'a multiple assignment';
    case 'ivar': case 'gvar': case 'cvar': return `the variable ${node.name}`;
    case 'xstr': return 'a shell command';
    case 'defined': return 'defined?';
    case 'self': return 'self';
    case 'file': case 'lineno': case 'encoding': return 'the file\'s own name or line';
    case 'range': return 'a range';
    case 'lambda': return 'a lambda';
    case 'splat': case 'dsplat': case 'blockpass': return 'a splat';
    default: return `a ${node.type}`;
  }
}

/** The statement as a report shows it: one line, or its first and last lines around an ellipsis. */
export function summarize(text: string, node: { start: number; end: number }): string {
  const lines = text.slice(node.start, node.end).split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const short = (s: string) => (s.length > 160 ? `${s.slice(0, 159)}…` : s);
  if (lines.length <= 1) return short(lines[0] ?? '');
  return `${short(lines[0])} … ${short(lines[lines.length - 1])}`;
}

/**
 * Whether a route's path has a `:controller` segment, or its options give one. (A `:defaults` controller needs
 * the segment: Rails 2.x refuses a default with no segment to assign it to.)
 */
function namesController(path: Value | undefined, options: Value | undefined): boolean {
  if (typeof path === 'string' && /:controller(?![A-Za-z0-9_])/.test(path)) return true;
  return options instanceof RubyHash && (options.entries.has(Sym.of('controller')) || options.entries.has('controller'));
}
