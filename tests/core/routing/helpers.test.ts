/**
 * Named-route helpers (`<name>_path`, `<name>_url`, `hash_for_<name>_*`),
 * `url_for`, and the polymorphic family.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, createInflector, draw, isNewRecord, MissingHost, modelName, polymorphicCall, RoutingError, UrlGenerationError } from '../../../core/index.ts';
import { throwsA } from './support.ts';
import { helpersOf } from '../../support/helpers-by-name.ts';

const routes = draw((map) => {
  map.resources('posts', { has_many: 'comments', member: { publish: 'put' } });
  map.resource('account');
  map.namespace('admin', (admin) => admin.resources('posts', (posts) => posts.resource('stats')));
  map.named('login', 'login', { controller: 'sessions', action: 'new' });
  map.named('archive', 'archive/:year/:month', { controller: 'blog', action: 'archive', requirements: { year: /\d{4}/ }, month: null });
  map.root({ controller: 'posts' });
  map.connect(':controller/:action/:id');
});

/** Models as an application would define them: the class name is the model name. */
class Post {
  constructor(readonly id: number | null) {}
}
class Comment {
  constructor(readonly id: number | null) {}
}
class Article {
  static model_name = 'Post';
  constructor(readonly slug: string) {}
  to_param(): string {
    return `${this.slug}-post`;
  }
}
class Draft {
  id = 3;
  new_record(): boolean {
    return true;
  }
}
Object.defineProperty(Draft, 'name', { value: 'Post' });

const h = helpersOf(routes, { host: 'example.com' });
const test = suite('helpers');

test('<name>_path gives the path and <name>_url the full URL', () => {
  assert.is(h.posts_path(), '/posts');
  assert.is(h.posts_url(), 'http://example.com/posts');
  assert.is(h.post_path(1), '/posts/1');
  assert.is(h.post_url(1), 'http://example.com/posts/1');
  assert.is(h.edit_post_path(1), '/posts/1/edit');
  assert.is(h.new_post_path(), '/posts/new');
  assert.is(h.publish_post_path(1), '/posts/1/publish');
  assert.is(h.account_path(), '/account');
  assert.is(h.login_url(), 'http://example.com/login');
});

test('the root_path helper returns /, not an empty string', () => {
  assert.is(h.root_path(), '/');
  assert.is(h.root_url(), 'http://example.com/');
});

test('nested helpers take the parents first', () => {
  assert.is(h.post_comments_path(1), '/posts/1/comments');
  assert.is(h.post_comment_path(1, 2), '/posts/1/comments/2');
  assert.is(h.edit_post_comment_url(1, 2), 'http://example.com/posts/1/comments/2/edit');
  assert.is(h.admin_post_stats_path(5), '/admin/posts/5/stats');
});

test('hash_for_ helpers give the options url_for would use', () => {
  assert.equal(h.hash_for_post_path({ id: 7 }), { controller: 'posts', action: 'show', use_route: 'post', only_path: true, id: 7 });
  assert.equal(h.hash_for_posts_url(), { controller: 'posts', action: 'index', use_route: 'posts', only_path: false });
  assert.equal(h.hash_for_archive_path(), { controller: 'blog', action: 'archive', use_route: 'archive', only_path: true });
  assert.is(h.url_for(h.hash_for_post_comment_path({ post_id: 1, id: 2 })), '/posts/1/comments/2');
});

test('hash_for_ helpers refuse positional values instead of dropping them', () => {
  throwsA(() => h.hash_for_post_path(7), ArgumentError, 'hash_for_post_path takes one options hash ({ id: ... }), got 7');
  throwsA(() => h.hash_for_posts_url({}, { page: 2 }), ArgumentError, /^hash_for_posts_url takes one options hash, got \{\}, \{page: 2\}$/);
  assert.equal(h.hash_for_post_path(null), { controller: 'posts', action: 'show', use_route: 'post', only_path: true });
});

test('positional arguments accept records, using to_param() or id', () => {
  assert.is(h.post_path(new Post(4)), '/posts/4');
  assert.is(h.post_path(new Article('hello')), '/posts/hello-post');
  assert.is(h.post_comment_path(new Post(1), new Comment(2)), '/posts/1/comments/2');
});

