/**
 * Every way a request ends early, and the one function that turns an error
 * into a response: the status comes from the error table (core/errors.ts),
 * the body from `public/<status>.html` when the app has one. Diagnostics
 * (class, message, backtrace) are shown only to local requests when the app
 * says so; a public 500 never carries a stack trace or parameters.
 */
import { InvalidAuthenticityToken, MethodNotAllowed, MissingTemplate, NotAcceptable, NotImplemented, RoutingError, SessionStoreUnavailable, SignalboxError, TemplateError, UnknownAction, UnknownHttpMethod, statusOf } from '../errors.ts';
import { Response } from '../http/response.ts';
import { localRequest } from '../request/env.ts';
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

/** `public/<status>.html` if the app has it, else Rails' single-space body. */
function publicBody(run: RequestRun, status: number): string {
  return run.app.publicFile(`${status}.html`) ?? ' ';
}

export function renderRoutingError(run: RequestRun): void {
  fresh(run, 404).body = publicBody(run, 404);
}

export function renderMethodNotAllowed(run: RequestRun): void {
  const res = fresh(run, 405);
  res.set_header('Allow', run.allowed.join(', '));
  res.body = publicBody(run, 405);
}

export function renderUnknownMethod(run: RequestRun): void {
  const res = fresh(run, 501);
  res.set_header('Allow', 'GET, HEAD, POST, PUT, DELETE, OPTIONS');
  res.body = publicBody(run, 501);
}

export function renderNotAcceptable(run: RequestRun): void {
  fresh(run, 406).body = '';
}

export function renderForgeryRejected(run: RequestRun): void {
  logError(run, 422);
  fresh(run, 422).body = publicBody(run, 422);
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
  if (run.app.config.consider_all_requests_local && isLocal(run)) {
    res.body = diagnostics(run, error);
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
    res.body = ' ';
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
