/**
 * Requirements as plain `{ source, flags }` data, compiled to flag-free JS
 * sources so one route pattern can mix case-insensitive and case-sensitive
 * pieces; plus the analyses the recognizers rely on.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw } from '../../../core/index.ts';
import {
  compileRequirement, countCaptures, isAnchored, isRequirementInput, mayMatchSlash, searchRegExp, toRequirement, wholeValueRegExp,
} from '../../../core/routing/requirement.ts';
import { throwsA } from './support.ts';

const test = suite('requirement');

const compile = (source: string, flags = '') => compileRequirement({ source, flags });

test('isRequirementInput accepts RegExps and { source } descriptors only', () => {
  assert.ok(isRequirementInput(/a/));
  assert.ok(isRequirementInput({ source: 'a' }));
  assert.ok(isRequirementInput({ source: 'a', flags: 'x' }));
  for (const v of ['a', null, undefined, 1, {}, [], { source: 1 }]) assert.not.ok(isRequirementInput(v), JSON.stringify(v));
});

test('toRequirement keeps i, x, s and u; drops the stateful g and y', () => {
  assert.equal(toRequirement(/ab/giy), { source: 'ab', flags: 'i' });
  assert.equal(toRequirement({ source: 'a', flags: 'xiix' }), { source: 'a', flags: 'ix' });
  assert.equal(toRequirement({ source: 'a' }), { source: 'a', flags: '' });
  assert.equal(toRequirement(/a/su), { source: 'a', flags: 'su' });
});

test('toRequirement refuses the multiline flag', () => {
  throwsA(() => toRequirement(/a/m), ArgumentError, 'Regexp multiline option not allowed in routing requirements: /a/m');
  throwsA(() => toRequirement({ source: 'a', flags: 'm' }), ArgumentError);
});

test('equal requirements share one frozen object', () => {
  const a = toRequirement(/\d+/);
  assert.is(toRequirement({ source: '\\d+', flags: '' }), a);
  assert.ok(Object.isFrozen(a));
  assert.is.not(toRequirement(/\d+/i), a);
});

test('a descriptor that can still change is read afresh each time; a RegExp or a frozen one is read once', () => {
  const re = /[a-z]+/;
  assert.is(toRequirement(re), toRequirement(re));
  const frozen = Object.freeze({ source: '[0-9]+' });
  assert.is(toRequirement(frozen), toRequirement(frozen));
  const open: { source: string; flags?: string } = { source: 'x+' };
  assert.equal(toRequirement(open), { source: 'x+', flags: '' });
  open.source = 'y+';
  open.flags = 'i';
  assert.equal(toRequirement(open), { source: 'y+', flags: 'i' });
  assert.is(compileRequirement(open as { source: string; flags: string }), '[yY]+');
  open.flags = '';
  assert.is(compileRequirement(open as { source: string; flags: string }), 'y+');
});

const ANCHORED: readonly [string, boolean][] = [
  ['^a', true], ['a$', true], ['\\Aa', true], ['a\\z', true], ['a\\Z', true], ['a', false], ['[$]', false], ['a^b', false], ['a|b', false],
];
for (const [source, anchored] of ANCHORED) {
  test(`isAnchored(/${source}/) is ${anchored}`, () => assert.is(isAnchored({ source, flags: '' }), anchored));
}

test('the i flag folds letters, in and out of classes', () => {
  const matches = (source: string, value: string) => new RegExp(`^(?:${compile(source, 'i')})$`).test(value);
  assert.is(compile('ab', 'i'), '[aA][bB]');
  assert.is(compile('a{2}', 'i'), '[aA]{2}');
  for (const [source, yes, no] of [
    ['ab[c-e]\\d', 'ABE7', 'abf7'],
    ['[A-Z]+', 'abcXYZ', 'a1'],
    ['[^a-z]', '1', 'Q'],
    ['[aB_]+', 'AbB_a', 'c'],
    ['[\\da-c]+', '1AbC', 'd'],
  ] as const) {
    assert.ok(matches(source, yes), `/${source}/i matches ${yes}`);
    assert.not.ok(matches(source, no), `/${source}/i does not match ${no}`);
  }
});

test('the i flag keeps group names as written', () => {
  assert.is(compile('(?<name>ab)', 'i'), '(?<name>[aA][bB])');
});

test('the x flag drops whitespace and # comments, but not escaped or bracketed ones', () => {
  assert.is(compile('a b # comment\n c', 'x'), 'abc');
  assert.is(compile('[ #]x', 'x'), '[ #]x');
  assert.is(compile('\\ a', 'x'), '\\ a');
  assert.is(compile('\\d{2} # two digits\n - [a-z]+', 'x'), '\\d{2}-[a-z]+');
});

test('x and i together', () => {
  assert.is(compile(' a # one\n b ', 'xi'), '[aA][bB]');
});

test('Ruby\'s \\A and \\z become JS anchors', () => {
  assert.is(compile('\\A\\d+\\z'), '^\\d+$');
  assert.is(compile('x\\Z'), 'x$');
});

test('a \\p{...} escape on a path segment is refused: the segment is matched percent-encoded, where it matched nothing', () => {
  throwsA(() => draw((map) => map.resources('posts', { requirements: { id: /\p{L}+/u } })), ArgumentError,
    'Routing requirement /\\p{L}+/u on :id: \\p{...} and \\u{...} escapes cannot test a path segment, which is matched percent-encoded (é is %C3%A9)');
  throwsA(() => draw((map) => map.connect('tags/:name', { controller: 'tags', requirements: { name: /\u{1F600}/u } })), ArgumentError, /on :name: /);
  // On a key outside the path the value is tested decoded, so the escape works there.
  const set = draw((map) => map.connect('tags', { controller: 'tags', requirements: { lang: /\p{L}+/u } }));
  assert.is(set.generate({ controller: 'tags', action: 'index', lang: 'français' }), '/tags');
  // A u-flagged requirement without such escapes still recognises.
  assert.equal(draw((map) => map.resources('posts', { requirements: { id: /[\w-]+/u } })).recognize('GET', '/posts/a-b'), { controller: 'posts', action: 'show', id: 'a-b' });
});

test('searchRegExp is unanchored, wholeValueRegExp must match the whole value', () => {
  const req = toRequirement(/ab/i);
  assert.ok(searchRegExp(req).test('xxABxx'));
  assert.ok(wholeValueRegExp(req).test('aB'));
  assert.not.ok(wholeValueRegExp(req).test('aBc'));
  assert.not.ok(wholeValueRegExp(toRequirement(/a|b/)).test('ab'), 'alternation is grouped before anchoring');
  assert.is(wholeValueRegExp(req), wholeValueRegExp(toRequirement(/ab/i)), 'compiled once');
  assert.ok(wholeValueRegExp(toRequirement(/\p{L}+/u)).test('é'), 'the u flag is kept');
});

const CAPTURES: readonly [string, number][] = [
  ['(a)(b)', 2], ['(?:a)', 0], ['(?<n>a)', 1], ['(?=a)', 0], ['(?<=a)', 0], ['(?<!a)', 0], ['\\(a\\)', 0], ['[(]', 0], ['((a))', 2], ['[\\]()](x)', 1],
];
for (const [source, count] of CAPTURES) {
  test(`countCaptures(/${source}/) is ${count}`, () => assert.is(countCaptures(source), count));
}

/** Whether a source could match a '/', as the tree recognizer must know (true is always safe). */
const SLASH: readonly [string, boolean][] = [
  ['\\d+', false], ['[^/]+', false], ['\\w+', false], ['[a-z]', false], ['a|b', false], ['(?:a)', false], ['[\\w-]', false], ['[^\\/]', false],
  ['.+', true], ['\\W', true], ['\\D', true], ['\\S', true], ['[^a-z]', true], ['[!-~]', true], ['\\/', true], ['[\\/]', true], ['[/]', true],
  ['\\p{L}', true], ['\\x2f', true], ['\\u002f', true], ['\\cA', false], ['\\0', false], ['[\\s\\S]', true], ['[^\\d]', true], ['[^]', true],
];
for (const [source, slash] of SLASH) {
  test(`mayMatchSlash(/${source}/) is ${slash}`, () => {
    assert.is(mayMatchSlash(source), slash);
    // Never claim "no slash" for a source that does match one.
    if (!slash) assert.not.ok(new RegExp(`^(?:${source})$`).test('/'), `${source} matches "/"`);
  });
}

test.run();
