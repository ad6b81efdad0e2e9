/**
 * Which session store an app gets. The default is the cookie store (spec
 * section 5), signed with `session.secret`, else `SIGNALBOX_SECRET` from the
 * environment. Development and test runs without either get a random secret
 * for the life of the process (sessions end when it restarts); production
 * refuses to start without one, since a made-up secret would log every user
 * out on each deploy and differ between processes.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ArgumentError } from '../errors.ts';
import { cookieSessionStore, type CookieStoreOptions } from './cookie-store.ts';
import { NULL_SESSION_STORE, type SessionStore } from './store.ts';

/** The cookie store's options, each optional: `key` defaults to `_signalbox_session`. */
export type SessionOptions = Partial<CookieStoreOptions>;

export const DEFAULT_SESSION_KEY = '_signalbox_session';

export interface SessionChoice {
  readonly session?: SessionOptions | false;
  readonly session_store?: SessionStore | false;
  readonly environment: 'development' | 'test' | 'production';
  readonly log: Logger;
  /** Where `SIGNALBOX_SECRET` is read from (the process environment by default). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

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
  if (choice.environment === 'development') choice.log.warn('No session secret configured: sessions are signed with a random secret and end when the process restarts');
  return cookieSessionStore({ ...options, key: options.key ?? DEFAULT_SESSION_KEY, secret: randomBytes(32).toString('hex') });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
