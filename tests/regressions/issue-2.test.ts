/**
 * Regressions found reviewing the routing core: each test pins the fixed
 * behaviour (the comment above it says what used to happen).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw, LinearRecognizer, TreeRecognizer } from '../../core/index.ts';

/**
 * Bug 1 - core/routing/resources.ts `Resource#shallowPathPrefix` / `shallowNamePrefix`:
 * with `shallow: true` inside a namespace, member routes drop the namespace
 * too. `admin/posts#show` is drawn at `/posts/:id` and named `post` (so it
 * also takes the top-level name), and `/admin/posts/1` is not routed.
 * Spec 2.1: "the namespace sticks to all nested resources"; Rails 2.2's
 * `shallow_path_prefix` is `@options[:namespace]` (less its slash) when shallow.
 */
test('shallow member routes inside a namespace keep the namespace prefix and name', () => {
  const routes = draw((map) => map.namespace('admin', (admin) => admin.resources('posts', { shallow: true, has_many: 'comments' })));
  assert.equal(routes.recognize('GET', '/admin/posts/1'), { controller: 'admin/posts', action: 'show', id: '1' });
  assert.equal(routes.recognize('GET', '/admin/comments/2'), { controller: 'admin/comments', action: 'show', id: '2' });
  assert.ok('admin_post' in routes.named, 'the member route is named admin_post');
  assert.ok('admin_post_comments' in routes.named, 'the nested collection is named admin_post_comments');
});

/**
 * Bug 2 - core/routing/requirement.ts `mayMatchSlash` (`classBodyHasSlash`):
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

/**
 * Bug 3 - core/routing/requirement.ts `foldCase` / `foldClass` (the `i` flag):
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

/**
 * Bug 4 - core/routing/route-set.ts `RouteSet#match`: documented as "the
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

/**
 * Bug 5 - core/routing/route.ts `assignOptions`: an own `__proto__` key in a
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

/**
 * Bug 6 - core/routing/helpers.ts `modelName`: the "Cannot tell the model of
 * ..." message is built with `String(record)`, which throws a TypeError
 * ("Cannot convert object to primitive value") for a prototype-less record,
 * so `polymorphic_path(Object.create(null))` fails with TypeError instead of
 * the ArgumentError every other unnamed record gets.
 */
test('a prototype-less record gets the ArgumentError, not a TypeError', () => {
  const h = draw((map) => map.resources('posts')).helpers();
  const record = Object.assign(Object.create(null) as Record<string, unknown>, { id: 1 });
  let thrown: unknown = null;
  try {
    h.polymorphic_path(record);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof ArgumentError, `threw ${String((thrown as Error).name)}: ${String((thrown as Error).message)}`);
});

test.run();
