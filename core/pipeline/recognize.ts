/**
 * The recognition stage: the route for the request's (simulated) method and
 * path, or what to answer instead. It never throws: a malformed path is
 * recorded as the run's error for the machine to route.
 */
import type { RequestRun } from './run.ts';

export function recognize(run: RequestRun): void {
  const request = run.request!;
  try {
    const match = run.app.routes.match(request.method, request.path);
    if (match !== null) {
      run.match = match;
      request.path_parameters = match.params;
      return;
    }
    run.allowed = run.app.routes.allowed_methods(request.path);
  } catch (error) {
    run.error = error;
  }
}

export const routeFound = (run: RequestRun): boolean => run.match !== null;
export const pathAllowsOtherMethods = (run: RequestRun): boolean => run.allowed.length > 0;
export const hasError = (run: RequestRun): boolean => run.error !== null;
