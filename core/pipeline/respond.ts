/**
 * The respond stage: the one place that decides what goes on the wire, for
 * every response (public files and cached pages included).
 * HEAD keeps the headers (and the length) of the GET body but sends none;
 * 204 and 304 carry no body; a body that is a slice of a file goes out as
 * that slice, for the transport to send from disk; every response gets
 * X-Runtime, and every response of a cached action or a cached page
 * X-Cache (unless `config.cacheHeader` is off).
 */
import { byteLengthOf } from '../http/etag.ts';
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
  let file = res.file;
  if (noBody(res.status) || res.status < 200) {
    body = '';
    file = null;
  } else {
    headers['Content-Length'] = `${file !== null ? file.end - file.start + 1 : byteLengthOf(body)}`;
    if (run.request ? run.request.head : /^head$/i.test(run.message.method)) {
      body = '';
      file = null;
    }
  }
  // Literals, not a spread: transports then see few message shapes, which keeps their reads fast.
  if (file !== null) run.output = { status: res.status, headers, body, file };
  else run.output = res.reason !== null ? { status: res.status, headers, body, reason: res.reason } : { status: res.status, headers, body };
}
