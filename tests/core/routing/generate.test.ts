/**
 * Hash-based generation, `RouteSet#generate(options, recall)`, with Rails
 * 2.1's recall and expiry rules; `generate_extras` and `extra_keys`; and
 * the one place Signalbox differs from Rails on purpose (the `:controller`
 * component is URI-escaped, keeping its `/` separators).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw, UrlGenerationError, RoutingError, type GenerateOptions } from '../../../core/index.ts';
import { assertRecognizes, assertRouting, throwsA } from './support.ts';
import { helpersOf } from '../../support/helpers-by-name.ts';

const routes = draw((map) => {
  map.resources('posts', { has_many: 'comments' });
  map.named('archive', 'archive/:year/:month/:day', { controller: 'blog', action: 'archive', requirements: { year: /\d{4}/ }, month: null, day: null });
  map.named('page', 'pages/:title', { controller: 'pages', action: 'show', title: 'home' });
  map.named('search', 'search/*terms', { controller: 'search', action: 'query' });
  map.named('login', 'login', { controller: 'sessions', action: 'new' });
  map.connect(':controller/:action/:id');
  map.connect(':controller/:action/:id.:format');
});

const test = suite('generate');

/** Rails-style generation cases: options and recall in, path out. */
const CASES: readonly { name: string; options: GenerateOptions; recall?: GenerateOptions; path: string }[] = [
  { name: 'a resource member route', options: { controller: 'posts', action: 'show', id: 1 }, path: '/posts/1' },
  { name: 'a resource collection route', options: { controller: 'posts', action: 'index' }, path: '/posts' },
  { name: 'the formatted twin when a format is given', options: { controller: 'posts', action: 'show', id: 1, format: 'xml' }, path: '/posts/1.xml' },
  { name: 'a nested route with the parent id', options: { controller: 'comments', action: 'show', post_id: 1, id: 2 }, path: '/posts/1/comments/2' },
  { name: 'the default route, leaving off index and an absent id', options: { controller: 'reports' }, path: '/reports' },
  { name: 'the default route with an action', options: { controller: 'reports', action: 'list' }, path: '/reports/list' },
  { name: 'the default route keeps index when an id follows', options: { controller: 'reports', action: 'index', id: 5 }, path: '/reports/index/5' },
  { name: 'the default route with a format', options: { controller: 'reports', action: 'show', id: 5, format: 'csv' }, path: '/reports/show/5.csv' },
  { name: 'optional trailing segments left off', options: { controller: 'blog', action: 'archive', year: 2008 }, path: '/archive/2008' },
  { name: 'optional trailing segments given', options: { controller: 'blog', action: 'archive', year: 2008, month: 7 }, path: '/archive/2008/7' },
  { name: 'a segment equal to its default is left off', options: { controller: 'pages', action: 'show', title: 'home' }, path: '/pages' },
  { name: 'a segment other than its default is kept', options: { controller: 'pages', action: 'show', title: 'about' }, path: '/pages/about' },
  { name: 'a glob from an array of components, each escaped whole', options: { controller: 'search', action: 'query', terms: ['a b', 'c/d'] }, path: '/search/a%20b/c%2Fd' },
  { name: 'a glob from a string, keeping its slashes', options: { controller: 'search', action: 'query', terms: 'a b/c/d' }, path: '/search/a%20b/c/d' },
  { name: 'an absent glob', options: { controller: 'search', action: 'query' }, path: '/search' },
  { name: 'records give their to_param', options: { controller: 'posts', action: 'show', id: { to_param: () => 'hello-world' } }, path: '/posts/hello-world' },
  { name: 'records without to_param give their id', options: { controller: 'posts', action: 'show', id: { id: 42 } }, path: '/posts/42' },
  { name: 'path components are URI-escaped', options: { controller: 'posts', action: 'show', id: 'a b#c' }, path: '/posts/a%20b%23c' },
  { name: 'unicode is escaped as UTF-8', options: { controller: 'posts', action: 'show', id: 'café' }, path: '/posts/caf%C3%A9' },
  { name: 'pchar punctuation stays as it is', options: { controller: 'posts', action: 'show', id: "a:@&=+$,;!~*'()" }, path: "/posts/a:@&=+$,;!~*'()" },
  { name: 'a controller with a leading slash is absolute', options: { controller: '/reports', action: 'list' }, recall: { controller: 'admin/users', action: 'show', id: '1' }, path: '/reports/list' },
  { name: 'the controller is lower-cased', options: { controller: 'Reports', action: 'list' }, path: '/reports/list' },
];

