/**
 * Which session store an app gets: the signed cookie store by default (with
 * the configured secret, `SIGNALBOX_SECRET`, or outside production a random
 * one), another store when given, none when turned off.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, NULL_SESSION_STORE, Request, Response, createMimeRegistry, memorySessionStore, type CookieStore } from '../../../core/index.ts';
import { DEFAULT_SESSION_KEY, chooseSessionStore } from '../../../core/session/default-store.ts';

const test = suite('chooseSessionStore picks the store an app options ask for');

const SECRET = 'x'.repeat(40);
const quiet = pino({ level: 'silent' });
const mime = createMimeRegistry();

/** The cookie a store writes for `{ a: 1 }`. */
function cookieOf(store: ReturnType<typeof chooseSessionStore>): string {
  const res = new Response();
  store.commit(new Request({ method: 'GET', url: '/', headers: {} }, { mime }), res, { a: 1 }, { changed: true, reset: false });
  return res.cookies[0];
}

test('false for either option means no sessions', () => {
  assert.is(chooseSessionStore({ session: false, environment: 'production', log: quiet }), NULL_SESSION_STORE);
  assert.is(chooseSessionStore({ session_store: false, environment: 'production', log: quiet }), NULL_SESSION_STORE);
});

test('a given store is used as it is; giving cookie options as well is refused', () => {
  const store = memorySessionStore();
  assert.is(chooseSessionStore({ session_store: store, environment: 'test', log: quiet }), store);
  assert.throws(() => chooseSessionStore({ session_store: store, session: { key: 'k' }, environment: 'test', log: quiet }), (e: unknown) => e instanceof ArgumentError && /either session/.test((e as Error).message));
});

test('the default is a cookie store named _signalbox_session, signed with the given secret', () => {
  const store = chooseSessionStore({ session: { secret: SECRET }, environment: 'production', log: quiet, env: {} }) as CookieStore;
  assert.is(store.key, DEFAULT_SESSION_KEY);
  assert.is(DEFAULT_SESSION_KEY, '_signalbox_session');
  const value = decodeURIComponent(cookieOf(store).split(';')[0].split('=')[1]);
  assert.equal(store.decode(value, SECRET), { a: 1 }, 'signed with that secret');
  const named = chooseSessionStore({ session: { key: '_blog', secret: SECRET }, environment: 'test', log: quiet }) as CookieStore;
  assert.is(named.key, '_blog');
});

test('without a secret option, SIGNALBOX_SECRET is the secret (an empty one does not count)', () => {
  const store = chooseSessionStore({ environment: 'production', log: quiet, env: { SIGNALBOX_SECRET: SECRET } }) as CookieStore;
  const value = decodeURIComponent(cookieOf(store).split(';')[0].split('=')[1]);
  assert.equal(store.decode(value, SECRET), { a: 1 });
  assert.throws(() => chooseSessionStore({ environment: 'production', log: quiet, env: { SIGNALBOX_SECRET: '' } }), (e: unknown) => e instanceof ArgumentError);
});

test('production refuses to start without a secret; development warns and uses a random one; test is silent', () => {
  assert.throws(() => chooseSessionStore({ environment: 'production', log: quiet, env: {} }), (e: unknown) => e instanceof ArgumentError && /Production needs a session secret/.test((e as Error).message));
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, new Writable({ write(chunk, _e, done) { warnings.push(JSON.parse(String(chunk)).msg); done(); } }));
  const dev = chooseSessionStore({ environment: 'development', log, env: {} }) as CookieStore;
  assert.is(dev.key, DEFAULT_SESSION_KEY);
  assert.match(cookieOf(dev), /^_signalbox_session=/);
  chooseSessionStore({ environment: 'test', log, env: {} });
  assert.is(warnings.length, 1);
  assert.match(warnings[0], 'random secret');
});

test('a too-short secret is refused as the cookie store refuses it', () => {
  assert.throws(() => chooseSessionStore({ session: { secret: 'short' }, environment: 'test', log: quiet }), (e: unknown) => e instanceof ArgumentError && /at least 30/.test((e as Error).message));
});

test.run();
