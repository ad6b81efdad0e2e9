/**
 * `redirect_to`: where each kind of target goes, and that the Location
 * header can be used neither to split the response nor to leave the site.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ActionControllerError, Controller, sanitiseLocation } from '../../../core/index.ts';
import { absoluteLocation, assertTarget, escapeHtml, redirectBody } from '../../../core/controller/redirect.ts';
import { appWith, call, type CallOptions } from '../../support/harness.ts';

const test = suite('redirect_to answers 302 with a safe, absolute Location on the request site');

class Post {
  constructor(readonly id: number) {}
}
class Comment {
  constructor(readonly id: number) {}
}
class Slugged {
  static readonly model_name = 'Post';
  to_param(): string {
    return '7-hello';
  }
}

function redirecting(target: () => unknown, options?: { status?: number | string }) {
  class PagesController extends Controller {
    go(): void {
      this.redirect_to(target(), options);
    }
    index(): void {
      this.render({ text: 'index' });
    }
  }
  return appWith({ pages: PagesController }, {
    draw: (map) => {
      map.resources('posts', { has_many: 'comments' });
      map.connect(':controller/:action/:id');
      map.connect(':controller/:action');
    },
    config: { consider_all_requests_local: true },
  });
}

async function locationOf(target: () => unknown, options: CallOptions = {}): Promise<string | undefined> {
  return (await call(redirecting(target), 'GET /pages/go', options)).header('location');
}

test('a URL is kept; a path lands on the request own scheme, host and port', async () => {
  assert.is(await locationOf(() => 'http://www.example.com/x?y=1'), 'http://www.example.com/x?y=1');
  assert.is(await locationOf(() => 'javascript:alert(1)//\nhttp://app.example/'), 'http://test.host/javascript:alert(1)//http://app.example/', 'a script URL stays on the site');
  assert.is(await locationOf(() => 'data:text/html,<b>'), 'http://test.host/data:text/html,<b>');
  assert.is(await locationOf(() => '/posts'), 'http://test.host/posts');
  assert.is(await locationOf(() => 'posts'), 'http://test.host/posts', 'a relative path is rooted');
  assert.is(await locationOf(() => '/posts', { headers: { host: 'test.host:8080' } }), 'http://test.host:8080/posts');
  assert.is(await locationOf(() => '/posts', { encrypted: true }), 'https://test.host/posts');
  assert.is(await locationOf(() => '/posts', { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' } }), 'http://test.host/posts', 'forwarding headers need trustProxy');
});

test('a target with a lone surrogate (JSON can carry one) is sent with U+FFFD in its place, not a 500', async () => {
  class PagesController extends Controller {
    go(): void {
      this.redirect_to(String(this.params.to));
    }
  }
  const app = appWith({ pages: PagesController });
  const res = await call(app, 'POST /pages/go', { headers: { 'content-type': 'application/json' }, body: '{"to": "/back\\ud800here\\udc00"}' });
  assert.is(res.status, 302);
  assert.is(res.header('location'), 'http://test.host/back%EF%BF%BDhere%EF%BF%BD');
  assert.is(sanitiseLocation('/a\ud83d\ude00'), '/a%F0%9F%98%80', 'a pair is one character, encoded whole');
});

test('a URL of any scheme but a script one is kept as given', async () => {
  assert.is(await locationOf(() => 'x-test+scheme.complex:redirect'), 'x-test+scheme.complex:redirect');
  assert.is(await locationOf(() => 'mailto:someone@example.com'), 'mailto:someone@example.com');
  assert.is(await locationOf(() => 'JavaScript:alert(1)'), 'http://test.host/JavaScript:alert(1)');
  assert.is(await locationOf(() => 'vbscript:msgbox'), 'http://test.host/vbscript:msgbox');
});

test('the answer is 302 Found with an HTML body linking to the URL, escaped', async () => {
  const res = await call(redirecting(() => '/a?x="<b>"&y=\'1\''), 'GET /pages/go');
  assert.is(res.status, 302);
  assert.is(res.reason, 'Found');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
  assert.is(res.body, '<html><body>You are being <a href="http://test.host/a?x=&quot;&lt;b&gt;&quot;&amp;y=&#39;1&#39;">redirected</a>.</body></html>');
  assert.is(res.header('etag'), undefined, 'redirects are not cached by ETag');
});

test('the status option takes a code, a symbol or a custom line', async () => {
  let res = await call(redirecting(() => '/a', { status: 301 }), 'GET /pages/go');
  assert.is(res.status, 301);
  res = await call(redirecting(() => '/a', { status: 'see_other' }), 'GET /pages/go');
  assert.is(res.status, 303);
  assert.is(res.reason, 'See Other');
  res = await call(redirecting(() => '/a', { status: '307 Elsewhere' }), 'GET /pages/go');
  assert.is(res.status, 307);
  assert.is(res.reason, 'Elsewhere');
});

test('a status inside the route hash is the response status, not a query parameter', async () => {
  let res = await call(redirecting(() => ({ action: 'index', status: 301 })), 'GET /pages/go');
  assert.is(res.status, 301);
  assert.is(res.header('location'), 'http://test.host/pages');
  res = await call(redirecting(() => ({ action: 'index', status: 'see_other' }), { status: 307 }), 'GET /pages/go');
  assert.is(res.status, 303, 'the hash status wins over the second argument');
  res = await call(redirecting(() => ({ action: 'index' }), { status: 301 }), 'GET /pages/go');
  assert.is(res.status, 301);
  assert.is(res.header('location'), 'http://test.host/pages');
});

test('a route hash, a record and a [parent, child] pair become full URLs', async () => {
  assert.is(await locationOf(() => ({ action: 'index' })), 'http://test.host/pages');
  assert.is(await locationOf(() => ({ controller: 'posts', action: 'show', id: 3 })), 'http://test.host/posts/3');
  assert.is(await locationOf(() => new Post(3)), 'http://test.host/posts/3');
  assert.is(await locationOf(() => new Slugged()), 'http://test.host/posts/7-hello', 'to_param names the record');
  assert.is(await locationOf(() => [new Post(1), new Comment(2)]), 'http://test.host/posts/1/comments/2');
});

test("'back' (and ':back') goes to the Referer; without one it is a RedirectBackError", async () => {
  assert.is(await locationOf(() => 'back', { headers: { referer: 'http://test.host/previous?page=2' } }), 'http://test.host/previous?page=2');
  assert.is(await locationOf(() => ':back', { headers: { referer: '/relative' } }), 'http://test.host/relative');
  const res = await call(redirecting(() => 'back'), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'RedirectBackError');
  assert.is(res.header('location'), undefined, 'the failed redirect leaves nothing behind');
});

test('null, undefined and an empty string cannot be redirected to (ActionControllerError)', async () => {
  for (const target of [null, undefined, '']) {
    const res = await call(redirecting(() => target), 'GET /pages/go', { remoteAddress: '127.0.0.1' });
    assert.is(res.status, 500);
    assert.match(res.body, 'ActionControllerError');
    assert.match(res.body, 'Cannot redirect to nil!');
  }
});

test('CR, LF and NUL are stripped from the Location, so no header can be injected', async () => {
  const res = await call(redirecting(() => '/next\r\nSet-Cookie: admin=1\u0000'), 'GET /pages/go');
  assert.is(res.header('location'), 'http://test.host/nextSet-Cookie: admin=1');
  assert.is(res.header('set-cookie'), undefined);
  assert.is(await locationOf(() => 'back', { headers: { referer: 'http://test.host/a\r\nX-Evil: 1' } }), 'http://test.host/aX-Evil: 1');
});

test('characters beyond printable ASCII are percent-encoded as UTF-8', async () => {
  assert.is(await locationOf(() => '/café/ü ß'), 'http://test.host/caf%C3%A9/%C3%BC %C3%9F');
  assert.is(await locationOf(() => '/emoji/😀'), 'http://test.host/emoji/%F0%9F%98%80');
});

test('protocol-relative and backslash targets stay on the site (no open redirect)', async () => {
  assert.is(await locationOf(() => '//evil.example/x'), 'http://test.host/evil.example/x');
  assert.is(await locationOf(() => '///evil.example'), 'http://test.host/evil.example');
  assert.is(await locationOf(() => '/\\evil.example'), 'http://test.host/evil.example');
  assert.is(await locationOf(() => '\\\\evil.example'), 'http://test.host/evil.example');
  assert.is(await locationOf(() => '\t//evil.example'), 'http://test.host/evil.example', 'a stripped control character does not open the door');
});

test('the helpers: sanitiseLocation, absoluteLocation, redirectBody, escapeHtml and assertTarget', () => {
  assert.is(sanitiseLocation('/a\r\nSet-Cookie: x=1'), '/aSet-Cookie: x=1');
  assert.is(sanitiseLocation('/\u007fx\u0001'), '/x');
  assert.is(sanitiseLocation('/ok?a=b&c=d#frag'), '/ok?a=b&c=d#frag');
  assert.is(absoluteLocation('https://a.example/p', 'http://', 'b.example'), 'https://a.example/p');
  assert.is(absoluteLocation('//a.example/p', 'https://', 'b.example:444'), 'https://b.example:444/a.example/p');
  assert.is(redirectBody('/a&b'), '<html><body>You are being <a href="/a&amp;b">redirected</a>.</body></html>');
  assert.is(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.throws(() => assertTarget(null), (e: unknown) => e instanceof ActionControllerError);
  assert.not.throws(() => assertTarget('/'));
  assert.not.throws(() => assertTarget(0), 'only null, undefined and the empty string are refused');
});

test.run();
