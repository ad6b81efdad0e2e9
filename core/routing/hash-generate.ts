/**
 * Hash-based generation (`generate`, `url_for` and `redirect_to` from an
 * options hash) compiled per route set, as Rails 2.1 keyed its routes:
 * controller, then action, then the set of option keys lead to the
 * candidate routes in the order generation tries them, and each candidate
 * is a straight-line function compiled from its segments.
 *
 * It gives exactly what the reference `Generator` gives, without building
 * the option copies, the merged hash or the expiry table: values are read
 * from the options and the recall where the reference would read its
 * copies. Calls it does not cover (`use_route`, undefined or non-text
 * controller and action values, function values, objects off the plain
 * prototype, a call no route can serve) return `undefined`, and the
 * reference then answers them, error included. A property test holds the
 * two to agreement on random tables and option hashes.
 *
 * Keys and literal text are embedded with `JSON.stringify` only; values
 * never become code. A process that refuses code generation from strings
 * runs the same steps as a loop over each route's data (`interpretedRoute`).
 */
import { functionFromSource } from '../generated-code.ts';
import type { GenRoute } from './gen-route.ts';
import { buildQueryString, escapePath, escapePathComponent, toParam } from './params.ts';
import { DEFAULT_SEGMENT_SOURCE } from './pattern.ts';
import { compileRequirement } from './requirement.ts';
import type { GenerateOptions, KeySegment, Segment } from './types.ts';

/** A compiled candidate: the path, null when this route cannot build one, undefined to defer to the reference. */
type RouteFn = (
  input: GenerateOptions,
  recall: GenerateOptions,
  /** The controller as the options give it, made absolute; undefined when they give none. */
  controller: string | undefined,
  /** The controller changed against the recall. */
  controllerExpired: boolean,
  /** The action in the options as generation reads them (`index` when none is given). */
  optionAction: string,
  /** The action in the merged hash. */
  mergedAction: unknown,
  /** The action as expiry compares it (undefined when the options give none and no controller). */
  expiryAction: string | undefined,
) => string | null | undefined;

interface Candidate {
  readonly fn: RouteFn;
  /** Option keys this route does not use: they form the query string. */
  readonly extras: readonly string[];
}

/** The option keys of a call, in the order given (`only_path` passed over in `url_for` mode). */
interface Keyset {
  readonly keys: readonly string[];
  /** The keys as selection sees them: `action` added last when the options give none. */
  readonly selection: readonly string[];
}

interface ActionEntry {
  /** Routes whose controller and action requirements admit this pair, in route order. */
  readonly routes: readonly GenRoute[];
  /** Candidates in the order generation tries them, by key set. */
  readonly plans: Map<Keyset, readonly Candidate[]>;
  lastKeyset: Keyset | null;
  lastPlan: readonly Candidate[];
}

// Controllers, actions and key sets come from callers (and from recognised paths); past these sizes the
// memo starts again, so odd inputs cannot grow it without limit.
const ENTRY_LIMIT = 2000;
const PLAN_LIMIT = 64;

const PASS = 1;
const DEFER = 2;

/**
 * In `url_for` mode, what an option key is: `only_path` is passed over (PASS); the other URL options and
 * credentials change the options before generation (DEFER: the caller's general way takes them).
 */
function urlKey(key: string): number {
  switch (key) {
    case 'only_path': return PASS;
    case 'anchor': case 'params': case 'host': case 'protocol': case 'port': case 'trailing_slash':
    case 'skip_relative_url_root': case 'overwrite_params': case 'relative_url_root': case 'user': case 'password':
      return DEFER;
    default: return 0;
  }
}

// Enumerates what `for...in` would add to an object's own keys: nothing, unless Object.prototype has
// been given enumerable properties (then the loop below would see them, and the reference would not).
const INHERITS_NOTHING: object = Object.freeze({});

function prototypeIsClean(): boolean {
  for (const _ in INHERITS_NOTHING) return false;
  return true;
}

/** The recall of a call that gives none: generation only reads it. */
export const NO_RECALL: GenerateOptions = Object.freeze({});

