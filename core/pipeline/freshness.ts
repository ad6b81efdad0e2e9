/**
 * The freshness stage (the machine's `rendering` state): a default content
 * type, and for a non-empty 200 an MD5 ETag of the body (core/http/etag.ts
 * decides which responses get one); a GET whose If-None-Match names it
 * becomes 304.
 */
import { giveBodyEtag, hasOwnValidator, REVALIDATE } from '../http/etag.ts';
import { DEFAULT_CACHE_CONTROL } from '../http/response.ts';
import type { RequestRun } from './run.ts';

export function prepareResponse(run: RequestRun): void {
  const res = run.response!;
  res.content_type ??= 'text/html';
  const explicit = hasOwnValidator(res);
  const given = !explicit && giveBodyEtag(res) !== null;
  if ((explicit || given) && res.header('Cache-Control') === DEFAULT_CACHE_CONTROL) {
    res.set_header('Cache-Control', REVALIDATE);
  }
}

/** A GET (or HEAD) answered 200 whose ETag the client already has. */
export function isFresh(run: RequestRun): boolean {
  const res = run.response!;
  const request = run.request!;
  // Most requests send no If-None-Match: then the response's ETag need not be looked up.
  return res.status === 200 && request.method === 'get' && request.headers['if-none-match'] !== undefined && request.etag_matches(res.etag);
}

export function renderNotModified(run: RequestRun): void {
  const res = run.response!;
  res.status = 304;
  res.reason = null;
  res.body = '';
}
