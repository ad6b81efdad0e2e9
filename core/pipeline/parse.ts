/**
 * The first stages: reading the message into a `Request` (method, target,
 * headers, query and body parameters) and working out what the client
 * accepts. Both fail with typed errors (400, 413, 501) that the request
 * machine routes to its error states.
 */
import { Request } from '../http/request.ts';
import { Response } from '../http/response.ts';
import { parseBodyParams, parseBodyStream, UploadFiles } from '../request/params.ts';
import { BadRequest, BlockedHost } from '../errors.ts';
import { hostAllowed, rawHostWithPort, validHost } from '../request/env.ts';
import { isThenable, untraced } from '../util.ts';
import type { RequestRun } from './run.ts';

/** Builds the request and its parameters; a promise only when the body needs asynchronous parsing (multipart). */
export function parseRequest(run: RequestRun): void | Promise<void> {
  const { config } = run.app;
  const request = new Request(run.message, run.app.requestSettings);
  run.request = request;
  // A Host that is not `host[:port]` is invalid (RFC 9112 §3.2), and an empty host too (RFC 9110 §4.2.1): nothing
  // the app makes from this request could name it. One read of the header, one test, for both.
  const named = rawHostWithPort(request.env);
  if (!validHost(named)) throw untraced(() => new BadRequest(hostProblem(named)));
  if (config.hosts.length > 0 && !hostAllowed(config.hosts, request.host_with_port)) throw untraced(() => new BlockedHost(request.host_with_port));
  run.response = new Response(config.default_charset);
  // Query errors (bad escapes, limits) surface here rather than midway through an action.
  void request.query_parameters;
  const body = request.body;
  const stream = request.bodyStream;
  if (stream === null && (typeof body === 'string' ? body.length === 0 : body.byteLength === 0)) {
    void request.method;
    return;
  }
  // Uploads over the memory threshold go to temporary files, removed when the request ends (machines/app.ts).
  const uploads = request.content_type?.symbol === 'multipart_form' ? (run.uploads ??= new UploadFiles()) : undefined;
  const params = stream !== null
    ? parseBodyStream(request.content_type, stream, config.limits, request.headers['content-type'], uploads)
    : parseBodyParams(request.content_type, body, config.limits, request.headers['content-type'], uploads);
  if (isThenable(params)) {
    return params.then((p) => {
      request.request_parameters = p;
      request.parametersChanged();
      void request.method;
    });
  }
  request.request_parameters = params;
  request.parametersChanged();
  void request.method;
}

/** Computes what the client accepts; the format itself is settled once recognition adds path parameters. */
export function negotiate(run: RequestRun): void {
  void run.request!.accepts;
}

/** The 400's reason for a host `validHost` refused. */
function hostProblem(named: string): string {
  if (named === '' || named.startsWith(':')) return 'The request names no host (its Host header is empty)';
  return `The request's host ${JSON.stringify(named.slice(0, 100))} is not a host name or address with an optional port`;
}
