/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw } from '../../core/index.ts';

/**
 * core/routing/requirement.ts `foldCase` / `foldClass` (the `i` flag):
 * letters inside escapes are folded and letters spelled as escapes are not.
 * `/\x4a+/i` compiles to `\x4[aA]+`, which matches "x4a" and not "jj";
 * `/[\x41-\x5a]+/i` does not match "ab"; `/(?<n>a)\k<n>/i` and
 * `/\p{Lu}/iu` make draw() throw a raw SyntaxError (`\k<[nN]>`, `\p{[lL][uU]}`).
 * Native `i` semantics (what the RegExp the user wrote means) are expected.
 */
test('case-insensitive requirements keep escapes intact and fold what they spell', () => {
  const recognizes = (requirement: RegExp, value: string): boolean => {
    const routes = draw((map) => map.connect('a/:x', { controller: 'c', requirements: { x: requirement } }));
    return routes.match('GET', `/a/${value}`)?.params.x === value;
  };
  assert.ok(recognizes(/\x4a+/i, 'jj'), '/\\x4a+/i matches "jj"');
  assert.not.ok(recognizes(/\x4a+/i, 'x4a'), '/\\x4a+/i does not match "x4a"');
  assert.ok(recognizes(/[\x41-\x5a]+/i, 'ab'), '/[\\x41-\\x5a]+/i matches "ab"');
});

// A backreference or a property escape cannot be case-folded by rewriting, so with `i` it is refused
// at declaration rather than silently becoming case-sensitive.
test('case-insensitive requirements with backreferences or property escapes are refused at declaration', () => {
  for (const requirement of [/(?<n>a)\k<n>/i, /(a)\1/i, /\p{Lu}/iu]) {
    assert.throws(() => draw((map) => map.connect('a/:x', { controller: 'c', requirements: { x: requirement } })), (e: unknown) => e instanceof ArgumentError, String(requirement));
  }
});

test.run();
