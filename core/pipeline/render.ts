/**
 * The render/ETag stage: a default content type, and for a non-empty 200 an
 * MD5 ETag of the body; a GET whose If-None-Match names it becomes 304.
 */
import * as crypto from 'node:crypto';
import { DEFAULT_CACHE_CONTROL } from '../http/response.ts';
import type { RequestRun } from './run.ts';

/** What a response with an ETag tells caches: keep it, but ask each time. */
export const REVALIDATE = 'private, max-age=0, must-revalidate';

// crypto.hash (Node 20.12+) digests in one call, without a Hash object per response.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash;
const md5Hex = oneShot
  ? (body: string | Uint8Array) => oneShot('md5', body, 'hex')
  : (body: string | Uint8Array) => crypto.createHash('md5').update(body).digest('hex');

export function prepareResponse(run: RequestRun): void {
  const res = run.response!;
  res.content_type ??= 'text/html';
  const explicit = res.etag !== undefined || res.header('Last-Modified') !== undefined;
  if (!explicit && res.status === 200 && res.body_bytes > 0) {
    res.set_header('ETag', `"${md5Hex(res.body)}"`);
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
