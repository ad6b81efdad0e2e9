/**
 * Replaying routing cases of the corpus format against `draw()`, expectation
 * by expectation, on both recognizers: `routingSuite(name, corpus)` defines
 * and runs a uvu suite that counts assertions and ends with
 * `<name>: N passed, M failed`. The peer corpus and the project's own cases
 * run through it. Not a test file itself.
 */
import { suite } from 'uvu';
import {
  ArgumentError, MethodNotAllowed, NotImplemented, RoutingError, SignalboxError, draw, polymorphicCall, createInflector,
  type DrawConfig, type Params, type RouteSet,
} from '../../core/index.ts';
import { escapePath } from '../../core/routing/params.ts';
import { searchRegExp, toRequirement } from '../../core/routing/requirement.ts';
import { replayDraw, revive, sameValue, show, type DrawCall } from './acceptance.ts';
import { helpersOf } from './helpers-by-name.ts';

interface Recognize { method: string | null; path: string; params?: Params; params_partial?: boolean; error?: string; allowed_methods?: string[]; not_params?: Params }
interface Generate { options: Record<string, unknown>; recall: Record<string, unknown>; path?: string; paths?: string[]; error?: string; path_without_extras?: string; extra_keys?: string[] }
interface Helper { name: string; args: unknown[]; recall?: Record<string, unknown>; result?: unknown; error?: string; result_match?: { $regexp: string; flags: string }; query_parts?: string[] }
interface Polymorphic { function: string; args: unknown[]; expect_call: { name: string; args: unknown[] } }
export interface RoutingCase {
  id: string;
  draw: DrawCall[];
  config?: { resources_path_names?: { new?: string; edit?: string }; relative_url_root?: string };
  controllers?: string[];
  default_url_options?: Record<string, unknown>;
  request_params?: Record<string, unknown>;
  draw_error?: string;
  recognize?: Recognize[];
  generate?: Generate[];
  helpers?: Helper[];
  polymorphic?: Polymorphic[];
  route_count?: number;
  named_route_names?: string[];
  named_route_index?: Record<string, number>;
  named_routes_present?: string[];
}

/**
 * Where the spec overrides Rails, stated as a rule over the assertion's content (never a case id),
 * so that it holds for any corpus. Spec 4.5: path components use URI escaping; Rails 2.1 left the
 * :controller component unescaped (`?`, `#`, `[`, `]` raw), Signalbox escapes it like any component
 * except its `/` separators (covered by tests/core/routing/generate.test.ts). An expected path that
 * starts with such a controller raw is read with the controller escaped.
 */
const CONTROLLER_ESCAPING = 'spec 4.5: the :controller component is URI-escaped (Rails 2.1 left it raw)';