// Kept apart from util's isPlainObject, which every layer calls with objects of every shape: this call
// site sees only option hashes, and stays fast.
function plainPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// The default `[^/.?]+` requirement (resources spell it out for `:id`), without a RegExp.
function plain(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 47 || c === 46 || c === 63) return false;
  }
  return true;
}

/** `to_param` with the usual string case first. */
function text(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' ? `${value}` : toParam(value);
}

/**
 * Rails' `build_expiry` for one key: the options give it and change the recalled value. The recall has
 * a plain prototype and route keys name nothing on Object.prototype, so `in` finds only its own keys.
 */
function expired(option: unknown, recall: GenerateOptions, key: string): boolean {
  if (option === undefined) return false;
  const recalled = recall[key];
  if (recalled !== undefined) return text(option) !== text(recalled);
  return key in recall && text(option) !== null;
}

/** A glob's value as generation writes it: components escaped one by one, or a path with its slashes kept. */
function globValue(raw: unknown): string {
  if (raw === undefined || raw === null || raw === false) return '';
  return Array.isArray(raw)
    ? raw.map((part) => escapePathComponent(toParam(part) ?? '')).join('/')
    : escapePath(toParam(raw) ?? '');
}

export class HashGenerator {
  private readonly entries = new Map<string, Map<string, ActionEntry>>();
  private entryCount = 0;
  private readonly compiled = new Map<GenRoute, RouteFn>();
  private readonly keysets = new Map<string, Keyset>();
  // The pair and the key set asked for last: a call site usually asks for the same ones again.
  private lastController = '';
  private lastAction = '';
  private lastEntry: ActionEntry | null = null;
  private lastKeyset: Keyset = { keys: [], selection: ['action'] };
  private lastRecall: GenerateOptions = NO_RECALL;

  constructor(private readonly routes: readonly GenRoute[]) {}