for (const c of CASES) {
  test(`generates ${c.name}`, () => {
    assert.is(routes.generate(c.options, c.recall ?? {}), c.path);
  });
}

test('recall fills the segments the options leave out', () => {
  const recall = { controller: 'comments', action: 'show', post_id: '1', id: '2' };
  assert.is(routes.generate({ action: 'edit' }, recall), '/posts/1/comments/2/edit');
  assert.is(routes.generate({ id: '3' }, recall), '/posts/1/comments/3');
});

test('changing a recalled segment forgets the recalled segments after it', () => {
  const recall = { controller: 'reports', action: 'show', id: '7' };
  assert.is(routes.generate({ action: 'list' }, recall), '/reports/list', 'a new action drops the recalled id');
  assert.is(routes.generate({ action: 'show' }, recall), '/reports/show/7', 'the same action keeps it');
  assert.is(routes.generate({ id: '8' }, recall), '/reports/show/8', 'a new id keeps the action before it');
});

test('changing the parent id of a nested route forgets the recalled child id', () => {
  const nested = draw((map) => map.resources('posts', { has_many: 'comments' }));
  const recall = { controller: 'comments', action: 'show', post_id: '1', id: '2' };
  throwsA(() => nested.generate({ post_id: '9' }, recall), UrlGenerationError);
  assert.is(nested.generate({ post_id: '9', id: '5' }, recall), '/posts/9/comments/5');
  // With the default route drawn, the recalled id survives there: that route has no :post_id to expire it.
  assert.is(routes.generate({ post_id: '9' }, recall), '/comments/show/2?post_id=9');
});

test('a controller without a leading slash is relative to the recalled controller\'s module', () => {
  const recall = { controller: 'admin/users', action: 'show', id: '1' };
  assert.is(routes.generate({ controller: 'groups' }, recall), '/admin/groups');
  assert.is(routes.generate({ controller: 'groups', action: 'list' }, recall), '/admin/groups/list');
  assert.is(routes.generate({ controller: 'admin/users', action: 'list' }, recall), '/admin/users/list', 'the same controller is not re-rooted');
  assert.is(routes.generate({ action: 'list' }, recall), '/admin/users/list');
});

test('a changed controller resets the action to index', () => {
  assert.is(routes.generate({ controller: 'groups' }, { controller: 'reports', action: 'show', id: '1' }), '/groups');
});

test('use_route generates from the named route, taking its fixed controller and action', () => {
  assert.is(routes.generate({ use_route: 'archive', year: 2008 }), '/archive/2008');
  assert.is(routes.generate({ use_route: 'login' }), '/login');
  assert.is(routes.generate({ use_route: 'post', id: 3, q: 'x' }), '/posts/3?q=x');
});

test('use_route with an unknown name is a UrlGenerationError', () => {
  throwsA(() => routes.generate({ use_route: 'nope' }), UrlGenerationError, 'No named route called "nope"');
});

test('use_route that cannot be satisfied names the required parameters', () => {
  throwsA(() => routes.generate({ use_route: 'archive', year: 'abc' }), UrlGenerationError, 'archive_url has the following required parameters: ["archive", :year] - are they all satisfied? :year is "abc", which does not match /\\d{4}/');
  throwsA(() => routes.generate({ use_route: 'post' }), UrlGenerationError, 'post_url has the following required parameters: ["posts", :id] - are they all satisfied? missing :id');
});