function specPath(options: Record<string, unknown>, path: string): { path: string; override: string | null } {
  const controller = options.controller;
  if (typeof controller !== 'string') return { path, override: null };
  const bare = controller.replace(/^\//, '');
  const escaped = escapePath(bare);
  if (escaped === bare || !path.startsWith(`/${bare}`)) return { path, override: null };
  return { path: `/${escaped}${path.slice(bare.length + 1)}`, override: CONTROLLER_ESCAPING };
}

/** One suite's counts and failures. */
class Tally {
  passed = 0;
  failed = 0;
  readonly failures: string[] = [];
  readonly overridden = new Map<string, string[]>();
}

// The tally of the suite whose test is running (uvu runs one test at a time).
let current = new Tally();

function check(caseId: string, label: string, ok: boolean, detail: () => string): void {
  if (ok) current.passed++;
  else {
    current.failed++;
    current.failures.push(`${caseId} ${label}: ${detail()}`);
  }
}

function attempt<T>(fn: () => T): { value?: T; error?: unknown } {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

/**
 * The corpus's error kinds. `other:RuntimeError` is an error that is none of the named kinds: a framework
 * error (a `SignalboxError`, raised on purpose) that is not a routing error, method-not-allowed,
 * not-implemented or argument error. Anything else (a TypeError from a bug, say) is unexpected.
 */
function errorKind(error: unknown): string {
  if (error instanceof MethodNotAllowed) return 'method_not_allowed';
  if (error instanceof NotImplemented) return 'other:NotImplemented';
  if (error instanceof RoutingError) return 'routing';
  if (error instanceof ArgumentError) return 'other:ArgumentError';
  if (error instanceof SignalboxError) return 'other:RuntimeError';
  return `unexpected:${String(error)}`;
}

/** Whether a raised error is of the expected kind. Ruby's TypeError for a wrongly typed declaration is Signalbox's ArgumentError. */
function isKind(error: unknown, expected: string): boolean {
  const kind = errorKind(error);
  return kind === expected || (expected === 'other:TypeError' && kind === 'other:ArgumentError');
}

function drawCase(c: RoutingCase, recognizer: 'tree' | 'linear'): RouteSet {
  const config: DrawConfig = {
    recognizer,
    controllers: c.controllers,
    resources_path_names: c.config?.resources_path_names,
    relative_url_root: c.config?.relative_url_root,
  };
  return draw((map) => replayDraw(map, c.draw), config);
}

function checkRecognize(c: RoutingCase, routes: RouteSet): void {
  (c.recognize ?? []).forEach((r, i) => {
    const label = `recognize#${i} ${r.method ?? 'nil'} ${r.path}`;
    const got = attempt(() => routes.recognize(r.method, r.path));
    if (r.error === 'not_recognized') {
      const ok = got.error instanceof RoutingError || got.error instanceof MethodNotAllowed || (got.error === undefined && !sameValue(got.value, r.not_params));
      return check(c.id, label, ok, () => `expected no recognition of ${show(r.not_params)}, got ${show(got.value ?? String(got.error))}`);
    }
    if (r.error) {
      const kindOk = got.error !== undefined && isKind(got.error, r.error);
      const allowed = (got.error as { allowed?: string[] } | undefined)?.allowed?.map((m) => m.toLowerCase());
      const allowedOk = !r.allowed_methods || (allowed !== undefined && sameValue(allowed, r.allowed_methods));
      return check(c.id, label, kindOk && allowedOk, () => `expected ${r.error} ${show(r.allowed_methods ?? '')}, got ${got.error ? `${errorKind(got.error)} ${show(allowed ?? '')}` : show(got.value)}`);
    }
    if (got.error) return check(c.id, label, false, () => `raised ${String(got.error)}`);
    const params = got.value as Params;
    const expected = r.params as Params;
    const ok = r.params_partial
      ? Object.entries(expected).every(([k, v]) => sameValue(params[k], v))
      : sameValue(sortKeys(params), sortKeys(expected));
    check(c.id, label, ok, () => `expected ${show(expected)}, got ${show(params)}`);
  });
}

function sortKeys(o: object): object {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

function checkGenerate(c: RoutingCase, routes: RouteSet): void {
  (c.generate ?? []).forEach((g, i) => {
    const label = `generate#${i}`;
    const options = revive(g.options) as Record<string, unknown>;
    const recall = revive(g.recall) as Record<string, unknown>;
    if (g.error) {
      const got = attempt(() => routes.generate(options, recall));
      return check(c.id, label, got.error !== undefined && isKind(got.error, g.error), () => `expected ${g.error}, got ${show(got.value ?? String(got.error))}`);
    }
    if (g.path_without_extras !== undefined) {
      const got = attempt(() => routes.generate_extras(options, recall));
      const ok = got.value !== undefined && got.value.path === g.path_without_extras && sameValue(got.value.extra_keys, g.extra_keys);
      return check(c.id, label, ok, () => `expected ${g.path_without_extras} ${show(g.extra_keys)}, got ${show(got.value ?? String(got.error))}`);
    }
    if (g.path === undefined && g.extra_keys !== undefined) {
      const got = attempt(() => routes.extra_keys(options, recall));
      return check(c.id, label, sameValue(got.value, g.extra_keys), () => `expected ${show(g.extra_keys)}, got ${show(got.value ?? String(got.error))}`);
    }
    if (g.paths !== undefined) {
      // Rails passes `:generate_all` among the options; here it is generate's third argument.
      const { generate_all: _flag, ...rest } = options;
      const all = attempt(() => routes.generate(rest, recall, { generate_all: true }));
      return check(c.id, label, sameValue(all.value, g.paths), () => `${show(rest)} recall ${show(recall)}: expected ${show(g.paths)}, got ${all.error ? String(all.error) : show(all.value)}`);
    }
    const expected = specPath(options, String(g.path));
    if (expected.override !== null) current.overridden.set(expected.override, [...(current.overridden.get(expected.override) ?? []), `${c.id} ${label}`]);
    const got = attempt(() => routes.generate(options, recall));
    check(c.id, label, got.value === expected.path, () => `${show(options)} recall ${show(recall)}: expected ${expected.path}, got ${got.error ? String(got.error) : got.value}`);
  });
}

function checkHelpers(c: RoutingCase, routes: RouteSet): void {
  (c.helpers ?? []).forEach((h, i) => {
    const label = `helper#${i} ${h.name}`;
    const helpers = helpersOf(routes, (c.default_url_options ?? {}) as Record<string, unknown>, (h.recall ?? {}) as Record<string, unknown>, c.request_params ?? {});
    const args = revive(h.args) as unknown[];
    const got = attempt(() => {
      const fn = helpers[h.name];
      if (typeof fn !== 'function') throw new Error(`no helper ${h.name}`);
      return fn(...args) as unknown;
    });
    if (h.error) return check(c.id, label, got.error !== undefined && isKind(got.error, h.error), () => `expected ${h.error}, got ${show(got.value ?? String(got.error))}`);
    if (got.error) return check(c.id, label, false, () => `${show(args)} raised ${String(got.error)}`);
    let ok = true;
    if (h.result !== undefined) ok &&= sameValue(got.value, h.result);
    // A Ruby regexp, flags and all (`x` comments, `\A`), read as the routes read a requirement; Ruby's `m` is JavaScript's `s`.
    if (h.result_match) ok &&= searchRegExp(toRequirement({ source: h.result_match.$regexp, flags: h.result_match.flags.replace('m', 's') })).test(String(got.value));
    if (h.query_parts) ok &&= sameValue(rubyQueryParts(String(got.value)), h.query_parts);
    check(c.id, label, ok, () => `${show(args)}: expected ${show(h.result ?? h.result_match ?? h.query_parts)}, got ${show(got.value)}`);
  });
}

/**
 * The test's `url.split('?', 2).last.split('&')` as Ruby computes it: everything after the first `?` (the
 * whole URL when there is none), and no trailing empty parts. JavaScript's split limit would cut the text at
 * a second `?` instead.
 */
function rubyQueryParts(url: string): string[] {
  const q = url.indexOf('?');
  const parts = (q < 0 ? url : url.slice(q + 1)).split('&');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const POLYMORPHIC_OPTIONS: Record<string, Record<string, unknown>> = {
  polymorphic_url: {},
  polymorphic_path: { routing_type: 'path' },
  new_polymorphic_url: { action: 'new' },
  new_polymorphic_path: { action: 'new', routing_type: 'path' },
  edit_polymorphic_url: { action: 'edit' },
  edit_polymorphic_path: { action: 'edit', routing_type: 'path' },
  formatted_polymorphic_url: { action: 'formatted' },
  formatted_polymorphic_path: { action: 'formatted', routing_type: 'path' },
};

function checkPolymorphic(c: RoutingCase, routes: RouteSet): void {
  const inflector = createInflector();
  (c.polymorphic ?? []).forEach((p, i) => {
    const label = `polymorphic#${i} ${p.function}`;
    const [target, options] = revive(p.args) as [unknown, Record<string, unknown> | undefined];
    const before = show(target);
    const got = attempt(() => polymorphicCall(target, { ...(options ?? {}), ...POLYMORPHIC_OPTIONS[p.function] }, inflector));
    const expected = revive(p.expect_call.args) as unknown[];
    const ok = got.value !== undefined && got.value.name === p.expect_call.name && sameValue(got.value.args, expected) && show(target) === before;
    check(c.id, label, ok, () => `expected ${p.expect_call.name}(${show(expected)}), got ${show(got.value ?? String(got.error))}`);
    // Where the route set defines the helper, calling through polymorphic_url must give what the helper gives.
    const helpers = helpersOf(routes, { host: 'test.host' });
    if (got.value && typeof helpers[got.value.name] === 'function') {
      const direct = attempt(() => helpers[got.value!.name](...expected));
      const viaPoly = attempt(() => helpers[p.function](target, options ?? {}));
      check(c.id, `${label} result`, sameValue(direct.value, viaPoly.value), () => `${show(direct.value)} != ${show(viaPoly.value)}`);
    }
  });
}

/**
 * Defines and runs a suite over `corpus` (files of `{ cases }`), against both recognizers: the trie
 * must agree with the reference scan. Ends with `<name>: N passed, M failed`, and fails the process
 * when anything failed or nothing passed.
 */
export function routingSuite(name: string, corpus: readonly { file: string; data: { cases: RoutingCase[] } }[]): void {
  const tally = new Tally();
  const test = suite(name);
  for (const recognizer of ['tree', 'linear'] as const) {
    for (const { file, data } of corpus) {
      for (const c of data.cases) {
        test(`[${recognizer}] ${file} ${c.id}`, () => {
          current = tally;
          const before = tally.failures.length;
          runCase(c, recognizer);
          if (tally.failures.length > before) throw new Error(tally.failures.slice(before).join('\n'));
        });
      }
    }
  }
  test.after(() => {
    for (const [reason, where] of tally.overridden) console.log(`  read by the spec (${reason}): ${[...new Set(where)].join(', ')}`);
    for (const f of tally.failures.slice(0, 60)) console.log(`  FAIL ${f}`);
    console.log(`${name}: ${tally.passed} passed, ${tally.failed} failed`);
    if (tally.failed > 0 || tally.passed === 0) process.exitCode = 1;
  });
  test.run();
}

function runCase(c: RoutingCase, recognizer: 'tree' | 'linear'): void {
  if (c.draw_error) {
    const got = attempt(() => drawCase(c, recognizer));
    return check(c.id, 'draw_error', got.error !== undefined && isKind(got.error, c.draw_error), () => `expected ${c.draw_error}, got ${got.error ? errorKind(got.error) : 'a route set'}`);
  }
  const built = attempt(() => drawCase(c, recognizer));
  if (built.error) return check(c.id, 'draw', false, () => `draw raised ${String((built.error as Error).stack)}`);
  const routes = built.value!;
  check(c.id, 'draw', true, () => '');
  if (c.route_count !== undefined) check(c.id, 'route_count', routes.routes.length === c.route_count, () => `${routes.routes.length}`);
  if (c.named_route_names) check(c.id, 'named_route_names', sameValue(Object.keys(routes.named).sort(), [...c.named_route_names].sort()), () => show(Object.keys(routes.named)));
  if (c.named_route_index) {
    for (const [name, index] of Object.entries(c.named_route_index)) check(c.id, `named_route_index ${name}`, routes.named[name]?.index === index, () => `${routes.named[name]?.index}`);
  }
  for (const name of c.named_routes_present ?? []) check(c.id, `named_route ${name}`, routes.named[name] !== undefined, () => 'missing');
  checkRecognize(c, routes);
  checkGenerate(c, routes);
  checkHelpers(c, routes);
  checkPolymorphic(c, routes);
}
