/**
 * Builds one frozen `Route` from a path and the options a declaration
 * merged for it, following Rails 2.1's RouteBuilder: the path is wrapped in
 * slashes and split into segments; option keys naming a path segment become
 * its default (or its pattern, when a RegExp); other keys become fixed
 * requirements; trailing segments with defaults turn optional, and anything
 * optional before a required segment is made required again.
 */
import { ArgumentError, RoutingError } from '../errors.ts';
import { rubySymbolHint } from '../options.ts';
import { isAnchored, isRequirementInput, searchRegExp, toRequirement, type Requirement } from './requirement.ts';
import type { Route, RouteRequirement, Segment } from './types.ts';
import { fixedHash } from './fixed.ts';
import { isPlainObject, toParam, withoutTrailingSlashes } from './params.ts';

/** Methods a route condition may name. HEAD is answered by GET routes, so it may not be named. */
export const HTTP_METHODS = Object.freeze(['get', 'head', 'post', 'put', 'delete', 'options'] as const);

/** Option keys that steer the builder rather than describe parameters. */
// `actions` and `shallow` are resource options that a nested scope carries; a plain route ignores them.
const BUILDER_KEYS = new Set(['path_prefix', 'name_prefix', 'namespace', 'requirements', 'defaults', 'conditions', 'actions', 'shallow']);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type MutableSegment = Mutable<Segment>;

export interface RouteOptions {
  readonly [key: string]: unknown;
}

/**
 * Declares one route.
 * @example buildRoute('posts/:id', { controller: 'posts', action: 'show' }, 0, 'post')
 */
export function buildRoute(rawPath: string, options: RouteOptions, index: number, name: string | null, pool: SegmentPool | null = null): Route {
  let path = rawPath.charCodeAt(0) === SLASH ? rawPath : `/${rawPath}`;
  if (path.charCodeAt(path.length - 1) !== SLASH) path += '/';
  const pathPrefix = options.path_prefix;
  if (pathPrefix !== undefined && pathPrefix !== null) {
    let prefix = String(pathPrefix);
    if (prefix.charCodeAt(0) === SLASH) prefix = prefix.slice(1);
    // The path brings its own leading slash: a prefix written with a trailing one ('/admin/') would double it.
    prefix = withoutTrailingSlashes(prefix);
    if (prefix !== '') path = `/${prefix}${path}`;
  }

  const keys: KeyIndex = { names: [], segments: [] };
  const segments = scanSegments(path, keys);
  const { defaults, requirements, conditions } = divideOptions(keys, options);
  const routeRequirements = assignOptions(segments, keys, defaults, requirements);
  const methods = methodCondition(conditions, rawPath);

  const segmentKeys: string[] = [];
  const routeDefaults: Record<string, string> = {};
  for (let i = 0; i < keys.segments.length; i++) {
    const s = keys.segments[i];
    segmentKeys.push(s.key);
    if (s.type === 'glob') routeDefaults[s.key] = '';
    else if (s.default !== null) routeDefaults[s.key] = s.default;
  }
  // `action: nil` reads as no action at all, as Ruby's `||=` does.
  if (!segmentKeys.includes('action') && routeRequirements.action == null) routeRequirements.action = 'index';
  // A nil controller names none: the route is as illegal as one that leaves it out.
  if (routeRequirements.controller === null) delete routeRequirements.controller;
  // A key may stand in the path twice (`:path_prefix => '/api/:format'` before a resource's `.:format`), as Rails drew it:
  // segment_keys keeps both, for positional helper arguments, and a key is significant once.
  const significantKeys = [...new Set(segmentKeys)];
  for (const key in routeRequirements) {
    if (!significantKeys.includes(key)) significantKeys.push(key);
    const req = routeRequirements[key];
    if (typeof req === 'string') routeDefaults[key] = req;
  }
  // Parameters become object keys; this one would reach the object's prototype instead.
  if (significantKeys.includes('__proto__')) throw new ArgumentError('__proto__ cannot name a route parameter');
  if (!significantKeys.includes('controller')) {
    // A key kept with Ruby's colon (`{ ':controller': 'posts' }`, from `:controller => 'posts'`) names nothing here.
    const symbolKey = significantKeys.find((key) => /^:\w+$/.test(key));
    const hint = symbolKey === undefined ? '' : ` (option names are written without Ruby's colon: ${symbolKey.slice(1)}, not ${JSON.stringify(symbolKey)})`;
    throw new RoutingError(`Illegal route ${JSON.stringify(rawPath)}: the :controller must be specified!${hint}`);
  }

  for (let i = 0; i < segments.length; i++) segments[i] = settle(segments[i], pool);

  return Object.freeze({
    index,
    name,
    // The segments print back as the path itself, except that a `?piece?` may have been made required.
    path: path.includes('?') ? printSegments(segments) : path.length > 1 ? path.slice(0, -1) : path,
    methods,
    segments: Object.freeze(segments as Segment[]),
    requirements: Object.freeze(routeRequirements),
    conditions: otherConditions(conditions),
    defaults: Object.freeze(routeDefaults),
    segment_keys: Object.freeze(segmentKeys),
    significant_keys: Object.freeze(significantKeys),
  });
}