  /**
   * The path with its query string for `generate(input, recall)`, or undefined when the reference
   * generator must answer. With `url`, `only_path` is passed over, as `url_for` removes it.
   */
  generate(input: GenerateOptions, recall: GenerateOptions, url: boolean): string | undefined {
    if (typeof input !== 'object' || input === null || !plainPrototype(input)) return undefined;
    // A request's helpers pass the same recall to every call: it is checked once.
    if (recall !== this.lastRecall) {
      if (!plainPrototype(recall)) return undefined;
      this.lastRecall = recall;
    }
    let given: string | undefined;
    let action: string | undefined;
    // One pass over the options: their controller and action, whether they are the key set of the
    // last call, and whether anything in them needs the reference.
    const last = this.lastKeyset.keys;
    let same = true;
    let j = 0;
    for (const key in input) {
      const value = input[key];
      if (value === undefined || typeof value === 'function') return undefined;
      if (key === 'controller') {
        if (typeof value !== 'string') return undefined;
        given = value;
      } else if (key === 'action') {
        if (typeof value !== 'string') return undefined;
        action = value;
      } else if (key === 'use_route' || key === '__proto__') {
        return undefined;
      } else if (url) {
        const kind = urlKey(key);
        if (kind === DEFER) return undefined;
        if (kind === PASS) continue;
      }
      if (same && last[j++] !== key) same = false;
    }
    let keyset = this.lastKeyset;
    if (!same || j !== last.length) {
      if (!prototypeIsClean()) return undefined;
      keyset = this.keysetOf(url ? Object.keys(input).filter((k) => urlKey(k) !== PASS) : Object.keys(input));
      this.lastKeyset = keyset;
    }

    // Rails' `RouteSet#generate`: the controller made absolute against the recalled one's module.
    let controller = given;
    let controllerExpired = false;
    if (given !== undefined) {
      controllerExpired = expired(given, recall, 'controller');
      if (controllerExpired && given.charCodeAt(0) !== 47) {
        const oldParts = String(toParam(recall.controller)).split('/');
        const newParts = given.split('/');
        controller = [...oldParts.slice(0, Math.max(0, oldParts.length - newParts.length)), ...newParts].join('/');
      }
      if (controller!.charCodeAt(0) === 47) controller = controller!.slice(1);
    }
    const expiryAction = action !== undefined ? action : given !== undefined ? 'index' : undefined;
    const optionAction = action !== undefined ? action : 'index';
    let mergedAction: unknown = expiryAction;
    if (mergedAction === undefined) {
      const recalled = recall.action;
      mergedAction = recalled === undefined || recalled === null || recalled === false ? 'index' : recalled;
    }
    const controllerName = controller !== undefined ? controller : text(recall.controller);
    const actionName = text(mergedAction);
    if (controllerName === null || actionName === null) return undefined;

    let entry = this.lastEntry;
    if (entry === null || controllerName !== this.lastController || actionName !== this.lastAction) {
      entry = this.entry(controllerName, actionName);
      this.lastController = controllerName;
      this.lastAction = actionName;
      this.lastEntry = entry;
    }
    let candidates = entry.lastPlan;
    if (entry.lastKeyset !== keyset) {
      candidates = this.plan(entry, keyset);
      entry.lastKeyset = keyset;
      entry.lastPlan = candidates;
    }
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i];
      const path = c.fn(input, recall, controller, controllerExpired, optionAction, mergedAction, expiryAction);
      if (path === undefined) return undefined;
      if (path !== null) return c.extras.length === 0 ? path : path + buildQueryString(input, c.extras);
    }
    // No route: the reference raises the error, with its message.
    return undefined;
  }

  /** One object per distinct key set, so plans can be found by identity. */
  private keysetOf(keys: string[]): Keyset {
    const id = keys.join('\u0000');
    let keyset = this.keysets.get(id);
    if (keyset === undefined) {
      if (this.keysets.size >= ENTRY_LIMIT) {
        // Plans are held by key set; starting the key sets again starts them again too.
        this.keysets.clear();
        this.entries.clear();
        this.entryCount = 0;
        this.lastEntry = null;
      }
      keyset = { keys, selection: keys.includes('action') ? keys : [...keys, 'action'] };
      this.keysets.set(id, keyset);
    }
    return keyset;
  }

  private entry(controller: string, action: string): ActionEntry {
    let byAction = this.entries.get(controller);
    let entry = byAction?.get(action);
    if (entry !== undefined) return entry;
    if (this.entryCount >= ENTRY_LIMIT) {
      this.entries.clear();
      this.lastEntry = null;
      this.entryCount = 0;
      byAction = undefined;
    }
    if (byAction === undefined) this.entries.set(controller, (byAction = new Map()));
    const routes = this.routes.filter((g) => accepts(g.controllerReq, controller) && accepts(g.actionReq, action));
    entry = { routes, plans: new Map(), lastKeyset: null, lastPlan: [] };
    byAction.set(action, entry);
    this.entryCount++;
    return entry;
  }

  /** Rails' `routes_for_controller_and_action_and_keys`: fewest unused keys first, then route order. */
  private plan(entry: ActionEntry, keyset: Keyset): readonly Candidate[] {
    const known = entry.plans.get(keyset);
    if (known !== undefined) return known;
    const keys = keyset.selection;
    const candidates = entry.routes
      .map((g, order) => ({ g, order, extras: keys.filter((k) => !g.significant.includes(k)) }))
      .sort((x, y) => x.extras.length - y.extras.length || x.order - y.order)
      .map(({ g, extras }) => ({ fn: this.compile(g), extras }));
    if (entry.plans.size >= PLAN_LIMIT) entry.plans.clear();
    entry.plans.set(keyset, candidates);
    return candidates;
  }

  private compile(g: GenRoute): RouteFn {
    let fn = this.compiled.get(g);
    if (fn === undefined) this.compiled.set(g, (fn = compileRoute(g)));
    return fn;
  }
}

function accepts(req: string | RegExp | null, value: string): boolean {
  if (req === null) return true;
  return typeof req === 'string' ? req === value : req.test(value);
}

const deferAlways: RouteFn = () => undefined;

/**
 * One route's `generate_raw` as straight-line code: the requirement checks, each key segment's value
 * (from the merged hash until a segment's key expires, from the options after), the optional tail left
 * off where its values are the defaults, and the escaped path.
 */
