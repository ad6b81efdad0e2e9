/**
 * The shared recognizer suite: one route fixture and one set of cases, run
 * against every `Recognizer` implementation (as Hono runs one router suite
 * against each router). Each implementation's test file calls
 * `runRecognizerSuite` once and may then add its own cases.
 *
 * The suite talks to the `Recognizer` interface directly: methods arrive
 * upper-case with HEAD already folded into GET (that is `RouteSet`'s job),
 * `match` returns `{ route, params }` or null, and `allowed_methods` lists
 * what a 405 would offer.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, HTTP_METHODS, MalformedPathError, RoutingError, type Mapper, type Match, type Params, type Recognizer, type Route } from '../../../core/index.ts';
import type { RecognizerOptions } from '../../../core/routing/recognizer.ts';

export interface RecognizerSuiteOptions {
  /** Shown as the suite name. */
  readonly name: string;
  /** Builds the implementation under test from a frozen route table. */
  readonly create: (routes: readonly Route[], options: RecognizerOptions) => Recognizer;
  /** Cases this implementation does not support, each with the reason. */
  readonly skip?: readonly { readonly reason: string; readonly tests: readonly string[] }[];
}

/** Controller paths known to the `withControllers` recognizer. */
export const CONTROLLERS = Object.freeze(['posts', 'admin/user', 'users', 'widgets', 'Reports']);

/**
 * The shared route fixture, in declaration order. Order matters: the first
 * route that matches wins, so several cases below test shadowing.
 */
export function routeFixture(map: Mapper): void {
  map.root({ controller: 'home', action: 'index' });
  map.resources('posts', { member: { mark: 'post' }, collection: { search: 'get' } }, (posts) => posts.resources('comments'));
  map.resource('account');
  // A static path declared before a dynamic one wins; declared after, it is shadowed.
  map.named('about', 'pages/about', { controller: 'pages', action: 'about' });
  map.named('page', 'pages/:id', { controller: 'pages', action: 'show' });
  map.named('user', 'users/:id', { controller: 'users', action: 'show' });
  map.named('me', 'users/me', { controller: 'users', action: 'me' });
  // Optional trailing segments with defaults, and a requirement on the first.
  map.named('archive', 'archive/:year/:month/:day', { controller: 'archive', action: 'show', requirements: { year: /\d{4}/ }, month: '1', day: '1' });
  map.named('report', 'reports/:id.:format', { controller: 'reports', action: 'show' });
  map.named('code', 'codes/:code', { controller: 'codes', action: 'show', requirements: { code: /ab\d+/i } });
  map.named('ext', 'ext/:code', { controller: 'codes', action: 'ext', requirements: { code: { source: '\\d{2}  # two digits\n - [a-z]+  # then a word', flags: 'x' } } });
  map.named('host', 'hosts/:ip', { controller: 'hosts', action: 'show', requirements: { ip: /\d+\.\d+\.\d+\.\d+/ } });
  map.named('file', 'files/*path', { controller: 'files', action: 'show' });
  map.named('ping', 'ping', { controller: 'ping', action: 'pong' });
  map.named('multi', 'multi', { controller: 'multi', action: 'both', conditions: { method: ['get', 'put'] } });
  // Static words that a URL carries percent-encoded.
  map.named('menu', 'café/menú del día', { controller: 'menus', action: 'show' });
  map.connect(':controller/:action/:id');
  map.connect(':controller/:action/:id.:format');
}

/** The fixture as a frozen table (drawn once; recognizers are rebuilt from it per test). */
export const FIXTURE_ROUTES: readonly Route[] = draw(routeFixture).routes;

interface Context {
  /** Built with no controllers list: `:controller` is one word. */
  plain: Recognizer;
  /** Built with `CONTROLLERS`. */
  withControllers: Recognizer;
}

type Case = (ctx: Context) => void;

function params(r: Recognizer, method: string | null, path: string): Params | null {
  return r.match(method, path)?.params ?? null;
}

function routeName(m: Match | null): string | null | undefined {
  return m === null ? undefined : m.route.name;
}