test('a path that cannot skip an optional key because a later one is given names the key left out', () => {
  const set = draw((map) => map.named('page', 'pages/:year/:month/:day', { controller: 'pages', action: 'show', month: null, day: null }));
  const h = helpersOf(set);
  assert.is(h.page_path({ year: 2005 }), '/pages/2005');
  throwsA(() => h.page_path({ year: 2005, day: 1 }), UrlGenerationError, /missing :month, which comes before :day in the path$/);
  throwsA(() => h.page_path({ year: 2005, month: null, day: 1 }), UrlGenerationError, /missing :month, which comes before :day in the path$/);
});

test('a named helper that cannot build its path says which parameter was missing or refused', () => {
  const h = helpersOf(routes);
  throwsA(() => h.post_path('a/b'), UrlGenerationError, 'post_url has the following required parameters: ["posts", :id] - are they all satisfied? :id is "a/b", which does not match /[^/.?]+/');
  throwsA(() => h.post_path('v1.2'), UrlGenerationError, /:id is "v1\.2", which does not match/);
  throwsA(() => h.post_comment_path({ id: 2 }), UrlGenerationError, /are they all satisfied\? missing :post_id$/);
  throwsA(() => h.post_comment_path(1), UrlGenerationError, /missing :id$/);
});

test('use_route with a conflicting controller reports the difference', () => {
  throwsA(
    () => routes.generate({ use_route: 'archive', controller: 'nope', year: 2008 }),
    UrlGenerationError,
    'archive_url failed to generate from {controller: "nope", action: "archive", year: 2008}, expected: {controller: "blog", action: "archive"}, diff: {controller: "blog"}',
  );
});

test('generation needs a controller, from the options or the recall', () => {
  throwsA(() => routes.generate({ action: 'show' }), UrlGenerationError, 'Need controller and action! {action: "show"}');
});

test('when no route can be built, a UrlGenerationError (a RoutingError) names the options', () => {
  const strict = draw((map) => map.resources('posts', { only: 'index' }));
  const e = throwsA(() => strict.generate({ controller: 'posts', action: 'show', id: 1 }), UrlGenerationError, 'No route matches {controller: "posts", action: "show", id: 1}');
  assert.instance(e, RoutingError);
  assert.is(e.code, 'SBX_ERR_URL_GENERATION');
});

test('a requirement on a path segment rejects values at generation', () => {
  const strict = draw((map) => map.resources('posts', { requirements: { id: /\d+/ } }));
  assert.is(strict.generate({ controller: 'posts', action: 'show', id: 12 }), '/posts/12');
  throwsA(() => strict.generate({ controller: 'posts', action: 'show', id: 'abc' }), UrlGenerationError);
});

test('a pattern requirement on a key outside the path must be met by the options', () => {
  const set = draw((map) => map.connect('feeds', { controller: 'feeds', requirements: { lang: /[a-z]{2}/ } }));
  assert.is(set.generate({ controller: 'feeds', lang: 'en' }), '/feeds');
  throwsA(() => set.generate({ controller: 'feeds', lang: 'english!' }), UrlGenerationError);
  throwsA(() => set.generate({ controller: 'feeds' }), UrlGenerationError);
});

test('extra keys become a sorted query string, CGI-escaped', () => {
  assert.is(routes.generate({ controller: 'posts', action: 'index', page: 2, q: 'a b&c', alpha: 'é' }), '/posts?alpha=%C3%A9&page=2&q=a+b%26c');
});

test('array and hash values in the query string use Rails\' bracket keys', () => {
  assert.is(
    routes.generate({ controller: 'posts', action: 'index', tags: ['a b', 'c'], filter: { by: 'x y', ids: [1, 2] } }),
    '/posts?filter%5Bby%5D=x+y&filter%5Bids%5D%5B%5D=1&filter%5Bids%5D%5B%5D=2&tags%5B%5D=a+b&tags%5B%5D=c',
  );
});

