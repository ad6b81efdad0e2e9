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

/**
 * The tokens a request gives, in the form parameter `param` and the X-CSRF-Token header: each one that is a
 * non-empty string. Either may prove the request (as the header does in later Rails): a script that sends the
 * page's token in the header while posting a form whose field is stale or empty is no forgery.
 */
export function givenTokens(params: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, string | undefined>>, param = DEFAULT_TOKEN_PARAM): string[] {
  const tokens: string[] = [];
  for (const given of [params[param], headers['x-csrf-token']]) if (typeof given === 'string' && given !== '') tokens.push(given);
  return tokens;
}

/** Whether `given` is the random token kept in this session's data (compared in constant time). */
export function matchesStoredToken(given: string, session: Readonly<Record<string, unknown>>): boolean {
  const stored = session[TOKEN_KEY];
  return typeof stored === 'string' && stored !== '' && secureCompare(given, stored);
}

/** Whether any of `given` (from `givenTokens`) is this session's token, digested or stored. */
export function isSessionToken(session: SessionHandle, given: readonly string[], secret: string | undefined): boolean {
  if (given.length === 0) return false;
  const digest = digestToken(session, secret);
  if (digest !== null && given.some((token) => secureCompare(token, digest))) return true;
  return given.some((token) => matchesStoredToken(token, session.data));
}
