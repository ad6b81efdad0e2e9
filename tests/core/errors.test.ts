/**
 * The error catalogue: every exported error class has a stable code from
 * `ERROR_STATUS`, answers with that table's status, and exposes its message
 * only for client errors. This test keeps the table and the classes honest.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as errors from '../../core/errors.ts';
import {
  ArgumentError, ERROR_STATUS, MalformedPathError, MethodNotAllowed, NotImplemented, RoutingError, SignalboxError, UnknownHttpMethod, UrlGenerationError,
  type ErrorCode,
} from '../../core/errors.ts';
import { draw } from '../../core/index.ts';

type ErrorClass = new (...args: never[]) => SignalboxError;

/** Every error class the module exports: `SignalboxError` and its subclasses. */
const EXPORTED_CLASSES: [string, ErrorClass][] = Object.entries(errors as Record<string, unknown>).filter(
  (entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && (entry[1] === SignalboxError || entry[1].prototype instanceof SignalboxError),
);

/** How to raise the classes whose constructors take something other than an optional message. */
const FACTORIES: Record<string, () => SignalboxError> = {
  SignalboxError: () => new SignalboxError('SBX_ERR_ROUTING', 'base'),
  RoutingError: () => new RoutingError('No route matches "/nope"'),
  MalformedPathError: () => new MalformedPathError('/posts/%zz'),
  UrlGenerationError: () => new UrlGenerationError('No route matches {controller: "x"}'),
  MethodNotAllowed: () => new MethodNotAllowed(['GET', 'POST']),
  NotImplemented: () => new NotImplemented(['GET']),
  UnknownHttpMethod: () => new UnknownHttpMethod('BREW', ['GET', 'HEAD']),
  ArgumentError: () => new ArgumentError('bad declaration'),
};

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/**
 * Instances of one class. A class without a factory is tried two ways: with a one-element list
 * (it reads as a message, `String(['example'])`, and as a list of names alike), and, when that
 * gives no code from the table, as a family class that takes its code first: `new C(code, message)`
 * for every code it accepts.
 */
function instancesOf(name: string, Cls: ErrorClass): SignalboxError[] {
  const factory = FACTORIES[name];
  if (factory) return [factory()];
  const C = Cls as unknown as new (...args: unknown[]) => SignalboxError;
  const single = new C(['example']);
  if (CODES.includes(single.code)) return [single];
  return CODES.flatMap((code) => {
    try {
      const e = new C(code, 'example');
      return e.code === code ? [e] : [];
    } catch {
      return [];
    }
  });
}

/** Instances of every concrete class, by class name; most classes have one fixed code. */
const INSTANCES: Record<string, SignalboxError[]> = Object.fromEntries(
  EXPORTED_CLASSES.filter(([name]) => name !== 'SignalboxError').map(([name, Cls]) => [name, instancesOf(name, Cls)]),
);
const FIXED: Record<string, SignalboxError> = Object.fromEntries(
  Object.entries(INSTANCES).filter(([, list]) => list.length === 1).map(([name, [e]]) => [name, e]),
);

test('the routing errors are all exported', () => {
  for (const name of ['SignalboxError', 'RoutingError', 'MalformedPathError', 'UrlGenerationError', 'MethodNotAllowed', 'NotImplemented', 'ArgumentError']) {
    assert.ok(EXPORTED_CLASSES.some(([n]) => n === name), `${name} is exported`);
  }
});

test('the status table is frozen and every status is an HTTP error status', () => {
  assert.ok(Object.isFrozen(ERROR_STATUS));
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    assert.match(code, /^SBX_ERR_[A-Z_]+$/, `${code} follows <PREFIX>_ERR_<SUBJECT>`);
    assert.ok(Number.isInteger(status) && status >= 400 && status <= 599, `${code}: ${status}`);
  }
});

for (const [name, list] of Object.entries(INSTANCES)) {
  test(`${name}: a stable code from ERROR_STATUS, its status, and expose only for 4xx`, () => {
    assert.ok(list.length > 0, `${name} can be raised with a code from ERROR_STATUS`);
    for (const error of list) checkError(name, error);
  });
}

function checkError(name: string, error: SignalboxError): void {
  assert.instance(error, Error);
  assert.instance(error, SignalboxError);
  assert.is(error.name, name);
  assert.ok(error.code in ERROR_STATUS, `${error.code} is in ERROR_STATUS`);
  assert.is(error.status, ERROR_STATUS[error.code]);
  assert.is(error.expose, error.status >= 400 && error.status < 500);
  assert.type(error.message, 'string');
  assert.ok(error.message.length > 0);
  assert.ok(typeof error.stack === 'string' && error.stack.includes(name));
}

