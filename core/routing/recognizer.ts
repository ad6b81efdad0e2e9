/**
 * The recognizer interface, and the reference implementation: a linear scan
 * of one anchored RegExp per route, first match wins (what Rails 2.1 did).
 * The tree recognizer must agree with it on every input; a shared suite and
 * a property test hold both to that.
 */
import { HTTP_METHODS } from './route.ts';
import { compilePattern, extractParams, type CompiledPattern } from './pattern.ts';
import type { Params, Route } from './types.ts';

export interface Match {
  readonly route: Route;
  readonly params: Params;
}

export interface Recognizer {
  readonly name: string;
  /**
   * The first route (in declaration order) whose path matches and whose
   * method condition admits `method`. `method` is upper-case, HEAD already
   * folded into GET; `null` admits only routes without a method condition.
   * Returns null on no match; throws only `MalformedPathError`.
   */
  match(method: string | null, path: string): Match | null;
  /** Upper-case methods some route would answer on this path, in `HTTP_METHODS` order. */
  allowed_methods(path: string): string[];
}

export interface RecognizerOptions {
  /** Known controller paths; null lets `:controller` match any one word. */
  readonly controllers: readonly string[] | null;
}

export const ALL_METHODS: readonly string[] = Object.freeze(HTTP_METHODS.map((m) => m.toUpperCase()));

export function methodAdmits(route: Route, method: string | null): boolean {
  if (route.methods === null) return true;
  return method !== null && route.methods.includes(method);
}

/** Orders a set of upper-case methods as Rails lists them. */
export function orderMethods(methods: ReadonlySet<string>): string[] {
  return ALL_METHODS.filter((m) => methods.has(m));
}

/** Adds the methods a matching route admits to `into`. */
export function addRouteMethods(route: Route, into: Set<string>): void {
  if (route.methods === null) for (const m of ALL_METHODS) into.add(m);
  else for (const m of route.methods) into.add(m);
}

/** Reference recognizer: one RegExp per route, tried in order. */
export class LinearRecognizer implements Recognizer {
  readonly name = 'linear';
  private readonly patterns: readonly { route: Route; pattern: CompiledPattern }[];

  constructor(routes: readonly Route[], options: RecognizerOptions) {
    this.patterns = routes.map((route) => ({ route, pattern: compilePattern(route.segments, options.controllers) }));
  }

  match(method: string | null, path: string): Match | null {
    for (const { route, pattern } of this.patterns) {
      if (!methodAdmits(route, method)) continue;
      const m = pattern.regexp.exec(path);
      if (m) return { route, params: extractParams(route, pattern, m, path) };
    }
    return null;
  }

  allowed_methods(path: string): string[] {
    const methods = new Set<string>();
    for (const { route, pattern } of this.patterns) if (pattern.regexp.test(path)) addRouteMethods(route, methods);
    return orderMethods(methods);
  }
}
