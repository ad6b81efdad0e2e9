/**
 * Builds one frozen `Route` from a path and the options a declaration
 * merged for it, following Rails 2.1's RouteBuilder: the path is wrapped in
 * slashes and split into segments; option keys naming a path segment become
 * its default (or its pattern, when a RegExp); other keys become fixed
 * requirements; trailing segments with defaults turn optional, and anything
 * optional before a required segment is made required again.
 */
import { ArgumentError, RoutingError } from '../errors.ts';
import { isAnchored, isRequirementInput, toRequirement, type Requirement } from './requirement.ts';
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

  const segmentKeys = segments.flatMap((s) => ('key' in s ? [s.key] : []));
  if (!segmentKeys.includes('action') && routeRequirements.action === undefined) routeRequirements.action = 'index';
  const significantKeys = [...new Set([...segmentKeys, ...Object.keys(routeRequirements)])];
  if (!significantKeys.includes('controller')) {
    throw new RoutingError(`Illegal route ${JSON.stringify(rawPath)}: the :controller must be specified!`);
  }

  const routeDefaults: Record<string, string> = {};
  for (const s of segments) {
    if (s.type === 'glob') routeDefaults[s.key] = '';
    else if ((s.type === 'dynamic' || s.type === 'controller') && s.default !== null) routeDefaults[s.key] = s.default;
  }
  for (const [key, req] of Object.entries(routeRequirements)) if (typeof req === 'string') routeDefaults[key] = req;

  const otherConditions = { ...conditions };
  delete otherConditions.method;

  return Object.freeze({
    index,
    name,
    path: printSegments(segments),
    methods,
    segments: Object.freeze(segments.map((s) => Object.freeze(s) as Segment)),
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
  let rest = path;
  while (rest.length > 0) {
    let m: RegExpExecArray | null;
    if ((m = /^:(\w+)/.exec(rest))) {
      const key = m[1];
      segments.push(key === 'controller'
        ? { type: 'controller', key: 'controller', optional: false, default: null, requirement: null }
        : { type: 'dynamic', key, optional: false, default: null, requirement: null });
    } else if ((m = /^\*(\w+)/.exec(rest))) {
      segments.push({ type: 'glob', key: m[1], optional: true, requirement: null });
    } else if ((m = /^\?(.*?)\?/.exec(rest))) {
      segments.push({ type: 'static', value: m[1], optional: true });
    } else if ((m = /^[^/.?]+/.exec(rest))) {
      segments.push({ type: 'static', value: m[0], optional: false });
    } else {
      m = /^[/.?]/.exec(rest)!;
      segments.push({ type: 'divider', value: m[0], optional: m[0] === '/' });
    }
    rest = rest.slice(m[0].length);
  }
  return segments;
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
  const opts: Record<string, unknown> = { ...options };
  if (opts.namespace) {
    opts.controller = `${String(opts.namespace).replace(/\/$/, '')}/${String(opts.controller ?? '')}`;
  }
  const requirements: Record<string, unknown> = { ...(asObject(opts.requirements, 'requirements')) };
  const defaults: Record<string, unknown> = { ...(asObject(opts.defaults, 'defaults')) };
  const conditions: Record<string, unknown> = { ...(asObject(opts.conditions, 'conditions')) };
  const pathKeys = new Set(segments.flatMap((s) => ('key' in s ? [s.key] : [])));
  for (const [key, value] of Object.entries(opts)) {
    if (BUILDER_KEYS.has(key)) continue;
    if (pathKeys.has(key) && !isRequirementInput(value)) defaults[key] = value;
    else requirements[key] = value;
  }
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
  const m = new RegExp(req.source, req.flags.includes('i') ? 'i' : '').exec(text);
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

function methodCondition(conditions: Record<string, unknown>): readonly string[] | null {
  const method = conditions.method;
  if (method === undefined || method === null) return null;
  const list = (Array.isArray(method) ? method : [method]).map((m) => String(m).toLowerCase());
  for (const m of list) {
    if (m === 'head') {
      throw new ArgumentError('HTTP method HEAD is invalid in route conditions. HEAD requests are answered by GET routes, returning just the response headers');
    }
    if (!(HTTP_METHODS as readonly string[]).includes(m)) {
      throw new ArgumentError(`Invalid HTTP method specified in route conditions: ${JSON.stringify(conditions)}`);
    }
  }
  return Object.freeze([...new Set(list.map((m) => m.toUpperCase()))]);
}
