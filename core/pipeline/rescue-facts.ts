/**
 * What a development error page tells about the request, read from its
 * run: method and path, the controller and action it reached, its
 * parameters and session when they were read, and for a routing error the
 * route table, for an unknown action the actions there are, for a route
 * helper no route defines the one it most likely meant. Reading them
 * never throws: a request that failed while its body was parsed shows no
 * parameters rather than a second error. Parameters and session are what
 * the request itself carried, shown only to the machine that sent it.
 */
import { TemplateError, UnknownAction } from '../errors.ts';
import { meantName } from '../options.ts';
import { helperNames } from '../routing/helpers.ts';
import { routeRows } from '../routing/print.ts';
import { rescueTemplate, type RescueFacts } from './rescue-pages.ts';
import type { RequestRun } from './run.ts';
import { controllerPathOf } from './dispatch.ts';

export function rescueFacts(run: RequestRun, error: unknown): RescueFacts {
  const request = run.request;
  const route = run.match?.params;
  const klass = route === undefined ? undefined : run.app.controllers.get(controllerPathOf(run.app.controllers, String(route.controller)));
  const template = rescueTemplate(error);
  return {
    method: request === null ? run.message.method : attempt(() => request.method.toUpperCase(), run.message.method),
    path: request?.path ?? pathOf(run.message.url),
    controller: klass?.name ?? null,
    action: route === undefined ? null : String(route.action ?? 'index'),
    params: request === null ? null : attempt(() => request.parameters, null),
    // Only a session the request read: loading one here could fail for reasons of its own.
    session: run.session?.loaded === true ? run.session.data : null,
    ...(template === 'routing_error' ? { routes: routeRows(run.app.routes.routes) } : {}),
    ...(error instanceof UnknownAction && klass !== undefined ? { actions: [...attempt(() => klass.action_methods(), new Set<string>())].sort() } : {}),
    ...meantHelper(run, error),
    root: run.app.root,
  };
}

/**
 * A route helper called that no route defines (`v.edit_notes_path is not a function`, for `edit_note_path`):
 * its name, and the helper of the drawn routes it most likely meant. Only a name that reads as a route
 * helper's (`_path`, `_url`) is looked up.
 */
function meantHelper(run: RequestRun, error: unknown): Pick<RescueFacts, 'helper'> {
  const thrown = error instanceof TemplateError ? error.cause : error;
  if (!(thrown instanceof TypeError)) return {};
  const missing = calledName(thrown.message);
  if (missing === null || !HELPER_NAME.test(missing)) return {};
  const known = new Set(Object.keys(run.app.routes.named).flatMap(helperNames));
  return { helper: { missing, meant: meantName(missing, known) } };
}

function attempt<T>(read: () => T, otherwise: T): T {
  try {
    return read();
  } catch {
    return otherwise;
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

const NOT_A_FUNCTION = ' is not a function';
const HELPER_NAME = /_(?:path|url)$/;
const WORD = /\w/;

/** The name V8 says is no function (`v.edit_notes_path is not a function` -> `edit_notes_path`), read back from the words, or null. */
function calledName(message: string): string | null {
  const end = message.indexOf(NOT_A_FUNCTION);
  if (end <= 0) return null;
  let start = end;
  while (start > 0 && WORD.test(message[start - 1]!)) start--;
  return start === end ? null : message.slice(start, end);
}
