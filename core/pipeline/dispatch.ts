/**
 * The dispatch stage: finds the recognised controller and runs the action
 * (core/controller/dispatch.ts does the filter chain). An unknown
 * controller or action is a routing failure (404).
 */
import { dispatch, hasAction } from '../controller/dispatch.ts';
import { SessionHandle } from '../session/session.ts';
import { NotAcceptable, RoutingError, UnknownAction } from '../errors.ts';
import { CookieJar } from '../http/cookie-jar.ts';
import type { RequestRun } from './run.ts';

export function dispatchAction(run: RequestRun): Promise<void> {
  const request = run.request!;
  const params = run.match!.params;
  const controllerPath = String(params.controller);
  const action = String(params.action ?? 'index');
  const klass = run.app.controllers.get(controllerPath);
  if (!klass) return Promise.reject(new RoutingError(`No controller ${JSON.stringify(controllerPath)} for ${request.path}`));
  if (!hasAction(klass, action)) return Promise.reject(new UnknownAction(klass.name, action));
  // A format no MIME type is registered for cannot be rendered; refusing it here also keeps
  // arbitrary extensions from growing any per-format state.
  const format = request.parameters.format;
  if (format !== undefined && format !== '' && (typeof format !== 'string' || request.format === null)) {
    return Promise.reject(new NotAcceptable([], `Unknown format ${JSON.stringify(String(format).slice(0, 40))}`));
  }
  const session = new SessionHandle(run.app.sessions, request);
  const helpers = run.app.routes.helpers({ host: request.host_with_port, protocol: request.protocol }, request.path_parameters, request.parameters);
  return dispatch(klass, {
    request,
    response: run.response!,
    routes: run.app.routes,
    helpers,
    session,
    cookies: new CookieJar(() => request.cookies, run.response!),
    views: run.app.views,
    controller_path: controllerPath,
    action_name: action,
    services: run.app.services,
  }, { forgery: run.forgery, allow_forgery_protection: run.app.config.allow_forgery_protection }).then((controller) => {
    run.controller = controller;
    session.commit(run.response!);
  });
}
