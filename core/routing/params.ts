/**
 * Turning option values into URL text: Rails' `to_param`, path escaping
 * (RFC 2396 pchar: `URI.escape(value, UNSAFE_PCHAR)`) and query escaping
 * (`CGI.escape`, with `Hash#to_query` / `Array#to_query` for nested values).
 */
import { ArgumentError } from '../errors.ts';
import { isPlainObject, withoutTrailingSlashes } from '../util.ts';

export { withoutTrailingSlashes };

// Routing's modules take it from here; it lives in core/util.ts, beside the other small helpers.
export { isPlainObject };

/** A record as the helpers see it: anything with `to_param()` or an `id`. */
export interface RecordLike {
  to_param?: () => unknown;
  id?: unknown;
}

/**
 * Rails' `to_param`: null stays null, records give `to_param()` or `id`,
 * arrays join their parts with `/`.
 * @example toParam({ id: 7 }) // '7'
 */
export function toParam(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string': return value;
    case 'number': case 'bigint': case 'boolean': return String(value);
    // Ruby's Symbol#to_param is its name; `Symbol(x)` in a URL never is what was meant.
    case 'symbol': return (value as symbol).description ?? '';
    case 'function': throw new ArgumentError(`A function cannot be a URL parameter (did you mean to call it?): ${String((value as { name?: unknown }).name || 'anonymous')}`);
    case 'object': {
      if (Array.isArray(value)) return value.map((v) => toParam(v) ?? '').join('/');
      const rec = value as RecordLike;
      if (typeof rec.to_param === 'function') return toParam(rec.to_param());
      if ('id' in rec) return toParam(rec.id);
      if (value instanceof Date) return value.toISOString();
      return objectText(value);
    }
    default: return String(value);
  }
}

// String() throws for an object without a prototype (or with a throwing toString); say what the value lacks instead.
function objectText(value: object): string {
  try {
    return String(value);
  } catch {
    throw new ArgumentError('Cannot turn an object without to_param(), id or toString() into a URL parameter');
  }
}

// Rails' to_query has no limit, but a value that refers to itself would recurse until the stack runs out;
// request parameters nest at most 32 levels, so this leaves room for any real query.
const MAX_QUERY_DEPTH = 100;

/**
 * An application's mount point (`relative_url_root`) as generation prefixes it: '' or `/app`, never with a
 * trailing slash, which would double the path's own (`/app//posts`; a root of '/' gave `//posts`, a
 * protocol-relative URL naming the host "posts"). Recognition strips it the same way.
 * @example mountPoint('/app/') // '/app'
 */
export function mountPoint(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || !isMountPoint(value)) {
    throw new ArgumentError(`relative_url_root must be a path starting with '/' (or '' for none), got ${JSON.stringify(value) ?? String(value)}`);
  }
  return withoutTrailingSlashes(value);
}

/** Whether `value` may be a mount point: '' or a path starting with '/', with no query, fragment or space. */
export function isMountPoint(value: string): boolean {
  return (value === '' || value.startsWith('/')) && !/[?#\s]/.test(value);
}

// Characters RFC 2396 allows unescaped in a path segment (unreserved plus `:@&=+$,;`).
const UNSAFE_PCHAR = /[^A-Za-z0-9\-_.!~*'():@&=+$,;]/gu;

// 1 for each ASCII character allowed unescaped in a path component.
const SAFE_TABLE = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'():@&=+$,;") SAFE_TABLE[c.charCodeAt(0)] = 1;

/** Escapes one path component; `/` is escaped too. */
export function escapePathComponent(value: string): string {
  // Hot path: most ids and words need no escaping at all.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || SAFE_TABLE[c] === 0) return value.replace(UNSAFE_PCHAR, escapeChar);
  }
  return value;
}

/** Escapes a path that may contain `/` separators (controller names, glob strings). */
export function escapePath(value: string): string {
  return value.split('/').map(escapePathComponent).join('/');
}

function escapeChar(c: string): string {
  let out = '';
  for (const byte of Buffer.from(c, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** Ruby's `CGI.escape`: everything but `A-Za-z0-9_.-` is escaped, spaces become `+`. */
export function cgiEscape(value: string): string {
  if (/^[A-Za-z0-9_.-]*$/.test(value)) return value;
  return value.replace(/[^ A-Za-z0-9_.-]/gu, escapeChar).replace(/ /g, '+');
}

/**
 * Rails' `to_query(key)`: arrays become `key[]=a&key[]=b`, hashes
 * `key[sub]=v` with their pairs sorted.
 * @example toQuery('tags', ['a', 'b']) // 'tags%5B%5D=a&tags%5B%5D=b'
 */
export function toQuery(key: string, value: unknown, depth = 0): string {
  // An object literal with a to_param() is a record, as Rails' Object#to_query sees it, not a hash of its functions.
  if (Array.isArray(value) || (isPlainObject(value) && typeof value.to_param !== 'function')) {
    if (depth >= MAX_QUERY_DEPTH) throw new ArgumentError(`Query parameter ${JSON.stringify(key.slice(0, key.indexOf('[')))} nests more than ${MAX_QUERY_DEPTH} levels deep (does it contain itself?)`);
    if (Array.isArray(value)) return value.map((v) => toQuery(`${key}[]`, v, depth + 1)).join('&');
    return Object.entries(value).map(([k, v]) => toQuery(`${key}[${k}]`, v, depth + 1)).sort().join('&');
  }
  return `${cgiEscape(key)}=${cgiEscape(toParam(value) ?? '')}`;
}

/** Builds `?a=1&b=2` from the truthy values of `keys`, sorted as Rails sorts them; '' when none. */
export function buildQueryString(hash: Readonly<Record<string, unknown>>, keys: readonly string[]): string {
  const elements: string[] = [];
  for (const key of keys) {
    const value = hash[key];
    if (value === null || value === undefined || value === false) continue;
    elements.push(toQuery(key, value));
  }
  return elements.length === 0 ? '' : `?${elements.sort().join('&')}`;
}

/** Decodes a path component as Ruby's `URI.unescape` does; `null` when the escapes do not form UTF-8. */
export function unescapePathComponent(value: string): string | null {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