/** The cases, by name; names read as specifications. */
export const CASES: Readonly<Record<string, Case>> = Object.freeze({
  'an empty path and / both match the root route': ({ plain }) => {
    assert.equal(params(plain, 'GET', ''), { controller: 'home', action: 'index' });
    assert.equal(params(plain, 'GET', '/'), { controller: 'home', action: 'index' });
  },

  'a collection path answers GET with index and POST with create': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/posts'), { controller: 'posts', action: 'index' });
    assert.equal(params(plain, 'POST', '/posts'), { controller: 'posts', action: 'create' });
  },

  'a member path answers by method: show, update and destroy': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/posts/1'), { controller: 'posts', action: 'show', id: '1' });
    assert.equal(params(plain, 'PUT', '/posts/1'), { controller: 'posts', action: 'update', id: '1' });
    assert.equal(params(plain, 'DELETE', '/posts/1'), { controller: 'posts', action: 'destroy', id: '1' });
  },

  'custom member and collection actions are reached with a plain slash': ({ plain }) => {
    assert.equal(params(plain, 'POST', '/posts/7/mark'), { controller: 'posts', action: 'mark', id: '7' });
    assert.equal(params(plain, 'GET', '/posts/search'), { controller: 'posts', action: 'search' });
  },

  'nested resources carry the parent id': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/posts/1/comments/2'), { controller: 'comments', action: 'show', post_id: '1', id: '2' });
    assert.equal(params(plain, 'GET', '/posts/1/comments/new'), { controller: 'comments', action: 'new', post_id: '1' });
  },

  'a singleton resource has no id': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/account'), { controller: 'accounts', action: 'show' });
    assert.equal(params(plain, 'GET', '/account/edit'), { controller: 'accounts', action: 'edit' });
  },

  'a static route declared before a dynamic one wins': ({ plain }) => {
    assert.is(routeName(plain.match('GET', '/pages/about')), 'about');
    assert.equal(params(plain, 'GET', '/pages/contact'), { controller: 'pages', action: 'show', id: 'contact' });
  },

  'a dynamic route declared before a static one shadows it (first declared wins)': ({ plain }) => {
    assert.is(routeName(plain.match('GET', '/users/me')), 'user');
    assert.equal(params(plain, 'GET', '/users/me'), { controller: 'users', action: 'show', id: 'me' });
  },

  '"new" is a word before it is an id: /posts/new is the new action': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/posts/new'), { controller: 'posts', action: 'new' });
  },

  'optional trailing segments take their defaults when left off': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/archive/2008'), { controller: 'archive', action: 'show', year: '2008', month: '1', day: '1' });
    assert.equal(params(plain, 'GET', '/archive/2008/12'), { controller: 'archive', action: 'show', year: '2008', month: '12', day: '1' });
    assert.equal(params(plain, 'GET', '/archive/2008/12/24'), { controller: 'archive', action: 'show', year: '2008', month: '12', day: '24' });
  },

  'a requirement must match the whole segment': ({ plain }) => {
    assert.is(routeName(plain.match('GET', '/archive/20081')), null, 'falls through to :controller/:action');
    assert.equal(params(plain, 'GET', '/archive/20081'), { controller: 'archive', action: '20081' });
    assert.equal(params(plain, 'GET', '/archive/08'), { controller: 'archive', action: '08' });
  },

  'a .:format route adds the format parameter': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/reports/9.csv'), { controller: 'reports', action: 'show', id: '9', format: 'csv' });
    assert.equal(params(plain, 'GET', '/posts/1.xml'), { controller: 'posts', action: 'show', id: '1', format: 'xml' });
    assert.equal(params(plain, 'GET', '/posts.json'), { controller: 'posts', action: 'index', format: 'json' });
    assert.is(routeName(plain.match('GET', '/posts/1.xml')), 'formatted_post');
  },

  'a .:format route needs both parts around the dot': ({ plain }) => {
    assert.is(plain.match('GET', '/reports/9.'), null);
    assert.is(plain.match('GET', '/reports/.csv'), null);
    assert.is(plain.match('GET', '/reports/9.csv.gz'), null);
  },

  'a requirement with the i flag matches either case': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/codes/ab12'), { controller: 'codes', action: 'show', code: 'ab12' });
    assert.equal(params(plain, 'GET', '/codes/AB12'), { controller: 'codes', action: 'show', code: 'AB12' });
    assert.equal(params(plain, 'GET', '/codes/aB12'), { controller: 'codes', action: 'show', code: 'aB12' });
    assert.is(routeName(plain.match('GET', '/codes/xy12')), null);
  },

  'a requirement with the x flag ignores whitespace and comments in its source': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/ext/12-abc'), { controller: 'codes', action: 'ext', code: '12-abc' });
    assert.is(routeName(plain.match('GET', '/ext/12 - abc')), null);
    assert.is(routeName(plain.match('GET', '/ext/1-abc')), null);
  },

  'a requirement containing dots matches across them (whole-path matching)': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/hosts/10.0.0.1'), { controller: 'hosts', action: 'show', ip: '10.0.0.1' });
    assert.is(plain.match('GET', '/hosts/10.0.0'), null);
  },

  'a glob collects the rest of the path as decoded components': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/files/a/b/c.txt'), { controller: 'files', action: 'show', path: ['a', 'b', 'c.txt'] });
    assert.equal(params(plain, 'GET', '/files/a%20b/c%2Fd'), { controller: 'files', action: 'show', path: ['a b', 'c/d'] });
    assert.equal(params(plain, 'GET', '/files/%2e%2e/etc'), { controller: 'files', action: 'show', path: ['..', 'etc'] });
  },

  'an absent glob recognises as an empty list': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/files'), { controller: 'files', action: 'show', path: [] });
    assert.equal(params(plain, 'GET', '/files/'), { controller: 'files', action: 'show', path: [] });
  },

  'without a controllers list, :controller matches one word': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/widgets/list/4'), { controller: 'widgets', action: 'list', id: '4' });
    assert.equal(params(plain, 'GET', '/widgets'), { controller: 'widgets', action: 'index' });
    assert.equal(params(plain, 'GET', '/admin/user/list'), { controller: 'admin', action: 'user', id: 'list' });
    assert.is(plain.match('GET', '/wid-gets/list'), null);
  },

  ':controller is lower-cased': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/Widgets/List'), { controller: 'widgets', action: 'List' });
  },

  'with a controllers list, :controller matches known names case-insensitively, nested ones included': ({ withControllers }) => {
    assert.equal(params(withControllers, 'GET', '/admin/user/list/3'), { controller: 'admin/user', action: 'list', id: '3' });
    assert.equal(params(withControllers, 'GET', '/ADMIN/User'), { controller: 'admin/user', action: 'index' });
    assert.equal(params(withControllers, 'GET', '/reports/list'), { controller: 'reports', action: 'list' });
    assert.equal(params(withControllers, 'GET', '/Widgets/show/2.xml'), { controller: 'widgets', action: 'show', id: '2', format: 'xml' });
  },

  'with a controllers list, unknown controllers are not matched': ({ withControllers }) => {
    assert.is(withControllers.match('GET', '/gadgets/list'), null);
    assert.is(withControllers.match('GET', '/admin/list'), null);
  },

  'a method condition admits only its method': ({ plain }) => {
    assert.is(routeName(plain.match('POST', '/posts/1/mark')), 'mark_post');
    assert.is(routeName(plain.match('GET', '/posts/1/mark')), null, 'GET falls through to :controller/:action/:id');
  },

  'a method condition given as an array admits each method': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/multi'), { controller: 'multi', action: 'both' });
    assert.equal(params(plain, 'PUT', '/multi'), { controller: 'multi', action: 'both' });
    assert.equal(params(plain, 'POST', '/multi'), { controller: 'multi', action: 'index' }, 'POST reaches only the catch-all');
  },

  'a null method matches only routes without a method condition': ({ plain }) => {
    assert.equal(params(plain, null, '/ping'), { controller: 'ping', action: 'pong' });
    assert.equal(params(plain, null, '/posts/1'), { controller: 'posts', action: '1' }, 'the resource routes need a method');
    assert.equal(params(plain, null, ''), { controller: 'home', action: 'index' });
  },

  'an unknown method matches only unconditioned routes': ({ plain }) => {
    assert.equal(params(plain, 'BACON', '/ping'), { controller: 'ping', action: 'pong' });
    assert.is(routeName(plain.match('BACON', '/posts/1')), null);
  },

  'one trailing slash is ignored': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/posts/'), { controller: 'posts', action: 'index' });
    assert.equal(params(plain, 'GET', '/posts/1/'), { controller: 'posts', action: 'show', id: '1' });
  },

  'a double slash is not a separator': ({ plain }) => {
    assert.is(plain.match('GET', '//posts'), null);
    assert.is(plain.match('GET', '/posts//1'), null);
    assert.is(plain.match('GET', '/posts//'), null);
  },

  'a path without a leading slash matches nothing': ({ plain }) => {
    assert.is(plain.match('GET', 'posts'), null);
    assert.is(plain.match('GET', 'posts/1'), null);
  },

  'parameters are percent-decoded': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/posts/a%20b'), { controller: 'posts', action: 'show', id: 'a b' });
    assert.equal(params(plain, 'GET', '/posts/caf%C3%A9'), { controller: 'posts', action: 'show', id: 'café' });
    assert.equal(params(plain, 'GET', '/posts/%2F'), { controller: 'posts', action: 'show', id: '/' });
    assert.equal(params(plain, 'GET', '/posts/1/comments/%3F'), { controller: 'comments', action: 'show', post_id: '1', id: '?' });
  },

  'an encoded dot does not split a .:format segment': ({ plain }) => {
    assert.equal(params(plain, 'GET', '/posts/1%2Exml'), { controller: 'posts', action: 'show', id: '1.xml' });
  },

  'malformed percent-encoding throws MalformedPathError, a 400-class RoutingError': ({ plain }) => {
    for (const path of ['/posts/%zz', '/posts/%E0%A4%A', '/posts/1/comments/%', '/files/ok/%C3']) {
      let thrown: unknown = null;
      try {
        plain.match('GET', path);
      } catch (e) {
        thrown = e;
      }
      assert.instance(thrown, MalformedPathError, path);
      assert.instance(thrown, RoutingError, path);
      assert.is((thrown as MalformedPathError).status, 400);
      assert.is((thrown as MalformedPathError).code, 'SBX_ERR_MALFORMED_PATH');
    }
  },

  'percent signs in static text are never decoded into a match': ({ plain }) => {
    assert.is(plain.match('GET', '/p%6Fsts'), null, 'an encoded static word is not the word');
    assert.is(routeName(plain.match('GET', '/pages/%61bout')), 'page', 'nor is an encoded static path the static route');
  },

  'allowed_methods lists every method some route answers on the path, in HTTP_METHODS order': ({ plain }) => {
    const all = HTTP_METHODS.map((m) => m.toUpperCase());
    // The catch-all `:controller/:action/:id` answers any method on most paths, so pick paths it cannot reach.
    assert.equal(plain.allowed_methods('/posts/1/comments/2'), ['GET', 'PUT', 'DELETE']);
    assert.equal(plain.allowed_methods('/posts/1/comments/2/edit'), ['GET']);
    assert.equal(plain.allowed_methods('/posts/1/comments/new'), ['GET', 'PUT', 'DELETE'], 'new is also a member id to PUT and DELETE');
    assert.equal(plain.allowed_methods('/posts'), all, 'the catch-all admits every method');
  },

  'allowed_methods of a path no route matches is empty': ({ plain, withControllers }) => {
    assert.equal(plain.allowed_methods('/a/b/c/d/e'), []);
    assert.equal(withControllers.allowed_methods('/gadgets'), []);
    assert.equal(plain.allowed_methods('nope'), []);
  },

  'allowed_methods includes methods of routes matched through the whole-path fallback': ({ withControllers }) => {
    assert.equal(withControllers.allowed_methods('/hosts/1.2.3.4'), HTTP_METHODS.map((m) => m.toUpperCase()));
    assert.equal(withControllers.allowed_methods('/multi'), ['GET', 'PUT']);
  },

  'a static word with characters a URL escapes matches its percent-encoded form, as generation writes it': ({ plain, withControllers }) => {
    for (const r of [plain, withControllers]) {
      const m = r.match('GET', '/caf%C3%A9/men%C3%BA%20del%20d%C3%ADa');
      assert.is(m?.route.name, 'menu');
      assert.equal(m?.params, { controller: 'menus', action: 'show' });
    }
  },

  'a match reports the route that matched as frozen table data': ({ plain }) => {
    const m = plain.match('GET', '/posts/1')!;
    assert.is(m.route, FIXTURE_ROUTES[m.route.index]);
    assert.ok(Object.isFrozen(m.route));
  },

  'each match gets its own params object': ({ plain }) => {
    const a = plain.match('GET', '/posts/1')!;
    const b = plain.match('GET', '/posts/2')!;
    assert.is.not(a.params, b.params);
    assert.is(a.params.id, '1');
    (a.params as Record<string, unknown>).id = 'changed';
    assert.is(plain.match('GET', '/posts/1')!.params.id, '1');
  },
});

/**
 * Registers the shared cases as a uvu suite named `name` and runs it.
 * Skipped cases are reported with their reason instead of running.
 */
export function runRecognizerSuite(options: RecognizerSuiteOptions): void {
  const skipped = new Map<string, string>();
  for (const { reason, tests } of options.skip ?? []) {
    for (const t of tests) {
      if (!(t in CASES)) throw new Error(`${options.name}: skip names an unknown case ${JSON.stringify(t)}`);
      skipped.set(t, reason);
    }
  }
  const s = suite<Context>(`${options.name} (shared recognizer suite)`, {} as Context);
  s.before.each((ctx) => {
    ctx.plain = options.create(FIXTURE_ROUTES, { controllers: null });
    ctx.withControllers = options.create(FIXTURE_ROUTES, { controllers: CONTROLLERS });
  });
  for (const [name, fn] of Object.entries(CASES)) {
    const reason = skipped.get(name);
    if (reason !== undefined) {
      console.log(`  ${options.name}: skipped "${name}": ${reason}`);
      continue;
    }
    s(name, (ctx) => fn(ctx));
  }
  s.run();
}
