/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { draw } from '../../core/index.ts';

/**
 * core/routing/route-set.ts `RouteSet#match`: documented as "the
 * non-throwing lookup ... or null" (and STYLE 7: match() never throws), but a
 * malformed percent-escape in a captured segment throws MalformedPathError
 * out of it (`routes.match('GET', '/posts/%zz')`). `recognize` rightly throws
 * it (400); either `match` must not throw, or its contract must say it can.
 */
test('RouteSet#match never throws, even on a malformed percent-escape', () => {
  const routes = draw((map) => map.resources('posts'));
  let thrown: unknown = null;
  try {
    routes.match('GET', '/posts/%zz');
  } catch (e) {
    thrown = e;
  }
  assert.is(thrown, null, `match threw ${String(thrown)}`);
});

test.run();