/**
 * Frozen static segments shared by the routes of one route set. A table of resources repeats the same
 * few words (`posts`, `edit`, `new`) in route after route, and each frozen copy costs an allocation and
 * a freeze at draw time.
 */
export type SegmentPool = Map<string, Segment>;

// Dividers are the same few values everywhere; each is frozen once for the process.
const DIVIDERS: Readonly<Record<string, readonly [required: Segment, optional: Segment]>> = Object.freeze({
  '/': [Object.freeze({ type: 'divider', value: '/', optional: false }), Object.freeze({ type: 'divider', value: '/', optional: true })],
  '.': [Object.freeze({ type: 'divider', value: '.', optional: false }), Object.freeze({ type: 'divider', value: '.', optional: true })],
  '?': [Object.freeze({ type: 'divider', value: '?', optional: false }), Object.freeze({ type: 'divider', value: '?', optional: true })],
} as const);

/** The final, frozen form of a segment: a shared one where the route set has it already. */
function settle(s: MutableSegment, pool: SegmentPool | null): Segment {
  if (s.type === 'divider') {
    const shared = DIVIDERS[s.value];
    if (shared !== undefined) return shared[s.optional ? 1 : 0];
  } else if (s.type === 'static' && pool !== null && !s.optional) {
    const shared = pool.get(s.value);
    if (shared !== undefined) return shared;
    pool.set(s.value, Object.freeze(s));
    return s;
  }
  return Object.freeze(s);
}

const SLASH = 47;
// Most routes have no conditions besides a method; they share this one.
const NO_CONDITIONS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The conditions a route keeps: every one but `method`, which became `Route#methods`. */
function otherConditions(conditions: Record<string, unknown>): Readonly<Record<string, unknown>> {
  let other: Record<string, unknown> | null = null;
  for (const key in conditions) {
    if (key === 'method') continue;
    (other ??= {})[key] = conditions[key];
  }
  return other === null ? NO_CONDITIONS : Object.freeze(other);
}

/** Splits a slash-wrapped path into segments, as Rails' `segment_for` does. */
export function parseSegments(path: string): MutableSegment[] {
  return scanSegments(path, null);
}

/** `parseSegments`, also listing the key segments in `keys` when given. */
function scanSegments(path: string, keys: KeyIndex | null): MutableSegment[] {
  const segments: MutableSegment[] = [];
  const n = path.length;
  let i = 0;
  while (i < n) {
    const c = path.charCodeAt(i);
    if ((c === COLON || c === STAR) && i + 1 < n && isWordChar(path.charCodeAt(i + 1))) {
      const end = wordEnd(path, i + 1);
      const key = path.slice(i + 1, end);
      const segment: MutableKeySegment = c === STAR
        ? { type: 'glob', key, optional: true, requirement: null }
        : key === 'controller'
          ? { type: 'controller', key: 'controller', optional: false, default: null, requirement: null }
          : { type: 'dynamic', key, optional: false, default: null, requirement: null };
      segments.push(segment);
      if (keys !== null) {
        keys.names.push(key);
        keys.segments.push(segment);
      }
      i = end;
      continue;
    }
    if (c === QUESTION) {
      const close = path.indexOf('?', i + 1);
      const newline = path.indexOf('\n', i + 1);
      if (close > i && (newline < 0 || newline > close)) {
        segments.push({ type: 'static', value: path.slice(i + 1, close), optional: true });
        i = close + 1;
        continue;
      }
    }
    if (c === SLASH || c === DOT || c === QUESTION) {
      segments.push({ type: 'divider', value: c === SLASH ? '/' : c === DOT ? '.' : '?', optional: c === SLASH });
      i++;
      continue;
    }
    let j = i + 1;
    // Tests written out rather than called: a route set is drawn once, so this mostly runs unoptimised.
    while (j < n) {
      const d = path.charCodeAt(j);
      if (d === SLASH || d === DOT || d === QUESTION) break;
      j++;
    }
    segments.push({ type: 'static', value: path.slice(i, j), optional: false });
    i = j;
  }
  return segments;
}

const COLON = 58;
const STAR = 42;
const QUESTION = 63;
const DOT = 46;

function wordEnd(path: string, from: number): number {
  let j = from;
  while (j < path.length) {
    const c = path.charCodeAt(j);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) break;
    j++;
  }
  return j;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** The path as declared, without the implied trailing slash: `/posts/:id.:format`. */
