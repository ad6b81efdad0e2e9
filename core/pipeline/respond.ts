/**
 * The respond stage: the one place that decides what goes on the wire.
 * HEAD keeps the headers (and the length) of the GET body but sends none;
 * 204 and 304 carry no body; every response gets X-Runtime.
 */
import type { RequestRun } from './run.ts';

const NO_BODY = new Set([204, 304]);

export function respond(run: RequestRun): void {
  const res = run.response!;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) headers[name] = value;
  if (res.content_type !== null && !NO_BODY.has(res.status)) {
    headers['Content-Type'] = res.charset ? `${res.content_type}; charset=${res.charset}` : res.content_type;
  }
  if (res.cookies.length > 0) headers['Set-Cookie'] = res.cookies;
  headers['X-Runtime'] = ((performance.now() - run.started) / 1000).toFixed(5);
  let body = res.body;
  if (NO_BODY.has(res.status) || res.status < 200) {
    body = '';
  } else {
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    if (run.request?.head || run.message.method.toUpperCase() === 'HEAD') body = '';
  }
  run.output = { status: res.status, headers, body, ...(res.reason !== null ? { reason: res.reason } : {}) };
}
