/**
 * The transport-independent message contract: header names are folded to
 * lower case, and repeated values joined the way HTTP allows.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { normaliseHeaders } from '../../../core/http/message.ts';

const test = suite('normaliseHeaders folds a message headers into one lower-case record');

test('names are lower-cased; undefined and null values are dropped', () => {
  const out = normaliseHeaders({ 'Content-Type': 'text/html', ACCEPT: '*/*', 'x-none': undefined, 'x-null': null as unknown as undefined });
  assert.equal({ ...out }, { 'content-type': 'text/html', accept: '*/*' });
});

test('repeated values join with a comma; cookies with a semicolon', () => {
  const out = normaliseHeaders({ 'X-Forwarded-For': ['1.1.1.1', '2.2.2.2'], Cookie: ['a=1', 'b=2'] });
  assert.is(out['x-forwarded-for'], '1.1.1.1, 2.2.2.2');
  assert.is(out.cookie, 'a=1; b=2');
});

test('the same header under two spellings is joined, not overwritten', () => {
  const out = normaliseHeaders({ Accept: 'text/html', accept: 'application/json', Cookie: 'a=1', cookie: ['b=2'] });
  assert.is(out.accept, 'text/html, application/json');
  assert.is(out.cookie, 'a=1; b=2');
});

test('header names that address prototypes are plain keys of a record that inherits nothing', () => {
  const out = normaliseHeaders(JSON.parse('{"__proto__": "x", "Constructor": "y"}'));
  assert.is(Object.getPrototypeOf(Object.getPrototypeOf(out)), null, 'its prototype has none');
  assert.equal(Reflect.ownKeys(Object.getPrototypeOf(out)), [], 'and holds nothing');
  assert.ok(Object.isFrozen(Object.getPrototypeOf(out)), 'nor can be given anything');
  for (const name of ['toString', 'hasOwnProperty', 'valueOf']) assert.not.ok(name in out, name);
  assert.equal(Object.keys(out), ['__proto__', 'constructor']);
  assert.is(out.__proto__ as unknown, 'x');
  assert.is(out.constructor as unknown, 'y');
  assert.is(({} as Record<string, unknown>).x, undefined);
});

test.run();