test('null, undefined and false values are left out of the query string; empty strings are kept', () => {
  assert.is(routes.generate({ controller: 'posts', action: 'index', a: null, b: undefined, c: false, d: '' }), '/posts?d=');
});

test('generate_extras gives the path without the query and the sorted extra keys', () => {
  assert.equal(routes.generate_extras({ controller: 'reports', action: 'show', id: 1, z: 1, a: 2 }), { path: '/reports/show/1', extra_keys: ['a', 'z'] });
  assert.equal(routes.generate_extras({ action: 'list', page: 3 }, { controller: 'reports', action: 'show' }), { path: '/reports/list', extra_keys: ['page'] });
});

test('extra_keys lists the keys the query string would carry', () => {
  assert.equal(routes.extra_keys({ controller: 'posts', action: 'show', id: 1, b: 1, a: 2 }), ['a', 'b']);
  assert.equal(routes.extra_keys({ controller: 'posts', action: 'show', id: 1 }), []);
});

test('a route is chosen by how few of the given keys it leaves unused, then by order', () => {
  // `format` is used by the formatted twin only, so it wins over the plain route declared first.
  assert.is(routes.generate({ controller: 'posts', action: 'index', format: 'json' }), '/posts.json');
});

test('round trips: what a route recognises, it generates back', () => {
  assertRouting(routes, 'GET /posts/1/comments/2', { controller: 'comments', action: 'show', post_id: '1', id: '2' });
  assertRouting(routes, 'GET /archive/2008/7/4', { controller: 'blog', action: 'archive', year: '2008', month: '7', day: '4' });
  assertRouting(routes, 'GET /reports/list/3.csv', { controller: 'reports', action: 'list', id: '3', format: 'csv' });
  assertRouting(routes, 'GET /search/a/b', { controller: 'search', action: 'query', terms: ['a', 'b'] });
});

