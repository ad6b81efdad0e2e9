/**
 * Hash-based URL generation with Rails 2.1 semantics.
 *
 * `RouteSet#generate(options, recall)`: `recall` holds the current request's
 * path parameters. Values missing from `options` are taken from it, but only
 * for path segments before the first segment whose value `options` changes
 * ("expiry"): after that, generation forgets the recalled values. Routes are
 * tried in order of how few of the given keys they leave unused; extra keys
 * become the query string.
 */
import { UrlGenerationError } from '../errors.ts';
import { isRequirement, matchesFixed, type GenRoute } from './gen-route.ts';
import { HashGenerator, NO_RECALL } from './hash-generate.ts';
import { buildQueryString, escapePath, escapePathComponent, isPlainObject, toParam } from './params.ts';
import type { GenerateOptions, RouteRequirement, Segment } from './types.ts';

type Values = (string | null)[];

/** Rails' `Route#generate_raw`: the path, or null when this route cannot build one. */
export function generateRaw(g: GenRoute, options: GenerateOptions, merged: GenerateOptions, expireOn: Readonly<Record<string, boolean>>): { path: string | null; hash: GenerateOptions } {
  for (const c of g.checks) {
    if (c.re !== null) {
      if (!truthy(merged[c.key])) return { path: null, hash: merged };
      const v = toParam(options[c.key]);
      if (v === null || !c.re.test(v)) return { path: null, hash: merged };
    } else if (!matchesFixed(merged[c.key], c.value)) {
      return { path: null, hash: merged };
    }
  }
  let hash = merged;
  let expired = false;
  const values: Values = new Array(g.segments.length).fill(null);
  for (let i = 0; i < g.segments.length; i++) {
    const s = g.segments[i];
    if (!('key' in s)) continue;
    const value = extractValue(s, hash);
    if (!valueAcceptable(s, value, g.valueRes[i])) return { path: null, hash };
    values[i] = value;
    if (!expired && expireOn[s.key]) {
      expired = true;
      hash = options;
    }
  }
  return { path: structure(g.segments, values, g.segments.length - 1), hash };
}

/**
 * Builds a path straight from one value per segment key (the positional
 * helper case). Equivalent to `generateRaw` when every segment key is given,
 * without building option hashes; null when a value is rejected.
 */
export function generateFromValues(g: GenRoute, byKey: Readonly<Record<string, unknown>>): string | null {
  for (const c of g.checks) {
    if (c.re !== null) {
      const v = toParam(byKey[c.key]);
      if (v === null || !c.re.test(v)) return null;
    } else if (c.key in byKey && !matchesFixed(byKey[c.key], c.value)) {
      return null;
    }
  }
  const values: Values = new Array(g.segments.length).fill(null);
  for (let i = 0; i < g.segments.length; i++) {
    const s = g.segments[i];
    if (!('key' in s)) continue;
    const value = extractValue(s, byKey);
    if (!valueAcceptable(s, value, g.valueRes[i])) return null;
    values[i] = value;
  }
  return structure(g.segments, values, g.segments.length - 1);
}

function truthy(v: unknown): boolean {
  return v !== null && v !== undefined && v !== false;
}

function extractValue(s: Extract<Segment, { key: string }>, hash: Readonly<Record<string, unknown>>): string | null {
  const raw = hash[s.key];
  switch (s.type) {
    case 'controller': {
      const v = truthy(raw) ? toParam(raw) : s.default;
      return v === null ? null : v.toLowerCase();
    }
    case 'glob': {
      if (!truthy(raw)) return '';
      // An array names components (each escaped whole); a string is a path whose slashes are kept.
      return Array.isArray(raw)
        ? raw.map((part) => escapePathComponent(toParam(part) ?? '')).join('/')
        : escapePath(toParam(raw) ?? '');
    }
    default: {
      const v = truthy(raw) ? toParam(raw) : null;
      return v ?? s.default;
    }
  }
}