test('a hash as the first argument is the options, not a positional value', () => {
  assert.is(h.post_path({ id: 9 }), '/posts/9');
  assert.is(h.post_comment_path({ post_id: 1, id: 2, anchor: 'c' }), '/posts/1/comments/2#c');
});

test('positional values are URI-escaped', () => {
  assert.is(h.post_path('a b'), '/posts/a%20b');
  assert.is(h.post_path('caf\u00e9'), '/posts/caf%C3%A9');
  assert.is(h.post_path('#1'), '/posts/%231');
});

test('a value the route\'s :id requirement rejects is a UrlGenerationError', () => {
  // Resources give :id the default pattern [^/.?]+, as Rails does.
  throwsA(() => h.post_path('a/b'), UrlGenerationError);
  throwsA(() => h.post_path('1.5'), UrlGenerationError);
  throwsA(() => h.post_path(null), UrlGenerationError);
  throwsA(() => h.archive_path('08'), UrlGenerationError);
});

test('a trailing options hash adds query parameters and the anchor', () => {
  assert.is(h.post_path(1, { q: 'x y', page: 2 }), '/posts/1?page=2&q=x+y');
  assert.is(h.post_path(1, { anchor: 'comments' }), '/posts/1#comments');
  assert.is(h.posts_path({ tags: ['a', 'b'] }), '/posts?tags%5B%5D=a&tags%5B%5D=b');
  assert.is(h.posts_path({ anchor: 'a b#c' }), '/posts#a%20b%23c');
});

test('a trailing options hash sets host, port and protocol', () => {
  assert.is(h.post_url(1, { host: 'other.org' }), 'http://other.org/posts/1');
  assert.is(h.post_url(1, { port: 3000 }), 'http://example.com:3000/posts/1');
  assert.is(h.post_url(1, { protocol: 'https' }), 'https://example.com/posts/1');
  assert.is(h.post_url(1, { protocol: 'https://' }), 'https://example.com/posts/1');
});

test('a route that fixes its protocol (an option, or a requirement) gives it to its _url helper, however the helper is called', () => {
  const secure = draw((map) => {
    map.named('login', 'login', { controller: 'sessions', action: 'new', protocol: 'https' });
    map.resources('accounts', { requirements: { protocol: 'https' } });
    map.with_options({ protocol: 'https' }, (https) => https.named('support', 'support/:topic', { controller: 'support', topic: null }));
  });
  const s = helpersOf(secure, { host: 'example.com' });
  assert.is(s.login_url(), 'https://example.com/login');
  assert.is(s.login_url({ ref: 'x' }), 'https://example.com/login?ref=x');
  assert.is(s.account_url(7), 'https://example.com/accounts/7');
  assert.is(s.account_url(7, { ref: 'x' }), 'https://example.com/accounts/7?ref=x');
  assert.is(s.support_url('billing'), 'https://example.com/support/billing');
  assert.is(s.support_url(), 'https://example.com/support');
  assert.is(s.account_path(7), '/accounts/7');
  // An explicit protocol still wins, as a later key of Rails' merged hash does.
  assert.is(s.account_url(7, { protocol: 'http' }), 'http://example.com/accounts/7');
});

test('user and password together become credentials; a user alone is a parameter', () => {
  assert.is(h.posts_url({ user: 'bob smith', password: 'p@ss' }), 'http://bob+smith:p%40ss@example.com/posts');
  assert.is(h.posts_url({ user: 'bob' }), 'http://example.com/posts?user=bob');
});

test('trailing_slash adds a slash before the query string', () => {
  assert.is(h.posts_path({ trailing_slash: true }), '/posts/');
  assert.is(h.posts_path({ trailing_slash: true, q: 1 }), '/posts/?q=1');
  assert.is(h.root_path({ trailing_slash: true }), '/');
});

test('only_path decides between path and URL either way', () => {
  assert.is(h.post_url(1, { only_path: true }), '/posts/1');
  assert.is(h.post_path(1, { only_path: false }), 'http://example.com/posts/1');
});

