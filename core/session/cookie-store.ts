/**
 * The default session store: the session lives in a cookie holding its data
 * (JSON, base64) and an HMAC of that data, `data--digest`. The data can be
 * read by the client but not changed: a cookie whose digest does not verify
 * (tampered, truncated, signed with another secret) is dropped and the
 * request gets an empty session. JSON is the only format ever decoded, so a
 * cookie can never make the server build objects of its choosing.
 *
 * @example createApp({ routes, controllers, session_store: cookieSessionStore({ key: '_blog_session', secret: process.env.SECRET! }) })
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { serialize } from 'cookie';
import { ArgumentError, CookieOverflow } from '../errors.ts';
import type { Request } from '../http/request.ts';
import { sessionFromJson, type SessionCookieOptions, type SessionData, type SyncSessionStore } from './store.ts';

/** Browsers keep cookies up to 4 KB; a longer session is refused rather than truncated. */
export const COOKIE_LIMIT = 4096;
export const MIN_SECRET_LENGTH = 30;

export type Digest = 'SHA1' | 'SHA256' | 'SHA384' | 'SHA512' | 'MD5';

export interface CookieStoreOptions extends SessionCookieOptions {
  /** The cookie's name (Rails' `session_key`). */
  readonly key: string;
  /** At least 30 characters; or a function giving the secret for a request. */
  readonly secret: string | ((request: Request) => string);
  readonly digest?: Digest | undefined;
  /** Seconds the cookie lives; a browser-session cookie when absent. */
  readonly expire_after?: number | undefined;
  /**
   * Replaces the secret check (Rails' `ensure_secret_secure`). Only for reproducing
   * cookies signed with a known short secret, e.g. fixtures; never in production.
   */
  readonly ensure_secret_secure?: ((secret: string) => void) | undefined;
}

export interface CookieStore extends SyncSessionStore {
  readonly key: string;
  /** The hex HMAC of `data`. */
  generate_digest(data: string, secret: string): string;
  /** The cookie value for `data`: `base64(JSON)--digest`. */
  encode(data: SessionData, secret: string): string;
  /** The data a cookie value carries, or null when its digest does not verify or its data is not a JSON object. */
  decode(value: string, secret: string): SessionData | null;
}

function ensureSecret(secret: unknown, check?: (secret: string) => void): string {
  if (typeof secret !== 'string' || secret.trim() === '') {
    throw new ArgumentError('A secret is required to sign session cookies: give cookieSessionStore({ secret }) at least 30 random characters');
  }
  if (check) check(secret);
  else if (secret.length < MIN_SECRET_LENGTH) {
    throw new ArgumentError(`The session secret must be at least ${MIN_SECRET_LENGTH} characters; this one has ${secret.length}`);
  }
  return secret;
}

/** Compares two strings in time that depends only on their length. */
export function secureCompare(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    // Still spend the comparison, so length alone is all a timing attack can learn.
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** Ruby's CGI.unescape (`+` is a space), tolerant of bad escapes. */
function cgiUnescape(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function cookieSessionStore(options: CookieStoreOptions): CookieStore {
  if (typeof options.key !== 'string' || options.key.trim() === '') {
    throw new ArgumentError('A session cookie needs a key (its name): cookieSessionStore({ key: "_app_session", ... })');
  }
  const check = options.ensure_secret_secure;
  if (typeof options.secret !== 'function') ensureSecret(options.secret, check);
  const digest = options.digest ?? 'SHA1';
  const key = options.key;
  const secretFor = (request: Request) => (typeof options.secret === 'function' ? ensureSecret(options.secret(request), check) : options.secret);
  // What each request's cookie turned out to be, so commit can remove a bad one.
  const seen = new WeakMap<Request, { present: boolean; invalid: boolean }>();

  const generate_digest = (data: string, secret: string) => createHmac(digest.toLowerCase(), secret).update(data).digest('hex');
  const encode = (data: SessionData, secret: string) => {
    const payload = Buffer.from(JSON.stringify(data), 'utf8').toString('base64');
    return `${payload}--${generate_digest(payload, secret)}`;
  };
  const verified = (payload: string, mac: string, secret: string) => secureCompare(generate_digest(payload, secret), mac);
  const decode = (value: string, secret: string): SessionData | null => {
    const cut = value.indexOf('--');
    if (cut <= 0) return null;
    let payload = value.slice(0, cut);
    const mac = value.slice(cut + 2);
    if (!/^[0-9a-f]+$/.test(mac)) return null;
    if (!verified(payload, mac, secret)) {
      // A cookie escaped twice on the way (as Rails also accepts) verifies once unescaped.
      payload = cgiUnescape(payload);
      if (!verified(payload, mac, secret)) return null;
    }
    return sessionFromJson(Buffer.from(payload, 'base64').toString('utf8'));
  };

  const attributes = () => ({
    path: options.path ?? '/',
    httpOnly: options.httponly ?? true,
    secure: options.secure ?? false,
    ...(options.same_site === false ? {} : { sameSite: options.same_site ?? 'lax' }),
    ...(options.domain ? { domain: options.domain } : {}),
  });
  const deletion = () => serialize(key, '', { ...attributes(), expires: new Date(Date.now() - 365 * 24 * 3600 * 1000) });

  return {
    key,
    generate_digest,
    encode,
    decode,
    load(request) {
      const value = request.cookies[key];
      if (value === undefined || value === '') {
        seen.set(request, { present: false, invalid: false });
        return {};
      }
      const data = decode(value, secretFor(request));
      seen.set(request, { present: true, invalid: data === null });
      return data ?? {};
    },
    commit(request, response, data, state) {
      const before = seen.get(request) ?? { present: request.cookies[key] !== undefined, invalid: false };
      const empty = Object.keys(data).length === 0;
      if (empty) {
        // Nothing to keep: remove a cookie the client holds if it was reset or could not be trusted.
        if (before.present && (state.reset || state.changed || before.invalid)) response.cookies.push(deletion());
        return;
      }
      if (!state.changed && !state.reset && !before.invalid) return;
      const value = encode(data, secretFor(request));
      const cookie = serialize(key, value, { ...attributes(), ...(options.expire_after ? { maxAge: options.expire_after } : {}) });
      const size = cookie.split(';', 1)[0].length - key.length - 1;
      if (size > COOKIE_LIMIT) throw new CookieOverflow(size, COOKIE_LIMIT);
      response.cookies.push(cookie);
    },
  };
}
