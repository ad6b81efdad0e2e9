/**
 * Every way a request ends early, and the one function that turns an error
 * into a response. The transitions into the early-ending states record why,
 * as a typed error (core/errors.ts): no route, a method the path does not
 * take, an unknown method, nothing acceptable, a forged request, or
 * whatever a stage raised. The status comes from the error table, `Allow`
 * from the error's `allowed` methods, the body from `public/<status>.html`
 * when the app has one, and the log line from log-lines.ts.
 *
 * Diagnostics (class, message, backtrace) are shown only for errors that
 * reach `rescuing` (raised while parsing or by the action), to local
 * requests of an app that asks for them: a request the machine refuses in a
 * state of its own (no route, wrong method, forged) broke no code, and a
 * public 500 never carries a stack trace or parameters.
 */
import { InvalidAuthenticityToken, MethodNotAllowed, MissingTemplate, NotAcceptable, RoutingError, SessionStoreUnavailable, SignalboxError, TemplateError, UnknownAction, UnknownHttpMethod, statusOf } from '../errors.ts';
import { Response } from '../http/response.ts';
import { localRequest } from '../request/env.ts';
import { logFailure } from './log-lines.ts';
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
  run.error = new RoutingError(`No route matches ${JSON.stringify(request.path.slice(0, 200))} with method ${request.method.toUpperCase()}`);
}

/** Recognition found routes for the path, but none for the method. */
export function recordMethodNotAllowed(run: RequestRun): void {
  run.error = new MethodNotAllowed(run.allowed);
}

/** The answer to a request the machine refused in a state of its own. */
export function renderError(run: RequestRun): void {
  answerError(run, false);
}

/** The answer to an error raised while parsing or by the action: diagnostics for local requests, when the app says so. */
export function renderRescue(run: RequestRun): void {
  answerError(run, true);
}

/** Refusals of the request itself (malformed, blocked host, too large) get their message when the app has no page; the rest keep Rails' bodies. */
const DESCRIBED: ReadonlySet<number> = new Set([400, 403, 413]);

/** The one place an error becomes a response. */
function answerError(run: RequestRun, rescued: boolean): void {
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
  if (rescued && run.app.config.consider_all_requests_local && isLocal(run)) {
    res.body = diagnostics(run, error);
    return;
  }
  // Rails answers an unacceptable format with `head :not_acceptable`: no body.
  if (status === 406) {
    res.body = '';
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
    // Rails' single space, so that every HTTP client sees a body.
    res.body = ' ';
  }
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

/** Which local diagnostics page an error gets (Rails' rescue templates). */
export function rescueTemplate(error: unknown): 'missing_template' | 'routing_error' | 'unknown_action' | 'template_error' | 'diagnostics' {
  if (error instanceof MissingTemplate) return 'missing_template';
  if (error instanceof UnknownAction) return 'unknown_action';
  if (error instanceof RoutingError) return 'routing_error';
  if (error instanceof TemplateError) return 'template_error';
  return 'diagnostics';
}

const HEADINGS = { missing_template: 'Template is missing', routing_error: 'Routing Error', unknown_action: 'Unknown action', template_error: 'Template Error', diagnostics: '' } as const;

function diagnostics(run: RequestRun, error: unknown): string {
  const e = error instanceof Error ? error : new Error(String(error));
  const params = run.match?.params;
  const klass = params ? run.app.controllers.get(String(params.controller)) : undefined;
  const where = klass && params ? `${klass.name}#${String(params.action)}` : run.message.url;
  const heading = HEADINGS[rescueTemplate(error)] || e.name;
  const cause = e.cause instanceof Error ? `<h2>Caused by ${text(e.cause.name)}</h2><pre>${text(e.cause.stack ?? e.cause.message)}</pre>` : '';
  return `<html><head><title>${text(heading)}</title></head><body><h1>${text(heading)} in ${text(where)}</h1><p>${text(e.name)}</p><pre>${text(e.message)}</pre><pre>${text(e.stack ?? '')}</pre>${cause}</body></html>`;
}

// Element content needs only these three escaped.
function text(value: string): string {
  return value.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}
