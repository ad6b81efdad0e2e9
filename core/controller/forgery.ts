/**
 * Request forgery protection: the token a form carries back, and whether a
 * request carries the right one. With a `secret`, the token is an HMAC of
 * the session id (for stores that have ids); otherwise a random token kept
 * in the session. A first visit has no session id yet, so its form gets the
 * random token, which stays valid once the session has an id. Tokens are
 * compared in constant time and must be strings: an array or hash in the
 * parameter never matches.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { secure_compare } from '../session/cookie-store.ts';
import type { Controller } from './base.ts';
import type { ForgeryOptions } from './declarations.ts';

/** Where the random token lives in the session. */
export const TOKEN_KEY = '_csrf_token';
export const DEFAULT_TOKEN_PARAM = 'authenticity_token';

/** HMAC(secret, session id) when both exist, else null. */
function digestToken(c: Controller, options: ForgeryOptions | null): string | null {
  const id = options?.secret ? c._wiring.session.id : null;
  return id ? createHmac('sha1', options!.secret!).update(id).digest('hex') : null;
}

/** The token for this request's session. */
export function authenticityToken(c: Controller, options: ForgeryOptions | null): string {
  const digest = digestToken(c, options);
  if (digest !== null) return digest;
  const session = c.session;
  let token = session[TOKEN_KEY];
  if (typeof token !== 'string' || token === '') {
    token = randomBytes(32).toString('base64');
    session[TOKEN_KEY] = token;
  }
  return token as string;
}

/**
 * The token this request's session already holds (none is made): what a cache must never hand
 * to another visitor. Null when the session was not touched or has no token.
 */
export function existingToken(c: Controller, options: ForgeryOptions | null): string | null {
  const digest = digestToken(c, options);
  if (digest !== null) return digest;
  const session = c._wiring.session;
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
  return typeof stored === 'string' && stored !== '' && secure_compare(given, stored);
}

/** Whether the request carries the session's token, in the form parameter or the X-CSRF-Token header. */
export function carriesValidToken(c: Controller, options: ForgeryOptions): boolean {
  const given = givenToken(c.params, c.request.headers, options.param);
  if (given === null) return false;
  const digest = digestToken(c, options);
  if (digest !== null && secure_compare(given, digest)) return true;
  return matchesStoredToken(given, c.session);
}
