/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, UrlGenerationError } from '../../core/index.ts';

/**
 * core/routing/resources.ts `mapMemberActions`: a member action's path word
 * was read from the path-name tables with a plain property lookup, so an
 * action named like a property every object inherits (`valueOf`,
 * `constructor`) was drawn at `/stories/:id/function valueOf() { [native code] }`.
 * Rails joins the member path and the action's name when no path name is given.
 */
test('a member action named like an inherited property is drawn under its own name', () => {
  const routes = draw((map) => map.resources('stories', { member: { valueOf: 'get', constructor: 'put' }, path_names: { edit: 'change' } }));
  const h = routes.helpers() as unknown as Record<string, (...args: unknown[]) => string>;
  assert.is(h.valueOf_story_path(1), '/stories/1/valueOf');
  assert.is(h.constructor_story_path(1), '/stories/1/constructor');
  assert.is(h.edit_story_path(1), '/stories/1/change');
  assert.equal(routes.recognize('GET', '/stories/1/valueOf'), { controller: 'stories', action: 'valueOf', id: '1' });
  assert.equal(routes.recognize('PUT', '/stories/1/constructor'), { controller: 'stories', action: 'constructor', id: '1' });
});

/**
 * core/routing/generate.ts: the hashes generation reads route keys from had
 * Object.prototype behind them, so a route key named like one of its
 * properties (`:constructor`, `:toString`, `:valueOf`) that was not given
 * read as a built-in function: a missing key was an ArgumentError ("A
 * function cannot be a URL parameter") instead of the routing error naming
 * it, an optional one could not be left out, and `url_for` never fell through
 * to the next route that could build the path.
 */
test('a route key named like an inherited property is missing when not given', () => {
  const routes = draw((map) => {
    map.named('pair', 'pairs/:constructor/:toString', { controller: 'pairs', action: 'show' });
    map.named('opt', 'opt/:valueOf', { controller: 'opts', action: 'show', valueOf: null });
    map.connect(':controller/:action/:id');
  });
  const h = routes.helpers() as unknown as Record<string, (...args: unknown[]) => string>;
  assert.is(h.pair_path('a', 'b'), '/pairs/a/b');
  assert.throws(() => h.pair_path('a'), (e: unknown) => e instanceof UrlGenerationError && /missing :toString/.test(e.message));
  assert.throws(() => h.pair_path({ constructor: 'a' }), (e: unknown) => e instanceof UrlGenerationError && /missing :toString/.test(e.message));
  assert.is(h.opt_path(), '/opt', 'an optional key left out is left off the path');
  assert.is(h.opt_path('v'), '/opt/v');
  // Not enough for the named route's path: the default route builds it, with the rest in the query.
  assert.is(routes.generate({ controller: 'pairs', action: 'show', constructor: 'a' }), '/pairs/show?constructor=a');
  // Recalled values fill keys up to the first one the options change, as for any other key.
  assert.is(routes.generate({ controller: 'pairs', action: 'show', toString: 'c' }, { controller: 'pairs', action: 'show', constructor: 'a', toString: 'b' }), '/pairs/a/c');
});

test.run();
