/**
 * The route table as TypeScript declarations (`routeHelperTypes`, what
 * `signalbox routes --types` prints): a module augmenting the package's
 * `RouteHelpers`, one member per helper, with positional parameters that
 * follow the route's segment keys and the overloads the helpers answer at
 * run time. That the declarations compile, and reject what they should, is
 * shown on the packed package (tests/package/packed.test.ts) and on the
 * example blog, whose templates and controllers compile against them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, routeHelperTypes, type RouteSet } from '../../../core/index.ts';

const test = suite('routeHelperTypes declares every named helper of a route table');

/** The member lines of one helper (its overloads), without the doc comments. */
function overloads(set: RouteSet, helper: string): string[] {
  return routeHelperTypes(set.routes)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(`${helper}(`) || line.startsWith(`${JSON.stringify(helper)}(`));
}

const blog = draw((map) => {
  map.resources('posts', { has_many: 'comments', member: { publish: 'put' } });
  map.resource('account');
  map.root({ controller: 'posts' });
});

test('a module that augments the package\'s RouteHelpers, importing the types it uses', () => {
  const text = routeHelperTypes(blog.routes, { source: 'config/routes.ts' });
  assert.ok(text.startsWith('// The route helpers of config/routes.ts, written by `signalbox routes --types`.'));
  assert.match(text, "\nimport type { RouteParam, UrlOptions } from 'signalbox';\n\ndeclare module 'signalbox' {\n  interface RouteHelpers {\n");
  assert.ok(text.endsWith('  }\n}\n'));
  assert.is(routeHelperTypes(draw(() => {}).routes).includes('interface RouteHelpers {\n  }'), true, 'no named routes, no members');
});

test('one positional parameter per segment key, in path order, then the options; the hash form besides', () => {
  assert.equal(overloads(blog, 'post_comment_path'), [
    'post_comment_path(post_id: RouteParam, id: RouteParam, options?: UrlOptions): string;',
    'post_comment_path(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;',
    'post_comment_path(options?: UrlOptions): string;',
  ]);
  assert.equal(overloads(blog, 'publish_post_url'), [
    'publish_post_url(id: RouteParam, options?: UrlOptions): string;',
    'publish_post_url(id: RouteParam, format: string, options?: UrlOptions): string;',
    'publish_post_url(options?: UrlOptions): string;',
  ]);
});

test('a route without keys takes only the options (and a format when it has a formatted twin)', () => {
  assert.equal(overloads(blog, 'posts_path'), ['posts_path(options?: UrlOptions): string;', 'posts_path(format: string, options?: UrlOptions): string;']);
  assert.equal(overloads(blog, 'account_url'), ['account_url(options?: UrlOptions): string;', 'account_url(format: string, options?: UrlOptions): string;']);
  assert.equal(overloads(blog, 'root_path'), ['root_path(options?: UrlOptions): string;']);
});

test('formatted_ routes, hash_for_ helpers, and the four helpers of every name', () => {
  assert.equal(overloads(blog, 'formatted_post_path'), [
    'formatted_post_path(id: RouteParam, format: string, options?: UrlOptions): string;',
    'formatted_post_path(options?: UrlOptions): string;',
  ]);
  assert.equal(overloads(blog, 'hash_for_post_url'), ['hash_for_post_url(options?: UrlOptions): UrlOptions;']);
  const text = routeHelperTypes(blog.routes);
  for (const name of Object.keys(blog.named)) {
    for (const helper of [`${name}_path`, `${name}_url`, `hash_for_${name}_path`, `hash_for_${name}_url`]) assert.ok(text.includes(`\n    ${helper}(`), helper);
  }
});

test('each helper says what it routes to, for an editor\'s hover', () => {
  const text = routeHelperTypes(blog.routes);
  assert.match(text, '    /** PUT /posts/:id/publish → posts#publish */\n    publish_post_path(');
  assert.match(text, '    /** GET /account → accounts#show */\n    account_path(');
  assert.match(text, '    /** ANY / → posts#index */\n    root_path(');
});

test('segments that may be left off are optional parameters, and so is every one after them; a glob takes a list', () => {
  const set = draw((map) => {
    map.named('page', 'pages/:section/:id', { controller: 'pages', action: 'show', id: null });
    map.named('files', 'files/*path', { controller: 'files', action: 'show' });
    map.named('legacy', ':controller/:action/:id', {});
  });
  assert.equal(overloads(set, 'page_path')[0], 'page_path(section: RouteParam, id?: RouteParam, options?: UrlOptions): string;');
  assert.equal(overloads(set, 'files_path')[0], 'files_path(path?: RouteParam | readonly RouteParam[], options?: UrlOptions): string;');
  assert.equal(overloads(set, 'legacy_path')[0], 'legacy_path(controller: RouteParam, action?: RouteParam, id?: RouteParam, options?: UrlOptions): string;');
});

test('keys that cannot name a parameter are renamed; names that are not identifiers are quoted', () => {
  const set = draw((map) => {
    map.named('klass', 'k/:class/:new', { controller: 'k', action: 'show' });
    map.named('about-us', 'about', { controller: 'pages', action: 'about' });
  });
  assert.equal(overloads(set, 'klass_path')[0], 'klass_path(_class: RouteParam, _new: RouteParam, options?: UrlOptions): string;');
  assert.equal(overloads(set, 'about-us_path'), ['"about-us_path"(options?: UrlOptions): string;']);
});

test('a route name declared again is declared once, for the route that holds it', () => {
  const set = draw((map) => {
    map.named('start', 'old', { controller: 'pages', action: 'old' });
    map.named('start', 'new/:slug', { controller: 'pages', action: 'new' });
  });
  assert.equal(overloads(set, 'start_path'), ['start_path(slug: RouteParam, options?: UrlOptions): string;', 'start_path(options?: UrlOptions): string;']);
});

test.run();
