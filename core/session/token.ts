/**
 * The session's authenticity token: the value a form carries back to prove
 * it came from this site. With a `secret`, the token is an HMAC of the
 * session id (for stores that have ids); otherwise a random token kept in
 * the session. A first visit has no session id yet, so its form gets the
 * random token, which stays valid once the session has an id. Tokens are
 * compared in constant time and must be strings: an array or hash in the
 * parameter never matches.
 *
 * Forgery protection (the controller's `protect_from_forgery`, the request
 * machine's check for unrouted requests) and the caches (which must never
 * hand one visitor's token to another) all read the token here.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { secureCompare } from './cookie-store.ts';
import type { SessionHandle } from './session.ts';

/** Where the random token lives in the session. */
export const TOKEN_KEY = '_csrf_token';
export const DEFAULT_TOKEN_PARAM = 'authenticity_token';

/** HMAC(secret, session id) when both exist, else null. */
function digestToken(session: SessionHandle, secret: string | undefined): string | null {
  const id = secret ? session.id : null;
  return id ? createHmac('sha1', secret!).update(id).digest('hex') : null;
}

/** The token for this session, made (and kept in the session) on first need. */
export function sessionToken(session: SessionHandle, secret: string | undefined): string {
  const digest = digestToken(session, secret);
  if (digest !== null) return digest;
  const data = session.data;
  let token = data[TOKEN_KEY];
  if (typeof token !== 'string' || token === '') {
    token = randomBytes(32).toString('base64');
    data[TOKEN_KEY] = token;
  }
  return token as string;
}

/**
 * The token this session already holds (none is made): what a cache must never hand to another
 * visitor. Null when the session was not touched or has no token.
 */
export function existingToken(session: SessionHandle, secret: string | undefined): string | null {
  const digest = digestToken(session, secret);
  if (digest !== null) return digest;
  if (!session.loaded) return null;
  const token = session.data[TOKEN_KEY];
  return typeof token === 'string' && token !== '' ? token : null;
}

/** The token a request gives: the form parameter `param`, else the X-CSRF-Token header; null unless a non-empty string. */
export function givenToken(params: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, string | undefined>>, param = DEFAULT_TOKEN_PARAM): string | null {
  const fromParams = params[param];
  const given = fromParams !== undefined ? fromParams : headers['x-csrf-token'];
  return typeof given === 'string' && given !== '' ? given : null;
}

/** Whether `given` is the random token kept in this session's data (compared in constant time). */
export function matchesStoredToken(given: string, session: Readonly<Record<string, unknown>>): boolean {
  const stored = session[TOKEN_KEY];
  return typeof stored === 'string' && stored !== '' && secureCompare(given, stored);
}

/** Whether `given` (from `givenToken`) is this session's token, digested or stored. */
export function isSessionToken(session: SessionHandle, given: string | null, secret: string | undefined): boolean {
  if (given === null) return false;
  const digest = digestToken(session, secret);
  if (digest !== null && secureCompare(given, digest)) return true;
  return matchesStoredToken(given, session.data);
}
