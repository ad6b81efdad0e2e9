/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, LinearRecognizer, TreeRecognizer } from '../../core/index.ts';

/**
 * core/routing/requirement.ts `mayMatchSlash` (`classBodyHasSlash`):
 * a character class that admits `/` only through an escape (`\x2f`,
 * `\u002f`, or a range with escaped bounds such as `[\cA-\x7f]`) is judged
 * slash-free, so the TreeRecognizer splits the path on `/` and misses a
 * match the reference LinearRecognizer finds: `/a/b/c` gives
 * `{ x: 'b/c' }` linearly and no match from the tree (draw() default).
 */
test('the tree recognizer agrees with the linear one when a class admits "/" through an escape', () => {
  for (const requirement of [/[\x2f\w]+/, /[\u002f\w]+/, /[\cA-\x7f]+/]) {
    const routes = draw((map) => map.connect('a/:x', { controller: 'c', requirements: { x: requirement } })).routes;
    const linear = new LinearRecognizer(routes, { controllers: null }).match('GET', '/a/b/c');
    const tree = new TreeRecognizer(routes, { controllers: null }).match('GET', '/a/b/c');
    assert.equal(linear?.params, { controller: 'c', action: 'index', x: 'b/c' }, `linear, ${requirement}`);
    assert.equal(tree?.params, linear?.params, `tree, ${requirement}`);
  }
});

test.run();
