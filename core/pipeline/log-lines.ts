/**
 * Every per-request log line the app writes, in one place, so their names
 * and fields stay the same whoever answers:
 *
 * - `request completed` (info) for every request (page-cache hits included;
 *   assets, the plain files of the public directory, left out): `{ reqId,
 *   method, path, status, ms, controller, action, transport, cache }`;
 * - `request refused` (info) when the answer is a 4xx error, or a 503
 *   because the session store is away (`SessionStoreUnavailable`): `{ reqId,
 *   status, controller, action, code, message }`;
 * - `request errored` (error) when it is a 5xx error: `{ reqId, status,
 *   controller, action, err }`;
 * - `request machine failed` (error) when the framework itself broke.
 *
 * Client errors are the client's business and log at info; server errors
 * are ours and log at error, as Fastify's log controller does. A session
 * store that is away is neither: the store logs the outage once, when it
 * begins and when it ends, and each request it turns away gets one short
 * line, since a stack per request would bury the log while the outage
 * lasts (thousands a second under load). The lines of
 * the transports themselves (a socket the HTTP parser refused, a write that
 * failed) are theirs, since no request reached the app.
 */
import { SessionStoreUnavailable, SignalboxError } from '../errors.ts';
import type { ResponseMessage } from '../http/message.ts';
import type { RequestRun } from './run.ts';

/**
 * The controller and action a request reached, for logs: the one that ran, else the recognised
 * route's, else for a cached page the action that rendered it (null before recognition).
 */
export function actionOf(run: RequestRun): { controller: string | null; action: string | null } {
  if (run.controller) return { controller: run.controller.controller_path, action: run.controller.action_name };
  const route = run.match?.params;
  if (route === undefined) return run.served ?? NO_ACTION;
  return { controller: route.controller === undefined ? null : String(route.controller), action: String(route.action ?? 'index') };
}

const NO_ACTION = Object.freeze({ controller: null, action: null });

/**
 * `request completed`; built only when info lines are wanted, so a silent logger costs a level check.
 * Files of the public directory stay out of the log, as the web server in front of a Rails app keeps
 * assets out of the app's log; cached pages are the app's own answers and are logged.
 */
export function logCompleted(run: RequestRun, output: ResponseMessage): void {
  // The check alone, a function small enough to be inlined where every request ends; the line is written apart.
  if (!run.asset && run.app.log.isLevelEnabled('info')) writeCompleted(run, output);
}

function writeCompleted(run: RequestRun, output: ResponseMessage): void {
  const log = run.app.log;
  const ms = performance.now() - run.started;
  const { controller, action } = actionOf(run);
  log.info({
    reqId: run.id, method: run.message.method, path: run.request?.path ?? pathOf(run.message.url), status: output.status, ms: Math.round(ms * 100) / 100,
    controller, action, transport: run.message.transport ?? 'http', cache: run.cache ?? undefined,
  }, 'request completed');
}

/** `request errored` for a 5xx answer, `request refused` for a 4xx one or a session store away. */
export function logFailure(run: RequestRun, status: number, error: unknown): void {
  const log = run.app.log;
  if (status >= 500 && !(error instanceof SessionStoreUnavailable)) {
    log.error({ reqId: run.id, status, ...actionOf(run), err: error instanceof Error ? error : new Error(String(error)) }, 'request errored');
  } else if (log.isLevelEnabled('info')) {
    const code = error instanceof SignalboxError ? error.code : undefined;
    log.info({ reqId: run.id, status, ...actionOf(run), code, message: error instanceof Error ? error.message : String(error) }, 'request refused');
  }
}

/**
 * `render after the response was sent`: a render, redirect or head (`call`) from work the action did
 * not wait for, after its answer had gone. An error in the app, logged where it can be seen, since
 * thrown it would reach no one and end the process as an unhandled rejection.
 */
export function logLateRender(run: RequestRun, call: string): void {
  run.app.log.error({ reqId: run.id, ...actionOf(run), call, hint: 'the action started work it did not wait for: return or await its promise' }, 'render after the response was sent');
}

/** `request machine failed`: a bug in the framework itself, answered like an unrescued exception. */
export function logMachineFailure(run: RequestRun, error: unknown): void {
  run.app.log.error({ reqId: run.id, err: error }, 'request machine failed');
}

// The query stays out of logs, as it does when the request was parsed (its values may be anyone's).
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
