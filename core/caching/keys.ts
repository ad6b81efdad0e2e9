/**
 * The action cache's keys (Rails' `ActionCachePath`): `views/<host><path>`
 * and the format, and the patterns expiry matches them by.
 */
import { ArgumentError } from '../errors.ts';
import type { Request } from '../http/request.ts';
import type { MimeRegistry } from '../mime/types.ts';
import type { CacheDeclaration } from './declarations.ts';
import type { CacheHost } from './host.ts';
import { isThenable } from '../util.ts';

/** After the path in a key: `.json` for a format named in the URL, `;accept=html,xml,all` for one negotiated from Accept. */
export const FORMAT_SUFFIX = '(?:\\.[^/;]*|;accept=.*)?';
/** Longer keys (a huge Accept header, say) are not cached: the store stays bounded in key size too. */
const MAX_KEY_LENGTH = 1024;

/**
 * The action cache key for this request (Rails' `ActionCachePath`), or null when it is not to be
 * cached: `views/<host><path>` and the format (see `FORMAT_SUFFIX`).
 * @example 'views/example.com/posts/1.json', 'views/example.com/posts/1;accept=html,xml,all'
 */
export function actionCacheKey(c: CacheHost, declaration: CacheDeclaration): string | null {
  const request = c.request;
  let base: string;
  if (declaration.cache_path !== undefined) {
    const given = typeof declaration.cache_path === 'function' ? c.cachePath(declaration.cache_path) : declaration.cache_path;
    // A promise is an object too: taken for a route hash, it would name one key for every page.
    if (isThenable(given)) {
      Promise.resolve(given).catch(() => undefined);
      throw new ArgumentError('cache_path must give a string or a route hash at once, not a promise');
    }
    if (typeof given === 'string') base = given;
    else if (given !== null && typeof given === 'object') base = request.host_with_port + canonicalQueried(c.pathFor(given as Record<string, unknown>));
    else throw new ArgumentError('cache_path must give a string or a route hash');
  } else {
    if (request.query_string !== '') return null;
    base = request.host_with_port + requestBase(request);
  }
  const key = `views/${base}${formatSuffix(request)}`;
  return key.length > MAX_KEY_LENGTH ? null : key;
}

/** The request's path without the format extension its route took, `/` ending in `index`. */
function requestBase(request: Request): string {
  const format = urlFormat(request);
  const path = canonicalPath(format === null ? request.path : request.path.slice(0, -format.length - 1));
  return path.endsWith('/') ? `${path}index` : path;
}

/**
 * One spelling for every way of escaping a path (Rails unescapes its cache paths): each segment
 * decoded and encoded again, so `/posts/%61%20b` and `/posts/a b` key as `/posts/a%20b`, and an
 * entry a differently escaped URL stored is one expiry removes. Segments are kept apart, so an
 * escaped `/` (`a%2Fb`) never becomes two segments; a segment that does not decode stays as it is.
 */
export function canonicalPath(path: string): string {
  if (!path.includes('%') && /^[A-Za-z0-9\-_.!~*'()/]*$/.test(path)) return path;
  return path.split('/').map(canonicalSegment).join('/');
}

/** A generated path in its one spelling, any query after it left as generated. */
function canonicalQueried(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? canonicalPath(path) : canonicalPath(path.slice(0, q)) + path.slice(q);
}

function canonicalSegment(segment: string): string {
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return segment;
  }
}

/**
 * The format the URL itself carried (`/posts/1.json` → `json`), or null when the route's format
 * came from elsewhere or there is none: only a URL's own extension names the file or key it maps to.
 */
export function urlFormat(request: Request): string | null {
  const format = request.path_parameters.format;
  return typeof format === 'string' && format !== '' && request.path.endsWith(`.${format}`) ? format : null;
}

// Everything respond_to and the implicit render choose by: the format parameter, else the Accept list.
function formatSuffix(request: Request): string {
  const format = request.parameters.format;
  if (typeof format === 'string' && format !== '') return `.${request.mime.lookup_by_extension(format)?.name ?? format}`;
  return `;accept=${request.accepts.map((t) => t.name).join(',')}`;
}

/** A path as `expire_action` keys it: no registered format extension, `/` ending in `index`. */
export function pathBase(path: string, mime: MimeRegistry): string {
  const extension = registeredExtension(path, mime);
  const bare = canonicalPath(extension === null ? path : path.slice(0, -extension.length - 1));
  return bare.endsWith('/') ? `${bare}index` : bare;
}

/**
 * The last segment's extension when it names a registered format (`/posts/1.json` → `json`),
 * else null: `/posts/v1.2` is a path, not a format of `/posts/v1`.
 */
export function registeredExtension(path: string, mime: MimeRegistry): string | null {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = last.slice(dot + 1);
  return mime.lookup_by_extension(extension) !== undefined ? extension : null;
}