function compileRoute(g: GenRoute): RouteFn {
  const keys = g.route.significant_keys;
  // A key Object.prototype answers for (`constructor`, `toString`) reads differently from a copied hash.
  if (keys.some((k) => k in Object.prototype || k === '__proto__' || k === 'only_path')) return deferAlways;
  // A list requirement (`path: ['home']`) is compared element by element, a hash key by key, a boolean as itself:
  // the reference generator does that.
  if (g.checks.some((c) => c.value !== null && typeof c.value !== 'string')) return deferAlways;
  const q = JSON.stringify;
  const res: RegExp[] = [];
  const re = (r: RegExp) => `res[${res.push(r) - 1}]`;
  const merged = (key: string) => key === 'controller' ? '(controller !== undefined ? controller : recall.controller)'
    : key === 'action' ? 'mergedAction'
      : `(input[${q(key)}] !== undefined ? input[${q(key)}] : recall[${q(key)}])`;
  const option = (key: string) => key === 'controller' ? 'controller' : key === 'action' ? 'optionAction' : `input[${q(key)}]`;
  // Rails' `build_expiry` for one key, inline: the options give it and change the recalled value.
  const expiry = (key: string) => {
    if (key === 'controller') return 'if (controllerExpired) flipped = true;';
    const given = key === 'action' ? 'expiryAction' : `input[${q(key)}]`;
    return `{ const o = ${given}; if (o !== undefined) { const r = recall[${q(key)}];`
      + ` if (r !== undefined ? text(o) !== text(r) : ${q(key)} in recall && text(o) !== null) flipped = true; } }`;
  };
  const test = (r: RegExp, source: string | null, v: string) => source === DEFAULT_SEGMENT_SOURCE ? `plain(${v})` : `${re(r)}.test(${v})`;

  const body: string[] = [];
  for (const c of candidateChecks(g)) {
    if (c.re !== null) {
      body.push(`{ const m = ${merged(c.key)}; if (m === undefined || m === null || m === false) return null;`,
        `const v = text(${option(c.key)}); if (v === null || !${re(c.re)}.test(v)) return null; }`);
    } else {
      body.push(`if (text(${merged(c.key)}) !== ${q(c.value)}) return null;`);
    }
  }

  const segs = g.segments;
  body.push('let flipped = false;');
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (!('key' in s)) continue;
    const v = `v${i}`;
    const valueRe = g.valueRes[i];
    const source = s.requirement === null ? null : compileRequirement(s.requirement);
    body.push(`const raw${i} = flipped ? ${option(s.key)} : ${merged(s.key)};`);
    // A number's text is digits, signs, dots and letters: it never needs escaping.
    if (s.type === 'dynamic') body.push(`const num${i} = typeof raw${i} === 'number';`);
    if (s.type === 'glob') {
      body.push(`const ${v} = globValue(raw${i});`);
      if (valueRe !== null) body.push(`if (!${test(valueRe, source, v)}) return null;`);
    } else {
      const def = s.default === null ? 'null' : q(s.default);
      body.push(`let ${v} = raw${i} === undefined || raw${i} === null || raw${i} === false ? ${def} : text(raw${i});`);
      // A value whose to_param is nil falls back on the default, except for the controller.
      if (s.default !== null && s.type !== 'controller') body.push(`if (${v} === null) ${v} = ${def};`);
      if (s.type === 'controller') body.push(`if (${v} === null) return null;`, `${v} = ${v}.toLowerCase();`);
      if (s.default !== null || s.type === 'controller') {
        if (valueRe !== null) body.push(`if (!${test(valueRe, source, v)}) return null;`);
      } else if (s.optional) {
        if (valueRe !== null) body.push(`if (${v} !== null && !${test(valueRe, source, v)}) return null;`);
      } else {
        body.push(`if (${v} === null) return null;`);
        if (valueRe !== null) body.push(`if (!${test(valueRe, source, v)}) return null;`);
      }
    }
    body.push(`if (!flipped) ${expiry(s.key)}`);
  }

  const { minLast, tail } = optionalTail(segs);
  body.push(`let last = ${minLast};`);
  if (tail.length > 0) body.push(`do { ${tail.map(([j, def]) => `if (v${j} !== ${q(def)}) { last = ${j}; break; }`).join(' ')} } while (false);`);

  // The path: everything up to the last fixed segment at once, then the optional tail piece by piece.
  const piece = (j: number, s: Segment): string => {
    switch (s.type) {
      case 'divider': return q(s.value);
      case 'static': return q(escapePathComponent(s.value));
      case 'glob': return `v${j}`;
      case 'controller': return `escapePath(v${j})`;
      default: return s.optional && s.default === null ? `(v${j} === null ? '' : num${j} ? v${j} : escape(v${j}))` : `(num${j} ? v${j} : escape(v${j}))`;
    }
  };
  const nullGap = (j: number, s: Segment) =>
    (s.type === 'dynamic' && s.optional && s.default === null ? [`if (${j} < last && v${j} === null) return null;`] : []);
  const head: string[] = [];
  for (let j = 0; j <= minLast; j++) {
    body.push(...nullGap(j, segs[j]));
    head.push(piece(j, segs[j]));
  }
  body.push(`let out = ${joinLiterals(head)};`);
  for (let j = minLast + 1; j < segs.length; j++) {
    body.push(`if (last >= ${j}) { ${nullGap(j, segs[j]).join(' ')} out += ${piece(j, segs[j])}; }`);
  }
  body.push('return out;');

  const source = `return function generate(input, recall, controller, controllerExpired, optionAction, mergedAction, expiryAction) {\n${body.join('\n')}\n};`;
  const factory = functionFromSource<(...deps: unknown[]) => RouteFn>(['text', 'plain', 'globValue', 'escape', 'escapePath', 'res'], source);
  // Where code generation is refused, the same steps are taken by a loop over the route's data.
  return factory === null ? interpretedRoute(g) : factory(text, plain, globValue, escapePathComponent, escapePath, res);
}

