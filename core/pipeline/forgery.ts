/**
 * The forgery-check stage's verdict: does this request need an
 * authenticity token, and does it carry the right one? It is decided by
 * the method and the request's Content-Type (never by the URL's format),
 * and the controller's `protect_from_forgery` acts on it during dispatch.
 */
import { InvalidAuthenticityToken } from '../errors.ts';
import { givenTokens, matchesStoredToken } from '../session/token.ts';
import type { RequestRun } from './run.ts';
import { isThenable, untraced } from '../util.ts';

// Judged by the method the request is routed with: a POST carrying `_method=get` only ever reaches a
// GET action, which must not change state; `_method=put`/`delete` (in body or query) still need a token.
// Only GET is safe here (HEAD reads as GET): compared directly, as a Set of one would cost a lookup per request.
const isSafeMethod = (method: string): boolean => method === 'get';

/** Whether `content_type` is one the app exempts (an exact essence match, e.g. `application/json`). */
export function exemptContentType(contentType: string | undefined, exempt: readonly string[]): boolean {
  if (!contentType || exempt.length === 0) return false;
  const essence = contentType.split(';', 1)[0].trim().toLowerCase();
  return exempt.includes(essence);
}

export function checkForgery(run: RequestRun): void {
  const request = run.request!;
  if (isSafeMethod(request.method)) return;
  const required = !exemptContentType(request.headers['content-type'], run.app.config.forgeryExemptTypes);
  run.forgery = { required };
}

/**
 * A state-changing request no route takes, without the session's token, in an app that protects
 * against forgery: answered 422 like any other forged request, rather than telling a forger which
 * paths and methods exist (405 with Allow, or 404). Only the session's stored token is known here,
 * before any controller (and its `param` or `secret`) is.
 */
export function isUnroutedForgery(run: RequestRun): boolean {
  if (!run.forgery.required || !run.app.forgeryProtected) return false;
  const request = run.request!;
  const given = givenTokens(request.parameters, request.headers);
  if (given.length === 0) return true;
  const stored = run.app.sessions.load(request);
  if (isThenable(stored)) {
    // A guard cannot wait for a networked store: with no session to compare, the request is refused as
    // forged (422), which tells a forger nothing either; routed requests are checked against the loaded session.
    Promise.resolve(stored).catch(() => {});
    return true;
  }
  return !given.some((token) => matchesStoredToken(token, stored));
}

/** Records the rejection, so the forgery-rejected state logs and renders it like one raised in dispatch. */
export function rejectForgery(run: RequestRun): void {
  run.error = untraced(() => new InvalidAuthenticityToken());
}
