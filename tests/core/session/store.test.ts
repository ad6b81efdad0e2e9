/**
 * The stores behind sessions: the null store keeps nothing; the memory
 * store keeps data by a random id carried in a cookie, writes only what
 * changed, forgets what is emptied or reset, and evicts the least recently
 * used sessions beyond its limit.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NULL_SESSION_STORE, Request, Response, createMimeRegistry, memorySessionStore, type SessionStore } from '../../../core/index.ts';

const test = suite('session stores keep data between requests');

const mime = createMimeRegistry();
const requestWith = (cookie?: string) => new Request({ method: 'GET', url: '/', headers: cookie === undefined ? {} : { cookie } }, { mime });
const CHANGED = { changed: true, reset: false };
const UNCHANGED = { changed: false, reset: false };

/** Commits `data` as a new session and answers the cookie pair the client will send back. */
function start(store: SessionStore, data: Record<string, unknown>, cookie?: string): string {
  const res = new Response();
  store.commit(requestWith(cookie), res, data, CHANGED);
  return res.cookies[0].split(';')[0];
}

test('the null store loads empty sessions and writes nothing', () => {
  const res = new Response();
  assert.equal(NULL_SESSION_STORE.load(requestWith('_session_id=x')), {});
  NULL_SESSION_STORE.commit(requestWith(), res, { a: 1 }, CHANGED);
  assert.equal(res.cookies, []);
  assert.ok(Object.isFrozen(NULL_SESSION_STORE));
});

test('a changed session is stored under a random id, sent as an HttpOnly, SameSite=Lax cookie', () => {
  const store = memorySessionStore();
  const res = new Response();
  store.commit(requestWith(), res, { user: 1 }, CHANGED);
  assert.is(res.cookies.length, 1);
  assert.match(res.cookies[0], /^_session_id=[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
  const id = res.cookies[0].slice('_session_id='.length, '_session_id='.length + 32);
  assert.equal(store.sessions.get(id), { user: 1 });
  assert.is(store.session_id?.(requestWith(`_session_id=${id}`)), id);
});

test('a loaded session is a copy: changing it changes nothing until commit', () => {
  const store = memorySessionStore();
  const cookie = start(store, { list: [1] });
  const data = store.load(requestWith(cookie));
  (data.list as number[]).push(2);
  assert.equal(store.load(requestWith(cookie)), { list: [1] });
});

test('unknown, missing or malformed ids load an empty session', () => {
  const store = memorySessionStore();
  start(store, { user: 1 });
  for (const cookie of [undefined, '_session_id=' + 'a'.repeat(32), '_session_id=not-hex', '_session_id=' + 'A'.repeat(32), 'other=1']) {
    assert.equal(store.load(requestWith(cookie)), {}, String(cookie));
  }
  assert.is(store.session_id?.(requestWith('_session_id=short')), null);
});

test('an unchanged, unreset session writes no cookie', () => {
  const store = memorySessionStore();
  const cookie = start(store, { user: 1 });
  const res = new Response();
  store.commit(requestWith(cookie), res, { user: 1 }, UNCHANGED);
  assert.equal(res.cookies, []);
});

test('a changed session keeps its id', () => {
  const store = memorySessionStore();
  const cookie = start(store, { n: 1 });
  assert.is(start(store, { n: 2 }, cookie), cookie);
  assert.equal(store.load(requestWith(cookie)), { n: 2 });
  assert.is(store.sessions.size, 1);
});

test('a session emptied is forgotten, and no cookie is sent', () => {
  const store = memorySessionStore();
  const cookie = start(store, { n: 1 });
  const res = new Response();
  store.commit(requestWith(cookie), res, {}, CHANGED);
  assert.is(store.sessions.size, 0);
  assert.equal(res.cookies, []);
  store.commit(requestWith(), new Response(), {}, CHANGED);
  assert.is(store.sessions.size, 0, 'an empty new session is never stored');
});

test('a reset drops the old id; what is kept goes under a new one', () => {
  const store = memorySessionStore();
  const cookie = start(store, { user: 'old' });
  const res = new Response();
  store.commit(requestWith(cookie), res, { user: 'new' }, { changed: true, reset: true });
  const fresh = res.cookies[0].split(';')[0];
  assert.is.not(fresh, cookie);
  assert.equal(store.load(requestWith(cookie)), {});
  assert.equal(store.load(requestWith(fresh)), { user: 'new' });
});

test('beyond max_sessions the least recently used session is evicted (loading counts as use)', () => {
  const store = memorySessionStore({ maxSessions: 2 });
  const a = start(store, { s: 'a' });
  const b = start(store, { s: 'b' });
  store.load(requestWith(a));
  const c = start(store, { s: 'c' });
  assert.equal(store.load(requestWith(a)), { s: 'a' });
  assert.equal(store.load(requestWith(b)), {}, 'b was least recently used');
  assert.equal(store.load(requestWith(c)), { s: 'c' });
});

test('the cookie name and the Secure flag are options', () => {
  const store = memorySessionStore({ key: '_app_sid', secure: true });
  const res = new Response();
  store.commit(requestWith(), res, { a: 1 }, CHANGED);
  assert.match(res.cookies[0], /^_app_sid=[0-9a-f]{32}; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  const cookie = res.cookies[0].split(';')[0];
  assert.equal(store.load(requestWith(cookie)), { a: 1 });
  assert.equal(store.load(requestWith(cookie.replace('_app_sid', '_session_id'))), {});
});

test.run();