test('no two classes with a fixed code share it', () => {
  const codes = Object.values(FIXED).map((e) => e.code);
  assert.is(new Set(codes).size, codes.length, JSON.stringify(codes));
});

test('the routing codes and statuses are the documented ones', () => {
  const routing = ['RoutingError', 'MalformedPathError', 'UrlGenerationError', 'MethodNotAllowed', 'NotImplemented', 'ArgumentError'];
  const table = Object.fromEntries(routing.map((name) => [name, [FIXED[name].code, FIXED[name].status, FIXED[name].expose]]));
  assert.equal(table, {
    RoutingError: ['SBX_ERR_ROUTING', 404, true],
    MalformedPathError: ['SBX_ERR_MALFORMED_PATH', 400, true],
    UrlGenerationError: ['SBX_ERR_URL_GENERATION', 500, false],
    MethodNotAllowed: ['SBX_ERR_METHOD_NOT_ALLOWED', 405, true],
    NotImplemented: ['SBX_ERR_NOT_IMPLEMENTED', 501, false],
    ArgumentError: ['SBX_ERR_ARGUMENT', 500, false],
  });
});

test('MalformedPathError and UrlGenerationError are RoutingErrors, so one catch handles routing failures', () => {
  assert.instance(FIXED.MalformedPathError, RoutingError);
  assert.instance(FIXED.UrlGenerationError, RoutingError);
  assert.not.instance(FIXED.MethodNotAllowed, RoutingError);
  assert.not.instance(FIXED.NotImplemented, RoutingError);
  assert.not.instance(FIXED.ArgumentError, RoutingError);
});

test('MissingHost is not a routing error: a URL without a host is a programming error, answered 500', () => {
  assert.not.instance(FIXED.MissingHost, RoutingError);
  assert.is(FIXED.MissingHost.status, 500);
  assert.match(FIXED.MissingHost.message, /^Missing host to link to!/);
});

test('MalformedPathError names the path it could not decode', () => {
  assert.is(FIXED.MalformedPathError.message, 'Malformed percent-encoding in path "/posts/%zz"');
});

test('MethodNotAllowed carries a frozen copy of the allowed methods and lists them in its message', () => {
  const allowed = ['get', 'post'];
  const e = new MethodNotAllowed(allowed);
  allowed.push('put');
  assert.equal(e.allowed, ['get', 'post']);
  assert.ok(Object.isFrozen(e.allowed));
  assert.is(e.message, 'Only GET, POST requests are allowed.');
  assert.is(new MethodNotAllowed(['GET'], 'custom').message, 'custom');
});

test('NotImplemented carries the allowed methods too', () => {
  const e = new NotImplemented(['GET', 'PUT']);
  assert.equal(e.allowed, ['GET', 'PUT']);
  assert.ok(Object.isFrozen(e.allowed));
  assert.is(e.message, 'Unknown HTTP method; only GET, PUT requests are allowed.');
  assert.is(new NotImplemented([], 'nope').message, 'nope');
});

test('the base class takes its status from the table too', () => {
  const e = FACTORIES.SignalboxError();
  assert.is(e.name, 'SignalboxError');
  assert.is(e.status, 404);
  assert.ok(e.expose);
});

test('RoutingError can be raised with another routing code', () => {
  const e = new RoutingError('gone bad', 'SBX_ERR_MALFORMED_PATH');
  assert.is(e.code, 'SBX_ERR_MALFORMED_PATH');
  assert.is(e.status, 400);
});

test('the route set raises these classes with their allowed lists', () => {
  const routes = draw((map) => map.resources('posts'));
  const notAllowed = (() => {
    try {
      routes.recognize('PATCH', '/posts/1');
    } catch (e) {
      return e;
    }
  })();
  // PATCH is not one of Rails 2.1's methods: the request is unknown, not merely disallowed.
  assert.instance(notAllowed, NotImplemented);
  assert.equal((notAllowed as NotImplemented).allowed, ['GET', 'PUT', 'DELETE']);
  try {
    routes.recognize('POST', '/posts/1');
    assert.unreachable('POST /posts/1 is not routed');
  } catch (e) {
    assert.instance(e, MethodNotAllowed);
    assert.equal((e as MethodNotAllowed).allowed, ['GET', 'PUT', 'DELETE']);
    assert.is((e as MethodNotAllowed).status, 405);
  }
});

test.run();
