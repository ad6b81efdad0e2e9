/**
 * The helpers templates call: links (and one-button forms for non-GET
 * links), forms with `_method` and the authenticity token, field tags,
 * `content_for`/`yield`, `pluralize` and `truncate`. Every helper escapes
 * what it is given, and each is exercised through a real template render.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, memoryViews, type Template, type View } from '../../../core/index.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('view helpers build escaped markup for templates');

class Post {
  constructor(readonly id: number) {}
}

/** Renders `template` as the `pages/go` view (no layout unless given) and answers the body. */
async function rendered(template: Template, options: { layout?: Template; setup?: (k: typeof Controller) => void; query?: string; assigns?: Record<string, unknown> } = {}): Promise<string> {
  class PagesController extends Controller {
    go(): void {
      Object.assign(this, options.assigns ?? {});
    }
  }
  options.setup?.(PagesController);
  const views: Record<string, Template> = { 'pages/go.html': template };
  if (options.layout) views['layouts/application.html'] = options.layout;
  const app = appWith({ pages: PagesController }, {
    views: memoryViews(views),
    draw: (map) => {
      map.resources('posts');
      map.connect(':controller/:action/:id');
    },
    config: { consider_all_requests_local: true },
  });
  const res = await call(app, `GET /pages/go${options.query ?? ''}`, { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 200, res.body);
  return res.body;
}

test('link_to without text shows its URL, as Rails\' name || url, and never leaves the <a> open', async () => {
  assert.is(await rendered((v) => v.link_to(undefined, '/posts?a=1&b=2')), '<a href="/posts?a=1&amp;b=2">/posts?a=1&amp;b=2</a>');
  assert.is(await rendered((v) => v.link_to(null, { controller: 'posts', action: 'show', id: 1 }, { class: 'p' })), '<a href="/posts/1" class="p">/posts/1</a>');
  assert.is(await rendered((v) => v.link_to('', '/x')), '<a href="/x"></a>', 'an empty text is a text');
});

test('link_to links to a string, a route hash or a record, escaping text and URL', async () => {
  assert.is(await rendered((v) => v.link_to('<All>', '/posts?a=1&b=2')), '<a href="/posts?a=1&amp;b=2">&lt;All&gt;</a>');
  assert.is(await rendered((v) => v.link_to('Show', { controller: 'posts', action: 'show', id: 1 })), '<a href="/posts/1">Show</a>');
  assert.is(await rendered((v) => v.link_to('Post', new Post(4), { class: 'post', title: 'a "quote"' })), '<a href="/posts/4" class="post" title="a &quot;quote&quot;">Post</a>');
  assert.is(await rendered((v) => v.link_to('Get', '/x', { method: 'get' })), '<a href="/x">Get</a>', 'method get stays a link');
});

test('link_to writes what the anchor tag writes for every shape of options', async () => {
  // The link is its own attribute first; an href among the options takes its value but keeps that place.
  assert.is(await rendered((v) => v.link_to('x', '/a', { id: 'l', href: '/b', 'data-n': 2 })), '<a href="/b" id="l" data-n="2">x</a>');
  assert.is(await rendered((v) => v.link_to('x', '/a', { class: 'c', method: 'GET', hidden: true, title: null, rel: false })), '<a href="/a" class="c" hidden>x</a>');
  assert.is(await rendered((v) => `${v.link_to(undefined, '/a')}|${v.link_to(undefined, '/a', { class: 'c' })}`), '<a href="/a">/a</a>|<a href="/a" class="c">/a</a>');
  assert.is(await rendered((v) => v.link_to(v.raw('<b>x</b>'), '/a?b="c"', { title: '<t>' })), '<a href="/a?b=&quot;c&quot;" title="&lt;t&gt;"><b>x</b></a>');
  assert.is(await rendered((v) => v.link_to(7, '')), '<a href="">7</a>');
});

test('link_to with method delete is a one-button form carrying _method and the token', async () => {
  const body = await rendered((v) => `${v.link_to('Delete', '/posts/1', { method: 'delete' })}|${v.form_authenticity_token()}`);
  const [markup, token] = body.split('|');
  assert.ok(token.length > 20, 'a real token');
  assert.is(markup, `<form action="/posts/1" method="post" class="button_to"><input type="hidden" name="_method" value="delete"><input type="hidden" name="authenticity_token" value="${token}"><button type="submit">Delete</button></form>`);
});

test('button_to without text is an empty button, closed', async () => {
  const body = await rendered((v) => v.button_to(undefined, '/go').value);
  assert.match(body, /<button type="submit"><\/button><\/form>$/);
});

test('button_to posts by default and asks for confirmation when told', async () => {
  const body = await rendered((v) => v.button_to('Go <now>', '/go', { confirm: 'Sure? "really"', class: 'b' }).value.replace(/value="[^"]+"><button/, 'value="T"><button'));
  assert.is(body, '<form action="/go" method="post" class="button_to" onsubmit="return confirm(&quot;Sure? \\&quot;really\\&quot;&quot;);"><input type="hidden" name="authenticity_token" value="T"><button type="submit" class="b">Go &lt;now&gt;</button></form>');
});

test('the token field is named after protect_from_forgery param, and the token is the session one', async () => {
  const body = await rendered((v) => `${v.token_tag()}|${v.form_authenticity_token()}`, { setup: (k) => k.protect_from_forgery({ param: 'csrf' }) });
  const [markup, token] = body.split('|');
  assert.is(markup, `<input type="hidden" name="csrf" value="${token}">`);
});

test('form_tag: POST with _method for put and delete, plain GET without a token, multipart enctype', async () => {
  const put = await rendered((v) => v.form_tag('/posts/1', { method: 'put' }));
  assert.match(put, /^<form action="\/posts\/1" method="post"><input type="hidden" name="_method" value="put"><input type="hidden" name="authenticity_token" value="[^"]+">$/);
  const del = await rendered((v) => v.form_tag({ controller: 'posts', action: 'destroy', id: 2 }, { method: 'DELETE' }));
  assert.match(del, '<input type="hidden" name="_method" value="delete">');
  assert.is(await rendered((v) => v.form_tag('/search', { method: 'get', id: 'search' })), '<form action="/search" method="get" id="search">');
  const post = await rendered((v) => v.form_tag('/upload', { multipart: true }));
  assert.match(post, /^<form action="\/upload" method="post" enctype="multipart\/form-data"><input type="hidden" name="authenticity_token" value="[^"]+">$/);
  assert.not.match(post, '_method', 'POST needs no simulation');
});

test('field tags: ids from bracketed names, values escaped, boolean attributes', async () => {
  assert.is(await rendered((v) => v.text_field_tag('post[title]', '<Hi>')), '<input type="text" name="post[title]" id="post_title" value="&lt;Hi&gt;">');
  assert.is(await rendered((v) => v.text_field_tag('q')), '<input type="text" name="q" id="q" value="">');
  assert.is(await rendered((v) => v.password_field_tag('user[password]', { size: 10 })), '<input type="password" name="user[password]" id="user_password" size="10">');
  assert.is(await rendered((v) => v.hidden_field_tag('page', 2)), '<input type="hidden" name="page" value="2">');
  assert.is(await rendered((v) => v.check_box_tag('remember', '1', true)), '<input type="checkbox" name="remember" id="remember" value="1" checked>');
  assert.is(await rendered((v) => v.check_box_tag('spam')), '<input type="checkbox" name="spam" id="spam" value="1">');
  assert.is(await rendered((v) => v.text_area_tag('post[body]', 'a < b')), '<textarea name="post[body]" id="post_body">a &lt; b</textarea>');
  assert.is(await rendered((v) => v.text_area_tag('notes', null)), '<textarea name="notes" id="notes"></textarea>');
  assert.is(await rendered((v) => v.label_tag('post[title]')), '<label for="post_title">Title</label>');
  // Rails' humanize of the attribute a name ends with: words kept, a trailing _id dropped.
  assert.is(await rendered((v) => v.label_tag('user_name')), '<label for="user_name">User name</label>');
  assert.is(await rendered((v) => v.label_tag('post[first_name]')), '<label for="post_first_name">First name</label>');
  assert.is(await rendered((v) => v.label_tag('comment[author_id]')), '<label for="comment_author_id">Author</label>');
  assert.is(await rendered((v) => v.label_tag('post[tag_list][]')), '<label for="post_tag_list">Tag list</label>');
  assert.is(await rendered((v) => v.label_tag('email', 'E-mail <address>', { class: 'l' })), '<label for="email" class="l">E-mail &lt;address&gt;</label>');
  assert.is(await rendered((v) => v.submit_tag()), '<input type="submit" name="commit" value="Save changes">');
  assert.is(await rendered((v) => v.submit_tag('Post it', { disabled: true })), '<input type="submit" name="commit" value="Post it" disabled>');
});

test('attribute names that are not plain names are dropped, so they cannot break out of the tag', async () => {
  assert.is(await rendered((v) => v.link_to('x', '/', { 'onclick="evil()" x': 'y', 'data-ok': 'z' })), '<a href="/" data-ok="z">x</a>');
});

test('content_for collects markup a layout reads with yield(name); yield() is the page', async () => {
  const body = await rendered((v) => {
    v.content_for('title', 'Posts & more');
    v.content_for('title', v.raw(' <em>!</em>'));
    return '<p>page</p>';
  }, { layout: (v) => `<title>${v.yield('title')}</title><main>${v.yield()}</main><aside>${v.yield('none')}</aside>` });
  assert.is(body, '<title>Posts &amp; more <em>!</em></title><main><p>page</p></main><aside></aside>');
});

test('pluralize and truncate', async () => {
  assert.is(await rendered((v) => [v.pluralize(1, 'post'), v.pluralize(2, 'post'), v.pluralize(0, 'person'), v.pluralize(3, 'octopus', 'octopodes')].join(', ')), '1 post, 2 posts, 0 people, 3 octopodes');
  assert.is(await rendered((v) => [v.truncate('Hello world, how are you', 10), v.truncate('short'), v.truncate('abcdef', 4, '…'), v.truncate(null), v.truncate('abc', 2, '...')].join('|')), 'Hello w...|short|abc…||...');
});

test('pluralize counts as Rails does: nothing is 0, and 1 given as text from params is singular', async () => {
  assert.is(await rendered((v) => [v.pluralize(null, 'post'), v.pluralize(undefined, 'post'), v.pluralize('1', 'post'), v.pluralize('2', 'person')].join(', ')), '0 posts, 0 posts, 1 post, 2 people');
});

test('truncate counts characters, never cutting a character written as a surrogate pair in two', async () => {
  assert.is(await rendered((v) => [v.truncate('😀😀😀😀', 3, ''), v.truncate('😀😀😀', 3), v.truncate('ab😀cdef', 5, '…'), v.truncate('😀😀😀😀', 3, '😀')].join('|')), '😀😀😀|😀😀😀|ab😀c…|😀😀😀');
});

test('h, escape, html, url_for, params and flash are at hand', async () => {
  const body = await rendered((v) => v.html`${v.h('<a>')} ${v.escape('&')} ${v.url_for(new Post(2))} ${v.url_for({ controller: 'posts', action: 'index' })} ${v.url_for('/s')} ${v.params.q} ${String(v.flash.get('x'))}`, { query: '?q=%3Cq%3E' });
  assert.is(body, '&amp;lt;a&amp;gt; &amp;amp; /posts/2 /posts /s &lt;q&gt; undefined', 'h and escape give plain strings: the html tag escapes them again');
});

test('templates read locals, then the controller (its properties and bound methods), then route helpers', async () => {
  class Pages extends Controller {
    title = 'from controller';
    shout(s: string): string {
      return `${s}!`;
    }
    go(): void {
      this.render({ locals: { title: 'from locals' } });
    }
    other(): void {}
  }
  const views = memoryViews({
    'pages/go.html': (v: View<{ title: string; shout(s: string): string; nothing_here?: unknown }>) => `${v.title} ${v.shout('hey')} ${v.post_path(3)} ${'title' in v} ${'post_path' in v} ${'link_to' in v} ${'nothing_here' in v}`,
    'pages/other.html': (v: View<{ title: string; nothing_here?: unknown }>) => `${v.title} ${String(v.nothing_here)}`,
  });
  const app = appWith({ pages: Pages }, { views, draw: (map) => { map.resources('posts'); map.connect(':controller/:action/:id'); } });
  assert.is((await call(app, 'GET /pages/go')).body, 'from locals hey! /posts/3 true true true false');
  assert.is((await call(app, 'GET /pages/other')).body, 'from controller undefined');
});

test('templates never reach the controller\'s internals: names starting with _ are not shared', async () => {
  class Pages extends Controller {
    _secret = 'kept back';
    go(): void {}
  }
  const views = memoryViews({ 'pages/go.html': (v: View<Record<string, unknown>>) => `${'_wiring' in v} ${String(v._wiring)} ${String(v._performed)} ${String(v._secret)} ${String(v._claimRender)}` });
  const app = appWith({ pages: Pages }, { views });
  assert.is((await call(app, 'GET /pages/go')).body, 'false undefined undefined undefined undefined');
});

test.run();
