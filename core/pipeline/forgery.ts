/**
 * The forgery-check stage's verdict: does this request need an
 * authenticity token, and does it carry the right one? It is decided by
 * the method and the request's Content-Type (never by the URL's format),
 * and the controller's `protect_from_forgery` acts on it during dispatch.
 */
import type { RequestRun } from './run.ts';

// Judged by the method the request is routed with: a POST carrying `_method=get` only ever reaches a
// GET action, which must not change state; `_method=put`/`delete` (in body or query) still need a token.
const SAFE_METHODS = new Set(['get']);

/** Whether `content_type` is one the app exempts (an exact essence match, e.g. `application/json`). */
export function exemptContentType(contentType: string | undefined, exempt: readonly string[]): boolean {
  if (!contentType || exempt.length === 0) return false;
  const essence = contentType.split(';', 1)[0].trim().toLowerCase();
  return exempt.includes(essence);
}

export function checkForgery(run: RequestRun): void {
  const request = run.request!;
  if (SAFE_METHODS.has(request.method)) return;
  const required = !exemptContentType(request.headers['content-type'], run.app.config.forgery_exempt_types);
  run.forgery = { required };
}
