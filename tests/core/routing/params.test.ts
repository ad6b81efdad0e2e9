/**
 * Turning values into URL text: `toParam` (Rails' to_param), path escaping
 * (RFC 2396 pchar), CGI escaping and `to_query` for the query string, and
 * decoding of path components.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, cgiEscape, draw, escapePathComponent, toParam, toQuery } from '../../../core/index.ts';
import { helpersOf } from '../../support/helpers-by-name.ts';
import { throwsA } from './support.ts';
import { buildQueryString, escapePath, isPlainObject, unescapePathComponent } from '../../../core/routing/params.ts';

const test = suite('params');

const TO_PARAM: readonly [string, unknown, string | null][] = [
  ['null stays null', null, null],
  ['undefined is null', undefined, null],
  ['a string is itself', 'a b', 'a b'],
  ['a number is its decimal text', 12, '12'],
  ['zero is "0", not absent', 0, '0'],
  ['a bigint is its text', 10n, '10'],
  ['a boolean is its text', true, 'true'],
  ['an array joins its parts with /', [1, null, 'a'], '1//a'],
  ['a record gives to_param()', { to_param: () => 5 }, '5'],
  ['a record without to_param gives its id', { id: 7 }, '7'],
  ['a to_param() of null is null, even with an id', { to_param: () => null, id: 3 }, null],
  ['a Date is its ISO text', new Date(0), '1970-01-01T00:00:00.000Z'],
  ['any other object is its String()', {}, '[object Object]'],
];

for (const [name, value, expected] of TO_PARAM) {
  test(`toParam: ${name}`, () => assert.is(toParam(value), expected));
}

test('escapePathComponent leaves pchar characters alone', () => {
  assert.is(escapePathComponent('abcXYZ019'), 'abcXYZ019');
  assert.is(escapePathComponent("-_.!~*'():@&=+$,;"), "-_.!~*'():@&=+$,;");
});

test('escapePathComponent escapes everything else as UTF-8, / included', () => {
  assert.is(escapePathComponent('a b/c?d#e'), 'a%20b%2Fc%3Fd%23e');
  assert.is(escapePathComponent('%'), '%25');
  assert.is(escapePathComponent('é✓'), '%C3%A9%E2%9C%93');
  assert.is(escapePathComponent('[]^{}|\\"<>`'), '%5B%5D%5E%7B%7D%7C%5C%22%3C%3E%60');
  assert.is(escapePathComponent('😀'), '%F0%9F%98%80');
});

test('escapePath keeps the / separators of a multi-component path', () => {
  assert.is(escapePath('admin/user list'), 'admin/user%20list');
  assert.is(escapePath('a?/b#'), 'a%3F/b%23');
});

test('cgiEscape is Ruby\'s CGI.escape: spaces become +, only A-Za-z0-9_.- stay', () => {
  assert.is(cgiEscape('abc-_.'), 'abc-_.');
  assert.is(cgiEscape('a b&c=d/é'), 'a+b%26c%3Dd%2F%C3%A9');
  assert.is(cgiEscape('~*'), '%7E%2A');
  assert.is(cgiEscape(''), '');
});

test('toQuery: plain values, arrays as key[], hashes as key[sub] sorted', () => {
  assert.is(toQuery('a', 1), 'a=1');
  assert.is(toQuery('a b', 'c d'), 'a+b=c+d');
  assert.is(toQuery('tags', ['a', 'b']), 'tags%5B%5D=a&tags%5B%5D=b');
  assert.is(toQuery('h', { z: 1, a: [1, 2] }), 'h%5Ba%5D%5B%5D=1&h%5Ba%5D%5B%5D=2&h%5Bz%5D=1');
  assert.is(toQuery('n', null), 'n=');
  assert.is(toQuery('r', { id: 4 }), 'r%5Bid%5D=4');
});

test('buildQueryString drops null, undefined and false, keeps empty strings, and sorts', () => {
  assert.is(buildQueryString({ b: 2, a: 1, c: null, d: false, e: undefined, f: '' }, ['b', 'a', 'c', 'd', 'e', 'f']), '?a=1&b=2&f=');
  assert.is(buildQueryString({ a: 1 }, []), '');
  assert.is(buildQueryString({ a: null }, ['a']), '');
});

test('a value with no text of its own is an ArgumentError when generating, not a TypeError', () => {
  const routes = draw((map) => { map.resources('posts'); map.connect(':controller/:action/:id'); });
  const h = helpersOf(routes);
  throwsA(() => routes.generate({ controller: 'posts', action: 'show', id: Object.create(null) }), ArgumentError, 'Cannot turn an object without to_param(), id or toString() into a URL parameter');
  throwsA(() => h.post_path({ id: Object.create(null) }), ArgumentError, /without to_param\(\), id or toString\(\)/);
  const record = { slug: 'hello', to_param() { return this.slug; } };
  throwsA(() => h.post_path(record.to_param), ArgumentError, 'A function cannot be a URL parameter (did you mean to call it?): to_param');
  throwsA(() => routes.generate({ controller: 'posts', action: 'index', sort: () => 'title' }), ArgumentError, /A function cannot be a URL parameter/);
});

test('a symbol stands for its name, as a Ruby symbol does', () => {
  const h = helpersOf(draw((map) => map.resources('posts')));
  assert.is(h.post_path(Symbol('latest'), { order: Symbol.for('desc') }), '/posts/latest?order=desc');
});

test('an object literal with to_param() is a record in the query string too', () => {
  const h = helpersOf(draw((map) => map.resources('posts')));
  assert.is(h.posts_path({ after: { to_param: () => 'slug-1' } }), '/posts?after=slug-1');
  assert.is(h.posts_path({ q: { id: 5 } }), '/posts?q%5Bid%5D=5');
});

test('a query value that contains itself is an ArgumentError, not a stack overflow', () => {
  const h = helpersOf(draw((map) => map.resources('posts')));
  const filter: Record<string, unknown> = { tag: 'js' };
  filter.self = filter;
  throwsA(() => h.posts_path({ filter }), ArgumentError, 'Query parameter "filter" nests more than 100 levels deep (does it contain itself?)');
  let deep: unknown = 'x';
  for (let i = 0; i < 50; i++) deep = [deep];
  assert.ok(h.posts_path({ deep }).startsWith('/posts?deep%5B%5D'));
});

test('isPlainObject: object literals and null-prototype objects only', () => {
  assert.ok(isPlainObject({}));
  assert.ok(isPlainObject(Object.create(null)));
  for (const v of [[], new Date(), null, 'x', 1, new (class X {})()]) assert.not.ok(isPlainObject(v));
});

test('unescapePathComponent decodes UTF-8 escapes and reports malformed ones as null', () => {
  assert.is(unescapePathComponent('a%20b'), 'a b');
  assert.is(unescapePathComponent('caf%C3%A9'), 'café');
  assert.is(unescapePathComponent('plain'), 'plain');
  assert.is(unescapePathComponent('a+b'), 'a+b', 'a path is not a form: + stays +');
  assert.is(unescapePathComponent('%zz'), null);
  assert.is(unescapePathComponent('%C3'), null);
  assert.is(unescapePathComponent('%'), null);
});

test('escaping then decoding gives the value back', () => {
  for (const v of ['a b', 'x/y?z#w', 'é✓😀', '%41', "-_.!~*'():@&=+$,;"]) assert.is(unescapePathComponent(escapePathComponent(v)), v);
});

test.run();
