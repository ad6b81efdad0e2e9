/**
 * Every way a request ends early, and the one function that turns an error
 * into a response: the status comes from the error table (core/errors.ts),
 * the body from `public/<status>.html` when the app has one, else a short
 * page naming the status. The development pages (rescue-pages.ts: routing
 * error, unknown action, missing template, an exception's trace, params and
 * session) are shown only to local requests of an app that says so
 * (`consider_all_requests_local`, on in development); a public answer never
 * carries a message, a stack trace or parameters.
 */
import { InvalidAuthenticityToken, MethodNotAllowed, NotAcceptable, NotImplemented, RoutingError, SessionStoreUnavailable, SignalboxError, UnknownHttpMethod, statusOf } from '../errors.ts';
import { Response } from '../http/response.ts';
import { localRequest } from '../request/env.ts';
import { defaultErrorPage } from './default-pages.ts';
import { rescueFacts } from './rescue-facts.ts';
import { noRouteMessage, rescuePage } from './rescue-pages.ts';
import { actionOf, type RequestRun } from './run.ts';

export function storeError(run: RequestRun, error: unknown): void {
  run.error = error;
}

export const isUnknownMethod = (error: unknown): boolean => error instanceof UnknownHttpMethod;
export const isNotAcceptable = (error: unknown): boolean => error instanceof NotAcceptable;
export const isForgeryRejected = (error: unknown): boolean => error instanceof InvalidAuthenticityToken;

// A response for an error path: keeps nothing a failed action may have half-built.
function fresh(run: RequestRun, status: number): Response {
  const res = new Response(run.app.config.default_charset);
  res.status = status;
  res.content_type = 'text/html';
  run.response = res;
  return res;
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

export function renderRoutingError(run: RequestRun): void {
  const request = run.request!;
  run.error = new RoutingError(noRouteMessage(request.method, request.path.slice(0, 200)));
  logError(run, 404);
  const res = fresh(run, 404);
  res.body = localPage(run, run.error) ?? publicBody(run, 404);
}

export function renderMethodNotAllowed(run: RequestRun): void {
  run.error = new MethodNotAllowed(run.allowed);
  logError(run, 405);
  const res = fresh(run, 405);
  res.set_header('Allow', run.allowed.join(', '));
  res.body = localPage(run, run.error) ?? publicBody(run, 405);
}

export function renderUnknownMethod(run: RequestRun): void {
  logError(run, 501);
  const res = fresh(run, 501);
  res.set_header('Allow', 'GET, HEAD, POST, PUT, DELETE, OPTIONS');
  res.body = localPage(run, run.error) ?? publicBody(run, 501);
}

export function renderNotAcceptable(run: RequestRun): void {
  logError(run, 406);
  // Rails answers `head :not_acceptable`: no body, in development too.
  fresh(run, 406).body = '';
}

export function renderForgeryRejected(run: RequestRun): void {
  logError(run, 422);
  const res = fresh(run, 422);
  res.body = localPage(run, run.error) ?? publicBody(run, 422);
}

/** Refusals of the request itself (malformed, blocked host, too large) get their message when the app has no page; the rest keep Rails' bodies. */
const DESCRIBED: ReadonlySet<number> = new Set([400, 403, 413]);

/** The one place an error becomes a response. */
export function renderRescue(run: RequestRun): void {
  const error = run.error;
  const status = statusOf(error);
  logError(run, status);
  const res = fresh(run, status);
  if (error instanceof MethodNotAllowed || error instanceof NotImplemented) res.set_header('Allow', error.allowed.map((m) => m.toUpperCase()).join(', '));
  if (error instanceof SessionStoreUnavailable) res.set_header('Retry-After', String(error.retryAfter));
  const local = localPage(run, error);
  if (local !== null) {
    res.body = local;
    return;
  }
  const page = run.app.publicFile(`${status}.html`);
  if (page !== null) {
    res.body = page;
  } else if (error instanceof SignalboxError && DESCRIBED.has(status)) {
    // A request refused for its own content, with no page for it: say what was wrong (never for 5xx).
    res.content_type = 'text/plain';
    res.body = `${error.message}\n`;
  } else {
    res.body = publicBody(run, status);
  }
}

/** Rails' `local_request?`: the peer and the client (behind a trusted proxy) are both this machine. In-process calls have no peer. */
function isLocal(run: RequestRun): boolean {
  if ((run.message.remoteAddress ?? '') === '') return true;
  return run.request !== null && localRequest(run.request.env);
}

function logError(run: RequestRun, status: number): void {
  const error = run.error;
  const fields = { reqId: run.id, status, ...actionOf(run), err: error instanceof Error ? error : new Error(String(error)) };
  if (status >= 500) run.app.log.error(fields, 'request errored');
  else run.app.log.info({ reqId: run.id, status, ...actionOf(run), code: error instanceof SignalboxError ? error.code : undefined, message: error instanceof Error ? error.message : String(error) }, 'request refused');
}

export { rescueTemplate } from './rescue-pages.ts';
