/**
 * Which session store an app gets. The default is the cookie store (spec
 * section 5), signed with `session.secret`, else `SIGNALBOX_SECRET` from the
 * environment. Without either, development keeps a secret of its own in the
 * app's `tmp/development_secret` (made on first start, git-ignored, as
 * Rails keeps `tmp/development_secret.txt`), so sessions survive a restart;
 * test runs get a random secret for the life of the process; production
 * refuses to start, since a made-up secret would log every user out on
 * each deploy and differ between processes.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { ArgumentError } from '../errors.ts';
import { type Options } from '../options.ts';
import { MIN_SECRET_LENGTH, cookieSessionStore, type CookieStoreOptions } from './cookie-store.ts';
import { NULL_SESSION_STORE, type SessionStore } from './store.ts';

/** The cookie store's options, each optional: `key` defaults to `_signalbox_session`. */
export type SessionOptions = Options<CookieStoreOptions>;

export const DEFAULT_SESSION_KEY = '_signalbox_session';

export interface SessionChoice {
  readonly session?: SessionOptions | false;
  readonly session_store?: SessionStore | false;
  readonly environment: 'development' | 'test' | 'production';
  readonly log: Logger;
  /** Where `SIGNALBOX_SECRET` is read from (the process environment by default). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The app's directory, whose `tmp/development_secret` development keeps; without it development's secret lasts one process. */
  readonly root?: string;
}

/** Where, under an app's directory, development keeps its session secret. */
export const DEVELOPMENT_SECRET_FILE = join('tmp', 'development_secret');

/** The store an app's options ask for. */
export function chooseSessionStore(choice: SessionChoice): SessionStore {
  if (choice.session_store === false || choice.session === false) return NULL_SESSION_STORE;
  if (choice.session_store !== undefined) {
    if (choice.session !== undefined) throw new ArgumentError('Give either session (cookie store options) or session_store, not both');
    return choice.session_store;
  }
  const options = choice.session ?? {};
  const secret = options.secret ?? nonEmpty((choice.env ?? process.env).SIGNALBOX_SECRET);
  if (secret !== undefined) return cookieSessionStore({ ...options, key: options.key ?? DEFAULT_SESSION_KEY, secret });
  if (choice.environment === 'production') {
    throw new ArgumentError('Production needs a session secret (at least 30 characters): set SIGNALBOX_SECRET, pass session: { secret }, or turn sessions off with session: false');
  }
  const fallback = choice.environment === 'development' ? developmentSecret(choice.root, choice.log) : newSecret();
  return cookieSessionStore({ ...options, key: options.key ?? DEFAULT_SESSION_KEY, secret: fallback });
}

function newSecret(): string {
  return randomBytes(64).toString('hex');
}

/** The secret in `<root>/tmp/development_secret`, written there on first use; a random one when it cannot be kept. */
function developmentSecret(root: string | undefined, log: Logger): string {
  if (root === undefined) {
    log.warn('No session secret configured: sessions are signed with a random secret and end when the process restarts');
    return newSecret();
  }
  const file = join(root, DEVELOPMENT_SECRET_FILE);
  const kept = readSecret(file);
  if (typeof kept === 'object') return kept.secret;
  if (kept === 'unusable') {
    log.warn({ file }, `${file} holds no usable secret (${MIN_SECRET_LENGTH}+ characters): sessions end when the process restarts until it is fixed or deleted`);
    return newSecret();
  }
  const secret = newSecret();
  try {
    mkdirSync(dirname(file), { recursive: true });
    // `wx`: never overwrite; when another process of the app wrote one first, use that one.
    writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    log.info({ file }, 'Development session secret written (keep it out of version control)');
    return secret;
  } catch (error) {
    const raced = (error as NodeJS.ErrnoException).code === 'EEXIST' ? readSecret(file) : null;
    if (raced !== null && typeof raced === 'object') return raced.secret;
    log.warn({ file, err: error }, 'Could not keep a development session secret: sessions end when the process restarts');
    return secret;
  }
}

/** The secret in `file`, 'absent' when there is no file, 'unusable' when it is too short or unreadable. */
function readSecret(file: string): { secret: string } | 'absent' | 'unusable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'unusable';
  }
  const secret = text.trim();
  return secret.length >= MIN_SECRET_LENGTH ? { secret } : 'unusable';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