function valueAcceptable(s: Extract<Segment, { key: string }>, value: string | null, re: RegExp | null): boolean {
  if (s.type === 'glob') return re === null || re.test(value ?? '');
  if (s.type === 'controller' && value === null) return false;
  if (s.default !== null) return re === null || re.test(value!);
  if (s.optional) return re === null || value === null || re.test(value);
  return value !== null && (re === null || re.test(value));
}

// Rails' string_structure: from the last segment back, optional segments whose value is their default are left off.
function structure(segments: readonly Segment[], values: Values, i: number): string | null {
  for (; i > 0; i--) {
    const s = segments[i];
    if (!s.optional) break;
    if (s.type === 'static' || s.type === 'divider') continue;
    const def = s.type === 'glob' ? '' : s.default;
    if (values[i] !== def) break;
  }
  return interpolate(segments, values, i);
}

function interpolate(segments: readonly Segment[], values: Values, last: number): string | null {
  let out = '';
  for (let j = 0; j <= last; j++) {
    const s = segments[j];
    switch (s.type) {
      case 'divider': out += s.value; break;
      case 'static': out += escapePathComponent(s.value); break;
      case 'glob': out += values[j] ?? ''; break;
      case 'controller':
        if (j < last && s.optional && values[j] === null) return null;
        out += escapePath(values[j] ?? '');
        break;
      default:
        if (j < last && s.optional && values[j] === null) return null;
        out += escapePathComponent(values[j] ?? '');
    }
  }
  return out;
}

/** Rails' `build_expiry`: which recalled keys the options change. */
export function buildExpiry(options: GenerateOptions, recall: GenerateOptions): Record<string, boolean> {
  const expiry: Record<string, boolean> = {};
  for (const key of Object.keys(recall)) expiry[key] = key in options && toParam(options[key]) !== toParam(recall[key]);
  return expiry;
}

/** Keys of `options` a route does not use: they become the query string. */
export function extraKeys(g: GenRoute, options: GenerateOptions): string[] {
  return Object.keys(options).filter((k) => !g.significant.includes(k));
}

export interface GeneratorTable {
  readonly routes: readonly GenRoute[];
  readonly named: ReadonlyMap<string, GenRoute>;
}

export type GenerateResult = { path: string; extraKeys: string[] };

/** One generation's inputs, worked out once. */
type Prepared = {
  readonly options: GenerateOptions;
  readonly merged: GenerateOptions;
  readonly expireOn: Readonly<Record<string, boolean>>;
  readonly named: GenRoute | null;
  readonly useRoute: string;
};

const SELECTION_CACHE_LIMIT = 2000;

/**
 * Route selection and expiry over a whole table: Rails' `RouteSet#generate`.
 * `generate` first asks the compiled form (hash-generate.ts); what follows
 * here is the reference it must agree with, and answers what it leaves.
 */
export class Generator {
  private readonly selection = new Map<string, readonly GenRoute[]>();
  private readonly compiled: HashGenerator | null;

  /** `compiled: false` keeps to the reference (tests compare the two). */
  constructor(private readonly table: GeneratorTable, options: { readonly compiled?: boolean } = {}) {
    this.compiled = options.compiled === false ? null : new HashGenerator(table.routes);
  }

  /** `generate(options, recall)`: the path with its query string. */
  generate(options: GenerateOptions, recall: GenerateOptions = NO_RECALL): string {
    if (this.compiled !== null) {
      const path = this.compiled.generate(options, recall, false);
      if (path !== undefined) return path;
    }
    const r = this.run(options, recall);
    return r.path + buildQueryString(r.hash, r.extraKeys);
  }

  /**
   * `url_for`'s generation from a target whose only URL option is `only_path` (passed over): the path
   * with its query string, or undefined when the caller must take the general way.
   */
  generateForUrl(target: GenerateOptions, recall: GenerateOptions): string | undefined {
    return this.compiled === null ? undefined : this.compiled.generate(target, recall, true);
  }

  /** `generate_extras`: the path without the query string, and the keys that would have formed it. */
  generateExtras(options: GenerateOptions, recall: GenerateOptions = {}): GenerateResult {
    const r = this.run(options, recall);
    return { path: r.path, extraKeys: [...r.extraKeys].sort() };
  }