test('post_path(post, "xml") uses the formatted twin', () => {
  assert.is(h.post_path(1, 'xml'), '/posts/1.xml');
  assert.is(h.posts_path('json'), '/posts.json');
  assert.is(h.post_comment_url(1, 2, 'xml'), 'http://example.com/posts/1/comments/2.xml');
  assert.is(h.post_path(1, 'xml', { q: 1 }), '/posts/1.xml?q=1');
  assert.is(h.formatted_post_path(1, 'xml'), '/posts/1.xml');
  assert.is(h.formatted_posts_path({ format: 'json' }), '/posts.json');
});

test('too many positional arguments is an ArgumentError', () => {
  throwsA(() => h.post_path(1, 2, 3), ArgumentError, 'post_path takes at most 1 positional argument(s) (:id), got 3');
  throwsA(() => h.login_path(1, 2), ArgumentError, 'login_path takes at most 0 positional argument(s) (), got 2');
});

test('a _url helper without a host raises MissingHost, which is not a routing error', () => {
  const noHost = helpersOf(routes);
  const error = throwsA(() => noHost.post_url(1), MissingHost, 'Missing host to link to! Please provide the :host parameter or set default_url_options[:host]');
  assert.not.instance(error, RoutingError);
  assert.is(error.status, 500);
  throwsA(() => noHost.url_for({ controller: 'posts' }), MissingHost);
  assert.is(noHost.post_path(1), '/posts/1');
  assert.is(noHost.post_url(1, { host: 'h.example' }), 'http://h.example/posts/1');
});

test('helpers can be destructured', () => {
  const { post_path, post_comment_url, url_for, polymorphic_path } = helpersOf(routes, { host: 'example.com' });
  assert.is(post_path(3), '/posts/3');
  assert.is(post_comment_url(1, 2), 'http://example.com/posts/1/comments/2');
  assert.is(url_for({ controller: 'posts', action: 'index' }), 'http://example.com/posts');
  assert.is(polymorphic_path(new Post(3)), '/posts/3');
});

test('helpers report which names exist, and unknown names are undefined', () => {
  assert.ok('post_path' in h);
  assert.ok('hash_for_post_url' in h);
  assert.ok('url_for' in h);
  assert.not.ok('nope_path' in h);
  assert.is((h as Record<string, unknown>).nope_path, undefined);
  assert.is((h as unknown as Record<symbol, unknown>)[Symbol.iterator], undefined);
  assert.not.ok('constructor' in h);
  const names: string[] = [];
  for (const name in helpersOf(routes)) names.push(name);
  assert.ok(names.includes('formatted_post_comment_url'));
  assert.ok(names.includes('url_for'));
  assert.not.ok(names.includes('nope_path'));
  const table = prototypesOf(helpersOf(routes)).find((p) => Reflect.ownKeys(p).includes('post_path'));
  assert.is(typeof (table && Object.getOwnPropertyDescriptor(table, 'post_path')?.value), 'function');
  for (const proto of prototypesOf(helpersOf(routes))) {
    assert.is(Object.getOwnPropertyDescriptor(proto, 'nope_path'), undefined);
    assert.is(Object.getOwnPropertyDescriptor(proto, Symbol.iterator), undefined);
  }
});

/** Every prototype above `object`, nearest first. */
function prototypesOf(object: object): object[] {
  const chain: object[] = [];
  for (let p = Object.getPrototypeOf(object) as object | null; p !== null; p = Object.getPrototypeOf(p) as object | null) chain.push(p);
  return chain;
}

test('helpers objects cannot be modified through their prototypes, which every request shares', () => {
  const chain = prototypesOf(helpersOf(routes));
  assert.ok(chain.length > 0);
  for (const proto of chain) {
    assert.not.ok(Reflect.set(proto, 'post_path', () => 'hacked'));
    assert.not.ok(Reflect.set(proto, 'url_for', () => 'hacked'));
    assert.not.ok(Reflect.defineProperty(proto, 'x', { value: 1 }));
    assert.not.ok(Reflect.defineProperty(proto, 'post_path', { value: () => 'hacked' }));
    assert.not.ok(Reflect.setPrototypeOf(proto, null));
    Reflect.deleteProperty(proto, 'post_path');
  }
  assert.is(helpersOf(routes).post_path(1), '/posts/1');
  assert.is(helpersOf(routes).url_for({ controller: 'posts', action: 'index', only_path: true }), '/posts');
  assert.is((helpersOf(routes) as unknown as Record<string, unknown>).x, undefined);
});

