/**
 * `map.resources` and `map.resource`: the seven RESTful routes (six for a
 * singleton) with their `.:format` twins, names, nesting, and every option
 * of spec section 2.2.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, DEFAULT_ACTIONS, draw, RESTFUL_ACTIONS, type RouteSet } from '../../../core/index.ts';
import { assertNotRouted, assertRecognizes, assertRouting, plainNames, routeLines, throwsA } from './support.ts';
import { helpersOf } from '../../support/helpers-by-name.ts';

const test = suite('resources');

function lines(block: Parameters<typeof draw>[0], config?: Parameters<typeof draw>[1]): string[] {
  return routeLines(draw(block, config));
}

test('RESTFUL_ACTIONS is the one frozen table of verbs and member-ness', () => {
  assert.ok(Object.isFrozen(RESTFUL_ACTIONS));
  assert.equal(RESTFUL_ACTIONS, {
    index: { method: 'get', member: false },
    create: { method: 'post', member: false },
    new: { method: 'get', member: false },
    edit: { method: 'get', member: true },
    show: { method: 'get', member: true },
    update: { method: 'put', member: true },
    destroy: { method: 'delete', member: true },
  });
  assert.equal([...DEFAULT_ACTIONS], ['index', 'create', 'new', 'edit', 'show', 'update', 'destroy']);
  assert.ok(Object.isFrozen(DEFAULT_ACTIONS));
});

test('resources declares the seven default routes in Rails 2.1 order (spec 4.1)', () => {
  assert.equal(lines((map) => map.resources('posts')), [
    'GET /posts -> posts#index',
    'POST /posts -> posts#create',
    'GET /posts/new -> posts#new',
    'GET /posts/:id/edit -> posts#edit',
    'GET /posts/:id -> posts#show',
    'PUT /posts/:id -> posts#update',
    'DELETE /posts/:id -> posts#destroy',
  ]);
});

test('every route has a .:format twin, named formatted_<name>', () => {
  const set = draw((map) => map.resources('posts'));
  assert.is(set.routes.length, 14);
  for (let i = 0; i < set.routes.length; i += 2) {
    const [plain, twin] = [set.routes[i], set.routes[i + 1]];
    assert.is(twin.path, `${plain.path}.:format`);
    assert.equal(twin.methods, plain.methods);
    assert.is(twin.name, plain.name === null ? null : `formatted_${plain.name}`);
  }
  assert.equal(plainNames(set), ['posts', 'new_post', 'edit_post', 'post']);
});

test('the routes recognise and generate as spec 4.1 says', () => {
  const set = draw((map) => map.resources('posts'));
  assertRouting(set, 'GET /posts', { controller: 'posts', action: 'index' });
  assertRouting(set, 'POST /posts', { controller: 'posts', action: 'create' });
  assertRouting(set, 'GET /posts/new', { controller: 'posts', action: 'new' });
  assertRouting(set, 'GET /posts/1/edit', { controller: 'posts', action: 'edit', id: '1' });
  assertRouting(set, 'GET /posts/1', { controller: 'posts', action: 'show', id: '1' });
  assertRouting(set, 'PUT /posts/1', { controller: 'posts', action: 'update', id: '1' });
  assertRouting(set, 'DELETE /posts/1', { controller: 'posts', action: 'destroy', id: '1' });
  assertRouting(set, 'GET /posts/1.xml', { controller: 'posts', action: 'show', id: '1', format: 'xml' });
  assertRouting(set, 'GET /posts/new.js', { controller: 'posts', action: 'new', format: 'js' });
});

test('resource declares a singleton: no index, no id, controller named in the plural (spec 4.2)', () => {
  assert.equal(lines((map) => map.resource('account')), [
    'POST /account -> accounts#create',
    'GET /account/new -> accounts#new',
    'GET /account/edit -> accounts#edit',
    'GET /account -> accounts#show',
    'PUT /account -> accounts#update',
    'DELETE /account -> accounts#destroy',
  ]);
  assert.equal(plainNames(draw((map) => map.resource('account'))), ['new_account', 'edit_account', 'account']);
});

test('a singleton draws its collection actions, then create, then its new actions, then edit and its other member actions, then show, update and destroy, as Rails 2.1.2 did', () => {
  const set = draw((map) => map.resource('account', { collection: { logs: 'get' }, new: { preview: 'post' }, member: { settings: 'put' } }));
  assert.equal(routeLines(set), [
    'GET /account/logs -> accounts#logs',
    'POST /account -> accounts#create',
    'POST /account/new/preview -> accounts#preview',
    'GET /account/new -> accounts#new',
    'PUT /account/settings -> accounts#settings',
    'GET /account/edit -> accounts#edit',
    'GET /account -> accounts#show',
    'PUT /account -> accounts#update',
    'DELETE /account -> accounts#destroy',
  ]);
  // Each route is followed by its .:format twin, and the table and print() list them in that order.
  assert.equal(set.routes.map((r) => r.path).slice(0, 4), ['/account/logs', '/account/logs.:format', '/account', '/account.:format']);
  assert.equal(set.routes.map((r) => r.index), set.routes.map((_, i) => i));
  const printed = set.print().split('\n').filter((l) => l.includes('accounts'));
  assert.match(printed[2], /POST\s+\/account\s/);
  assert.match(printed[4], /POST\s+\/account\/new\/preview\s/);
});

test("a singleton's create route is unnamed: the shared name is show's, and a route set's named routes point at show", () => {
  const set = draw((map) => map.resource('account'));
  assert.is(set.routes[0].defaults.action, 'create');
  assert.is(set.routes[0].name, null);
  assert.is(set.routes[1].name, null);
  const named = set.routes.find((r) => r.name === 'account');
  assert.is(named?.defaults.action, 'show');
  assert.is(set.routes.find((r) => r.name === 'formatted_account')?.defaults.action, 'show');
  assert.is(helpersOf(set).account_path(), '/account');
});

test('a singleton left only create by :only or :except names it, though it is drawn first, as Rails 2.2 named it', () => {
  for (const options of [{ only: 'create' }, { except: ['show', 'update', 'destroy'] }]) {
    const set = draw((map) => map.resource('account', options));
    assert.is(set.routes.find((r) => r.name === 'account')?.defaults.action, 'create');
    assert.is(set.routes.find((r) => r.name === 'formatted_account')?.defaults.action, 'create');
  }
  const withShow = draw((map) => map.resource('account', { only: ['create', 'show'] }));
  assert.equal(routeLines(withShow), ['POST /account -> accounts#create', 'GET /account -> accounts#show']);
  assert.is(withShow.routes.find((r) => r.name === 'account')?.defaults.action, 'show');
});

test("a nested singleton's create comes first among its routes, after all of its parent's own", () => {
  const set = draw((map) => map.resources('users', { has_one: 'avatar' }));
  const lines = routeLines(set);
  assert.equal(lines.slice(7), [
    'POST /users/:user_id/avatar -> avatars#create',
    'GET /users/:user_id/avatar/new -> avatars#new',
    'GET /users/:user_id/avatar/edit -> avatars#edit',
    'GET /users/:user_id/avatar -> avatars#show',
    'PUT /users/:user_id/avatar -> avatars#update',
    'DELETE /users/:user_id/avatar -> avatars#destroy',
  ]);
});

test('a resource draws its own routes before its has_many, then its has_one, then its block; the first to match a path wins', () => {
  const set = draw((map) => map.resources('posts', { member: { comments: 'get' }, has_many: 'comments', has_one: 'author' }, (posts) => posts.resources('tags')));
  const controllers = routeLines(set).map((l) => l.split(' -> ')[1].split('#')[0]);
  const firstOf = (c: string) => controllers.indexOf(c);
  const lastOf = (c: string) => controllers.lastIndexOf(c);
  assert.ok(lastOf('posts') < firstOf('comments'));
  assert.ok(lastOf('comments') < firstOf('authors'));
  assert.ok(lastOf('authors') < firstOf('tags'));
  // GET /posts/1/comments is the member action, drawn before the nested index that has the same shape.
  assertRecognizes(set, 'GET /posts/1/comments', { controller: 'posts', action: 'comments', id: '1' });
  assertRecognizes(set, 'GET /posts/1/comments.xml', { controller: 'posts', action: 'comments', id: '1', format: 'xml' });
  assertRecognizes(set, 'POST /posts/1/comments', { controller: 'comments', action: 'create', post_id: '1' });
  const inBlock = draw((map) => map.resources('posts', { member: { tags: 'get' } }, (posts) => posts.resources('tags')));
  assertRecognizes(inBlock, 'GET /posts/1/tags', { controller: 'posts', action: 'tags', id: '1' });
});

test('a singleton can name its plural for the controller', () => {
  assert.equal(lines((map) => map.resource('person', { plural: 'folks' }))[3], 'GET /person -> folks#show');
  assert.equal(lines((map) => map.resource('person'))[3], 'GET /person -> people#show');
});

test('several names share one options hash', () => {
  const set = draw((map) => map.resources('posts', 'pages', { only: 'index' }));
  assert.equal(routeLines(set), ['GET /posts -> posts#index', 'GET /pages -> pages#index']);
  assert.equal(routeLines(draw((map) => map.resource('account', 'profile', { only: 'show' }))), ['GET /account -> accounts#show', 'GET /profile -> profiles#show']);
});

test('collection, member and new actions get plain-slash routes and their names (spec 4.3)', () => {
  const set = draw((map) => map.resources('messages', { collection: { rss: 'get' }, member: { mark: 'post' }, new: { preview: 'post' } }));
  assertRouting(set, 'GET /messages/rss', { controller: 'messages', action: 'rss' });
  assertRouting(set, 'POST /messages/1/mark', { controller: 'messages', action: 'mark', id: '1' });
  assertRouting(set, 'POST /messages/new/preview', { controller: 'messages', action: 'preview' });
  const h = helpersOf(set);
  assert.is(h.rss_messages_path(), '/messages/rss');
  assert.is(h.mark_message_path(1), '/messages/1/mark');
  assert.is(h.preview_new_message_path(), '/messages/new/preview');
  assertNotRouted(set, 'GET /messages/1/mark');
});

test('extra actions are emitted before the defaults, so /messages/rss is not a show', () => {
  const set = draw((map) => map.resources('messages', { collection: { rss: 'get' } }));
  assert.equal(routeLines(set).slice(0, 2), ['GET /messages/rss -> messages#rss', 'GET /messages -> messages#index']);
});

test('a method list routes each method; any routes every method', () => {
  const set = draw((map) => map.resources('messages', { member: { mark: ['get', 'post'], ping: 'any' }, new: { new: 'any' } }));
  assertRecognizes(set, 'GET /messages/1/mark', { controller: 'messages', action: 'mark', id: '1' });
  assertRecognizes(set, 'POST /messages/1/mark', { controller: 'messages', action: 'mark', id: '1' });
  assertNotRouted(set, 'PUT /messages/1/mark');
  for (const m of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']) {
    assertRecognizes(set, `${m} /messages/1/ping`, { controller: 'messages', action: 'ping', id: '1' });
    assertRecognizes(set, `${m} /messages/new`, { controller: 'messages', action: 'new' });
  }
});

test('method names in extra actions are case-insensitive', () => {
  const set = draw((map) => map.resources('messages', { member: { mark: 'POST' } }));
  assertRecognizes(set, 'POST /messages/1/mark', { controller: 'messages', action: 'mark', id: '1' });
});

test('invalid methods for extra actions are refused', () => {
  throwsA(() => draw((map) => map.resources('messages', { member: { mark: 'head' } })), ArgumentError, 'HTTP method HEAD is invalid for the mark action: HEAD requests are answered by GET routes');
  throwsA(() => draw((map) => map.resources('messages', { collection: { rss: 'bacon' } })), ArgumentError, 'Invalid HTTP method "bacon" for the rss action: use get, post, put, delete, options or any');
  throwsA(() => draw((map) => map.resources('messages', { member: { mark: ['get', 'patch'] } })), ArgumentError);
});

test(':controller names the controller; :singular names the members', () => {
  const set = draw((map) => map.resources('people', { controller: 'users', singular: 'human' }));
  assertRecognizes(set, 'GET /people/1', { controller: 'users', action: 'show', id: '1' });
  assert.equal(plainNames(set), ['people', 'new_human', 'edit_human', 'human']);
});

test(':requirements apply to member routes, with the id pattern defaulting to [^/.?]+', () => {
  const set = draw((map) => map.resources('posts', { requirements: { id: /\d+/ } }));
  assertRecognizes(set, 'GET /posts/12', { controller: 'posts', action: 'show', id: '12' });
  assertNotRouted(set, 'GET /posts/abc');
  assert.equal(draw((map) => map.resources('posts')).named.post.segments[3], { type: 'dynamic', key: 'id', optional: false, default: null, requirement: { source: '[^/.?]+', flags: '' } });
});

test(':requirements on the id reach the extra member actions too, in a namespace and with a format', () => {
  const dotted = /[0-9]\.[0-9]\.[0-9]/;
  const set = draw((map) => map.namespace('admin', (admin) => admin.resources('releases', { requirements: { id: dotted }, member: { publish: 'put', notes: ['get', 'post'] } })));
  assertRouting(set, 'GET /admin/releases/1.2.3/notes', { controller: 'admin/releases', action: 'notes', id: '1.2.3' });
  assertRecognizes(set, 'POST /admin/releases/1.2.3/notes', { controller: 'admin/releases', action: 'notes', id: '1.2.3' });
  assertRecognizes(set, 'PUT /admin/releases/1.2.3/publish.json', { controller: 'admin/releases', action: 'publish', id: '1.2.3', format: 'json' });
  assertNotRouted(set, 'PUT /admin/releases/7/publish');
  assert.equal(helpersOf(set).publish_admin_release_path({ id: '4.5.6' }), '/admin/releases/4.5.6/publish');
  // Without a requirement, member actions take the default id pattern, which stops at a dot.
  const plain = draw((map) => map.resources('releases', { member: { publish: 'put' } }));
  assertRecognizes(plain, 'PUT /releases/7/publish', { controller: 'releases', action: 'publish', id: '7' });
  assertNotRouted(plain, 'PUT /releases/1.2.3/publish');
  // A singleton has no id: its member actions take no id requirement.
  const account = draw((map) => map.resource('account', { requirements: { id: dotted }, member: { reset: 'post' } }));
  assertRecognizes(account, 'POST /account/reset', { controller: 'accounts', action: 'reset' });
});

test(':requirements with the i flag are honoured', () => {
  const set = draw((map) => map.resources('posts', { requirements: { id: /post-[a-z]+/i } }));
  assertRecognizes(set, 'GET /posts/POST-Abc', { controller: 'posts', action: 'show', id: 'POST-Abc' });
  assertNotRouted(set, 'GET /posts/page-abc');
});

test(':conditions are kept on every route; the method condition is set per action', () => {
  const set = draw((map) => map.resources('posts', { conditions: { subdomain: 'admin', method: 'post' } }));
  assert.equal(set.named.posts.conditions, { subdomain: 'admin' });
  assert.equal(set.named.posts.methods, ['GET']);
  assert.equal(set.routes[2].methods, ['POST']);
});

test(':as renames the path, not the names, and nested resources can be renamed separately', () => {
  const set = draw((map) => map.resources('posts', { as: 'articles' }, (posts) => posts.resources('comments', { as: 'notes' })));
  assertRecognizes(set, 'GET /articles/1', { controller: 'posts', action: 'show', id: '1' });
  assertRecognizes(set, 'GET /articles/1/notes/2', { controller: 'comments', action: 'show', post_id: '1', id: '2' });
  assert.is(helpersOf(set).post_comment_path(1, 2), '/articles/1/notes/2');
  assertNotRouted(set, 'GET /posts/1');
});

test(':path_names replaces the new and edit words', () => {
  const set = draw((map) => map.resources('posts', { path_names: { new: 'nuevo', edit: 'editar' } }));
  assertRouting(set, 'GET /posts/nuevo', { controller: 'posts', action: 'new' });
  assertRouting(set, 'GET /posts/1/editar', { controller: 'posts', action: 'edit', id: '1' });
  assert.is(helpersOf(set).edit_post_path(1), '/posts/1/editar');
});

test('resources_path_names sets the words for the whole route set; :path_names still wins', () => {
  const set = draw((map) => {
    map.resources('posts');
    map.resources('pages', { path_names: { new: 'create' } });
  }, { resources_path_names: { new: 'neu', edit: 'bearbeiten' } });
  assertRecognizes(set, 'GET /posts/neu', { controller: 'posts', action: 'new' });
  assertRecognizes(set, 'GET /posts/1/bearbeiten', { controller: 'posts', action: 'edit', id: '1' });
  assertRecognizes(set, 'GET /pages/create', { controller: 'pages', action: 'new' });
  assertRecognizes(set, 'GET /pages/1/bearbeiten', { controller: 'pages', action: 'edit', id: '1' });
});

test(':path_prefix with a variable makes that variable required', () => {
  const set = draw((map) => map.resources('posts', { path_prefix: '/blogs/:blog_id' }));
  assertRouting(set, 'GET /blogs/3/posts/1', { controller: 'posts', action: 'show', blog_id: '3', id: '1' });
  assert.is(helpersOf(set).post_path(3, 1), '/blogs/3/posts/1');
  assert.equal(plainNames(set), ['posts', 'new_post', 'edit_post', 'post'], 'names are unchanged without :name_prefix');
  assertNotRouted(set, 'GET /posts/1');
});

test(':name_prefix prefixes every name', () => {
  const set = draw((map) => map.resources('posts', { path_prefix: '/blogs/:blog_id', name_prefix: 'blog_' }));
  assert.equal(plainNames(set), ['blog_posts', 'new_blog_post', 'edit_blog_post', 'blog_post']);
});

test('nesting adds the parent path and name prefix (spec 4.3)', () => {
  const set = draw((map) => map.resources('posts', (posts) => posts.resources('comments')));
  assert.equal(plainNames(set).slice(4), ['post_comments', 'new_post_comment', 'edit_post_comment', 'post_comment']);
  assertRouting(set, 'GET /posts/1/comments', { controller: 'comments', action: 'index', post_id: '1' });
  assertRouting(set, 'GET /posts/1/comments/new', { controller: 'comments', action: 'new', post_id: '1' });
});

test('name_prefix: null removes the parent name prefix but keeps the path', () => {
  const set = draw((map) => map.resources('posts', (posts) => posts.resources('comments', { name_prefix: null })));
  assert.equal(plainNames(set).slice(4), ['comments', 'new_comment', 'edit_comment', 'comment']);
  assert.is(helpersOf(set).comment_path(1, 2), '/posts/1/comments/2');
});

test('nested under a singleton, only the singular name prefixes the path', () => {
  const set = draw((map) => map.resource('account', (account) => account.resources('sessions')));
  assertRouting(set, 'GET /account/sessions/5', { controller: 'sessions', action: 'show', id: '5' });
  assert.ok(plainNames(set).includes('account_session'));
});

test('has_many takes a name, a list, or a nested hash', () => {
  assert.ok(plainNames(draw((map) => map.resources('posts', { has_many: 'comments' }))).includes('post_comment'));
  const list = plainNames(draw((map) => map.resources('posts', { has_many: ['comments', 'tags'] })));
  assert.ok(list.includes('post_comment') && list.includes('post_tag'));
  const nested = draw((map) => map.resources('threads', { has_many: { messages: ['attachments', { comments: 'likes' }] } }));
  const names = plainNames(nested);
  for (const n of ['thread_message', 'thread_message_attachment', 'thread_message_comment', 'thread_message_comment_like']) assert.ok(names.includes(n), n);
  assertRecognizes(nested, 'GET /threads/1/messages/2/comments/3/likes/4', { controller: 'likes', action: 'show', thread_id: '1', message_id: '2', comment_id: '3', id: '4' });
});

test('has_one takes a name or a list of singleton resources', () => {
  const set = draw((map) => map.resources('users', { has_one: ['avatar', 'profile'] }));
  assertRecognizes(set, 'GET /users/1/avatar', { controller: 'avatars', action: 'show', user_id: '1' });
  assertRecognizes(set, 'PUT /users/1/profile', { controller: 'profiles', action: 'update', user_id: '1' });
  assert.ok(plainNames(draw((map) => map.resources('users', { has_one: 'avatar' }))).includes('user_avatar'));
});

test('has_many and has_one given nil declare no associations, as in Rails', () => {
  const bare = routeLines(draw((map) => map.resources('posts')));
  assert.equal(routeLines(draw((map) => map.resources('posts', { has_many: null, has_one: null }))), bare);
  const nested = draw((map) => map.resources('posts', { has_many: { comments: null } }));
  assert.ok(plainNames(nested).includes('post_comment'));
  assert.not.ok(plainNames(nested).some((n) => n.includes('null')));
});

test('has_many and has_one refuse association names that are not words', () => {
  throwsA(() => draw((map) => map.resources('posts', { has_one: { author: 'picture' } as never })), ArgumentError, ':has_one takes a name or a list of names; association names must be words, got {"author":"picture"}');
  throwsA(() => draw((map) => map.resources('posts', { has_one: ['author', null as never] })), ArgumentError, /association names must be words, got null$/);
  throwsA(() => draw((map) => map.resources('posts', { has_many: 'blog posts' })), ArgumentError, ':has_many takes a name, a list of names or a hash of names; association names must be words, got "blog posts"');
  throwsA(() => draw((map) => map.resources('posts', { has_many: 5 as never })), ArgumentError, /got 5$/);
  throwsA(() => draw((map) => map.resources('posts', { has_many: [''] })), ArgumentError, /got ""$/);
});

test('extra action names that would break their path are refused at declaration', () => {
  // `:x` would declare a parameter, `*x` a glob, '' would shadow the show route, a dot would read as a format.
  for (const name of [':x', '*rest', '', 'mark/read', 'v1.2', 'mark read', 'a?b', 'a\nb']) {
    throwsA(() => draw((map) => map.resources('posts', { member: { [name]: 'get' } })), ArgumentError, `Extra action ${JSON.stringify(name)} cannot name a path segment: action names may not be empty or contain whitespace, '/', '.', '?', ':', '*', '#' or '%'`);
  }
  throwsA(() => draw((map) => map.resources('posts', { collection: ['search', ':q'] })), ArgumentError, /Extra action ":q"/);
  throwsA(() => draw((map) => map.resources('posts', { new: 'pre view' })), ArgumentError, /Extra action "pre view"/);
  const set = draw((map) => map.resources('posts', { member: { 'mark-read': 'put' } }));
  assertRouting(set, 'PUT /posts/1/mark-read', { controller: 'posts', action: 'mark-read', id: '1' });
});

test(':as and :path_names must be path words, with slashes only between words', () => {
  throwsA(() => draw((map) => map.resources('posts', { as: '*slug' })), ArgumentError, `:as must be path words: a string without whitespace, '.', '?', '*', '#' or '%', with '/' only between words and ':' only to start a parameter (:name); got "*slug"`);
  throwsA(() => draw((map) => map.resources('posts', { as: 'blog:posts' })), ArgumentError, /got "blog:posts"$/);
  throwsA(() => draw((map) => map.resources('posts', { path_names: { edit: 'edit/:' } })), ArgumentError, /^:path_names edit must be path words/);
  throwsA(() => draw((map) => map.resources('posts', { as: 5 as never })), ArgumentError, /got 5$/);
  throwsA(() => draw((map) => map.resources('posts', { as: 'blog/' })), ArgumentError, /got "blog\/"$/);
  throwsA(() => draw((map) => map.resource('account', { path_names: { edit: '*rest' } })), ArgumentError, /^:path_names edit must be path words/);
  throwsA(() => draw((map) => map.resources('posts', { path_names: { new: '' } })), ArgumentError, /^:path_names new must be path words/);
  const set = draw((map) => map.resources('posts', { as: 'blog/articles', path_names: { new: 'novo' } }));
  assertRouting(set, 'GET /blog/articles/novo', { controller: 'posts', action: 'new' });
});

test('a word of :path_names or :as may declare a parameter, as Rails pasted the words into the path: a member action at has_access/:user takes the resource\'s requirement on :user', () => {
  const set = draw((map) => {
    map.resources('projects', { member: { has_access: 'get' }, path_names: { has_access: 'has_access/:user' }, requirements: { user: /[^/?#]+/ } });
    map.resources('pages', { as: ':locale/pages', path_names: { edit: 'edit/:section' } });
  });
  assertRouting(set, 'GET /projects/fuse/has_access/jane.doe', { controller: 'projects', action: 'has_access', id: 'fuse', user: 'jane.doe' });
  assertRouting(set, 'GET /projects/fuse/has_access/jane.doe.xml', { controller: 'projects', action: 'has_access', id: 'fuse', user: 'jane.doe.xml' });
  assert.is(helpersOf(set).has_access_project_path({ id: 'fuse', user: 'jane' }), '/projects/fuse/has_access/jane');
  assert.is(set.generate({ controller: 'projects', action: 'has_access', id: 'fuse', user: 'jane' }), '/projects/fuse/has_access/jane');
  assertRouting(set, 'GET /en/pages/3/edit/intro', { controller: 'pages', action: 'edit', locale: 'en', id: '3', section: 'intro' });
  assert.is(helpersOf(set).edit_page_path({ locale: 'en', id: '3', section: 'intro' }), '/en/pages/3/edit/intro');
});

test('resource options of the wrong type are refused at declaration, naming the option', () => {
  const refused: [string, Record<string, unknown>, string][] = [
    ['resources', { controller: 5 }, 'resources: :controller must be a controller name, got 5'],
    ['resources', { controller: '' }, 'resources: :controller must be a controller name, got ""'],
    ['resources', { singular: 7 }, 'resources: :singular must be a word, got 7'],
    ['resource', { plural: ['accounts'] }, 'resource: :plural must be a word, got ["accounts"]'],
    ['resources', { path_prefix: 3 }, 'resources: :path_prefix must be a path or nil, got 3'],
    ['resources', { name_prefix: 3 }, 'resources: :name_prefix must be a string or nil, got 3'],
    ['resources', { requirements: '\\d+' }, 'resources: :requirements must be a hash, got "\\\\d+"'],
    ['resources', { conditions: 'get' }, 'resources: :conditions must be a hash, got "get"'],
    ['resources', { path_names: 'novo' }, 'resources: :path_names must be a hash, got "novo"'],
    ['resources', { shallow: 'yes' }, 'resources: :shallow must be true or false, got "yes"'],
  ];
  for (const [method, options, message] of refused) {
    throwsA(() => draw((map) => (method === 'resource' ? map.resource('account', options) : map.resources('posts', options))), ArgumentError, message);
  }
  // nil is what Rails ports write for "none": still accepted.
  assert.equal(plainNames(draw((map) => map.resources('posts', { name_prefix: null, path_prefix: null, requirements: null as never }))), plainNames(draw((map) => map.resources('posts'))));
  assertRecognizes(draw((map) => map.resources('posts', { controller: 'admin/posts' })), 'GET /posts/1', { controller: 'admin/posts', action: 'show', id: '1' });
});

test('shallow: member routes drop the parent prefix, collection routes keep it', () => {
  const set = draw((map) => map.resources('posts', { shallow: true }, (posts) => posts.resources('comments')));
  assert.equal(routeLines(set).slice(7), [
    'GET /posts/:post_id/comments -> comments#index',
    'POST /posts/:post_id/comments -> comments#create',
    'GET /posts/:post_id/comments/new -> comments#new',
    'GET /comments/:id/edit -> comments#edit',
    'GET /comments/:id -> comments#show',
    'PUT /comments/:id -> comments#update',
    'DELETE /comments/:id -> comments#destroy',
  ]);
  assert.equal(plainNames(set).slice(4), ['post_comments', 'new_post_comment', 'edit_comment', 'comment']);
  const h = helpersOf(set);
  assert.is(h.comment_path(3), '/comments/3');
  assert.is(h.post_comments_path(1), '/posts/1/comments');
});

test('shallow is inherited by nested resources and works with has_many and has_one', () => {
  const set = draw((map) => map.resources('posts', { shallow: true, has_many: 'comments', has_one: 'author' }, (posts) => posts.resources('tags', (tags) => tags.resources('votes'))));
  const h = helpersOf(set);
  assert.is(h.comment_path(1), '/comments/1');
  assert.is(h.tag_path(2), '/tags/2');
  assert.is(h.tag_votes_path(2), '/tags/2/votes', 'the grandchild nests under the shallow member path');
  assert.is(h.vote_path(3), '/votes/3');
  assert.is(h.post_author_path(1), '/posts/1/author', 'a singleton has no member id, so it keeps its prefix');
});

test('only and except limit the default actions', () => {
  assert.equal(lines((map) => map.resources('posts', { only: ['index', 'show'] })), ['GET /posts -> posts#index', 'GET /posts/:id -> posts#show']);
  assert.equal(lines((map) => map.resources('posts', { only: 'show' })), ['GET /posts/:id -> posts#show']);
  assert.equal(lines((map) => map.resources('posts', { except: ['new', 'edit', 'create', 'update', 'destroy'] })), ['GET /posts -> posts#index', 'GET /posts/:id -> posts#show']);
  assert.equal(lines((map) => map.resources('posts', { only: 'all' })).length, 7);
  assert.equal(lines((map) => map.resources('posts', { except: 'none' })).length, 7);
  assert.equal(lines((map) => map.resources('posts', { only: 'none' })), []);
  assert.equal(lines((map) => map.resources('posts', { except: 'all' })), []);
});

test('only and except do not remove extra actions', () => {
  assert.equal(lines((map) => map.resources('posts', { only: 'none', member: { publish: 'put' } })), ['PUT /posts/:id/publish -> posts#publish']);
});

test('an excluded action fails routing', () => {
  const set = draw((map) => map.resources('posts', { except: 'destroy' }));
  assertNotRouted(set, 'DELETE /posts/1');
  assertRecognizes(set, 'GET /posts/1', { controller: 'posts', action: 'show', id: '1' });
});

test('only and except are inherited by nested resources, including has_many', () => {
  const set = draw((map) => map.resources('posts', { only: ['index', 'show'], has_many: 'comments' }, (posts) => posts.resources('tags')));
  assert.equal(plainNames(set), ['posts', 'post', 'post_comments', 'post_comment', 'post_tags', 'post_tag']);
});

test('a nested resource can override inherited only/except', () => {
  const set = draw((map) => map.resources('posts', { only: 'none' }, (posts) => posts.resources('comments', { only: 'all' })));
  assert.equal(plainNames(set), ['post_comments', 'new_post_comment', 'edit_post_comment', 'post_comment']);
});

test('a nil :only or :except is no list, as Rails 2.2 read them: every action, or those the enclosing resource allowed', async () => {
  const { drawn: [onlyNil, exceptNil, both, nested], ignored } = await drawnInDevelopment(() => [
    draw((map) => map.resources('posts', { only: null as never })),
    draw((map) => map.resource('account', { except: null as never })),
    draw((map) => map.resources('memos', { only: null as never, except: 'destroy' })),
    draw((map) => map.resources('topics', { only: 'show' }, (topics) => topics.resources('replies', { only: null as never }))),
  ]);
  assert.is(onlyNil.routes.length, draw((map) => map.resources('posts')).routes.length);
  assert.is(exceptNil.routes.length, draw((map) => map.resource('account')).routes.length);
  assertNotRouted(both, 'DELETE /memos/1');
  assertRecognizes(both, 'PUT /memos/1', { controller: 'memos', action: 'update', id: '1' });
  assert.equal(plainNames(nested), ['topic', 'topic_reply']);
  assert.equal(ignored, [], 'nothing to warn of');
});

test('a nil :controller, :singular, :plural or :path_names is the default, as Rails read options[:controller] || plural', () => {
  const given = { member: { publish: 'put' } };
  const withNils = { ...given, controller: null, singular: null, plural: null, path_names: null } as never;
  assert.equal(lines((map) => map.resources('posts', withNils, (p) => p.resources('comments'))), lines((map) => map.resources('posts', given, (p) => p.resources('comments'))));
  assert.equal(lines((map) => map.resource('account', withNils)), lines((map) => map.resource('account', given)));
});

test(':only and :except take a name or a list of names: any other value is refused when the routes are drawn', () => {
  for (const value of [{}, [1], 5, { index: true }]) {
    throwsA(() => draw((map) => map.resources('posts', { only: value as never })), ArgumentError, /resources\("posts"\): :only takes :all, :none, an action name or a list of action names/);
    throwsA(() => draw((map) => map.resource('account', { except: value as never })), ArgumentError, /resource\("account"\): :except takes/);
  }
});

/** What `make` draws in development, and the messages of the SIGNALBOX_ROUTE_OPTION_IGNORED warnings it raised. */
async function drawnInDevelopment<T>(make: () => T): Promise<{ drawn: T; ignored: string[] }> {
  const warnings: Error[] = [];
  const listener = (w: Error) => warnings.push(w);
  const env = process.env.NODE_ENV;
  process.on('warning', listener);
  try {
    process.env.NODE_ENV = 'development';
    const drawn = make();
    await new Promise((resolve) => setImmediate(resolve));
    return { drawn, ignored: warnings.filter((w) => (w as { code?: string }).code === 'SIGNALBOX_ROUTE_OPTION_IGNORED').map((w) => w.message) };
  } finally {
    process.off('warning', listener);
    // Assigning undefined would store the text "undefined", an environment no app can run in.
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
}

test(':only and :except together: :only decides, after :all and :none of either, as Rails 2.2 read them, and development warns', async () => {
  const { drawn: [onlyWins, exceptNone, exceptAll], ignored } = await drawnInDevelopment(() => [
    draw((map) => map.resources('posts', { only: ['index', 'show'], except: 'index' })),
    draw((map) => map.resources('notes', { only: 'show', except: 'none' })),
    draw((map) => map.resource('account', { only: 'show', except: 'all' })),
  ]);
  assert.equal(plainNames(onlyWins), ['posts', 'post']);
  assert.is(onlyWins.recognize('GET', '/posts').action, 'index');
  assertNotRouted(onlyWins, 'POST /posts');
  assert.is(exceptNone.routes.length, draw((map) => map.resources('notes')).routes.length, ':except => :none routes all seven');
  assert.is(exceptAll.routes.length, 0, ':except => :all routes none');
  assert.equal(ignored, [
    'resources("posts") was given both :only and :except; as Rails 2.2 did, :only decides and :except is ignored',
    'resources("notes") was given both :only and :except; as Rails 2.2 did, :except => :none decides and :only is ignored',
    'resource("account") was given both :only and :except; as Rails 2.2 did, :except => :all decides and :only is ignored',
  ]);
});

test('a name in :only/:except that is no default action is ignored, and warned of in development', async () => {
  const { drawn: [except, only, singleton], ignored } = await drawnInDevelopment(() => [
    draw((map) => map.resources('matches', { except: ['delete'] }, (m) => m.resources('moves'))),
    draw((map) => map.resources('posts', { only: ['show', 'shwo', 'publish'] })),
    draw((map) => map.resource('category', { only: 'indx' })),
  ]);
  assert.is(except.routes.length, draw((map) => map.resources('matches', (m) => m.resources('moves'))).routes.length, 'all seven actions, nested ones too');
  assert.equal(plainNames(only), ['post']);
  assert.is(only.recognize('GET', '/posts/1').action, 'show');
  assertNotRouted(only, 'GET /posts');
  assert.is(singleton.routes.length, 0, 'a list naming no default action routes none of them');
  assert.equal(ignored, [
    'resources("matches") ignores "delete" in :except, which is none of the default actions (index, create, new, edit, show, update, destroy), as Rails 2.2 did',
    'resources("posts") ignores "shwo" in :only (did you mean show?), which is none of the default actions (index, create, new, edit, show, update, destroy), as Rails 2.2 did',
    'resources("posts") ignores "publish" in :only, which is none of the default actions (index, create, new, edit, show, update, destroy), as Rails 2.2 did',
    'resource("category") ignores "indx" in :only (did you mean index?), which is none of the default actions (index, create, new, edit, show, update, destroy), as Rails 2.2 did',
  ]);
});

test('resources_path_names gives any member action its word, as Base.resources_path_names did; collection actions keep their names', () => {
  const set = draw((map) => {
    map.resources('posts', { member: { preview: 'get' }, collection: { preview_all: 'get' } });
    map.resources('pages', { member: { preview: 'get' }, path_names: { preview: 'ansehen' } });
    map.resource('account', { member: { preview: 'get' } });
  }, { resources_path_names: { edit: 'bearbeiten', preview: 'vorschau', preview_all: 'alle' } });
  assertRouting(set, 'GET /posts/1/vorschau', { controller: 'posts', action: 'preview', id: '1' });
  assertRouting(set, 'GET /posts/1/bearbeiten', { controller: 'posts', action: 'edit', id: '1' });
  assertRouting(set, 'GET /posts/preview_all', { controller: 'posts', action: 'preview_all' });
  assertRouting(set, 'GET /pages/1/ansehen', { controller: 'pages', action: 'preview', id: '1' });
  assertRouting(set, 'GET /account/vorschau', { controller: 'accounts', action: 'preview' });
  const h = helpersOf(set);
  assert.is(h.preview_post_path(7), '/posts/7/vorschau');
  assert.is(h.preview_account_path(), '/account/vorschau');
  assertNotRouted(set, 'GET /posts/1/preview');
});

test('a resources_path_names key that no drawn action takes changes nothing, and is warned of in development', async () => {
  const { drawn, ignored } = await drawnInDevelopment(() =>
    draw((map) => map.resources('posts', { member: { preview: 'get' } }), { resources_path_names: { nwe: 'neu', preview: 'vorschau', publish: 'veroeffentlichen' } }));
  assert.is(drawn.routes.length, draw((map) => map.resources('posts', { member: { preview: 'get' } })).routes.length);
  assertRecognizes(drawn, 'GET /posts/new', { controller: 'posts', action: 'new' });
  assert.equal(ignored, [
    'resources_path_names gives a path word to "nwe", which no drawn route\'s action is (did you mean new?)',
    'resources_path_names gives a path word to "publish", which no drawn route\'s action is',
  ]);
});

test('an uncountable name uses <name>_index for the collection and <name> for the member', () => {
  const set = draw((map) => map.resources('sheep'));
  assert.equal(plainNames(set), ['sheep_index', 'new_sheep', 'edit_sheep', 'sheep']);
  const h = helpersOf(set);
  assert.is(h.sheep_index_path(), '/sheep');
  assert.is(h.sheep_path(1), '/sheep/1');
});

test('names inflect only the last word of an underscored name', () => {
  assert.equal(plainNames(draw((map) => map.resources('line_items'))), ['line_items', 'new_line_item', 'edit_line_item', 'line_item']);
  assert.equal(plainNames(draw((map) => map.resources('people'))), ['people', 'new_person', 'edit_person', 'person']);
});

test('custom inflections belong to one route set', () => {
  const octopi = draw((map) => map.resources('octopi'), { inflections: { irregular: [['octopus', 'octopi']] } });
  const plain = draw((map) => map.resources('octopi'));
  assert.equal(plainNames(octopi), ['octopi', 'new_octopus', 'edit_octopus', 'octopus']);
  assert.not.equal(plainNames(plain), plainNames(octopi), 'the other set did not learn the irregular');
  const uncountable = draw((map) => map.resources('equipment'), { inflections: { uncountable: ['equipment'] } });
  assert.equal(plainNames(uncountable), ['equipment_index', 'new_equipment', 'edit_equipment', 'equipment']);
  assert.equal(octopi.config.inflections, { irregular: [['octopus', 'octopi']], uncountable: [] });
});

test('resource route names do not clash with built-in helpers', () => {
  const set: RouteSet = draw((map) => map.resources('javascripts', 'images'));
  const h = helpersOf(set);
  assert.is(h.javascript_path(1), '/javascripts/1');
  assert.is(h.image_path(1), '/images/1');
  assert.is(typeof h.url_for, 'function');
});

test('named routes under resources contain no double slashes', () => {
  const set = draw((map) => {
    map.resource('account', { path_prefix: ':site_id' }, (account) => account.resources('posts', { has_one: 'author' }));
    map.namespace('admin', (admin) => admin.namespace('reports', (reports) => reports.resources('sales', { has_many: 'lines' })));
  });
  for (const r of set.routes) assert.not.match(r.path, /\/\//, r.path);
});

test('a resource name must be a word', () => {
  throwsA(() => draw((map) => map.resources('po sts')), ArgumentError, 'resources: resource names must be words, got "po sts"');
  throwsA(() => draw((map) => map.resource('a/b')), ArgumentError);
  throwsA(() => draw((map) => map.resources({})), ArgumentError, 'resources needs at least one name');
});

test('resource refuses :singular; a singleton names its plural instead', () => {
  throwsA(() => draw((map) => map.resource('account', { singular: 'acct' })), ArgumentError, 'resource: use :plural to name a singleton\'s plural; :singular is for collections');
});

test('a resource whose names would shadow a built-in polymorphic helper is refused', () => {
  throwsA(() => draw((map) => map.resources('polymorphics')), ArgumentError, 'Route name "new_polymorphic" would define new_polymorphic_url, which is a built-in helper');
});

test('options are read, never mutated', () => {
  const options = Object.freeze({ only: Object.freeze(['index', 'show']), has_many: 'comments', member: Object.freeze({ publish: 'put' }) });
  const a = draw((map) => map.resources('posts', options));
  const b = draw((map) => map.resources('posts', options));
  assert.equal(a.routes, b.routes);
});

test('an option resources does not read is ignored, as in Rails 2.1, and named once by a warning in development', async () => {
  const warnings: Error[] = [];
  const listener = (w: Error) => warnings.push(w);
  const env = process.env.NODE_ENV;
  process.on('warning', listener);
  let typo: RouteSet;
  try {
    process.env.NODE_ENV = 'development';
    typo = draw((map) => map.resources('stories', { onli: ['index'] }));
    draw((map) => map.resources('stories', { onli: ['show'] }));
    draw((map) => map.resource('profile', { bogus_option: true }));
    draw((map) => map.resources('stories', { action: 'show' }));
    process.env.NODE_ENV = 'test';
    draw((map) => map.resource('profile', { other_bogus: true }));
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
    // Assigning undefined would store the text "undefined", an environment no app can run in.
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
  const ours = warnings.filter((w) => (w as { code?: string }).code === 'SIGNALBOX_ROUTE_OPTION_IGNORED').map((w) => w.message);
  assert.equal(ours, [
    'resources("stories") ignores the option "onli" (did you mean only?), as Rails 2.1 did',
    'resource("profile") ignores the option "bogus_option", as Rails 2.1 did',
    'resources("stories") ignores the option "action", as Rails 2.1 did',
  ], 'once per option, never pointing to the option only nested resources are given, and not in test');
  assert.is(typo.routes.length, draw((map) => map.resources('stories')).routes.length, 'all seven actions, as Rails 2.1 routed them');
});

test('the deprecated resource_action_separator ";" warns once and routes /messages/1;mark', async () => {
  const warnings: Error[] = [];
  const listener = (w: Error) => warnings.push(w);
  process.on('warning', listener);
  let set: RouteSet;
  try {
    set = draw((map) => map.resources('messages', { member: { mark: 'post' }, collection: { rss: 'get' }, new: { preview: 'post' } }), { resource_action_separator: ';' });
    draw((map) => map.resource('account', { member: { login: 'get' } }), { resource_action_separator: ';' });
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  const ours = warnings.filter((w) => (w as { code?: string }).code === 'SIGNALBOX_DEP_SEMICOLON_SEPARATOR');
  assert.is(ours.length, 1, 'exactly one deprecation warning for the process');
  assert.is(ours[0].name, 'DeprecationWarning');
  assert.is(ours[0].message, "resource_action_separator ';' is deprecated: custom actions use a plain slash (/messages/1/mark).");
  assert.is(set.config.resource_action_separator, ';');
  // Custom actions and edit use the separator; new keeps its slash, as in Rails 1.2.
  assertRouting(set, 'POST /messages/1;mark', { controller: 'messages', action: 'mark', id: '1' });
  assertRouting(set, 'POST /messages/1;mark.xml', { controller: 'messages', action: 'mark', id: '1', format: 'xml' });
  assertRouting(set, 'GET /messages;rss', { controller: 'messages', action: 'rss' });
  assertRouting(set, 'POST /messages/new;preview', { controller: 'messages', action: 'preview' });
  assertRouting(set, 'GET /messages/1;edit', { controller: 'messages', action: 'edit', id: '1' });
  assertRouting(set, 'GET /messages/new', { controller: 'messages', action: 'new' });
  assertNotRouted(set, 'POST /messages/1/mark');
  assert.is(helpersOf(set).mark_message_path(1), '/messages/1;mark');
});

test('collection, member and new given as lists route each action for any method', () => {
  const set = draw((map) => map.resources('posts', { collection: ['preview'], member: ['approve', 'flag'], new: ['draft'] }));
  for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
    assertRecognizes(set, `${method} /posts/preview`, { controller: 'posts', action: 'preview' });
    assertRecognizes(set, `${method} /posts/1/approve`, { controller: 'posts', action: 'approve', id: '1' });
    assertRecognizes(set, `${method} /posts/new/draft`, { controller: 'posts', action: 'draft' });
  }
  assert.is(set.named.preview_posts.methods, null);
  assert.is(set.named.flag_post.methods, null);
  assert.is(helpersOf(set).draft_new_post_path(), '/posts/new/draft');
  assertRouting(set, 'GET /posts/1/edit', { controller: 'posts', action: 'edit', id: '1' });
  assert.equal(set.named.edit_post.methods, ['GET']);
});

test('a single extra action name reads as a list of one; other list entries are refused', () => {
  const set = draw((map) => map.resource('account', { member: 'preview' }));
  assertRecognizes(set, 'POST /account/preview', { controller: 'accounts', action: 'preview' });
  throwsA(() => draw((map) => map.resources('posts', { collection: [3] as unknown as string[] })), ArgumentError, 'Extra action names in a list must be strings, got 3');
  throwsA(() => draw((map) => map.resources('posts', { member: 7 as unknown as string[] })), ArgumentError);
});

test.run();
