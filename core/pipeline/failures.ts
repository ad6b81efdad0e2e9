/**
 * Every way a request ends early, and the one function that turns an error
 * into a response. The transitions into the early-ending states record why,
 * as a typed error (core/errors.ts): no route, a method the path does not
 * take, an unknown method, nothing acceptable, a forged request, or
 * whatever a stage raised. The status comes from the error table, `Allow`
 * from the error's `allowed` methods, the log line from log-lines.ts, and
 * the body from `public/<status>.html` when the app has one, else a short
 * page naming the status.
 *
 * The development pages (rescue-pages.ts: routing error, unknown action,
 * missing template, an exception's trace, params and session) are shown
 * only to local requests of an app that says so
 * (`consider_all_requests_local`, on in development), whichever state the
 * request ended in; a public answer never carries a message, a stack trace
 * or parameters.
 */
import { InvalidAuthenticityToken, MethodNotAllowed, NotAcceptable, RoutingError, SessionStoreUnavailable, SignalboxError, UnknownHttpMethod, statusOf } from '../errors.ts';
import { untraced } from '../util.ts';
import { Response } from '../http/response.ts';
import { localRequest } from '../request/env.ts';
import { defaultErrorPage } from './default-pages.ts';
import { logFailure } from './log-lines.ts';
import { rescueFacts } from './rescue-facts.ts';
import { noRouteMessage, rescuePage } from './rescue-pages.ts';
import type { RequestRun } from './run.ts';

export function storeError(run: RequestRun, error: unknown): void {
  run.error = error;
}

export const isUnknownMethod = (error: unknown): boolean => error instanceof UnknownHttpMethod;
export const isNotAcceptable = (error: unknown): boolean => error instanceof NotAcceptable;
export const isForgeryRejected = (error: unknown): boolean => error instanceof InvalidAuthenticityToken;

/** Recognition found no route for the path, with any method. */
export function recordNoRoute(run: RequestRun): void {
  const request = run.request!;
  run.error = untraced(() => new RoutingError(noRouteMessage(request.method, request.path.slice(0, 200))));
}

/** Recognition found routes for the path, but none for the method. */
export function recordMethodNotAllowed(run: RequestRun): void {
  run.error = untraced(() => new MethodNotAllowed(run.allowed));
}

/** The answer to a request the machine refused in a state of its own. */
export function renderError(run: RequestRun): void {
  answerError(run);
}

/** The answer to an error raised while parsing or by the action. */
export function renderRescue(run: RequestRun): void {
  answerError(run);
}

/** Refusals of the request itself (malformed, blocked host, too large) get their message when the app has no page; the rest get the page. */
const DESCRIBED: ReadonlySet<number> = new Set([400, 403, 413]);

/** The one place an error becomes a response. */
function answerError(run: RequestRun): void {
  const error = run.error;
  const status = statusOf(error);
  logFailure(run, status, error);
  // A fresh response: nothing a failed action half-built (headers, cookies, status) is kept.
  const res = new Response(run.app.config.default_charset);
  res.status = status;
  res.content_type = 'text/html';
  run.response = res;
  const allowed = allowedOf(error);
  if (allowed !== null) res.set_header('Allow', allowed.map((m) => m.toUpperCase()).join(', '));
  // A store that is down says when to come back (503).
  if (error instanceof SessionStoreUnavailable) res.set_header('Retry-After', String(error.retryAfter));
  // Rails answers an unacceptable format with `head :not_acceptable`: no body, in development too.
  if (status === 406) {
    res.body = '';
    return;
  }
  const local = localPage(run, error);
  if (local !== null) {
    res.body = local;
    return;
  }
  if (error instanceof SignalboxError && DESCRIBED.has(status) && run.app.publicFile(`${status}.html`) === null) {
    // A request refused for its own content, with no page for it: say what was wrong (never for 5xx).
    res.content_type = 'text/plain';
    res.body = `${error.message}\n`;
    return;
  }
  res.body = publicBody(run, status);
}

/** The methods an error says would have been answered (405, 501), or null. */
function allowedOf(error: unknown): readonly string[] | null {
  if (!(error instanceof SignalboxError)) return null;
  const allowed = (error as { allowed?: unknown }).allowed;
  return Array.isArray(allowed) ? allowed : null;
}

/** Rails' `local_request?`: the peer and the client (behind a trusted proxy) are both this machine. In-process calls have no peer. */
function isLocal(run: RequestRun): boolean {
  if ((run.message.remoteAddress ?? '') === '') return true;
  return run.request !== null && localRequest(run.request.env);
}

/** `public/<status>.html` if the app has it, else a short page naming the status (Rails 2.1's single space with `defaultErrorPages` off). */
function publicBody(run: RequestRun, status: number): string {
  return run.app.publicFile(`${status}.html`) ?? (run.app.config.defaultErrorPages ? defaultErrorPage(status) : ' ');
}

/** The development page for `error` when this request may see one (a local request, in an app that says so); else null. */
function localPage(run: RequestRun, error: unknown): string | null {
  if (!run.app.config.consider_all_requests_local || !isLocal(run)) return null;
  return rescuePage(error, rescueFacts(run, error));
}

export { rescueTemplate } from './rescue-pages.ts';