test('recall fills values the helper is not given', () => {
  const inRequest = helpersOf(routes, { host: 'example.com' }, { controller: 'comments', action: 'index', post_id: '4' });
  assert.is(inRequest.post_comments_path(), '/posts/4/comments');
  assert.is(inRequest.post_comment_path({ id: 9 }), '/posts/4/comments/9');
  assert.is(inRequest.url_for({ action: 'new' }), 'http://example.com/posts/4/comments/new');
});

test('positional arguments pair with the route\'s keys from the first, as Rails 2.1 does', () => {
  const inRequest = helpersOf(routes, {}, { controller: 'comments', action: 'show', post_id: '4', id: '3' });
  // One argument fills :post_id; a new parent forgets the recalled :id, so the route cannot be built.
  throwsA(() => inRequest.post_comment_path(8), UrlGenerationError);
  assert.is(inRequest.post_comment_path(4, 8), '/posts/4/comments/8');
});

test('url_for with nothing is the current URL, as Rails\' url_for(options = {})', () => {
  const set = draw((map) => { map.resources('posts'); map.connect(':controller/:action/:id'); });
  const inRequest = set.helpers({ host: 'example.com' }, { controller: 'posts', action: 'show', id: '5' });
  assert.is(inRequest.url_for(), 'http://example.com/posts/5');
  assert.is(inRequest.url_for(undefined, { only_path: true }), '/posts/5');
});

test('url_for and polymorphic_url say what they need when given nothing to link to', () => {
  const hp = helpersOf(draw((map) => map.resources('posts')));
  throwsA(() => hp.url_for(null), ArgumentError, 'url_for needs an options hash, a URL, a record or a list of records, got null');
  throwsA(() => hp.polymorphic_path(null), ArgumentError, 'polymorphic_url needs a record or a list of records, got null');
  throwsA(() => hp.polymorphic_path([]), ArgumentError, 'polymorphic_url needs a record or a list of records, got an empty list');
  throwsA(() => hp.polymorphic_path([null, undefined]), ArgumentError, /got an empty list$/);
});

test('relative_url_root prefixes paths and URLs', () => {
  const mounted = draw((map) => map.resources('posts'), { relative_url_root: '/blog' });
  const mh = helpersOf(mounted, { host: 'example.com' });
  assert.is(mh.post_path(1), '/blog/posts/1');
  assert.is(mh.post_url(1), 'http://example.com/blog/posts/1');
  assert.is(mh.url_for({ controller: 'posts', action: 'index', only_path: true }), '/blog/posts');
  assert.is(mh.post_url(1, { skip_relative_url_root: true }), 'http://example.com/posts/1');
  assert.is(mh.post_path(1, { relative_url_root: '/other' }), '/other/posts/1');
  assert.is(helpersOf(mounted, { relative_url_root: '/x' }).post_path(1), '/x/posts/1');
  assert.is(helpersOf(mounted, { skip_relative_url_root: true }).post_path(1), '/posts/1');
});

test('relative_url_root with a trailing slash, or just "/", does not double the path\'s slash', () => {
  for (const root of ['/blog/', '/blog//']) {
    const mh = helpersOf(draw((map) => map.resources('posts'), { relative_url_root: root }), { host: 'example.com' });
    assert.is(mh.post_path(1), '/blog/posts/1');
    assert.is(mh.post_url(1), 'http://example.com/blog/posts/1');
  }
  // '//posts/1' would be a protocol-relative URL to the host "posts".
  const top = helpersOf(draw((map) => map.resources('posts'), { relative_url_root: '/' }), { host: 'example.com' });
  assert.is(top.post_path(1), '/posts/1');
  assert.is(top.url_for({ controller: 'posts', action: 'index' }), 'http://example.com/posts');
  assert.is(top.post_path(1, { relative_url_root: '/' }), '/posts/1');
  assert.is(helpersOf(draw((map) => map.resources('posts')), { relative_url_root: '/x/' }).post_path(1), '/x/posts/1');
});

