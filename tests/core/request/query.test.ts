/**
 * Query strings and url-encoded bodies: Rails 2.1's pair grammar, decoding,
 * limits, and the guarantee that no input reaches a prototype. The property
 * tests throw arbitrary strings at the parser.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ParamsParseError, PayloadTooLarge } from '../../../core/errors.ts';
import { parseQuery, unescapeParam } from '../../../core/request/query.ts';

const query = suite('parseQuery: Rails 2.1 pair grammar');

/** [query, params, why]: the grammar as a table. */
const CASES: [string, unknown, string][] = [
  ['', {}, 'an empty query has no parameters'],
  ['   ', {}, 'a blank query has no parameters'],
  ['a=1&b=2', { a: '1', b: '2' }, 'pairs split on & and ='],
  ['a=1=2=3', { a: '1=2=3' }, 'only the first = splits'],
  ['action', { action: null }, 'a name without = is null'],
  ['a=', { a: '' }, 'an empty value is the empty string'],
  ['&&a=1&&', { a: '1' }, 'empty chunks are skipped'],
  ['=Save&a=1', { a: '1' }, 'an empty name is skipped'],
  ['a=1&a=2', { a: '1' }, 'the first value of a repeated plain key wins'],
  ['a&a=2', { a: '2' }, 'a value replaces an earlier null'],
  ['a=1&a', { a: '1' }, 'a later null does not replace a value'],
  ['name=Don%27t+%26+Does', { name: "Don't & Does" }, '+ is a space and escapes decode'],
  ['caf%C3%A9=cr%C3%A8me', { 'café': 'crème' }, 'escapes decode as UTF-8, in names too'],
  ['a%5Bb%5D=1', { a: { b: '1' } }, 'escaped brackets nest'],
  ['a.b=c', { 'a.b': 'c' }, 'dots are part of the name'],
  ['x[y][z]=10', { x: { y: { z: '10' } } }, 'brackets nest hashes'],
  ['x[]=1&x[]=2', { x: ['1', '2'] }, '[] collects an array'],
  ['x[y][z][]=10&x[y][z][]=5', { x: { y: { z: ['10', '5'] } } }, 'arrays nest inside hashes'],
  ['x[y][][z]=10&x[y][][w]=a&x[y][][z]=20&x[y][][w]=b', { x: { y: [{ z: '10', w: 'a' }, { z: '20', w: 'b' }] } }, 'a repeated key starts the next hash of an array'],
  ['a[][z]=1&a[][z]=2&a[][w]=3', { a: [{ z: '1' }, { z: '2', w: '3' }] }, 'pairs bind in arrival order'],
  ['a[][b][c]=1&a[][b][c]=2', { a: [{ b: { c: '1' } }, { b: { c: '2' } }] }, 'a repeated nested key starts the next hash too'],
  ['a[][x]=0&a[][d][e]=1', { a: [{ x: '0', d: { e: '1' } }] }, 'a new hash key joins the last hash of an array'],
  ['a[b]=1&a[b]=2', { a: { b: '1' } }, 'first value wins inside hashes'],
  ['a[1]=x&a[0]=y', { a: { 1: 'x', 0: 'y' } }, 'numeric segments are hash keys'],
  ['a[999999999]=x', { a: { 999999999: 'x' } }, 'a huge index is just a key, never a sparse array'],
  ['a[]', { a: [null] }, 'a bare array name pushes null'],
  ['a/b[c]=d', { 'a/b': { c: 'd' } }, 'names may hold any character but brackets, = and &'],
  ['a/b[c]d=e', { 'a/b': {} }, 'scanning stops at a malformed segment, keeping the containers made'],
  ['a/b@[c]d[e][]=f', { 'a/b@': {} }, 'text between segments stops the scan'],
  ['a[][]=1', { a: [] }, 'an empty segment after [] stops the scan'],
  ['a[b=1', { a: {} }, 'an unclosed bracket stops the scan'],
  ['[x]=1&]=2&a]=3', {}, 'a name must start with a bare key'],
  ['a[[x]]=1', { a: {} }, 'nested brackets stop the scan'],
  ['a%3Db=c', {}, 'an escaped = ends the bare key'],
  ['a[b]c[d]=1', { a: {} }, 'text after a segment stops the scan'],
];

