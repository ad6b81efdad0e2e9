/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw } from '../../core/index.ts';

/**
 * core/routing/route-set.ts `namedTable`: a route named `__proto__`
 * (`map.named('__proto__', 'a', ...)`) was assigned into the `named` table,
 * which set that table's prototype to the route: the name was missing from
 * `Object.keys(routes.named)`, and `routes.named.path` read the route's path.
 */
test('__proto__ cannot name a route', () => {
  let thrown: unknown = null;
  try {
    draw((map) => map.named('__proto__', 'a', { controller: 'pages' }));
  } catch (e) {
    thrown = e;
  }
  assert.instance(thrown, ArgumentError);
  assert.is((thrown as Error).message, '__proto__ cannot name a route');
  const routes = draw((map) => map.named('proto', 'a', { controller: 'pages' }));
  assert.equal(Object.keys(routes.named), ['proto']);
  assert.is(Object.getPrototypeOf(routes.named), Object.prototype);
});

test.run();