test('deliberate difference from Rails: the :controller component is URI-escaped except for its / separators', () => {
  // Rails 2.1 left `^`, `?`, `#`, `[` and `]` raw in the controller part (spec 4.5 says path components are URI-escaped).
  const path = routes.generate({ controller: 'contr:@&=+$,;^/?#[]oller', action: 'x' });
  assert.is(path, '/contr:@&=+$,;%5E/%3F%23%5B%5Doller/x');
  assert.ok(path.split('/').length === 4, 'the / inside the controller is kept as a separator');
  assert.not.match(path, /[?#[\]^]/);
});

test('an escaped controller path still recognises back through a controllers list', () => {
  const set = draw((map) => map.connect(':controller/:action'), { controllers: ['admin/user'] });
  assert.is(set.generate({ controller: 'admin/user', action: 'list' }), '/admin/user/list');
  assert.equal(set.recognize('GET', '/admin/user/list'), { controller: 'admin/user', action: 'list' });
});

test('the selection cache does not confuse option sets with the same keys in another order', () => {
  const a = routes.generate({ controller: 'posts', action: 'show', id: 1, z: 1 });
  const b = routes.generate({ z: 1, id: 1, action: 'show', controller: 'posts' });
  assert.is(a, '/posts/1?z=1');
  assert.is(b, '/posts/1?z=1');
  for (let i = 0; i < 2100; i++) routes.generate({ controller: 'posts', action: 'index', [`k${i}`]: i });
  assert.is(routes.generate({ controller: 'posts', action: 'show', id: 1, z: 1 }), '/posts/1?z=1');
});

test('generate_all gives every path the options generate, in route order', () => {
  const set = draw((map) => {
    map.connect('show_post/:id', { controller: 'post', action: 'show' });
    map.connect(':controller/:action/:id');
  });
  assert.equal(set.generate({ action: 'show', id: 10 }, { controller: 'post', action: 'show' }, { generate_all: true }), ['/show_post/10', '/post/show/10']);
  // Extra keys become each path's query string; a route that cannot generate is left out.
  assert.equal(set.generate({ controller: 'post', action: 'list', page: 2 }, {}, { generate_all: true }), ['/post/list?page=2']);
  assert.equal(routes.generate({ use_route: 'login' }, {}, { generate_all: true }), ['/login']);
  // Where a single generate would raise, generate_all finds nothing.
  assert.equal(draw((map) => map.connect('show_post/:id', { controller: 'post', action: 'show' })).generate({ controller: 'post', action: 'list' }, {}, { generate_all: true }), []);
});

test('generate_all belongs in the third argument, never among the options', () => {
  throwsA(() => routes.generate({ controller: 'posts', generate_all: true }), ArgumentError, /third argument/);
});

test('a nil option is a requirement: recognition returns it as null and generation wants it absent or nil', () => {
  const set = draw((map) => {
    map.connect('feed', { controller: 'posts', action: 'feed', id: null });
    map.connect(':controller/:action/:id');
  });
  assertRecognizes(set, 'GET /feed', { controller: 'posts', action: 'feed', id: null });
  assert.is(set.generate({ controller: 'posts', action: 'feed' }), '/feed');
  assert.is(set.generate({ controller: 'posts', action: 'feed', id: null }), '/feed');
  // An id the route was declared without goes to the route that takes one.
  assert.is(set.generate({ controller: 'posts', action: 'feed', id: 3 }), '/posts/feed/3');
  assert.equal(set.extra_keys({ controller: 'posts', action: 'feed', id: null }), []);
});

test('an option given as a list stays a list: recognition returns it as a glob returns its parts, and generation wants an equal list', () => {
  for (const recognizer of ['tree', 'linear'] as const) {
    const set = draw((map) => {
      map.root({ controller: 'pages', action: 'show', path: ['home'] });
      map.named('about', 'about', { controller: 'pages', action: 'show', path: ['help', 'about'] });
      map.connect('*path', { controller: 'pages', action: 'show' });
    }, { recognizer });
    assertRecognizes(set, 'GET /about', { controller: 'pages', action: 'show', path: ['help', 'about'] });
    assertRecognizes(set, 'GET /help/about', { controller: 'pages', action: 'show', path: ['help', 'about'] });
    // Each request gets its own list: what one action does to it, the next request does not see.
    (set.recognize('GET', '/') .path as string[]).push('changed');
    assertRecognizes(set, 'GET /', { controller: 'pages', action: 'show', path: ['home'] });
    assert.is(set.generate({ controller: 'pages', action: 'show', path: ['help', 'about'] }), '/about');
    assert.is(set.generate({ controller: 'pages', action: 'show', path: ['home'] }), '/');
    // Rails compared the value with ==, and a string is no list: it goes on to the glob.
    assert.is(set.generate({ controller: 'pages', action: 'show', path: 'help/about' }), '/help/about');
    assert.is(set.generate({ controller: 'pages', action: 'show', path: ['help'] }), '/help');
    const h = helpersOf(set);
    assert.equal(h.hash_for_about_path(), { controller: 'pages', action: 'show', path: ['help', 'about'], use_route: 'about', only_path: true });
    assert.is(h.about_path(), '/about');
    assert.match(set.print(), /about\s+\/about\s+\{controller: "pages", action: "show", path: \["help","about"\]\}/);
  }
});

test('an option given as a hash stays a hash: recognition returns its own copy, generation wants an equal hash, and helpers pass it on', () => {
  for (const recognizer of ['tree', 'linear'] as const) {
    const set = draw((map) => {
      // A resource option that with_options hands to a named route, and a misspelt :requirements: Rails kept
      // each as a fixed value of the route, a hash in params.
      map.with_options({ controller: 'home', member: { remove: 'get' } }, (home) => {
        home.named('faq', 'help/faq', { action: 'faq' });
      });
      map.connect('schools/date/:year', { controller: 'schools', action: 'show_date', requirment: { year: /(19|20)\d\d/, order: ['desc', 2] } });
      map.connect(':controller/:action/:id');
    }, { recognizer });
    assertRecognizes(set, 'GET /help/faq', { controller: 'home', action: 'faq', member: { remove: 'get' } });
    assertRecognizes(set, 'GET /schools/date/2009', { controller: 'schools', action: 'show_date', requirment: { year: String(/(19|20)\d\d/), order: ['desc', '2'] }, year: '2009' });
    // Each request gets its own hash: what one action does to it, the next request does not see.
    (set.recognize('GET', '/help/faq').member as unknown as Record<string, string>).remove = 'changed';
    assertRecognizes(set, 'GET /help/faq', { controller: 'home', action: 'faq', member: { remove: 'get' } });
    // Rails compared the value with ==: only an equal hash takes the route.
    assert.is(set.generate({ controller: 'home', action: 'faq', member: { remove: 'get' } }), '/help/faq');
    assert.is(set.generate({ controller: 'home', action: 'faq' }), '/home/faq');
    assert.is(set.generate({ controller: 'home', action: 'faq', member: { remove: 'post' } }), '/home/faq?member%5Bremove%5D=post');
    assert.is(set.generate({ controller: 'home', action: 'faq', member: { remove: 'get', more: 'x' } }), '/home/faq?member%5Bmore%5D=x&member%5Bremove%5D=get');
    assert.is(set.generate({ controller: 'home', action: 'faq', member: 'get' }), '/home/faq?member=get');
    const h = helpersOf(set);
    assert.equal(h.hash_for_faq_path(), { controller: 'home', action: 'faq', member: { remove: 'get' }, use_route: 'faq', only_path: true });
    assert.is(h.faq_path(), '/help/faq');
    assert.match(set.print(), /faq\s+\/help\/faq\s+\{controller: "home", member: \{"remove":"get"\}, action: "faq"\}/);
  }
  const cyclic: Record<string, unknown> = { a: 'b' };
  cyclic.self = cyclic;
  throwsA(() => draw((map) => map.connect('x', { controller: 'x', loop: cyclic })), ArgumentError, /loop/);
});

test('an option given as true or false stays a boolean: recognition returns it, and generation wants the same boolean', () => {
  for (const recognizer of ['tree', 'linear'] as const) {
    const set = draw((map) => {
      map.named('tag', 'todos/tag/:name', { controller: 'todos', action: 'tag', format: false, name: /.*/ });
      map.named('secure_login', 'login', { controller: 'sessions', action: 'new', secure: true });
      map.connect(':controller/:action/:id');
    }, { recognizer });
    assertRecognizes(set, 'GET /todos/tag/a.b', { controller: 'todos', action: 'tag', format: false, name: 'a.b' });
    assertRecognizes(set, 'GET /login', { controller: 'sessions', action: 'new', secure: true });
    // Rails compared the value with ==: the text "true" is not true, and a key left out is not false.
    assert.is(set.generate({ controller: 'sessions', action: 'new', secure: true }), '/login');
    assert.is(set.generate({ controller: 'sessions', action: 'new', secure: 'true' }), '/sessions/new?secure=true');
    assert.is(set.generate({ controller: 'todos', action: 'tag', name: 'x', format: false }), '/todos/tag/x');
    assert.is(set.generate({ controller: 'todos', action: 'tag', name: 'x' }), '/todos/tag?name=x');
    const h = helpersOf(set);
    assert.equal(h.hash_for_secure_login_path(), { controller: 'sessions', action: 'new', secure: true, use_route: 'secure_login', only_path: true });
    assert.is(h.secure_login_path(), '/login');
    assert.is(h.tag_path('a.b'), '/todos/tag/a.b');
  }
});

test('false as a path key\'s default makes the segment optional without a default, as Rails\' `if default` read it', () => {
  const set = draw((map) => {
    map.named('page', 'pages/:title', { controller: 'pages', action: 'show', title: false });
  });
  assertRecognizes(set, 'GET /pages', { controller: 'pages', action: 'show' });
  assertRecognizes(set, 'GET /pages/about', { controller: 'pages', action: 'show', title: 'about' });
  assert.is(set.generate({ controller: 'pages', action: 'show' }), '/pages');
});

test.run();
