/**
 * A regression test: the comment above each test says what used to happen,
 * and the test keeps it from coming back.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw, RoutingError } from '../../core/index.ts';

type MapperFn = Parameters<typeof draw>[0];

const test = suite('a routes file ported by hand with Ruby\'s colons kept');

/** The error `draw` throws for `declare`, which must be one. */
function refusal(declare: MapperFn): Error {
  try {
    draw(declare);
  } catch (error) {
    assert.instance(error, Error);
    return error as Error;
  }
  throw new assert.Assertion({ message: 'draw() accepted the declaration', generated: false, operator: 'throws', expects: 'an error', actual: 'none' });
}

/**
 * `map.resources :posts, :has_many => :comments` ported as `{ has_many: ':comments' }` was refused as
 * `association names must be words, got ":comments"`, which says what is wrong but not what to write.
 */
test('a name or method written as a Ruby symbol is refused with the plain string to write', () => {
  const cases: [MapperFn, string, string][] = [
    [(map) => map.resources(':posts'), 'resources: resource names must be words, got ":posts"', 'posts'],
    [(map) => map.resources('posts', { has_many: ':comments' }), ':has_many takes a name, a list of names or a hash of names; association names must be words, got ":comments"', 'comments'],
    [(map) => map.resources('posts', { member: { publish: ':put' } }), 'Invalid HTTP method ":put" for the publish action', 'put'],
    [(map) => map.connect('feed', { controller: 'posts', conditions: { method: ':get' } }), 'Invalid HTTP method specified in route conditions: {"method":":get"} (route "feed")', 'get'],
    [(map) => map.namespace(':admin', () => {}), 'namespace names must be words, got ":admin"', 'admin'],
    [(map) => map.resources('posts', { controller: ':articles' }), 'resources: :controller must be a controller name, got ":articles"', 'articles'],
  ];
  for (const [declare, problem, meant] of cases) {
    const error = refusal(declare);
    assert.instance(error, ArgumentError);
    assert.is((error as ArgumentError).code, 'SBX_ERR_ARGUMENT');
    assert.is(error.message, `${problem} (a Ruby symbol is written here as a plain string: "${meant}")`);
  }
});

/** `:conditions => { :method => :putt }` was refused without naming the methods there are. */
test('a method that is no HTTP method is refused with the methods there are', () => {
  assert.is(refusal((map) => map.resources('posts', { member: { publish: 'putt' } })).message,
    'Invalid HTTP method "putt" for the publish action: use get, post, put, delete, options or any');
  assert.is(refusal((map) => map.connect('feed', { controller: 'posts', conditions: { method: 'fetch' } })).message,
    'Invalid HTTP method specified in route conditions: {"method":"fetch"} (route "feed"): use get, post, put, delete or options');
});

/**
 * `map.connect 'feed/:id', :controller => 'feeds', :conditions => { :method => :any }` (a dead route in Rails
 * 2.1, refused from 2.2 on) was refused without saying which route, in a routes file of many connects.
 */
test('a connect whose :method condition is :any is refused naming the route, and what to write instead', () => {
  const error = refusal((map) => {
    map.resources('posts');
    map.connect('feed/:id', { controller: 'feeds', action: 'show', conditions: { method: 'any' } });
  });
  assert.instance(error, ArgumentError);
  assert.is(error.message, 'Invalid HTTP method specified in route conditions: {"method":"any"} (route "feed/:id"): a route that takes every method has no :method condition (:any is for a resource\'s :member, :collection and :new actions)');
});

/** `map.connect 'x', :controller => 'posts'` ported as `{ ':controller': 'posts' }` said only that no controller was given. */
test('an option key kept with its colon is named when the route has no controller', () => {
  const error = refusal((map) => map.connect('feed', { ':controller': 'posts', ':action': 'feed' }));
  assert.instance(error, RoutingError);
  assert.is(error.message, 'Illegal route "feed": the :controller must be specified! (option names are written without Ruby\'s colon: controller, not ":controller")');
  assert.is(refusal((map) => map.connect('feed', { action: 'feed' })).message, 'Illegal route "feed": the :controller must be specified!', 'no hint where no key has a colon');
});

/** A name that is not a string at all, such as a Symbol, was shown as `got undefined`. */
test('a resource name that is no string is shown as it is', () => {
  assert.is(refusal((map) => map.resources(Symbol('posts') as never)).message, 'resources: resource names must be words, got Symbol(posts)');
});

/** `{ requirements: /\d+/ }` (a RegExp where a hash of them goes) was refused as `got {}`, JSON's view of a RegExp. */
test('a RegExp given where a hash goes is shown as the RegExp', () => {
  assert.is(refusal((map) => map.resources('posts', { requirements: /\d+/ as never })).message, 'resources: :requirements must be a hash, got /\\d+/');
});

/** `resources('posts', { only: ['index'] }, 5)` was refused as a resource name `{"only":["index"]}`. */
test('what follows the options hash is refused as a block, not read as a name', () => {
  assert.is(refusal((map) => map.resources('posts', { only: ['index'] }, 5 as never)).message, 'resources: after the options hash comes only the block, a function; got 5');
  assert.is(refusal((map) => map.resource('account', {}, 'profile' as never)).message, 'resource: after the options hash comes only the block, a function; got "profile"');
});

test.run();