/** The route-level checks a candidate makes: selection has already compared a fixed controller and action. */
function candidateChecks(g: GenRoute): GenRoute['checks'] {
  return g.checks.filter((c) => !(c.re === null && typeof c.value === 'string' && (c.key === 'controller' || c.key === 'action')));
}

/**
 * Rails' string_structure: `minLast`, the last segment always written, and from the end back to it the
 * optional key segments, each with the value (its default) at which it and what follows are left off.
 */
function optionalTail(segs: readonly Segment[]): { minLast: number; tail: [index: number, value: string | null][] } {
  let minLast = segs.length - 1;
  const tail: [index: number, value: string | null][] = [];
  for (; minLast > 0; minLast--) {
    const s = segs[minLast];
    if (!s.optional) break;
    if (s.type === 'static' || s.type === 'divider') continue;
    tail.push([minLast, s.type === 'glob' ? '' : s.default]);
  }
  return { minLast, tail };
}

/** A key segment as `interpretedRoute` walks it: what the written code embeds as literals, kept as data. */
interface KeyStep {
  readonly index: number;
  readonly segment: KeySegment;
  /** The whole-value pattern, or 'plain' for the default `[^/.?]+`, or null for none. */
  readonly check: RegExp | 'plain' | null;
  readonly default: string | null;
}

/**
 * `compileRoute`'s function as a loop, for a process that refuses code generation from strings: the same
 * checks, the same reads of the options and the recall in the same order, the same path. The property
 * test that holds the written form to the reference Generator runs against this one in such a process.
 */
