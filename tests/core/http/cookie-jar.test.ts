/**
 * `this.cookies`: reads the request's cookies (and the action's own
 * writes), and queues `Set-Cookie` headers that cannot split a header.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, Controller, Response } from '../../../core/index.ts';
import { CookieJar } from '../../../core/http/cookie-jar.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('the cookie jar reads request cookies and queues response cookies');

function jar(requestCookies: Record<string, string> = {}) {
  const response = new Response();
  let reads = 0;
  const cookies = new CookieJar(() => {
    reads++;
    return requestCookies;
  }, response);
  return { cookies, response, reads: () => reads };
}

test('get reads request cookies, parsed once and only when asked', () => {
  const { cookies, reads } = jar({ theme: 'dark' });
  assert.is(reads(), 0);
  assert.is(cookies.get('theme'), 'dark');
  assert.is(cookies.get('none'), undefined);
  assert.is(cookies.get('constructor'), undefined, 'never an inherited property');
  assert.ok(cookies.has('theme'));
  assert.not.ok(cookies.has('none'));
  assert.is(reads(), 1);
});

test('set queues a Set-Cookie with path / and is read back at once', () => {
  const { cookies, response } = jar({ theme: 'light' });
  cookies.set('theme', 'dark mode');
  assert.equal(response.cookies, ['theme=dark%20mode; Path=/']);
  assert.is(cookies.get('theme'), 'dark mode');
});

test('options: path, domain, expires, max_age, secure, http_only (either spelling), same_site', () => {
  const { cookies, response } = jar();
  cookies.set('a', { value: '1', path: '/app', domain: 'example.com', expires: new Date('2030-01-01T00:00:00Z'), max_age: 60, secure: true, http_only: true, same_site: 'strict' });
  cookies.set('b', { value: '2', httponly: true });
  assert.equal(response.cookies, [
    'a=1; Max-Age=60; Domain=example.com; Path=/app; Expires=Tue, 01 Jan 2030 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict',
    'b=2; Path=/; HttpOnly',
  ]);
});

test('a second write of the same cookie replaces the first', () => {
  const { cookies, response } = jar();
  cookies.set('a', '1');
  cookies.set('ab', 'x');
  cookies.set('a', '2');
  assert.equal(response.cookies, ['ab=x; Path=/', 'a=2; Path=/']);
});

test('delete expires the cookie in the past, and it reads as gone', () => {
  const { cookies, response } = jar({ theme: 'dark', lang: 'en' });
  cookies.delete('theme', { path: '/app' });
  assert.equal(response.cookies, ['theme=; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
  assert.is(cookies.get('theme'), undefined);
  assert.not.ok(cookies.has('theme'));
  cookies.set('extra', 'x');
  assert.equal(cookies.toObject(), { lang: 'en', extra: 'x' });
});

test('names that could split a header or address prototypes, and non-string values, are refused', () => {
  const { cookies, response } = jar();
  for (const name of ['a b', 'a;b', 'a\r\nSet-Cookie: x', '__proto__', '']) {
    assert.throws(() => cookies.set(name, 'v'), (e: unknown) => e instanceof ArgumentError, JSON.stringify(name));
  }
  assert.throws(() => cookies.set('a', { value: 1 as unknown as string }), (e: unknown) => e instanceof ArgumentError && /needs a string value/.test((e as Error).message));
  cookies.set('ok', 'a;b\r\nc');
  assert.equal(response.cookies, ['ok=a%3Bb%0D%0Ac; Path=/'], 'values are encoded, never raw');
});

test('through an action: cookies set and deleted become Set-Cookie headers', async () => {
  class PrefsController extends Controller {
    update(): void {
      this.cookies.set('theme', String(this.params.theme));
      this.cookies.delete('old');
      this.render({ text: `${this.cookies.get('theme')} ${this.cookies.get('kept')}` });
    }
  }
  const res = await call(appWith({ prefs: PrefsController }), 'GET /prefs/update?theme=dark', { headers: { cookie: 'kept=yes; old=1' } });
  assert.is(res.body, 'dark yes');
  assert.equal(res.headers['Set-Cookie'], ['theme=dark; Path=/', 'old=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
});

test.run();
