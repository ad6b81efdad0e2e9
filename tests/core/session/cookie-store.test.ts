/**
 * The cookie session store: the session travels as `base64(JSON)--HMAC`,
 * readable by the client but never changeable; a cookie that does not
 * verify is an empty session (and is removed); cookies over 4 KB are
 * refused; and the secret must be long enough to mean something.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import {
  ArgumentError, COOKIE_LIMIT, Controller, CookieOverflow, Request, Response, cookieSessionStore, createMimeRegistry, secureCompare,
} from '../../../core/index.ts';
import { appWith, call } from '../pipeline/support.ts';

const test = suite('the cookie store signs the whole session into a cookie');

const SECRET = 'a-secret-of-at-least-thirty-characters!';
const mime = createMimeRegistry();
const requestWith = (cookie?: string) => new Request({ method: 'GET', url: '/', headers: cookie === undefined ? {} : { cookie } }, { mime });
const CHANGED = { changed: true, reset: false };
const UNCHANGED = { changed: false, reset: false };

function committed(store: ReturnType<typeof cookieSessionStore>, data: Record<string, unknown>, cookie?: string, state = CHANGED): string[] {
  const request = requestWith(cookie);
  store.load(request);
  const res = new Response();
  store.commit(request, res, data, state);
  return res.cookies;
}

test('a key and a secret of at least 30 characters are required', () => {
  const refused = (options: object, pattern: RegExp) =>
    assert.throws(() => cookieSessionStore(options as Parameters<typeof cookieSessionStore>[0]), (e: unknown) => e instanceof ArgumentError && pattern.test((e as Error).message));
  refused({ key: '', secret: SECRET }, /needs a key/);
  refused({ key: '_s' }, /secret is required/);
  refused({ key: '_s', secret: '   ' }, /secret is required/);
  refused({ key: '_s', secret: 'short' }, /at least 30 characters; this one has 5/);
  assert.not.throws(() => cookieSessionStore({ key: '_s', secret: SECRET }));
});

test('encode is base64 JSON and its hex HMAC (SHA1 by default); decode reverses it', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  const value = store.encode({ user: 1 }, SECRET);
  const [payload, mac] = value.split('--');
  assert.equal(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')), { user: 1 });
  assert.is(mac, createHmac('sha1', SECRET).update(payload).digest('hex'));
  assert.is(store.generate_digest(payload, SECRET), mac);
  assert.equal(store.decode(value, SECRET), { user: 1 });
  const sha256 = cookieSessionStore({ key: '_s', secret: SECRET, digest: 'SHA256' });
  assert.is(sha256.encode({}, SECRET).split('--')[1].length, 64);
});

test('a cookie that does not verify decodes to null: tampered, re-signed elsewhere, truncated or malformed', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  const value = store.encode({ admin: false }, SECRET);
  const [payload, mac] = value.split('--');
  const forged = Buffer.from(JSON.stringify({ admin: true })).toString('base64');
  for (const bad of [`${forged}--${mac}`, store.encode({ admin: true }, `${SECRET}-other`), value.slice(0, -2), payload, `--${mac}`, `${payload}--NOTHEX`, `${payload}--`]) {
    assert.is(store.decode(bad, SECRET), null, bad);
  }
});

test('only a JSON object is a session; a __proto__ key stays an ignored plain key', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  const signed = (text: string) => {
    const payload = Buffer.from(text).toString('base64');
    return `${payload}--${store.generate_digest(payload, SECRET)}`;
  };
  for (const text of ['[1,2]', 'null', '"s"', '12', 'not json']) assert.is(store.decode(signed(text), SECRET), null, text);
  const data = store.decode(signed('{"__proto__":{"admin":true},"user":1}'), SECRET)!;
  assert.equal(Object.keys(data), ['user']);
  assert.is((data as { admin?: unknown }).admin, undefined);
  assert.is(({} as { admin?: unknown }).admin, undefined);
});

test('a cookie escaped once more on its way still verifies', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  const value = store.encode({ user: 'x'.repeat(5) }, SECRET);
  const [payload, mac] = value.split('--');
  assert.equal(store.decode(`${encodeURIComponent(payload).replace(/=/g, '%3D')}--${mac}`, SECRET), { user: 'xxxxx' });
});

test('load: no cookie or a bad one is an empty session; a good one is its data', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  assert.equal(store.load(requestWith()), {});
  assert.equal(store.load(requestWith('_s=')), {});
  assert.equal(store.load(requestWith('_s=garbage')), {});
  assert.equal(store.load(requestWith(`_s=${encodeURIComponent(store.encode({ a: 1 }, SECRET))}`)), { a: 1 });
});

test('commit writes a changed session with its attributes; an unchanged valid one writes nothing', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  const [cookie] = committed(store, { a: 1 });
  assert.match(cookie, /^_s=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  const pair = cookie.split(';')[0];
  assert.equal(store.load(requestWith(pair)), { a: 1 });
  assert.equal(committed(store, { a: 1 }, pair, UNCHANGED), []);
});

test('a bad cookie is replaced even when the data did not change, and removed when there is no data', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  const [replaced] = committed(store, { a: 1 }, '_s=tampered--00', UNCHANGED);
  assert.match(replaced, /^_s=[^;]+--[0-9a-f]+;/);
  const [removed] = committed(store, {}, '_s=tampered--00', UNCHANGED);
  assert.match(removed, /^_s=; Path=\/; Expires=/);
  assert.ok(new Date(/Expires=([^;]+)/.exec(removed)![1]).getTime() < Date.now());
});

test('a session emptied or reset removes the cookie the client holds; no cookie, nothing to remove', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  const pair = committed(store, { a: 1 })[0].split(';')[0];
  assert.match(committed(store, {}, pair)[0], /^_s=; /);
  assert.match(committed(store, {}, pair, { changed: false, reset: true })[0], /^_s=; /);
  assert.equal(committed(store, {}, pair, UNCHANGED), []);
  assert.equal(committed(store, {}), []);
});

test('cookie attributes: httponly, secure, same_site, path, domain and expire_after', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET, httponly: false, secure: true, same_site: 'strict', path: '/app', domain: 'example.com', expire_after: 3600 });
  assert.match(committed(store, { a: 1 })[0], /^_s=[^;]+; Max-Age=3600; Domain=example.com; Path=\/app; Secure; SameSite=Strict$/);
  const noSameSite = cookieSessionStore({ key: '_s', secret: SECRET, same_site: false });
  assert.not.match(committed(noSameSite, { a: 1 })[0], 'SameSite');
});

test('a session over 4 KB is refused with CookieOverflow rather than truncated', () => {
  const store = cookieSessionStore({ key: '_s', secret: SECRET });
  assert.throws(() => committed(store, { blob: 'x'.repeat(COOKIE_LIMIT) }), (e: unknown) => e instanceof CookieOverflow && e.status === 500 && (e as CookieOverflow).size > COOKIE_LIMIT);
});

test('a secret may be a function of the request, checked when used', () => {
  const store = cookieSessionStore({ key: '_s', secret: () => SECRET });
  const pair = committed(store, { a: 1 })[0].split(';')[0];
  assert.equal(store.load(requestWith(pair)), { a: 1 });
  const weak = cookieSessionStore({ key: '_s', secret: () => 'weak' });
  assert.throws(() => weak.load(requestWith('_s=x--00')), (e: unknown) => e instanceof ArgumentError);
});

test('secureCompare compares equal strings as equal, anything else as different', () => {
  assert.ok(secureCompare('abc', 'abc'));
  assert.not.ok(secureCompare('abc', 'abd'));
  assert.not.ok(secureCompare('abc', 'abcd'));
  assert.ok(secureCompare('', ''));
});

test('across requests through an app: the session round-trips in its cookie', async () => {
  class CounterController extends Controller {
    count(): void {
      this.session.n = Number(this.session.n ?? 0) + 1;
      this.render({ text: String(this.session.n) });
    }
  }
  const app = appWith({ counter: CounterController }, { session_store: cookieSessionStore({ key: '_app_session', secret: SECRET }) });
  const first = await call(app, 'GET /counter/count');
  const cookie = first.header('set-cookie')!.split(';')[0];
  assert.match(cookie, /^_app_session=/);
  assert.is((await call(app, 'GET /counter/count', { headers: { cookie } })).body, '2');
  assert.is((await call(app, 'GET /counter/count', { headers: { cookie: '_app_session=forged--abc' } })).body, '1');
});

test.run();