  /**
   * Rails' `generate_all`: the path (with its query string) of every route that can generate from the
   * options, in route order; with `use_route`, that route's path alone. Caches use it to expire every
   * URL of a resource.
   */
  generateAll(input: GenerateOptions, recall: GenerateOptions = {}): string[] {
    const p = this.prepare(input, recall);
    if (p.named !== null) {
      const r = this.runNamed(p, p.named);
      return [r.path + buildQueryString(r.hash, r.extraKeys)];
    }
    const paths: string[] = [];
    for (const g of this.table.routes) {
      const { path, hash } = generateRaw(g, p.options, p.merged, p.expireOn);
      if (path !== null) paths.push(path + buildQueryString(hash, extraKeys(g, p.options)));
    }
    return paths;
  }

  private run(input: GenerateOptions, recall: GenerateOptions): { path: string; hash: GenerateOptions; extraKeys: string[] } {
    const p = this.prepare(input, recall);
    if (p.named !== null) return this.runNamed(p, p.named);
    const { options, merged, expireOn } = p;
    for (const g of this.routesFor(toParam(merged.controller)!, toParam(merged.action)!, Object.keys(options))) {
      const { path, hash } = generateRaw(g, options, merged, expireOn);
      if (path !== null) return { path, hash, extraKeys: extraKeys(g, options) };
    }
    throw new UrlGenerationError(`No route matches ${inspect(options)}`);
  }

  private runNamed(p: Prepared, named: GenRoute): { path: string; hash: GenerateOptions; extraKeys: string[] } {
    const { path, hash } = generateRaw(named, p.options, p.merged, p.expireOn);
    if (path === null) throw namedRouteError(named, p.useRoute, p.options, p.merged);
    return { path, hash, extraKeys: extraKeys(named, p.options) };
  }

  /** The options as generation reads them: the named route's shell, the controller made absolute, the recall merged under. */
  private prepare(input: GenerateOptions, recall: GenerateOptions): Prepared {
    let options = definedOnly(input);
    const useRoute = options.use_route;
    delete options.use_route;
    let named: GenRoute | null = null;
    if (useRoute !== undefined && useRoute !== null) {
      named = this.table.named.get(String(useRoute)) ?? null;
      if (named === null) throw new UrlGenerationError(`No named route called ${JSON.stringify(String(useRoute))}`);
      options = Object.assign(bare(), named.shell, options);
    }
    options = optionsAsParams(options);
    const expireOn = buildExpiry(options, recall);
    if (truthy(options.controller)) options.controller = toParam(options.controller);
    const controller = options.controller as string | undefined;
    // A controller given without a leading slash is relative to the recalled one's module.
    if (named === null && expireOn.controller && typeof controller === 'string' && !controller.startsWith('/')) {
      const oldParts = String(toParam(recall.controller)).split('/');
      const newParts = controller.split('/');
      options.controller = [...oldParts.slice(0, Math.max(0, oldParts.length - newParts.length)), ...newParts].join('/');
    }
    if (typeof options.controller === 'string' && options.controller.startsWith('/')) options.controller = options.controller.slice(1);
    const merged: GenerateOptions = Object.assign(bare(), recall, options);
    if (named !== null) return { options, merged, expireOn, named, useRoute: String(useRoute) };

    if (!truthy(merged.action)) merged.action = 'index';
    if (!truthy(options.action)) options.action = 'index';
    if (toParam(merged.controller) === null || toParam(merged.action) === null) throw new UrlGenerationError(`Need controller and action! ${inspect(options)}`);
    return { options, merged, expireOn, named: null, useRoute: '' };
  }

  private routesFor(controller: string, action: string, keys: readonly string[]): readonly GenRoute[] {
    const cacheKey = `${controller}\u0000${action}\u0000${keys.join('\u0000')}`;
    const hit = this.selection.get(cacheKey);
    if (hit) return hit;
    const selected = this.table.routes
      .filter((g) => accepts(g.controllerReq, controller) && accepts(g.actionReq, action))
      .map((g, order) => ({ g, order, unused: keys.filter((k) => !g.significant.includes(k)).length }))
      .sort((x, y) => x.unused - y.unused || x.order - y.order)
      .map((x) => x.g);
    // Keys come from callers; bound the memo so odd key sets cannot grow it without limit.
    if (this.selection.size >= SELECTION_CACHE_LIMIT) this.selection.clear();
    this.selection.set(cacheKey, selected);
    return selected;
  }
}

