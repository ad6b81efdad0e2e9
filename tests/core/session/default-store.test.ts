/**
 * Which session store an app gets: the signed cookie store by default (with
 * the configured secret, `SIGNALBOX_SECRET`, or outside production a random
 * one), another store when given, none when turned off.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, NULL_SESSION_STORE, Request, Response, createMimeRegistry, memorySessionStore, type CookieStore } from '../../../core/index.ts';
import { DEFAULT_SESSION_KEY, DEVELOPMENT_SECRET_FILE, chooseSessionStore } from '../../../core/session/default-store.ts';

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

test('production refuses to start without a secret, naming SIGNALBOX_SECRET; test is silent with a random one', () => {
  assert.throws(() => chooseSessionStore({ environment: 'production', log: quiet, env: {} }), (e: unknown) => e instanceof ArgumentError && /Production needs a session secret.*SIGNALBOX_SECRET/.test((e as Error).message));
  const { log, lines } = recording();
  const store = chooseSessionStore({ environment: 'test', log, env: {} }) as CookieStore;
  assert.match(cookieOf(store), /^_signalbox_session=/);
  assert.equal(lines, []);
});

/** A logger that keeps each line's level and message. */
function recording(): { log: pino.Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, new Writable({ write(chunk, _e, done) { const { level, msg } = JSON.parse(String(chunk)); lines.push({ level, msg }); done(); } }));
  return { log, lines };
}

/** The secret a cookie store signs with: the one under which its cookie for `{ a: 1 }` decodes. */
function signsWith(store: CookieStore, secret: string): boolean {
  const value = decodeURIComponent(cookieOf(store).split(';')[0].split('=')[1]);
  try {
    return JSON.stringify(store.decode(value, secret)) === '{"a":1}';
  } catch {
    return false;
  }
}

const development = suite('development keeps its session secret in tmp/development_secret');
let root = '';
development.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'signalbox-secret-'));
});
development.after.each(() => rmSync(root, { recursive: true, force: true }));

development('the first start writes a secret (owner-only), later starts sign with the same one', () => {
  const { log, lines } = recording();
  const first = chooseSessionStore({ environment: 'development', log, env: {}, root }) as CookieStore;
  const file = join(root, DEVELOPMENT_SECRET_FILE);
  const secret = readFileSync(file, 'utf8').trim();
  assert.ok(secret.length >= 64, 'a long random secret');
  assert.is(statSync(file).mode & 0o077, 0, 'readable by its owner only');
  assert.ok(signsWith(first, secret));
  assert.equal(lines.map((l) => l.msg), ['Development session secret written (keep it out of version control)']);
  const again = chooseSessionStore({ environment: 'development', log, env: {}, root }) as CookieStore;
  assert.ok(signsWith(again, secret), 'a restart signs with the kept secret, so sessions survive it');
  assert.is(lines.length, 1, 'nothing to say the second time');
});

development('SIGNALBOX_SECRET or a configured secret still comes first, and then no file is written', () => {
  const store = chooseSessionStore({ environment: 'development', log: quiet, env: { SIGNALBOX_SECRET: SECRET }, root }) as CookieStore;
  assert.ok(signsWith(store, SECRET));
  assert.throws(() => readFileSync(join(root, DEVELOPMENT_SECRET_FILE)), /ENOENT/);
});

development('a file too short to be a secret is left alone, with a warning, and a random secret used', () => {
  mkdirSync(join(root, 'tmp'));
  writeFileSync(join(root, DEVELOPMENT_SECRET_FILE), 'short\n');
  const { log, lines } = recording();
  const store = chooseSessionStore({ environment: 'development', log, env: {}, root }) as CookieStore;
  assert.not.ok(signsWith(store, 'short'));
  assert.is(readFileSync(join(root, DEVELOPMENT_SECRET_FILE), 'utf8'), 'short\n');
  assert.is(lines.length, 1);
  assert.is(lines[0].level, 40);
  assert.match(lines[0].msg, 'holds no usable secret');
});

development('where the file cannot be written, development warns and uses a secret for this process', () => {
  writeFileSync(join(root, 'tmp'), 'a file where the directory would go\n');
  const { log, lines } = recording();
  const store = chooseSessionStore({ environment: 'development', log, env: {}, root }) as CookieStore;
  assert.match(cookieOf(store), /^_signalbox_session=/);
  assert.is(lines.length, 1);
  assert.match(lines[0].msg, 'Could not keep a development session secret');
});

development('without an app directory, development warns that sessions end at restart', () => {
  const { log, lines } = recording();
  chooseSessionStore({ environment: 'development', log, env: {} });
  assert.match(lines[0].msg, 'random secret');
});

development.run();

test('a too-short secret is refused as the cookie store refuses it', () => {
  assert.throws(() => chooseSessionStore({ session: { secret: 'short' }, environment: 'test', log: quiet }), (e: unknown) => e instanceof ArgumentError && /at least 30/.test((e as Error).message));
});

test.run();