for (const [input, expected, why] of CASES) {
  query(`${why}: ${JSON.stringify(input)}`, () => {
    assert.equal(parseQuery(input), expected);
  });
}

query('parameters are ordinary objects and arrays', () => {
  const params = parseQuery('a[b][]=1&c=2');
  assert.is(Object.getPrototypeOf(params), Object.prototype);
  assert.is(Object.getPrototypeOf(params.a), Object.prototype);
  assert.ok(Array.isArray((params.a as { b: unknown }).b));
});

query('names of Object.prototype members are plain data keys', () => {
  const params = parseQuery('toString=1&hasOwnProperty[x]=2&valueOf[]=3');
  assert.equal(params, { toString: '1', hasOwnProperty: { x: '2' }, valueOf: ['3'] });
  assert.is(Object.prototype.hasOwnProperty.call(params, 'toString'), true);
});

query('a pair with a __proto__, constructor or prototype segment is dropped whole', () => {
  const params = parseQuery('__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__]=b&a[__proto__]&post[constructor][prototype][admin]=1&post[title]=x&a[length]=1');
  assert.equal(params, { a: { length: '1' }, post: { title: 'x' } });
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(({} as Record<string, unknown>).admin, undefined);
  assert.not.ok(Object.hasOwn(params.a as object, '__proto__'));
  assert.equal(parseQuery('__proto__=1&prototype=2&constructor'), {});
});

