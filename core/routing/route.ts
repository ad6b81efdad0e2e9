/**
 * Builds one frozen `Route` from a path and the options a declaration
 * merged for it, following Rails 2.1's RouteBuilder: the path is wrapped in
 * slashes and split into segments; option keys naming a path segment become
 * its default (or its pattern, when a RegExp); other keys become fixed
 * requirements; trailing segments with defaults turn optional, and anything
 * optional before a required segment is made required again.
 */
import { ArgumentError, RoutingError } from '../errors.ts';
import { isAnchored, isRequirementInput, searchRegExp, toRequirement, type Requirement } from './requirement.ts';
import type { Route, RouteRequirement, Segment } from './types.ts';
import { toParam } from './params.ts';

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
export function buildRoute(rawPath: string, options: RouteOptions, index: number, name: string | null): Route {
  let path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  if (!path.endsWith('/')) path = `${path}/`;
  const prefix = String(options.path_prefix ?? '').replace(/^\//, '');
  if (prefix !== '') path = `/${prefix}${path}`;

  const segments = parseSegments(path);
  const { defaults, requirements, conditions } = divideOptions(segments, options);
  const routeRequirements = assignOptions(segments, defaults, requirements);
  const methods = methodCondition(conditions);

  const segmentKeys: string[] = [];
  const routeDefaults: Record<string, string> = {};
  for (const s of segments) {
    if (!('key' in s)) continue;
    if (segmentKeys.includes(s.key)) throw new ArgumentError(`Route ${JSON.stringify(rawPath)} names :${s.key} twice`);
    segmentKeys.push(s.key);
    if (s.type === 'glob') routeDefaults[s.key] = '';
    else if (s.default !== null) routeDefaults[s.key] = s.default;
  }
  if (!segmentKeys.includes('action') && routeRequirements.action === undefined) routeRequirements.action = 'index';
  const significantKeys = [...segmentKeys];
  for (const key in routeRequirements) {
    if (!significantKeys.includes(key)) significantKeys.push(key);
    const req = routeRequirements[key];
    if (typeof req === 'string') routeDefaults[key] = req;
  }
  // Parameters become object keys; this one would reach the object's prototype instead.
  if (significantKeys.includes('__proto__')) throw new ArgumentError('__proto__ cannot name a route parameter');
  if (!significantKeys.includes('controller')) {
    throw new RoutingError(`Illegal route ${JSON.stringify(rawPath)}: the :controller must be specified!`);
  }

  let otherConditions: Record<string, unknown> = conditions;
  if ('method' in conditions) {
    otherConditions = { ...conditions };
    delete otherConditions.method;
  }
  for (const s of segments) Object.freeze(s);

  return Object.freeze({
    index,
    name,
    path: printSegments(segments),
    methods,
    segments: Object.freeze(segments as Segment[]),
    requirements: Object.freeze(routeRequirements),
    conditions: Object.freeze(otherConditions),
    defaults: Object.freeze(routeDefaults),
    segmentKeys: Object.freeze(segmentKeys),
    significantKeys: Object.freeze(significantKeys),
  });
}

/** Splits a slash-wrapped path into segments, as Rails' `segment_for` does. */
export function parseSegments(path: string): MutableSegment[] {
  const segments: MutableSegment[] = [];
  const n = path.length;
  let i = 0;
  while (i < n) {
    const c = path[i];
    const word = (from: number) => {
      let j = from;
      while (j < n && isWordChar(path.charCodeAt(j))) j++;
      return j;
    };
    if ((c === ':' || c === '*') && i + 1 < n && isWordChar(path.charCodeAt(i + 1))) {
      const end = word(i + 1);
      const key = path.slice(i + 1, end);
      if (c === '*') segments.push({ type: 'glob', key, optional: true, requirement: null });
      else if (key === 'controller') segments.push({ type: 'controller', key: 'controller', optional: false, default: null, requirement: null });
      else segments.push({ type: 'dynamic', key, optional: false, default: null, requirement: null });
      i = end;
      continue;
    }
    if (c === '?') {
      const close = path.indexOf('?', i + 1);
      const newline = path.indexOf('\n', i + 1);
      if (close > i && (newline < 0 || newline > close)) {
        segments.push({ type: 'static', value: path.slice(i + 1, close), optional: true });
        i = close + 1;
        continue;
      }
    }
    if (c === '/' || c === '.' || c === '?') {
      segments.push({ type: 'divider', value: c, optional: c === '/' });
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && path[j] !== '/' && path[j] !== '.' && path[j] !== '?') j++;
    segments.push({ type: 'static', value: path.slice(i, j), optional: false });
    i = j;
  }
  return segments;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** The path as declared, without the implied trailing slash: `/posts/:id.:format`. */
export function printSegments(segments: readonly Segment[]): string {
  const text = segments.map((s) => {
    switch (s.type) {
      case 'static': return s.optional ? `?${s.value}?` : s.value;
      case 'divider': return s.value;
      case 'glob': return `*${s.key}`;
      default: return `:${s.key}`;
    }
  }).join('');
  return text.length > 1 && text.endsWith('/') ? text.slice(0, -1) : text;
}

function divideOptions(segments: MutableSegment[], options: RouteOptions) {
  // Parameter names become object keys; refuse the one that would reach a prototype instead.
  for (const hash of [options, options.requirements, options.defaults, options.conditions]) {
    if (hash && typeof hash === 'object' && Object.prototype.hasOwnProperty.call(hash, '__proto__')) {
      throw new ArgumentError('__proto__ cannot name a route parameter, requirement, default or condition');
    }
  }
  const requirements: Record<string, unknown> = { ...(asObject(options.requirements, 'requirements')) };
  const defaults: Record<string, unknown> = { ...(asObject(options.defaults, 'defaults')) };
  const conditions: Record<string, unknown> = { ...(asObject(options.conditions, 'conditions')) };
  const isPathKey = (key: string) => segments.some((s) => 'key' in s && s.key === key);
  const assign = (key: string, value: unknown) => {
    if (isPathKey(key) && !isRequirementInput(value)) defaults[key] = value;
    else requirements[key] = value;
  };
  for (const key in options) if (!BUILDER_KEYS.has(key) && !(key === 'controller' && options.namespace)) assign(key, options[key]);
  // A namespace puts its module in front of the controller.
  if (options.namespace) assign('controller', `${String(options.namespace).replace(/\/$/, '')}/${String(options.controller ?? '')}`);
  return { defaults, requirements, conditions };
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ArgumentError(`:${what} must be a hash, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

function assignOptions(segments: MutableSegment[], defaults: Record<string, unknown>, requirements: Record<string, unknown>): Record<string, RouteRequirement> {
  const routeRequirements: Record<string, RouteRequirement> = {};
  const segmentNamed = (key: string) => segments.find((s) => 'key' in s && s.key === key) as
    | Extract<MutableSegment, { key: string }>
    | undefined;

  for (const [key, value] of Object.entries(requirements)) {
    const segment = segmentNamed(key);
    if (segment) {
      if (!isRequirementInput(value)) {
        throw new ArgumentError(`${key}: requirements on a path segment must be regular expressions`);
      }
      const req = toRequirement(value);
      if (isAnchored(req)) throw new ArgumentError(`Regexp anchor characters are not allowed in routing requirements: /${req.source}/`);
      segment.requirement = req;
    } else if (isRequirementInput(value)) {
      routeRequirements[key] = toRequirement(value);
    } else if (value !== null && value !== undefined) {
      routeRequirements[key] = toParam(value) ?? '';
    }
  }

  for (const [key, value] of Object.entries(defaults)) {
    const segment = segmentNamed(key);
    if (!segment) throw new ArgumentError(`${key}: No matching segment exists; cannot assign default`);
    segment.optional = true;
    if (value === null || value === undefined) continue;
    const param = toParam(value);
    if (segment.type === 'glob') {
      if (param !== null && param.trim() !== '') throw new RoutingError('paths cannot have non-empty default values');
    } else {
      segment.default = param;
    }
  }

  assignDefaultRouteOptions(segments);
  ensureRequiredSegments(segments);
  return routeRequirements;
}

// `index` is the implied action, and an unconstrained `:id` may be left off.
function assignDefaultRouteOptions(segments: MutableSegment[]): void {
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

function methodCondition(conditions: Record<string, unknown>): readonly string[] | null {
  const method = conditions.method;
  if (method === undefined || method === null) return null;
  const list = Array.isArray(method) ? method.map((m) => String(m).toLowerCase()) : [String(method).toLowerCase()];
  for (const m of list) {
    if (m === 'head') {
      throw new ArgumentError('HTTP method HEAD is invalid in route conditions. HEAD requests are answered by GET routes, returning just the response headers');
    }
    if (!(HTTP_METHODS as readonly string[]).includes(m)) {
      throw new ArgumentError(`Invalid HTTP method specified in route conditions: ${JSON.stringify(conditions)}`);
    }
  }
  // Routes share one frozen list per distinct condition.
  const key = list.join(',');
  let methods = METHOD_LISTS.get(key);
  if (!methods) METHOD_LISTS.set(key, (methods = Object.freeze([...new Set(list.map((m) => m.toUpperCase()))])));
  return methods;
}
