/**
 * HTTP Basic authentication. Credentials come from the `Authorization`
 * header, or from the variants proxies pass them in (`X-HTTP-Authorization`,
 * `X_HTTP_AUTHORIZATION`, `Redirect-X-Http-Authorization`), the first
 * non-empty one winning. A malformed header is simply no credentials.
 */

const SOURCES = ['authorization', 'x-http-authorization', 'x_http_authorization', 'redirect-x-http-authorization', 'redirect_x_http_authorization'];

/** The raw authorization value a request carries, or null. */
export function authorizationHeader(headers: Readonly<Record<string, string | undefined>>): string | null {
  for (const name of SOURCES) {
    const value = headers[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

/** `[user, password]` from a Basic authorization value (the password may contain colons), or null. */
export function decodeCredentials(authorization: string | null): [string, string] | null {
  if (authorization === null || authorization.slice(0, 5).toLowerCase() !== 'basic') return null;
  // `Basic`, whitespace, then base64 that may hold whitespace: checked as three single-pass tests, since
  // one pattern (`^Basic\s+([A-Za-z0-9+/=\s]*)$`) backtracks quadratically over a long run of spaces.
  const encoded = authorization.slice(5);
  if (!/^\s/.test(encoded) || /[^A-Za-z0-9+/=\s]/.test(encoded)) return null;
  const text = Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  return [text.slice(0, colon), text.slice(colon + 1)];
}

/** The header value a client sends. @example encodeCredentials('dhh', 'secret') // 'Basic ZGhoOnNlY3JldA==' */
export function encodeCredentials(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * A realm safe to put inside the quoted `WWW-Authenticate` parameter: no control characters, quotes or
 * backslashes, and text beyond ASCII as its UTF-8 bytes (as Rails sends it), each a character of one
 * byte, since a header carries bytes and a character above U+00FF would make the whole answer a 500.
 */
export function quotedRealm(realm: string): string {
  const plain = realm.replace(/[\u0000-\u001f\u007f"\\]/g, '');
  return /[^\u0000-\u007f]/.test(plain) ? Buffer.from(plain, 'utf8').toString('latin1') : plain;
}