function accepts(req: string | RegExp | null, value: string): boolean {
  if (req === null) return true;
  return typeof req === 'string' ? req === value : req.test(value);
}

/**
 * A hash with no prototype: generation reads route keys from its hashes, and a key a route may name
 * (`:constructor`, `:toString`) must be missing when not given, not Object.prototype's function.
 */
function bare(): GenerateOptions {
  return Object.create(null) as GenerateOptions;
}

function definedOnly(options: GenerateOptions): GenerateOptions {
  const out: GenerateOptions = bare();
  for (const [k, v] of Object.entries(options)) if (v !== undefined) out[k] = v;
  return out;
}

// An explicit controller implies the index action unless one is named, so action expiry works.
function optionsAsParams(options: GenerateOptions): GenerateOptions {
  const out = Object.assign(bare(), options);
  if (truthy(options.controller) && !truthy(out.action)) out.action = 'index';
  if (truthy(out.action)) out.action = toParam(out.action);
  return out;
}

function namedRouteError(g: GenRoute, name: string, options: GenerateOptions, merged: GenerateOptions): UrlGenerationError {
  const diff = Object.entries(g.shell).filter(([k, v]) => !matchesFixed(options[k], v));
  if (diff.length > 0) {
    return new UrlGenerationError(`${name}_url failed to generate from ${inspect(options)}, expected: ${inspect(g.shell)}, diff: ${inspect(Object.fromEntries(diff))}`);
  }
  const required = g.segments.filter((s) => !s.optional && s.type !== 'divider').map((s) => ('key' in s ? `:${s.key}` : JSON.stringify(s.value)));
  const why = unmetParameters(g, merged);
  return new UrlGenerationError(`${name}_url has the following required parameters: [${required.join(', ')}] - are they all satisfied?${why.length > 0 ? ` ${why.join('; ')}` : ''}`);
}

// Rails' sentence lists every required key; a caller who gave them all needs to hear which one was missing or refused, and why.
function unmetParameters(g: GenRoute, merged: GenerateOptions): string[] {
  const why: string[] = [];
  for (const c of g.checks) {
    if (c.re === null) continue;
    const v = truthy(merged[c.key]) ? toParam(merged[c.key]) : null;
    if (v === null) why.push(`missing :${c.key}`);
    else if (!c.re.test(v)) why.push(`:${c.key} is ${JSON.stringify(v)}, which does not match ${requirementText(g.route.requirements[c.key])}`);
  }
  // An optional key left out cannot be skipped when a later key of the path is given: name the gap.
  let gap: string | null = null;
  for (let i = 0; i < g.segments.length; i++) {
    const s = g.segments[i];
    if (!('key' in s)) continue;
    const value = extractValue(s, merged);
    if (valueAcceptable(s, value, g.valueRes[i])) {
      if (value === null) gap ??= s.key;
      else if (gap !== null) {
        why.push(`missing :${gap}, which comes before :${s.key} in the path`);
        gap = null;
      }
      continue;
    }
    why.push(value === null ? `missing :${s.key}` : `:${s.key} is ${JSON.stringify(value)}, which does not match ${requirementText(s.requirement)}`);
  }
  return why;
}

function requirementText(req: RouteRequirement | undefined): string {
  return isRequirement(req) ? `/${req.source}/${req.flags}` : inspect(req);
}

/** Compact, stable rendering of options for error messages. */
export function inspect(value: unknown): string {
  if (isPlainObject(value)) return `{${Object.entries(value).map(([k, v]) => `${k}: ${inspect(v)}`).join(', ')}}`;
  if (Array.isArray(value)) return `[${value.map(inspect).join(', ')}]`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (value !== null && typeof value === 'object') return `#<${value.constructor?.name ?? 'Object'} ${toParam(value)}>`;
  return String(value);
}
