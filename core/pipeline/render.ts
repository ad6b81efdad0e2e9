/**
 * The render/ETag stage: a default content type, and for a non-empty 200 an
 * MD5 ETag of the body; a GET whose If-None-Match names it becomes 304.
 */
import { etagOf } from '../http/etag.ts';
import { DEFAULT_CACHE_CONTROL } from '../http/response.ts';
import type { RequestRun } from './run.ts';

/** What a response with an ETag tells caches: keep it, but ask each time. */
export const REVALIDATE = 'private, max-age=0, must-revalidate';

export function prepareResponse(run: RequestRun): void {
  const res = run.response!;
  res.content_type ??= 'text/html';
  const explicit = res.etag !== undefined || res.header('Last-Modified') !== undefined;
  // A non-empty string has bytes: its length says so without encoding it (respond counts the bytes once).
  if (!explicit && res.status === 200 && (typeof res.body === 'string' ? res.body.length > 0 : res.body.byteLength > 0)) {
    res.set_header('ETag', etagOf(res.body));
  }
  if ((explicit || res.etag !== undefined) && res.header('Cache-Control') === DEFAULT_CACHE_CONTROL) {
    res.set_header('Cache-Control', REVALIDATE);
  }
}

/** A GET (or HEAD) answered 200 whose ETag the client already has. */
export function isFresh(run: RequestRun): boolean {
  const res = run.response!;
  return res.status === 200 && run.request!.method === 'get' && run.request!.etag_matches(res.etag);
}

export function renderNotModified(run: RequestRun): void {
  const res = run.response!;
  res.status = 304;
  res.reason = null;
  res.body = '';
}
