/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw } from '../../core/index.ts';

/**
 * core/routing/route.ts `assignOptions`: an own `__proto__` key in a
 * requirements hash (as `JSON.parse` makes) is assigned with
 * `routeRequirements[key] = ...`, which sets the prototype of the route's
 * requirements object instead of refusing the key. The inherited `source`
 * and `flags` then become significant keys, defaults and recognised params
 * (`GET /a` gives `{ controller, action, source: 'a', flags: '' }`).
 * A `__proto__` path key is refused with ArgumentError; this should be too.
 */
test('__proto__ as a requirement key is refused like a __proto__ path key', () => {
  const requirements = JSON.parse('{"__proto__": {"source": "a", "flags": ""}}') as Record<string, unknown>;
  let routes;
  try {
    routes = draw((map) => map.connect('a', { controller: 'c', requirements }));
  } catch (e) {
    assert.instance(e, ArgumentError);
    return;
  }
  assert.unreachable(`accepted: significant keys ${JSON.stringify(routes.routes[0].significant_keys)}, GET /a gives ${JSON.stringify(routes.recognize('GET', '/a'))}`);
});

test.run();