export function printSegments(segments: readonly Segment[]): string {
  let text = '';
  for (const s of segments) {
    switch (s.type) {
      case 'static': text += s.optional ? `?${s.value}?` : s.value; break;
      case 'divider': text += s.value; break;
      case 'glob': text += `*${s.key}`; break;
      default: text += `:${s.key}`;
    }
  }
  return text.length > 1 && text.charCodeAt(text.length - 1) === SLASH ? text.slice(0, -1) : text;
}

type MutableKeySegment = Extract<MutableSegment, { key: string }>;

/** A route's key segments in path order, beside their keys (so lookups by key use `indexOf`). */
interface KeyIndex {
  readonly names: string[];
  readonly segments: MutableKeySegment[];
}

/** The first segment that takes `key`, if any. */
function keySegment(keys: KeyIndex, key: string): MutableKeySegment | undefined {
  const i = keys.names.indexOf(key);
  return i < 0 ? undefined : keys.segments[i];
}

function divideOptions(keys: KeyIndex, options: RouteOptions) {
  // Parameter names become object keys; refuse the one that would reach a prototype instead.
  if (hasOwnProto(options) || hasOwnProto(options.requirements) || hasOwnProto(options.defaults) || hasOwnProto(options.conditions)) {
    throw new ArgumentError('__proto__ cannot name a route parameter, requirement, default or condition');
  }
  const requirements: Record<string, unknown> = { ...(asObject(options.requirements, 'requirements')) };
  const defaults: Record<string, unknown> = { ...(asObject(options.defaults, 'defaults')) };
  const conditions: Record<string, unknown> = { ...(asObject(options.conditions, 'conditions')) };
  const namespace = options.namespace;
  for (const key in options) {
    if (BUILDER_KEYS.has(key) || (key === 'controller' && namespace)) continue;
    const value = options[key];
    if (keys.names.includes(key) && !isRequirementInput(value)) defaults[key] = value;
    else requirements[key] = value;
  }
  // A namespace puts its module in front of the controller.
  if (namespace) {
    const controller = `${String(namespace).replace(/\/$/, '')}/${String(options.controller ?? '')}`;
    if (keys.names.includes('controller')) defaults.controller = controller;
    else requirements.controller = controller;
  }
  return { defaults, requirements, conditions };
}

