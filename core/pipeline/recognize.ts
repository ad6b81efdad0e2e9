/**
 * The recognition stage: the route for the request's (simulated) method and
 * path, or the methods the path would accept instead. It cannot fail: the
 * parse stage has already refused paths whose escapes do not decode.
 */
import type { RequestRun } from './run.ts';

export function recognize(run: RequestRun): void {
  const request = run.request!;
  const match = run.app.routes.match(request.method, request.path);
  if (match !== null) {
    run.match = match;
    request.path_parameters = match.params;
    return;
  }
  run.allowed = run.app.routes.allowed_methods(request.path);
}

export const routeFound = (run: RequestRun): boolean => run.match !== null;
export const pathAllowsOtherMethods = (run: RequestRun): boolean => run.allowed.length > 0;