test('relative_url_root that is not a path is refused', () => {
  throwsA(() => draw((map) => map.resources('posts'), { relative_url_root: 'blog' }), ArgumentError, 'relative_url_root must be a path starting with \'/\' (or \'\' for none), got "blog"');
  throwsA(() => helpersOf(draw((map) => map.resources('posts'))).post_path(1, { relative_url_root: 'http://x' }), ArgumentError, /^relative_url_root must be a path/);
});

test('default_url_options other than where the app lives reach every URL', () => {
  const withLocale = helpersOf(routes, { host: 'example.com', locale: 'en' });
  assert.is(withLocale.post_path(1), '/posts/1?locale=en');
  assert.is(withLocale.post_url(1, { locale: 'fr' }), 'http://example.com/posts/1?locale=fr');
});

test('url_for takes a hash, a record, an array of records, or a string', () => {
  assert.is(h.url_for({ controller: 'posts', action: 'show', id: 1 }), 'http://example.com/posts/1');
  assert.is(h.url_for({ controller: 'posts', action: 'show', id: 1, only_path: true }), '/posts/1');
  assert.is(h.url_for(new Post(3)), 'http://example.com/posts/3');
  assert.is(h.url_for([new Post(3), new Comment(4)]), 'http://example.com/posts/3/comments/4');
  assert.is(h.url_for('/somewhere'), '/somewhere');
});

test('url_for merges params and overwrite_params', () => {
  assert.is(h.url_for({ controller: 'posts', action: 'index', params: { page: 2 } }), 'http://example.com/posts?page=2');
  const inRequest = helpersOf(routes, { host: 'example.com' }, { controller: 'posts', action: 'index' }, { controller: 'posts', action: 'index', page: '1', q: 'z' });
  assert.is(inRequest.url_for({ overwrite_params: { page: 2 } }), 'http://example.com/posts?page=2&q=z');
});

test('polymorphic_url and polymorphic_path name the helper from the record\'s model', () => {
  assert.is(h.polymorphic_url(new Post(1)), 'http://example.com/posts/1');
  assert.is(h.polymorphic_path(new Post(1)), '/posts/1');
  assert.is(h.polymorphic_path([new Post(1), new Comment(2)]), '/posts/1/comments/2');
  assert.is(h.polymorphic_path(new Article('x')), '/posts/x-post', 'a static model_name names the model');
  assert.is(h.polymorphic_path(new Post(1), { q: 1 }), '/posts/1?q=1');
  assert.is(h.polymorphic_path(new Post(1), { format: 'json' }), '/posts/1.json');
});

test('a hash target takes its record from :id and is handed to the helper whole', () => {
  const inflector = createInflector();
  const post = new Post(1);
  assert.equal(polymorphicCall({ id: post, format: 'pdf' }, {}, inflector), { name: 'post_url', args: [{ id: post, format: 'pdf' }] });
  assert.equal(polymorphicCall({ id: post }, { routing_type: 'path' }, inflector), { name: 'post_path', args: [{ id: post }] });
  assert.is(h.polymorphic_url({ id: post, format: 'pdf' }), h.post_url({ id: post, format: 'pdf' }));
  assert.is(h.polymorphic_path({ id: post }), '/posts/1');
  assert.equal(polymorphicCall({ id: new Post(null) }, {}, inflector), { name: 'posts_url', args: [] }, 'a new record names the collection');
});

test('nils in an array are dropped, and an array of one is that one target', () => {
  const inflector = createInflector();
  const post = new Post(1);
  assert.equal(polymorphicCall([null, post], {}, inflector), { name: 'post_url', args: [post] });
  assert.equal(polymorphicCall([post], { format: 'xml' }, inflector), { name: 'post_url', args: [post, 'xml'] });
});

test('a new record names the collection', () => {
  assert.is(h.polymorphic_path(new Post(null)), '/posts');
  assert.is(h.polymorphic_path([new Post(1), new Comment(null)]), '/posts/1/comments');
  assert.is(h.polymorphic_path(new Draft()), '/posts', 'new_record() says so even with an id');
});

