/**
 * The action cache's keys (Rails' `ActionCachePath`): `views/<host><path>`
 * and the format, and the patterns expiry matches them by.
 */
import { ArgumentError } from '../errors.ts';
import type { Request } from '../http/request.ts';
import type { MimeRegistry } from '../mime/types.ts';
import type { Controller } from './base.ts';
import type { CacheDeclaration } from './declarations.ts';

/** After the path in a key: `.json` for a format named in the URL, `;accept=html,xml,all` for one negotiated from Accept. */
export const FORMAT_SUFFIX = '(?:\\.[^/;]*|;accept=.*)?';
/** Longer keys (a huge Accept header, say) are not cached: the store stays bounded in key size too. */
export const MAX_KEY_LENGTH = 1024;

/**
 * The action cache key for this request (Rails' `ActionCachePath`), or null when it is not to be
 * cached: `views/<host><path>` and the format (see `FORMAT_SUFFIX`).
 * @example 'views/example.com/posts/1.json', 'views/example.com/posts/1;accept=html,xml,all'
 */
export function actionCacheKey(c: Controller, declaration: CacheDeclaration): string | null {
  const request = c.request;
  let base: string;
  if (declaration.cache_path !== undefined) {
    const given = typeof declaration.cache_path === 'function' ? declaration.cache_path(c) : declaration.cache_path;
    if (typeof given === 'string') base = given;
    else if (given !== null && typeof given === 'object') base = request.host_with_port + c.routes.url_for({ ...given, only_path: true });
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
  const format = request.path_parameters.format;
  let path = request.path;
  if (typeof format === 'string' && format !== '' && path.endsWith(`.${format}`)) path = path.slice(0, -format.length - 1);
  return path.endsWith('/') ? `${path}index` : path;
}

// Everything respond_to and the implicit render choose by: the format parameter, else the Accept list.
function formatSuffix(request: Request): string {
  const format = request.parameters.format;
  if (typeof format === 'string' && format !== '') return `.${request.mime.lookup_by_extension(format)?.name ?? format}`;
  return `;accept=${request.accepts.map((t) => t.name).join(',')}`;
}

/** A path as `expire_action` keys it: no registered format extension, `/` ending in `index`. */
export function pathBase(path: string, mime: MimeRegistry): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  const bare = dot > 0 && mime.lookup_by_extension(last.slice(dot + 1)) !== undefined ? path.slice(0, path.length - last.length + dot) : path;
  return bare.endsWith('/') ? `${bare}index` : bare;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
