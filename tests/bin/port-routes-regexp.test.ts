/**
 * Regexps in ported routes keep their Ruby meaning in JavaScript. Three tables: how constructs are
 * spelled after the port; what ported patterns match, read the way Signalbox reads a requirement
 * (its own `x` and `i` handling included), against strings chosen where Ruby and JavaScript differ;
 * and the constructs JavaScript has no equivalent for, which are reported instead of approximated.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NotPorted } from '../../bin/port-routes/errors.ts';
import { translateRegexp } from '../../bin/port-routes/regexp.ts';
import { searchRegExp, toRequirement } from '../../core/routing/requirement.ts';
import { portText } from './port-routes-support.ts';

// [Ruby source, Ruby flags, JavaScript source, flags]
const SPELLINGS: [string, string, string, string][] = [
  ['\\d+', '', '\\d+', ''],
  ['\\A\\d{4}\\z', '', '^\\d{4}$', ''],
  ['[a-z]+\\Z', '', '[a-z]+(?=\\n?$)', ''],
  ['^post$', '', '(?<![^\\n])post(?![^\\n])', ''],
  ['a.c', '', 'a[^\\n]c', ''],
  ['a.c', 'm', 'a[\\s\\S]c', 's'],
  ['(?i)post', '', 'post', 'i'],
  ['post', 'i', 'post', 'i'],
  ['foo(?i:bar)', '', 'foo(?:[bB][aA][rR])', ''],
  ['a(?-i)b', 'i', '[aA]b', ''],
  ['\\d{4} # year\n-\\d{2}', 'x', '\\d{4} # year\n-\\d{2}', 'x'],
  ['x (?-x: y) z', 'x', 'x (?:\\ y) z', 'x'],
  ['(?x) a b ', '', 'ab', ''],
  ['[[:alpha:]]+', '', '[A-Za-z]+', ''],
  ['[[:^digit:]]', '', '[^0-9]', ''],
  ['[[:punct:]]', '', '[!-\\/:-@\\[-`{-~]', ''],
  ['\\h+', '', '[0-9a-fA-F]+', ''],
  ['\\s\\S', '', '[\\t-\\r ][^\\t-\\r ]', ''],
  ['[^\\s/]+', '', '[^\\t-\\r \\/]+', ''],
  ['a{,3}', '', 'a{0,3}', ''],
  ['a{2}+', '', '(?:a{2})+', ''],
  ['a{2}?', '', '(?:a{2})?', ''],
  ['a{1,2}?', '', 'a{1,2}?', ''],
  ['(?<year>\\d+)-(\\d+)', '', '(?<year>\\d+)-(?:\\d+)', ''],
  ["(?'y'\\d)\\k'y'", '', '(?<y>\\d)\\k<y>', ''],
  ['a/b', '', 'a\\/b', ''],
  ['\\\\A', '', '\\x5cA', ''],
  ['\\e\\a\\0', '', '\\x1b\\x07\\x00', ''],
  ['\\R', '', '(?:\\r\\n|[\\n\\v\\f\\r\\x85\\u2028\\u2029])', ''],
  ['a(?#a comment)b', '', 'ab', ''],
  ['[]a]', '', '[\\]a]', ''],
  ['[a-c[x-z]]', '', '[a-cx-z]', ''],
  ['{x', '', '\\{x', ''],
  ['\\u{1F600}+', '', '(?:\u{1F600})+', ''],
  ['[a-z]', 'o', '[a-z]', ''],
];

// [Ruby source, Ruby flags, strings it matches (Ruby's =~), strings it does not]
const MEANINGS: [string, string, string[], string[]][] = [
  ['\\A\\d+\\z', '', ['123'], ['123\n', 'a123', '12a']],
  ['\\A\\d+\\Z', '', ['123', '123\n'], ['123\n\n', '123a']],
  ['^ab$', '', ['ab', 'x\nab', 'ab\ny'], ['xab', 'abx']],
  ['a.c', '', ['abc', 'a\rc', 'a\u2028c'], ['a\nc']],
  ['a.c', 'm', ['abc', 'a\nc'], ['ac']],
  ['(?i)post', '', ['POST', 'Post'], ['pst']],
  ['\\Aa(?i)bc\\z', '', ['aBC', 'abc'], ['ABC']],
  ['\\Aa(?i:b)c\\z', '', ['aBc'], ['aBC']],
  ['\\Aa(?-i:b)c\\z', 'i', ['AbC'], ['ABC']],
  ['\\A[a-z]+\\z', 'i', ['ABC', 'abc'], ['ab1']],
  ['\\A \\d{4} # the year\n - \\d{2} # the month\n \\z', 'x', ['2008-12'], ['2008 -12', '2008-1']],
  ['\\A a\\ b [ ] \\# \\z', 'x', ['a b #'], ['ab #', 'a b#']],
  ['\\A(?x: a b )c\\z', '', ['abc'], ['a bc']],
  ['\\A[[:alpha:]]+\\z', '', ['abcXYZ'], ['abc1', 'é']],
  ['\\A[[:^digit:]]+\\z', '', ['abc'], ['a1']],
  ['\\A\\h+\\z', '', ['0aF9'], ['g']],
  ['\\A\\s\\z', '', [' ', '\t', '\v', '\n'], ['\u00a0', 'x']],
  ['\\A[^\\s/]+\\z', '', ['abc'], ['a b', 'a/b']],
  ['\\Aa{,2}\\z', '', ['', 'aa'], ['aaa']],
  ['\\Aa{2}?\\z', '', ['', 'aa'], ['a']],
  ['\\A\\d+\\.\\d+\\z', '', ['1.5'], ['1x5']],
  ['\\A\\\\A\\z', '', ['\\A'], ['A']],
  ['\\A\\x41\\u0042\\z', '', ['AB'], ['ab']],
  ['\\A\\R\\z', '', ['\r\n', '\n', '\r'], ['x']],
  ['\\A[]a]+\\z', '', [']a]'], ['b']],
  ['\\A[a-c[x-z]]+\\z', '', ['axz'], ['d']],
  ['\\bcat\\b', '', ['a cat b'], ['concat']],
  ['\\A(?<y>\\d+)-\\k<y>\\z', '', ['12-12'], ['12-13']],
];

// [Ruby source, Ruby flags, what the report names]
const REFUSED: [string, string, string][] = [
  ['(?>a)', '', 'an atomic group'],
  ['a++', '', 'a possessive quantifier'],
  ['a*+', '', 'a possessive quantifier'],
  ['\\Ga', '', '\\G'],
  ['a\\Kb', '', '\\K'],
  ['\\X', '', '\\X'],
  ['(a)\\g<1>', '', '\\g<...>'],
  ['\\p{Alpha}', '', '\\p{...}'],
  ['[a-z&&[^aeiou]]', '', 'a class intersection'],
  ['(?~abc)', '', 'an absence operator'],
  ['(a)?(?(1)b|c)', '', 'a conditional group'],
  ['(a)\\k<1>', '', 'a numbered or relative group'],
  ['(?u)\\w', '', 'the (?u) option'],
  ['[\\S\\d]', '', 'a negated class'],
  ['(a)(?i:\\1)', '', 'a backreference inside a case-insensitive part'],
  ['(?<x>a)\\1', '', 'a numbered backreference in a pattern with named groups'],
  ['(a', '', 'an unclosed group'],
  ['[\u{1F600}]', '', 'a character beyond U+FFFF inside a class'],
];

const spelled = suite('port-routes: how Ruby regexps are spelled in JavaScript');
for (const [source, flags, js, jsFlags] of SPELLINGS) {
  spelled(`/${source}/${flags}`, () => {
    assert.equal(translateRegexp(source, flags), { source: js, flags: jsFlags });
  });
}
spelled.run();

const meant = suite('port-routes: what a ported requirement matches, as Signalbox reads it');
for (const [source, flags, matches, misses] of MEANINGS) {
  meant(`/${source}/${flags}`, () => {
    const re = searchRegExp(toRequirement(translateRegexp(source, flags)));
    for (const s of matches) assert.ok(re.test(s), `${JSON.stringify(s)} matches ${re}`);
    for (const s of misses) assert.not.ok(re.test(s), `${JSON.stringify(s)} does not match ${re}`);
  });
}
meant.run();

const refused = suite('port-routes: constructs without a JavaScript equivalent are reported');
for (const [source, flags, what] of REFUSED) {
  refused(`/${source}/${flags}`, () => {
    try {
      translateRegexp(source, flags);
      assert.unreachable('translated');
    } catch (error) {
      assert.instance(error, NotPorted);
      assert.ok((error as Error).message.includes(what), (error as Error).message);
    }
  });
}
refused('a route with such a requirement is left out and reported with its line', () => {
  const { output, reports } = portText("map.connect ':controller'\nmap.connect 'n/:n', :controller => 'n', :n => /(?>\\d+)/\n");
  assert.equal(JSON.parse(output), [['connect', ':controller']]);
  assert.is(reports[0], "config/routes.rb:2: not ported: map.connect 'n/:n', :controller => 'n', :n => /(?>\\d+)/");
  assert.match(reports[1], /atomic group/);
});
refused.run();