test('new_, edit_ and formatted_ variants', () => {
  assert.is(h.new_polymorphic_path(new Post(null)), '/posts/new');
  assert.is(h.new_polymorphic_path([new Post(1), new Comment(null)]), '/posts/1/comments/new');
  assert.is(h.edit_polymorphic_url(new Post(1)), 'http://example.com/posts/1/edit');
  assert.is(h.edit_polymorphic_path([new Post(1), new Comment(2)]), '/posts/1/comments/2/edit');
  assert.is(h.formatted_polymorphic_path([new Post(1), 'xml']), '/posts/1.xml');
  assert.is(h.formatted_polymorphic_url([new Post(1), new Comment(2), 'json']), 'http://example.com/posts/1/comments/2.json');
});

test('leading strings are namespaces and later strings singleton resources', () => {
  assert.is(h.polymorphic_path(['admin', new Post(1)]), '/admin/posts/1');
  assert.is(h.polymorphic_path(['admin', new Post(1), 'stats']), '/admin/posts/1/stats');
  assert.is(h.edit_polymorphic_path(['admin', new Post(1), 'stats']), '/admin/posts/1/stats/edit');
  assert.is(h.polymorphic_path('account'), '/account');
  assert.is(h.url_for(['admin', new Post(2)]), 'http://example.com/admin/posts/2');
});

test('polymorphicCall resolves the helper name and arguments without calling it', () => {
  const inflector = createInflector();
  const post = new Post(1);
  const comment = new Comment(2);
  assert.equal(polymorphicCall([post, comment], {}, inflector), { name: 'post_comment_url', args: [post, comment] });
  assert.equal(polymorphicCall(post, { routing_type: 'path', action: 'edit' }, inflector), { name: 'edit_post_path', args: [post] });
  assert.equal(polymorphicCall(['admin', post], { routing_type: 'path' }, inflector), { name: 'admin_post_path', args: [post] });
  assert.equal(polymorphicCall(new Post(null), {}, inflector), { name: 'posts_url', args: [] });
  assert.equal(polymorphicCall(post, { q: 1 }, inflector), { name: 'post_url', args: [post, { q: 1 }] });
  assert.equal(polymorphicCall([post, comment, 'xml'], { action: 'formatted' }, inflector), { name: 'formatted_post_comment_url', args: [post, comment, 'xml'] });
  assert.equal(polymorphicCall(post, { format: { a: 1 }, q: 1 }, inflector), { name: 'post_url', args: [post, { a: 1, q: 1 }] }, 'options merge into a trailing hash');
});

test('polymorphic names use the route set\'s own inflections for collections', () => {
  const set = draw((map) => map.resources('octopi'), { inflections: { irregular: [['octopus', 'octopi']] } });
  class Octopus {
    constructor(readonly id: number | null) {}
  }
  const oh = helpersOf(set);
  assert.is(oh.polymorphic_path(new Octopus(null)), '/octopi');
  assert.is(oh.polymorphic_path(new Octopus(2)), '/octopi/2');
});

test('a polymorphic target without a route helper is a UrlGenerationError', () => {
  class Gadget {
    constructor(readonly id: number) {}
  }
  throwsA(() => h.polymorphic_path(new Gadget(1)), UrlGenerationError, 'No route helper gadget_path for Gadget');
  throwsA(() => h.polymorphic_path([new Gadget(1), 'x']), UrlGenerationError, 'No route helper gadget_x_path for [Gadget, x]');
});

test('a record whose model cannot be told is an ArgumentError', () => {
  throwsA(() => h.polymorphic_path({ id: 1 }), ArgumentError, 'Cannot tell the model of [object Object]: give its class a name or a static model_name');
  throwsA(() => h.url_for(new (class {})()), ArgumentError, /Cannot tell the model of/);
  throwsA(() => modelName({ id: 1 }), ArgumentError);
  assert.is(modelName(new Post(1)), 'Post');
  assert.is(modelName(new Article('a')), 'Post');
});

test('isNewRecord: new_record() or new_record, else a missing id', () => {
  assert.ok(isNewRecord(new Post(null)));
  assert.not.ok(isNewRecord(new Post(1)));
  assert.ok(isNewRecord(new Draft()));
  assert.ok(isNewRecord({ new_record: true, id: 1 }));
  assert.not.ok(isNewRecord({ new_record: false }));
  assert.not.ok(isNewRecord('account'));
  assert.not.ok(isNewRecord(null));
});

test.run();