function hasOwnProto(hash: unknown): boolean {
  return typeof hash === 'object' && hash !== null && Object.prototype.hasOwnProperty.call(hash, '__proto__');
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ArgumentError(`:${what} must be a hash, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

function assignOptions(segments: MutableSegment[], keys: KeyIndex, defaults: Record<string, unknown>, requirements: Record<string, unknown>): Record<string, RouteRequirement> {
  const routeRequirements: Record<string, RouteRequirement> = {};
  for (const key in requirements) {
    const value = requirements[key];
    const segment = keySegment(keys, key);
    if (segment) {
      if (!isRequirementInput(value)) {
        throw new ArgumentError(`${key}: requirements on a path segment must be regular expressions`);
      }
      const req = toRequirement(value);
      if (isAnchored(req)) throw new ArgumentError(`Regexp anchor characters are not allowed in routing requirements: /${req.source}/`);
      // JavaScript's `s` is Ruby's `m` (`.` matches a newline), which Rails refused here as it refused `m` itself.
      if (req.flags.includes('s')) throw new ArgumentError(`Regexp multiline option not allowed in routing requirements: /${req.source}/${req.flags}`);
      // A segment's requirement is embedded in the route's one pattern, compiled without the u flag and matched
      // against the percent-encoded path, where such an escape would match nothing, silently.
      if (req.flags.includes('u') && /\\[pP]\{|\\u\{/.test(req.source)) {
        throw new ArgumentError(`Routing requirement /${req.source}/${req.flags} on :${key}: \\p{...} and \\u{...} escapes cannot test a path segment, which is matched percent-encoded (é is %C3%A9)`);
      }
      segment.requirement = req;
    } else if (isRequirementInput(value)) {
      routeRequirements[key] = toRequirement(value);
    } else if (value === null) {
      // Rails keeps a nil option as a requirement: recognition returns the key as nil, and
      // generation takes the route only when the key is absent or nil.
      routeRequirements[key] = null;
    } else if (Array.isArray(value) && key !== 'controller' && key !== 'action') {
      // Rails kept a list as it was given (`map.root :controller => 'pages', :path => ['home']`): params held the
      // list, as a glob's parts are, and generation compared the value with ==.
      routeRequirements[key] = Object.freeze(value.map((v: unknown) => toParam(v) ?? ''));
    } else if (typeof value === 'boolean' && key !== 'controller' && key !== 'action') {
      // Rails kept true and false as given too (`:format => false`, `:secure => true`): params held the boolean,
      // and generation took the route only for the same boolean.
      routeRequirements[key] = value;
    } else if (isPlainObject(value) && typeof value.to_param !== 'function' && key !== 'controller' && key !== 'action') {
      // And a hash the same way (`with_options(:member => {...})` around named routes, a misspelt :requirements).
      routeRequirements[key] = fixedHash(key, value);
    } else if (value !== undefined) {
      routeRequirements[key] = toParam(value) ?? '';
    }
  }

  for (const key in defaults) {
    const value = defaults[key];
    const segment = keySegment(keys, key);
    if (!segment) throw new ArgumentError(`${key}: No matching segment exists; cannot assign default`);
    segment.optional = true;
    // Rails assigned `default.to_param if default`: false makes the segment optional, as nil does, with no default.
    if (value === null || value === undefined || value === false) continue;
    const param = toParam(value);
    if (segment.type === 'glob') {
      if (param !== null && param.trim() !== '') throw new RoutingError('paths cannot have non-empty default values');
    } else {
      segment.default = param;
    }
  }

  assignDefaultRouteOptions(keys.segments);
  ensureRequiredSegments(segments);
  return routeRequirements;
}

// `index` is the implied action, and an unconstrained `:id` may be left off.
function assignDefaultRouteOptions(segments: MutableKeySegment[]): void {
  for (const s of segments) {
    if (s.type !== 'dynamic') continue;
    if (s.key === 'action') {
      if (s.requirement === null || matchedText(s.requirement, 'index') === 'index') {
        s.default ??= 'index';
        s.optional = true;
      }
    } else if (s.key === 'id') {
      if ((s.default === null && s.requirement === null) || (s.requirement !== null && matchedText(s.requirement, '') !== null)) {
        s.optional = true;
      }
    }
  }
}

function matchedText(req: Requirement, text: string): string | null {
  const m = searchRegExp(req).exec(text);
  return m ? m[0] : null;
}

function optionalityImplied(s: MutableSegment): boolean {
  return s.type === 'divider' || s.type === 'glob' || (s.type === 'dynamic' && (s.key === 'action' || s.key === 'id'));
}

// An optional segment before a required one cannot be left off; say so unless the optionality was only implied.
function ensureRequiredSegments(segments: MutableSegment[]): void {
  let allowOptional = true;
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i];
    allowOptional = allowOptional && s.optional;
    if (!allowOptional && s.optional) {
      if (!optionalityImplied(s)) {
        process.emitWarning(`Route segment "${printSegments([s])}" cannot be optional because it precedes a required segment. This segment will be required.`, { code: 'SIGNALBOX_ROUTE_SEGMENT' });
      }
      s.optional = false;
    } else if (allowOptional && 'default' in s && s.default !== null) {
      s.optional = true;
    }
  }
}

const METHOD_LISTS = new Map<string, readonly string[]>();
// The usual condition is one method name; remember its validated list by the name as written.
const SINGLE_METHODS = new Map<string, readonly string[]>();

/** The route's `:conditions => { :method }` as upper-case names, checked; the errors name the route by its path, which a routes file of many connects needs. */
function methodCondition(conditions: Record<string, unknown>, rawPath: string): readonly string[] | null {
  const method = conditions.method;
  if (method === undefined || method === null) return null;
  if (typeof method === 'string') {
    const known = SINGLE_METHODS.get(method);
    if (known !== undefined) return known;
  }
  const list = Array.isArray(method) ? method.map((m) => String(m).toLowerCase()) : [String(method).toLowerCase()];
  for (const m of list) {
    if (m === 'head') {
      throw new ArgumentError(`HTTP method HEAD is invalid in route conditions (route ${JSON.stringify(rawPath)}). HEAD requests are answered by GET routes, returning just the response headers`);
    }
    if (!(HTTP_METHODS as readonly string[]).includes(m)) {
      // `:any` is a resource's word for an extra action that takes every method; a plain route that does has no condition.
      const meant = rubySymbolHint(method) || (m === 'any' ? ': a route that takes every method has no :method condition (:any is for a resource\'s :member, :collection and :new actions)' : ': use get, post, put, delete or options');
      throw new ArgumentError(`Invalid HTTP method specified in route conditions: ${JSON.stringify(conditions)} (route ${JSON.stringify(rawPath)})${meant}`);
    }
  }
  // Routes share one frozen list per distinct condition.
  const key = list.join(',');
  let methods = METHOD_LISTS.get(key);
  if (!methods) METHOD_LISTS.set(key, (methods = Object.freeze([...new Set(list.map((m) => m.toUpperCase()))])));
  if (typeof method === 'string' && SINGLE_METHODS.size < 64) SINGLE_METHODS.set(method, methods);
  return methods;
}