query('dotted prototype names are ordinary keys (no dot nesting)', () => {
  assert.equal(parseQuery('__proto__.polluted=1&constructor.prototype.polluted=1'), { '__proto__.polluted': '1', 'constructor.prototype.polluted': '1' });
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

/** Runs `fn` and returns the error it throws. */
function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected an error');
}

query('a hash where an array was (or the reverse) is a 400 conflict, as Rails raised TypeError', () => {
  for (const input of ['a[]=1&a[b]=2', 'a[b]=1&a[]=2', 'a=1&a[b]=2', 'a&a[]=1', 'a[b]=1&a[b][c]=2', 'format[]=xml&format[x]=y']) {
    const error = caught(() => parseQuery(input));
    assert.instance(error, ParamsParseError, input);
    assert.is((error as ParamsParseError).code, 'SBX_ERR_PARAMS_CONFLICT');
    assert.is((error as ParamsParseError).status, 400);
  }
});

query('malformed percent-encoding and escapes that are not UTF-8 are a 400', () => {
  for (const input of ['a=%ZZ', 'a=%', 'a=%4', '%E9=1', 'a=%E9', 'a=%ED%A0%80']) {
    const error = caught(() => parseQuery(input));
    assert.instance(error, ParamsParseError, input);
    assert.is((error as ParamsParseError).code, 'SBX_ERR_PARAMS_ENCODING');
  }
});

query('unescapeParam decodes + and escapes, leaving plain text alone', () => {
  assert.is(unescapeParam('plain'), 'plain');
  assert.is(unescapeParam('a+b%2Bc'), 'a b+c');
  assert.throws(() => unescapeParam('%G0'), (e: unknown) => e instanceof ParamsParseError);
});

query('nesting deeper than the depth limit is a 400, without recursion', () => {
  assert.equal(parseQuery('a[b][c]=1', { depth: 2 }), { a: { b: { c: '1' } } });
  const shallow = caught(() => parseQuery('a[b][c][d]=1', { depth: 2 }));
  assert.is((shallow as ParamsParseError).code, 'SBX_ERR_PARAMS_DEPTH');
  const deep = caught(() => parseQuery(`a${'[a]'.repeat(100_000)}=1`));
  assert.is((deep as ParamsParseError).code, 'SBX_ERR_PARAMS_DEPTH');
});

query('more pairs than the keys limit, or a longer array than arrayLength, is a 400', () => {
  assert.equal(Object.keys(parseQuery('a=1&b=2&c=3', { keys: 3 })), ['a', 'b', 'c']);
  assert.is((caught(() => parseQuery('a=1&b=2&c=3', { keys: 2 })) as ParamsParseError).code, 'SBX_ERR_PARAMS_COUNT');
  assert.is((caught(() => parseQuery(`a[]=x${'&a[]=x'.repeat(100_000)}`)) as ParamsParseError).code, 'SBX_ERR_PARAMS_COUNT');
  assert.is((caught(() => parseQuery('a[]=1&a[]=2&a[]=3', { arrayLength: 2 })) as ParamsParseError).code, 'SBX_ERR_PARAMS_COUNT');
});

query('a query or body over bodyBytes is a 413', () => {
  const error = caught(() => parseQuery(`post[body]=${'A'.repeat(2000)}`, { bodyBytes: 1000 }));
  assert.instance(error, PayloadTooLarge);
  assert.is((error as PayloadTooLarge).status, 413);
  assert.is((error as PayloadTooLarge).limit, 'bodyBytes');
  // Bytes, not characters: 400 three-byte characters are 1200 bytes.
  assert.throws(() => parseQuery(`a=${'€'.repeat(400)}`, { bodyBytes: 1000 }), (e: unknown) => e instanceof PayloadTooLarge);
  assert.equal(parseQuery(`a=${'€'.repeat(300)}`, { bodyBytes: 1000 }), { a: '€'.repeat(300) });
});

const properties = suite('parseQuery: properties');

/** Strings made of the characters the grammar cares about, plus prototype names. */
const queryish = fc
  .array(fc.constantFrom('a', 'b', '0', '[', ']', '[]', '=', '&', '%', '%5B', '%5D', '%25', '%E9', '+', '.', '__proto__', 'constructor', 'prototype', 'toString', 'length', ' '), { maxLength: 40 })
  .map((parts) => parts.join(''));

function isExpectedFailure(error: unknown): boolean {
  return (error instanceof ParamsParseError && error.status === 400) || (error instanceof PayloadTooLarge && error.status === 413);
}

/** Every container in a result, and the container's values. */
function* containers(value: unknown): Generator<object> {
  if (value !== null && typeof value === 'object') {
    yield value;
    for (const child of Object.values(value)) yield* containers(child);
  }
}

properties('any string parses or fails with a typed 400/413, and nothing reaches a prototype', () => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  const arrayBefore = Object.getOwnPropertyNames(Array.prototype).sort();
  fc.assert(
    fc.property(fc.oneof(queryish, fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 })), (input) => {
      let params: unknown;
      try {
        params = parseQuery(input, { depth: 4, keys: 20, arrayLength: 5, bodyBytes: 200 });
      } catch (error) {
        return isExpectedFailure(error);
      }
      for (const c of containers(params)) {
        const proto = Object.getPrototypeOf(c);
        if (proto !== Object.prototype && proto !== Array.prototype) return false;
        if (Object.hasOwn(c, '__proto__') || Object.hasOwn(c, 'constructor') || Object.hasOwn(c, 'prototype')) return false;
      }
      return true;
    }),
    { numRuns: 3000 },
  );
  assert.equal(Object.getOwnPropertyNames(Object.prototype).sort(), before);
  assert.equal(Object.getOwnPropertyNames(Array.prototype).sort(), arrayBefore);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

properties('a plain key never yields an array: the first value wins', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 10 }), (pairs) => {
      const input = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
      const params = parseQuery(input);
      return pairs.every(([k]) => params[k] === pairs.find(([key]) => key === k)![1]);
    }),
  );
});

properties('encoded names and values round-trip', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !/[[\]=&]/.test(k) && !['__proto__', 'constructor', 'prototype'].includes(k) && k.trim() !== ''), fc.string({ maxLength: 8 }), { maxKeys: 6 }), (dict) => {
      const input = Object.entries(dict).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const params = parseQuery(input);
      return Object.entries(dict).every(([k, v]) => params[k] === v) && Object.keys(params).length === Object.keys(dict).length;
    }),
  );
});

query.run();
properties.run();