function interpretedRoute(g: GenRoute): RouteFn {
  const checks = candidateChecks(g);
  const segs = g.segments;
  const steps: KeyStep[] = [];
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (!('key' in s)) continue;
    const valueRe = g.valueRes[i];
    const plainCheck = s.requirement !== null && compileRequirement(s.requirement) === DEFAULT_SEGMENT_SOURCE;
    steps.push({ index: i, segment: s, check: valueRe === null ? null : plainCheck ? 'plain' : valueRe, default: s.type === 'glob' ? null : s.default });
  }
  const { minLast, tail } = optionalTail(segs);
  const literal = segs.map((s) => (s.type === 'divider' ? s.value : s.type === 'static' ? escapePathComponent(s.value) : ''));
  const passes = (check: RegExp | 'plain' | null, v: string): boolean => check === null || (check === 'plain' ? plain(v) : check.test(v));
  const gapped = (s: Segment): boolean => s.type === 'dynamic' && s.optional && s.default === null;

  return (input, recall, controller, controllerExpired, optionAction, mergedAction, expiryAction) => {
    // The merged hash's value of a key, and the options' own (the written form inlines these per key).
    const merged = (key: string): unknown => key === 'controller' ? (controller !== undefined ? controller : recall.controller)
      : key === 'action' ? mergedAction : input[key] !== undefined ? input[key] : recall[key];
    const option = (key: string): unknown => (key === 'controller' ? controller : key === 'action' ? optionAction : input[key]);
    for (let k = 0; k < checks.length; k++) {
      const c = checks[k];
      if (c.re !== null) {
        const m = merged(c.key);
        if (m === undefined || m === null || m === false) return null;
        const v = text(option(c.key));
        if (v === null || !c.re.test(v)) return null;
      } else if (text(merged(c.key)) !== c.value) return null;
    }
    // Per call, not shared: a value's to_param may itself generate a URL.
    const values: (string | null)[] = [];
    const numbers: boolean[] = [];
    for (let j = 0; j < segs.length; j++) {
      values.push(null);
      numbers.push(false);
    }
    let flipped = false;
    for (let k = 0; k < steps.length; k++) {
      const { index, segment: s, check, default: def } = steps[k];
      const raw = flipped ? option(s.key) : merged(s.key);
      let v: string | null;
      if (s.type === 'glob') {
        v = globValue(raw);
        if (!passes(check, v)) return null;
      } else {
        // A number's text is digits, signs, dots and letters: it never needs escaping.
        if (s.type === 'dynamic') numbers[index] = typeof raw === 'number';
        v = raw === undefined || raw === null || raw === false ? def : text(raw);
        // A value whose to_param is nil falls back on the default, except for the controller.
        if (def !== null && s.type !== 'controller' && v === null) v = def;
        if (s.type === 'controller') {
          if (v === null) return null;
          v = v.toLowerCase();
        }
        if (def !== null || s.type === 'controller') {
          if (!passes(check, v!)) return null;
        } else if (s.optional) {
          if (v !== null && !passes(check, v)) return null;
        } else if (v === null || !passes(check, v)) return null;
      }
      values[index] = v;
      if (!flipped) flipped = expires(s.key, input, recall, controllerExpired, expiryAction);
    }
    let last = minLast;
    for (let k = 0; k < tail.length; k++) {
      if (values[tail[k][0]] !== tail[k][1]) {
        last = tail[k][0];
        break;
      }
    }
    // Rails' string_structure: up to the last fixed segment, then the optional tail up to `last`.
    for (let j = 0; j <= minLast; j++) if (gapped(segs[j]) && j < last && values[j] === null) return null;
    let out = '';
    for (let j = 0; j < segs.length && j <= Math.max(minLast, last); j++) {
      if (j > minLast && gapped(segs[j]) && j < last && values[j] === null) return null;
      const s = segs[j];
      const v = values[j];
      switch (s.type) {
        case 'divider': case 'static': out += literal[j]; break;
        case 'glob': out += v!; break;
        case 'controller': out += escapePath(v!); break;
        default: out += v === null ? '' : numbers[j] ? v : escapePathComponent(v);
      }
    }
    return out;
  };
}

/** Rails' `build_expiry` for one key: the options give it and change the recalled value. */
function expires(key: string, input: GenerateOptions, recall: GenerateOptions, controllerExpired: boolean, expiryAction: string | undefined): boolean {
  if (key === 'controller') return controllerExpired;
  const given = key === 'action' ? expiryAction : input[key];
  if (given === undefined) return false;
  const r = recall[key];
  return r !== undefined ? text(given) !== text(r) : key in recall && text(given) !== null;
}

/** `"/" + "posts" + "/" + x` as `"/posts/" + x`. */
function joinLiterals(parts: readonly string[]): string {
  const out: string[] = [];
  for (const p of parts) {
    const prev = out[out.length - 1];
    if (p.startsWith('"') && prev !== undefined && prev.startsWith('"')) out[out.length - 1] = JSON.stringify(JSON.parse(prev) + JSON.parse(p));
    else out.push(p);
  }
  return out.length === 0 ? '""' : out.join(' + ');
}
