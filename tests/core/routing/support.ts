/**
 * Test helpers for the routing suites (not a test file itself).
 *
 * `assertRouting` is Rails' `assert_routing`: one call checks that a request
 * recognises to the params and that those params generate the same path back.
 */
import * as assert from 'uvu/assert';
import type { Params, RouteSet } from '../../../core/index.ts';

/** Splits `'GET /posts/1'` into method and path (`'/posts'` alone means GET). */
export function request(spec: string): [method: string, path: string] {
  const space = spec.indexOf(' ');
  return space < 0 ? ['GET', spec] : [spec.slice(0, space), spec.slice(space + 1)];
}

/** The request recognises to exactly `params`. */
export function assertRecognizes(set: RouteSet, spec: string, params: Params): void {
  const [method, path] = request(spec);
  let got: Params;
  try {
    got = set.recognize(method, path);
  } catch (e) {
    assert.unreachable(`${spec} did not recognise: ${String(e)}`);
    return;
  }
  assert.equal(got, params, `${spec} recognises`);
}

/** `params` generate `path` (extra params would go to the query string). */
export function assertGenerates(set: RouteSet, path: string, params: Params, recall: Params = {}): void {
  assert.is(set.generate(params, recall), path, `${JSON.stringify(params)} generates`);
}

/** Recognition and generation in one: the request gives `params`, and `params` give the path back. */
export function assertRouting(set: RouteSet, spec: string, params: Params): void {
  assertRecognizes(set, spec, params);
  assertGenerates(set, request(spec)[1], params);
}

/** The request is not routed: a RoutingError (404-class) or MethodNotAllowed. */
export function assertNotRouted(set: RouteSet, spec: string): void {
  const [method, path] = request(spec);
  let got: unknown;
  try {
    got = set.recognize(method, path);
  } catch (e) {
    assert.ok((e as { status?: number }).status === 404 || (e as { status?: number }).status === 405, `${spec}: ${String(e)}`);
    return;
  }
  assert.unreachable(`${spec} should not be routed, got ${JSON.stringify(got)}`);
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** Runs `fn`, expecting an error of class `cls` (and, when given, a message equal to or matching `message`). */
export function throwsA<E extends Error>(fn: () => unknown, cls: abstract new (...args: never[]) => E, message?: string | RegExp): E {
  try {
    fn();
  } catch (e) {
    assert.instance(e, cls as unknown as ErrorClass, `expected ${cls.name}, got ${String(e)}`);
    if (typeof message === 'string') assert.is((e as Error).message, message);
    else if (message) assert.match((e as Error).message, message);
    return e as E;
  }
  assert.unreachable(`expected ${cls.name} to be thrown`);
  throw new Error('unreachable');
}

/** The names of a route set's named routes, without the `formatted_` twins. */
export function plainNames(set: RouteSet): string[] {
  return Object.keys(set.named).filter((n) => !n.startsWith('formatted_'));
}

/** Every route as `METHOD path -> controller#action` (the `.:format` twins left out). */
export function routeLines(set: RouteSet): string[] {
  return set.routes
    .filter((r) => !r.path.endsWith('.:format'))
    .map((r) => `${r.methods?.join(',') ?? 'ANY'} ${r.path} -> ${String(r.requirements.controller ?? ':controller')}#${String(r.requirements.action ?? ':action')}`);
}
