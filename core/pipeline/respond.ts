/**
 * The respond stage: the one place that decides what goes on the wire.
 * HEAD keeps the headers (and the length) of the GET body but sends none;
 * 204 and 304 carry no body; every response gets X-Runtime, and every
 * response of a cached action X-Cache (unless `config.cacheHeader` is off).
 */
import { contentTypeHeader, runtimeHeader } from '../http/response.ts';
import type { RequestRun } from './run.ts';

const noBody = (status: number) => status === 204 || status === 304;

export function respond(run: RequestRun): void {
  const res = run.response!;
  // The response's own headers become the message's: nothing reads the response after this stage
  // (the caches stored their copy during dispatch), so a copy would only cost time.
  const headers = res.headers;
  if (res.content_type !== null && !noBody(res.status)) {
    headers['Content-Type'] = contentTypeHeader(res.content_type, res.charset);
  }
  if (res.cookies.length > 0) headers['Set-Cookie'] = res.cookies;
  headers['X-Runtime'] = runtimeHeader(performance.now() - run.started);
  if (run.cache !== null && run.app.config.cacheHeader) headers['X-Cache'] = run.cache;
  let body = res.body;
  if (noBody(res.status) || res.status < 200) {
    body = '';
  } else {
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    if (run.request ? run.request.head : /^head$/i.test(run.message.method)) body = '';
  }
  // Literals, not a spread: transports then see one or two message shapes, which keeps their reads fast.
  run.output = res.reason !== null ? { status: res.status, headers, body, reason: res.reason } : { status: res.status, headers, body };
}
