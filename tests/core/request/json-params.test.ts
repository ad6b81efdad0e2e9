/**
 * JSON bodies: objects as parameters, anything else under `_json`, strict
 * parsing, prototype keys dropped, nulls removed from arrays, and limits.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BodyParseError, ParamsParseError, PayloadTooLarge } from '../../../core/errors.ts';
import { parseJsonParams } from '../../../core/request/json-params.ts';

const json = suite('parseJsonParams');

const is = (type: new (...args: never[]) => Error, code?: string) => (e: unknown) => e instanceof type && (code === undefined || (e as { code?: string }).code === code);

json('an object body is the parameters, with JSON types kept', () => {
  assert.equal(parseJsonParams('{"person": {"name": "David", "age": 30, "admin": false, "nick": null, "tags": ["a", 1]}}'), {
    person: { name: 'David', age: 30, admin: false, nick: null, tags: ['a', 1] },
  });
});

json('an array, scalar or null body goes under _json', () => {
  assert.equal(parseJsonParams('[1, 2]'), { _json: [1, 2] });
  assert.equal(parseJsonParams('"text"'), { _json: 'text' });
  assert.equal(parseJsonParams('42'), { _json: 42 });
  assert.equal(parseJsonParams('null'), { _json: null });
});

json('an empty or blank body has no parameters', () => {
  assert.equal(parseJsonParams(''), {});
  assert.equal(parseJsonParams(' \n '), {});
});

json('anything but strict JSON is a 400 (no YAML, no JavaScript)', () => {
  for (const body of ['{', "{'a': 1}", '--- !ruby/hash:ActionController::Routing::RouteSet::NamedRouteCollection\n? foo\n: bar\n', '{a: 1}', 'NaN', '[1,]']) {
    assert.throws(() => parseJsonParams(body), is(BodyParseError, 'SBX_ERR_JSON_PARSE'), body);
  }
});

json('__proto__, constructor and prototype keys are dropped at every level', () => {
  const params = parseJsonParams('{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}, "post": {"title": "x", "__proto__": {"admin": true}, "prototype": 1}}');
  assert.equal(params, { post: { title: 'x' } });
  assert.is(Object.getPrototypeOf(params), Object.prototype);
  assert.is(Object.getPrototypeOf(params.post), Object.prototype);
  assert.is(({} as Record<string, unknown>).admin, undefined);
});

json('names of Object.prototype members are data', () => {
  const params = parseJsonParams('{"hasOwnProperty": 1, "toString": "x", "valueOf": null, "authenticity_token": {"toString": 1}}');
  assert.is(Object.getOwnPropertyDescriptor(params, 'hasOwnProperty')?.value, 1);
  assert.is(Object.getOwnPropertyDescriptor(params, 'toString')?.value, 'x');
  assert.equal(params.authenticity_token, { toString: 1 });
});

json('nulls are removed from arrays, so [null] is never a list of one id', () => {
  assert.equal(parseJsonParams('{"user": {"token": [null], "ids": [1, null, 2], "email": null, "id": {"$ne": null}}}'), {
    user: { token: [], ids: [1, 2], email: null, id: { $ne: null } },
  });
});

json('limits: depth and counts are a 400, size a 413', () => {
  assert.equal(parseJsonParams('{"a": {"b": {"c": 1}}}', { depth: 2 }), { a: { b: { c: 1 } } });
  assert.throws(() => parseJsonParams('{"a": {"b": {"c": {"d": 1}}}}', { depth: 2 }), is(ParamsParseError, 'SBX_ERR_PARAMS_DEPTH'));
  assert.throws(() => parseJsonParams(`${'['.repeat(50_000)}${']'.repeat(50_000)}`), is(ParamsParseError, 'SBX_ERR_PARAMS_DEPTH'));
  assert.throws(() => parseJsonParams('{"a": 1, "b": 2, "c": 3}', { keys: 2 }), is(ParamsParseError, 'SBX_ERR_PARAMS_COUNT'));
  assert.throws(() => parseJsonParams('{"a": [1, 2, 3]}', { arrayLength: 2 }), is(ParamsParseError, 'SBX_ERR_PARAMS_COUNT'));
  assert.throws(() => parseJsonParams(`{"a": "${'x'.repeat(2000)}"}`, { bodyBytes: 1000 }), is(PayloadTooLarge));
});

json.run();
