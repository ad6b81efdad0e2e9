/**
 * The render/ETag stage: a default content type, and for a non-empty 200 an
 * MD5 ETag of the body; a GET whose If-None-Match names it becomes 304.
 */
import { etagOf } from '../http/etag.ts';
import { DEFAULT_CACHE_CONTROL, type Response } from '../http/response.ts';
import type { RequestRun } from './run.ts';

/** What a response with an ETag tells caches: keep it, but ask each time. */
export const REVALIDATE = 'private, max-age=0, must-revalidate';

export function prepareResponse(run: RequestRun): void {
  const res = run.response!;
  res.content_type ??= 'text/html';
  const explicit = hasOwnValidator(res);
  const given = !explicit && giveBodyEtag(res) !== null;
  if ((explicit || given) && res.header('Cache-Control') === DEFAULT_CACHE_CONTROL) {
    res.set_header('Cache-Control', REVALIDATE);
  }
}

/**
 * What this stage will do to a response, done early: a non-empty 200 with no validator of its
 * own gets the MD5 ETag of its body. The ETag given, or null. The action cache calls it so that
 * the body it stores is digested once; this stage then finds the ETag already there.
 */
export function addBodyEtag(res: Response): string | null {
  return hasOwnValidator(res) ? null : giveBodyEtag(res);
}

/** An ETag or Last-Modified the action set: the response is then validated its own way. */
function hasOwnValidator(res: Response): boolean {
  return res.etag !== undefined || res.header('Last-Modified') !== undefined;
}

function giveBodyEtag(res: Response): string | null {
  // A non-empty string has bytes: its length says so without encoding it (respond counts the bytes once).
  if (res.status !== 200 || (typeof res.body === 'string' ? res.body.length : res.body.byteLength) === 0) return null;
  const etag = etagOf(res.body);
  res.set_header('ETag', etag);
  return etag;
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
