/**
 * The `map` object: namespace, with_options, root, named, connect, and the
 * declaration mistakes `draw()` refuses with exact messages.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw, RoutingError } from '../../../core/index.ts';
import { assertRecognizes, assertRouting, plainNames, routeLines, throwsA } from './support.ts';
import { helpersOf } from '../../support/helpers-by-name.ts';

const test = suite('Mapper');

test('namespace adds a path prefix, a controller module and a name prefix', () => {
  const set = draw((map) => map.namespace('admin', (admin) => admin.resources('products')));
  assertRouting(set, 'GET /admin/products/1', { controller: 'admin/products', action: 'show', id: '1' });
  assert.equal(plainNames(set), ['admin_products', 'new_admin_product', 'edit_admin_product', 'admin_product']);
  assert.is(helpersOf(set).edit_admin_product_path(3), '/admin/products/3/edit');
});

test('a :controller segment inside a namespace reads as Rails 2.x reads it: the namespace is only a path prefix and a default controller', () => {
  // Rails 2.x gives such a route the controller default "admin/" and lets the segment match any known
  // controller after the prefix; routes files ported line by line must recognise and generate as they did.
  const set = draw((map) => map.namespace('admin', (admin) => admin.connect(':controller/:action/:id')));
  assertRecognizes(set, 'GET /admin/posts/show/1', { controller: 'posts', action: 'show', id: '1' });
  assertRecognizes(set, 'GET /admin', { controller: 'admin/', action: 'index' });
  assert.is(set.generate({ controller: 'posts', action: 'list' }), '/admin/posts/list');
  assert.is(set.generate({ controller: 'admin/posts', action: 'list' }), '/admin/admin/posts/list');
});

test('nested namespaces stack their prefixes', () => {
  const set = draw((map) => map.namespace('admin', (admin) => admin.namespace('super', (sup) => sup.resources('users'))));
  assertRouting(set, 'GET /admin/super/users/1', { controller: 'admin/super/users', action: 'show', id: '1' });
  assert.ok(plainNames(set).includes('admin_super_user'));
});

test('the namespace sticks to nested resources, including has_many and has_one', () => {
  const set = draw((map) => map.namespace('admin', (admin) => admin.resources('users', { has_many: 'roles', has_one: 'avatar' }, (users) => users.resources('notes'))));
  assertRecognizes(set, 'GET /admin/users/1/roles/2', { controller: 'admin/roles', action: 'show', user_id: '1', id: '2' });
  assertRecognizes(set, 'GET /admin/users/1/avatar', { controller: 'admin/avatars', action: 'show', user_id: '1' });
  assertRecognizes(set, 'GET /admin/users/1/notes', { controller: 'admin/notes', action: 'index', user_id: '1' });
  const names = plainNames(set);
  for (const n of ['admin_user_role', 'admin_user_avatar', 'admin_user_notes']) assert.ok(names.includes(n), n);
});

test('a namespace called in the block of a resource outside any namespace changes nothing: the block\'s own prefixes and its nil module win', () => {
  // Rails' resource block merges :namespace => nil (with the nesting prefixes) over what namespace would set.
  const set = draw((map) => map.resources('users', (user) => user.namespace('admin', (admin) => {
    admin.resources('things');
    admin.named('audit', 'audit', { controller: 'audits' });
  })));
  assertRouting(set, 'GET /users/1/things/2', { controller: 'things', action: 'show', user_id: '1', id: '2' });
  assertRouting(set, 'GET /users/1/audit', { controller: 'audits', action: 'index', user_id: '1' });
  assert.is(helpersOf(set).user_thing_path(1, 2), '/users/1/things/2');
  assert.is(helpersOf(set).user_audit_path(1), '/users/1/audit');
  // Inside a namespace the resource's block carries the module on, and a namespace in it stacks.
  const nested = draw((map) => map.namespace('admin', (admin) => admin.resources('users', (user) => user.namespace('reports', (r) => r.resources('things')))));
  assertRouting(nested, 'GET /admin/users/1/reports/things', { controller: 'admin/reports/things', action: 'index', user_id: '1' });
});

test('a namespace with a :controller option on the resource keeps the module', () => {
  const set = draw((map) => map.namespace('admin', (admin) => admin.resources('people', { controller: 'users' })));
  assertRecognizes(set, 'GET /admin/people', { controller: 'admin/users', action: 'index' });
});

test('a namespace can carry options of its own', () => {
  const set = draw((map) => map.namespace('api', { only: ['index'] }, (api) => api.resources('posts', 'tags')));
  assert.equal(routeLines(set), ['GET /api/posts -> api/posts#index', 'GET /api/tags -> api/tags#index']);
});

test('plain routes inside a namespace get the module and name prefix', () => {
  const set = draw((map) => map.namespace('admin', (admin) => {
    admin.named('dashboard', 'dashboard', { controller: 'dashboard', action: 'show' });
    admin.root({ controller: 'dashboard' });
  }));
  assertRouting(set, 'GET /admin/dashboard', { controller: 'admin/dashboard', action: 'show' });
  assertRecognizes(set, 'GET /admin', { controller: 'admin/dashboard', action: 'index' });
  assert.is(helpersOf(set).admin_dashboard_path(), '/admin/dashboard');
  assert.is(helpersOf(set).admin_root_path(), '/admin');
});

test('a path_prefix written with a trailing slash does not double the slash', () => {
  const set = draw((map) => {
    map.resources('posts', { path_prefix: '/blogs/:blog_id/' });
    map.with_options({ path_prefix: 'admin/' }, (admin) => admin.connect('stats', { controller: 'stats' }));
  });
  assertRouting(set, 'GET /blogs/1/posts/2', { controller: 'posts', action: 'show', blog_id: '1', id: '2' });
  assertRouting(set, 'GET /admin/stats', { controller: 'stats', action: 'index' });
  assert.is(helpersOf(set).post_path(1, 2), '/blogs/1/posts/2');
  assert.not.ok(set.routes.some((r) => r.path.includes('//')));
});

test('namespace names must be words', () => {
  throwsA(() => draw((map) => map.namespace('admin/', (admin) => admin.resources('posts'))), ArgumentError, 'namespace names must be words, got "admin/"');
  throwsA(() => draw((map) => map.namespace('back-office', (admin) => admin.resources('posts'))), ArgumentError, /must be words/);
});

test('routes whose words a URL escapes recognise the URLs their helpers generate', () => {
  const set = draw((map) => {
    map.resources('posts', { as: 'artículos', member: { 'señalar': 'put' } });
    map.named('menu', 'café/menú', { controller: 'menus', action: 'show' });
  });
  const h = helpersOf(set);
  assert.is(h.post_path(1), '/art%C3%ADculos/1');
  assertRecognizes(set, `GET ${h.post_path(1)}`, { controller: 'posts', action: 'show', id: '1' });
  assertRecognizes(set, `PUT ${h.señalar_post_path(1)}`, { controller: 'posts', action: 'señalar', id: '1' });
  assertRecognizes(set, `GET ${h.menu_path()}`, { controller: 'menus', action: 'show' });
});

test('namespace needs a name and a block', () => {
  throwsA(() => draw((map) => map.namespace('', () => {})), ArgumentError, 'namespace needs a name');
  throwsA(() => draw((map) => map.namespace('admin', {})), ArgumentError, 'namespace "admin" needs a block');
});

test('with_options merges its options into every call in the block; the call\'s own options win', () => {
  const set = draw((map) => map.with_options({ controller: 'people' }, (people) => {
    // `people` first: an unconstrained trailing :id is optional, so `people/:id` would also answer /people.
    people.named('people', 'people', { action: 'index' });
    people.named('person', 'people/:id', { action: 'show' });
    people.named('staff', 'staff', { controller: 'staff', action: 'index' });
  }));
  assertRouting(set, 'GET /people/4', { controller: 'people', action: 'show', id: '4' });
  assertRouting(set, 'GET /people', { controller: 'people', action: 'index' });
  assertRouting(set, 'GET /staff', { controller: 'staff', action: 'index' });
});

test('with_options passes options to resources too', () => {
  const set = draw((map) => map.with_options({ only: ['show'] }, (m) => m.resources('posts', 'pages')));
  assert.equal(routeLines(set), ['GET /posts/:id -> posts#show', 'GET /pages/:id -> pages#show']);
});

test('with_options needs a hash and a block', () => {
  throwsA(() => draw((map) => map.with_options(null as unknown as Record<string, unknown>, () => {})), ArgumentError, 'with_options takes an options hash and a block');
  throwsA(() => draw((map) => map.with_options({}, undefined as unknown as () => void)), ArgumentError);
});

test('root with a hash routes the empty path; root_path is /', () => {
  const set = draw((map) => map.root({ controller: 'welcome' }));
  assertRecognizes(set, 'GET /', { controller: 'welcome', action: 'index' });
  assert.is(helpersOf(set).root_path(), '/');
  assert.is(set.named.root.path, '/');
});

test('root with a route name aliases that route, conditions included', () => {
  const set = draw((map) => {
    map.named('login', 'login', { controller: 'sessions', action: 'new', conditions: { method: 'get' } });
    map.root('login');
  });
  assertRecognizes(set, 'GET /', { controller: 'sessions', action: 'new' });
  assert.equal(set.named.root.methods, ['GET']);
  throwsA(() => set.recognize('POST', '/'), Error);
  assert.is(helpersOf(set).root_path(), '/');
});

test('root naming a route that does not exist is refused', () => {
  throwsA(() => draw((map) => map.root('nope')), ArgumentError, 'root: there is no named route "nope" to alias');
});

test('named declares a named route; connect an unnamed one', () => {
  const set = draw((map) => {
    map.named('login', 'login', { controller: 'sessions', action: 'new' });
    map.connect('logout', { controller: 'sessions', action: 'destroy' });
  });
  assert.equal(Object.keys(set.named), ['login']);
  assert.is(set.routes[1].name, null);
  assertRouting(set, 'GET /logout', { controller: 'sessions', action: 'destroy' });
});

test('a name_prefix in scope prefixes named routes', () => {
  const set = draw((map) => map.with_options({ name_prefix: 'blog_' }, (blog) => blog.named('home', 'home', { controller: 'blog' })));
  assert.equal(Object.keys(set.named), ['blog_home']);
});

test('resources nest through a block', () => {
  const set = draw((map) => map.resources('posts', (posts) => {
    posts.resources('comments');
    posts.resource('author');
  }));
  assertRecognizes(set, 'GET /posts/1/comments/2', { controller: 'comments', action: 'show', post_id: '1', id: '2' });
  assertRecognizes(set, 'GET /posts/1/author', { controller: 'authors', action: 'show', post_id: '1' });
});

test('connect without a controller is a RoutingError', () => {
  throwsA(() => draw((map) => map.connect('foo/:id')), RoutingError, 'Illegal route "foo/:id": the :controller must be specified!');
  throwsA(() => draw((map) => map.connect(':action/:id')), RoutingError);
});

test('a :controller segment or option satisfies the controller requirement', () => {
  draw((map) => map.connect(':controller/:action'));
  draw((map) => map.connect('x', { controller: 'x' }));
  draw((map) => map.connect('x', { requirements: { controller: 'x' } }));
});

test('an anchored requirement is refused', () => {
  throwsA(() => draw((map) => map.connect('posts/:id', { controller: 'posts', requirements: { id: /^\d+$/ } })), ArgumentError, 'Regexp anchor characters are not allowed in routing requirements: /^\\d+$/');
  throwsA(() => draw((map) => map.connect('posts/:id', { controller: 'posts', requirements: { id: /\d+$/ } })), ArgumentError);
  throwsA(() => draw((map) => map.connect('posts/:id', { controller: 'posts', requirements: { id: { source: '\\A\\d+\\z' } } })), ArgumentError);
  throwsA(() => draw((map) => map.resources('posts', { requirements: { id: /^\d+/ } })), ArgumentError);
});

test('a multiline requirement is refused', () => {
  throwsA(() => draw((map) => map.connect('posts/:id', { controller: 'posts', requirements: { id: /\d+/m } })), ArgumentError, 'Regexp multiline option not allowed in routing requirements: /\\d+/m');
  throwsA(() => draw((map) => map.connect('posts/:id', { controller: 'posts', requirements: { id: { source: '\\d+', flags: 'mx' } } })), ArgumentError);
});

test("an anchor spelled as Ruby's line anchors or \\Z are written for JavaScript is refused as the anchor itself is", () => {
  for (const source of ['(?<![^\\n])\\d+', '\\d+(?![^\\n])', '\\d+(?=\\n?$)', '(?<![^\\n])\\d+(?![^\\n])']) {
    throwsA(() => draw((map) => map.connect('posts/:id', { controller: 'posts', requirements: { id: { source } } })), ArgumentError, `Regexp anchor characters are not allowed in routing requirements: /${source}/`);
  }
  throwsA(() => draw((map) => map.resources('posts', { requirements: { id: /(?<![^\n])\d+/ } })), ArgumentError);
  // Only at the very start or end, as Rails looked: inside an alternation the pattern is drawn (and, as the line
  // anchor it is, matches no segment after a slash).
  const set = draw((map) => map.connect('posts/:id', { controller: 'posts', id: /x|(?<![^\n])\d+/ }));
  assertRecognizes(set, 'GET /posts/x', { controller: 'posts', action: 'index', id: 'x' });
  // A requirement on a key the path does not hold is no segment's, and may be anchored, as in Rails.
  draw((map) => map.connect('posts', { controller: 'posts', requirements: { name: { source: '(?<![^\\n])a' } } }));
});

test("a segment's requirement with JavaScript's s flag, Ruby's multiline option, is refused; another key's is kept", () => {
  throwsA(() => draw((map) => map.connect('posts/:id', { controller: 'posts', requirements: { id: /a.b/s } })), ArgumentError, 'Regexp multiline option not allowed in routing requirements: /a.b/s');
  throwsA(() => draw((map) => map.resources('posts', { requirements: { id: { source: '\\d+', flags: 'is' } } })), ArgumentError);
  draw((map) => map.connect('posts', { controller: 'posts', requirements: { name: /a.b/s } }));
});

test('head or an unknown method in conditions is refused', () => {
  throwsA(() => draw((map) => map.connect('x', { controller: 'x', conditions: { method: 'head' } })), ArgumentError, 'HTTP method HEAD is invalid in route conditions (route "x"). HEAD requests are answered by GET routes, returning just the response headers');
  throwsA(() => draw((map) => map.connect('x', { controller: 'x', conditions: { method: ['get', 'HEAD'] } })), ArgumentError);
  throwsA(() => draw((map) => map.connect('x', { controller: 'x', conditions: { method: 'patch' } })), ArgumentError, 'Invalid HTTP method specified in route conditions: {"method":"patch"} (route "x"): use get, post, put, delete or options');
});

test('a route name declared again names the later route, and both routes stay', () => {
  const set = draw((map) => {
    map.named('home', 'home', { controller: 'a' });
    map.named('home', 'other', { controller: 'b' });
  });
  assert.is(set.routes.length, 2);
  assert.is(set.named.home.path, '/other');
  assert.is(set.named.home.index, 1);
  assert.is(set.routes[0].name, null);
  assert.is(helpersOf(set).home_path(), '/other');
  assertRouting(set, 'GET /home', { controller: 'a', action: 'index' });
  assertRecognizes(set, 'GET /other', { controller: 'b', action: 'index' });
});

test('a route name that would clash with a built-in polymorphic helper is refused', () => {
  throwsA(() => draw((map) => map.named('polymorphic', 'p', { controller: 'x' })), ArgumentError, 'Route name "polymorphic" would define polymorphic_url, which is a built-in helper');
  for (const name of ['new_polymorphic', 'edit_polymorphic', 'formatted_polymorphic']) {
    throwsA(() => draw((map) => map.named(name, 'p', { controller: 'x' })), ArgumentError);
  }
});

test('__proto__ as a path key is refused', () => {
  throwsA(() => draw((map) => map.connect('a/:__proto__', { controller: 'x' })), ArgumentError, '__proto__ cannot name a route parameter');
  throwsA(() => draw((map) => map.connect('a/*__proto__', { controller: 'x' })), ArgumentError);
});

test('keys named like Object.prototype members are ordinary parameters', () => {
  const set = draw((map) => map.connect('a/:constructor/:toString', { controller: 'x' }));
  assertRouting(set, 'GET /a/1/2', { controller: 'x', action: 'index', constructor: '1', toString: '2' });
});

test('malformed arguments to named and connect are refused', () => {
  throwsA(() => draw((map) => map.named('', 'x', { controller: 'x' })), ArgumentError, 'named: a route name is required');
  throwsA(() => draw((map) => map.connect(3 as unknown as string, { controller: 'x' })), ArgumentError, 'route path must be a string, got 3');
  throwsA(() => draw((map) => map.connect('x', [] as unknown as Record<string, unknown>)), ArgumentError, 'route options must be a hash, got []');
  throwsA(() => draw((map) => map.connect('x', { controller: 'x', requirements: 'x' })), ArgumentError, ':requirements must be a hash, got "x"');
  throwsA(() => draw((map) => map.connect('x', { controller: 'x', conditions: ['get'] })), ArgumentError);
});

test('a default for a key the path lacks is refused', () => {
  throwsA(() => draw((map) => map.connect('x', { controller: 'x', defaults: { page: 1 } })), ArgumentError, 'page: No matching segment exists; cannot assign default');
});

test('a glob cannot have a non-empty default', () => {
  throwsA(() => draw((map) => map.connect('files/*path', { controller: 'files', path: 'readme' })), RoutingError, 'paths cannot have non-empty default values');
  draw((map) => map.connect('files/*path', { controller: 'files', path: '' }));
});

test('a requirement on a path segment must be a pattern', () => {
  throwsA(() => draw((map) => map.connect('x/:id', { controller: 'x', requirements: { id: 'abc' } })), ArgumentError, 'id: requirements on a path segment must be regular expressions');
});

test.run();
