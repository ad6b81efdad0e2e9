/**
 * `draw()` and the RouteSet it returns: frozen plain data, a non-throwing
 * `match`, and `recognize`, which decides between 404, 405 and 501.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ArgumentError, deprecate, draw, MalformedPathError, MethodNotAllowed, NotImplemented, RoutingError, type DrawConfig, type Mapper, type RouteSet,
} from '../../../core/index.ts';
import { throwsA } from './support.ts';

function blog(map: Mapper): void {
  map.resources('posts', { has_many: 'comments', requirements: { id: /\d+/ } });
  map.resource('account');
  map.named('login', 'login', { controller: 'sessions', action: 'new', conditions: { method: 'get' } });
  map.named('ping', 'ping', { controller: 'ping', action: 'pong' });
  map.root({ controller: 'posts' });
}

const test = suite<{ routes: RouteSet }>('RouteSet', {} as { routes: RouteSet });
test.before.each((ctx) => {
  ctx.routes = draw(blog);
});

test('the route table is frozen: the array, each route and its parts', ({ routes }) => {
  assert.ok(Object.isFrozen(routes));
  assert.ok(Object.isFrozen(routes.routes));
  assert.ok(Object.isFrozen(routes.named));
  assert.ok(Object.isFrozen(routes.config));
  for (const r of routes.routes) {
    assert.ok(Object.isFrozen(r), `route ${r.index}`);
    assert.ok(Object.isFrozen(r.segments), `segments of ${r.path}`);
    for (const s of r.segments) assert.ok(Object.isFrozen(s), `segment of ${r.path}`);
    assert.ok(Object.isFrozen(r.requirements));
    assert.ok(Object.isFrozen(r.defaults));
    assert.ok(Object.isFrozen(r.conditions));
    assert.ok(Object.isFrozen(r.segment_keys));
    assert.ok(Object.isFrozen(r.significant_keys));
    if (r.methods !== null) assert.ok(Object.isFrozen(r.methods));
  }
});

test('frozen means unchangeable: writes to the table fail in strict mode', ({ routes }) => {
  assert.throws(() => (routes.routes as unknown as unknown[]).push({}));
  assert.throws(() => {
    (routes.routes[0] as { path: string }).path = '/hacked';
  });
  assert.throws(() => {
    (routes as { recognize: unknown }).recognize = () => ({});
  });
  assert.is(routes.routes[0].path, '/posts');
});

test('each route records its declaration index as precedence', ({ routes }) => {
  routes.routes.forEach((r, i) => assert.is(r.index, i));
});

test('a route cannot be added once the table is drawn', () => {
  let kept: Mapper | null = null;
  draw((map) => {
    kept = map;
    map.resources('posts');
  });
  throwsA(() => kept!.connect('late', { controller: 'late' }), ArgumentError, 'This route set is already drawn; routes cannot be added to it');
  throwsA(() => kept!.resources('comments'), ArgumentError);
});

test('draw needs a block', () => {
  throwsA(() => draw(undefined as unknown as (m: Mapper) => void), ArgumentError, 'draw needs a block: draw((map) => { ... })');
});

test('named routes are looked up by name', ({ routes }) => {
  assert.is(routes.named.post.path, '/posts/:id');
  assert.is(routes.named.formatted_post.path, '/posts/:id.:format');
  assert.is(routes.named.root.path, '/');
  assert.is(routes.named.nothing, undefined);
});

test('toJSON() is plain data that survives JSON.stringify unchanged', ({ routes }) => {
  const json = routes.toJSON();
  assert.is(json.routes, routes.routes);
  assert.equal(json.named, Object.keys(routes.named));
  const round = JSON.parse(JSON.stringify(routes)) as ReturnType<RouteSet['toJSON']>;
  assert.equal(round, JSON.parse(JSON.stringify(json)));
  assert.equal(round.routes.length, routes.routes.length);
  assert.equal(round.routes[routes.named.post.index], { ...routes.named.post });
  // Requirements are stored as { source, flags } descriptors, not RegExps, so they serialise.
  assert.equal(round.routes[routes.named.post.index].segments[3], { type: 'dynamic', key: 'id', optional: false, default: null, requirement: { source: '\\d+', flags: '' } });
  assert.equal(round.config, routes.config);
});

test('config records the resolved defaults', ({ routes }) => {
  assert.equal(routes.config, {
    inflections: { irregular: [], uncountable: [] },
    resources_path_names: { new: 'new', edit: 'edit' },
    controllers: null,
    relative_url_root: '',
    resource_action_separator: '/',
    recognizer: 'tree',
  });
  const custom = draw((map) => map.resources('posts'), {
    controllers: ['posts'], relative_url_root: '/blog', recognizer: 'linear', resources_path_names: { new: 'neu' },
  });
  assert.equal(custom.config.controllers, ['posts']);
  assert.is(custom.config.relative_url_root, '/blog');
  assert.is(custom.config.recognizer, 'linear');
  assert.equal(custom.config.resources_path_names, { new: 'neu', edit: 'edit' });
});

test('draw() refuses configuration it cannot use, naming the key', () => {
  const posts = (map: Mapper) => map.resources('posts');
  const refused: [unknown, string | RegExp][] = [
    [{ relative_root: '/blog' }, 'Unknown draw() option "relative_root"'],
    [{ recognizer: 'fast' }, 'draw(): recognizer must be \'tree\' or \'linear\', got "fast"'],
    [{ controllers: 'posts' }, 'draw(): controllers must be a list of controller paths, got "posts"'],
    [{ controllers: [5] }, 'draw(): controllers must be a list of controller paths, got [5]'],
    [{ inflections: { irregular: [['octopus']] } }, 'draw(): inflections.irregular must be a list of [singular, plural] pairs, got [["octopus"]]'],
    [{ inflections: { uncountable: 'news' } }, 'draw(): inflections.uncountable must be a list of words, got "news"'],
    [{ inflections: { uncountables: ['news'] } }, /^Unknown draw\(\) inflections option "uncountables" \(did you mean uncountable\?\)$/],
    [{ resources_path_names: { new: '*step' } }, /^:resources_path_names new must be path words/],
    [{ resources_path_names: { preview: '' } }, /^:resources_path_names preview must be path words/],
    [{ resources_path_names: 'neu' }, 'draw(): resources_path_names must be a hash of action names to path words, got "neu"'],
  ];
  for (const [config, message] of refused) throwsA(() => draw(posts, config as DrawConfig), ArgumentError, message);
  assert.is(draw(posts, null).routes.length, draw(posts).routes.length);
});

test('the controllers list is copied at draw time', () => {
  const list = ['posts'];
  const routes = draw((map) => map.connect(':controller/:action'), { controllers: list });
  list.push('admin');
  assert.equal(routes.config.controllers, ['posts']);
  throwsA(() => routes.recognize('GET', '/admin/index'), RoutingError);
});

test('print() is the table as aligned columns', ({ routes }) => {
  const lines = routes.print().split('\n');
  assert.is(lines.length, routes.routes.length);
  const pathColumn = lines.map((l) => l.indexOf(' /'));
  assert.ok(pathColumn.every((c) => c === pathColumn[0]), 'paths start in one column');
  assert.match(lines[0], /^\s+posts GET\s+\/posts\s+\{controller: "posts", action: "index"\}$/);
});

test('match returns the route and params', ({ routes }) => {
  const m = routes.match('GET', '/posts/1/comments/2')!;
  assert.is(m.route.name, 'post_comment');
  assert.equal(m.params, { controller: 'comments', action: 'show', post_id: '1', id: '2' });
});

test('match returns null (never throws) where recognize throws RoutingError, MethodNotAllowed or NotImplemented', ({ routes }) => {
  for (const [method, path] of [['GET', '/nope'], ['POST', '/posts/1'], ['BACON', '/posts'], ['GET', '/posts/abc'], ['PATCH', '/nowhere'], [null, '/posts']] as const) {
    assert.is(routes.match(method, path), null, `${method} ${path}`);
    assert.throws(() => routes.recognize(method, path), (e: unknown) => e instanceof RoutingError || e instanceof MethodNotAllowed || e instanceof NotImplemented);
  }
});

test('recognize throws RoutingError when no route matches the path', ({ routes }) => {
  const e = throwsA(() => routes.recognize('GET', '/nope'), RoutingError, 'No route matches "/nope" with method GET');
  assert.is(e.status, 404);
  throwsA(() => routes.recognize(null, '/nope'), RoutingError, 'No route matches "/nope"');
});

test('recognize throws MethodNotAllowed with the allowed list when the path matches other methods', ({ routes }) => {
  const e = throwsA(() => routes.recognize('POST', '/posts/1'), MethodNotAllowed, 'Only GET, PUT, DELETE requests are allowed.');
  assert.equal(e.allowed, ['GET', 'PUT', 'DELETE']);
  assert.equal(throwsA(() => routes.recognize('DELETE', '/login'), MethodNotAllowed).allowed, ['GET']);
  assert.equal(throwsA(() => routes.recognize(null, '/posts'), MethodNotAllowed).allowed, ['GET', 'POST']);
});

test('recognize throws NotImplemented for a method outside HTTP, like BACON', ({ routes }) => {
  const e = throwsA(() => routes.recognize('BACON', '/posts'), NotImplemented);
  assert.equal(e.allowed, ['GET', 'POST']);
  assert.is(e.status, 501);
  assert.equal(throwsA(() => routes.recognize('BACON', '/nope'), NotImplemented).allowed, []);
  // An unconditioned route answers any method, even an unknown one (as the default route did in Rails).
  assert.equal(routes.recognize('BACON', '/ping'), { controller: 'ping', action: 'pong' });
});

test('a requirement that rejects the id makes the path unroutable, not a 405', ({ routes }) => {
  throwsA(() => routes.recognize('GET', '/posts/abc'), RoutingError);
  assert.equal(routes.allowed_methods('/posts/abc'), []);
});

test('HEAD is recognised as GET', ({ routes }) => {
  assert.equal(routes.recognize('HEAD', '/posts/1'), { controller: 'posts', action: 'show', id: '1' });
  assert.equal(routes.recognize('head', '/login'), { controller: 'sessions', action: 'new' });
  assert.is(routes.match('HEAD', '/posts')?.route.name, 'posts');
});

test('methods are case-insensitive', ({ routes }) => {
  assert.equal(routes.recognize('put', '/posts/1'), { controller: 'posts', action: 'update', id: '1' });
  assert.equal(routes.recognize('Delete', '/account'), { controller: 'accounts', action: 'destroy' });
  assert.equal(routes.recognize('options', '/ping'), { controller: 'ping', action: 'pong' });
});

test('recognizeRoute returns the matching route with the params', ({ routes }) => {
  const m = routes.recognizeRoute('GET', '/posts/1.xml');
  assert.is(m.route.name, 'formatted_post');
  assert.equal(m.params, { controller: 'posts', action: 'show', id: '1', format: 'xml' });
});

test('allowed_methods lists what a 405 would offer', ({ routes }) => {
  assert.equal(routes.allowed_methods('/posts'), ['GET', 'POST']);
  assert.equal(routes.allowed_methods('/account'), ['GET', 'POST', 'PUT', 'DELETE']);
  assert.equal(routes.allowed_methods('/ping'), ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
  assert.equal(routes.allowed_methods('/nope'), []);
});

test('a malformed percent-escape is a 400-class MalformedPathError from recognize', ({ routes }) => {
  const e = throwsA(() => routes.recognize('GET', '/posts/1/comments/%E0%A4%A'), MalformedPathError);
  assert.is(e.status, 400);
  assert.ok(e.expose);
});

test('the root route answers / and the empty path', ({ routes }) => {
  assert.equal(routes.recognize('GET', '/'), { controller: 'posts', action: 'index' });
  assert.equal(routes.recognize('GET', ''), { controller: 'posts', action: 'index' });
});

test('generation and helpers are available from the set', ({ routes }) => {
  assert.is(routes.generate({ controller: 'posts', action: 'show', id: 3 }), '/posts/3');
  assert.is(routes.helpers().post_comment_path(1, 2), '/posts/1/comments/2');
  assert.is(routes.url_for({ controller: 'posts', action: 'index' }), '/posts');
  assert.is(routes.url_for({ controller: 'posts', action: 'index', host: 'example.com' }), 'http://example.com/posts');
  assert.is(routes.url_for({ controller: 'posts', action: 'index' }, { host: 'example.com', port: 8080 }), 'http://example.com:8080/posts');
});

test('url_for without a request gives paths for records too, and URLs when given a host', ({ routes }) => {
  class Post {
    constructor(readonly id: number) {}
  }
  assert.is(routes.url_for(new Post(4)), '/posts/4');
  assert.is(routes.url_for(new Post(4), { host: 'example.com' }), 'http://example.com/posts/4');
  assert.is(routes.url_for('/already/a/path'), '/already/a/path');
});

test('two route sets drawn from one block are independent', () => {
  const a = draw(blog);
  const b = draw(blog, { recognizer: 'linear', relative_url_root: '/b' });
  assert.is.not(a.routes, b.routes);
  assert.equal(a.routes, b.routes, 'same data');
  assert.is(a.helpers().post_path(1), '/posts/1');
  assert.is(b.helpers().post_path(1), '/b/posts/1');
});

test('resource_action_separator accepts only / and the deprecated ;', () => {
  throwsA(() => draw((map) => map.resources('posts'), { resource_action_separator: ',' as '/' }), ArgumentError, 'resource_action_separator must be \'/\' (or the deprecated \';\'), got ","');
});

test('deprecate() warns once per code, as a DeprecationWarning', async () => {
  const seen: Error[] = [];
  const listener = (w: Error) => seen.push(w);
  process.on('warning', listener);
  try {
    deprecate('SIGNALBOX_TEST_ONLY_DEPRECATION', 'first');
    deprecate('SIGNALBOX_TEST_ONLY_DEPRECATION', 'second');
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  const ours = seen.filter((w) => (w as { code?: string }).code === 'SIGNALBOX_TEST_ONLY_DEPRECATION');
  assert.is(ours.length, 1);
  assert.is(ours[0].name, 'DeprecationWarning');
  assert.is(ours[0].message, 'first');
});

test.run();
