/**
 * Request parameters: the public entry point of the request layer's parsers.
 * `parseBodyParams` picks the parser for a body's MIME type; the parsers
 * themselves live beside this file and are re-exported here.
 *
 * Every parser keeps clients away from prototypes (`__proto__`, `constructor`
 * and `prototype` never become keys) and enforces `ParamLimits`: counts and
 * depth over a limit are a 400, sizes a 413.
 *
 * @example
 *   const params = await parseBodyParams(mime.lookup('multipart/form-data'), body, {}, req.headers['content-type']);
 */
import { ParamsParseError, PayloadTooLarge } from '../errors.ts';
import type { MimeType } from '../mime/types.ts';
import { parseJsonParams } from './json-params.ts';
import { resolveParamLimits, type ParamLimits } from './limits.ts';
import { parseMultipart } from './multipart.ts';
import { setParam, type Params } from './param-values.ts';
import { parseQuery } from './query.ts';
import type { UploadFiles } from './upload-files.ts';
import { parseXmlParams } from './xml-params.ts';

export { DEFAULT_PARAM_LIMITS, resolveParamLimits, type MultipartLimits, type ParamLimits, type ResolvedParamLimits } from './limits.ts';
export { UploadPart, UploadedFile, isParamObject, isUnsafeKey, originalFilename, type ParamObject, type ParamValue, type Params } from './param-values.ts';
export { parseQuery, unescapeParam } from './query.ts';
export { parseRequestParameters, type RequestParameterPair } from './request-parameters.ts';
export { parseMultipart } from './multipart.ts';
export { UploadFiles } from './upload-files.ts';
export { parseJsonParams } from './json-params.ts';
export { parseXmlParams } from './xml-params.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parameters of a request body by its MIME type: url-encoded forms, multipart forms, JSON and
 * XML; any other type (or none, or an empty body) gives `{}`. Only multipart is asynchronous.
 * Multipart needs the raw Content-Type header for its boundary: pass it as `contentTypeHeader`.
 * @example parseBodyParams(mime.lookup('application/json'), '{"a":1}') // { a: 1 }
 */
export function parseBodyParams(
  contentType: MimeType | null,
  body: Uint8Array | string,
  limits?: ParamLimits,
  contentTypeHeader?: string,
  uploads?: UploadFiles,
): Params | Promise<Params> {
  const size = typeof body === 'string' ? body.length : body.byteLength;
  if (contentType === null || size === 0) return {};
  switch (contentType.symbol) {
    case 'multipart_form':
      return parseMultipart(typeof body === 'string' ? Buffer.from(body) : body, contentTypeHeader ?? contentType.string, limits, uploads);
    case 'url_encoded_form':
      return parseQuery(cleanUpAjaxBody(bodyText(body, limits)), limits);
    case 'json':
      return parseJsonParams(bodyText(body, limits), limits);
    case 'xml':
      return parseXmlParams(bodyText(body, limits), limits);
    default:
      return {};
  }
}

/**
 * Parameters of a body that arrives as chunks: multipart is parsed as it streams (uploads over
 * `multipart.memoryBytes` go to files of `uploads`); any other type is read whole first, up to
 * `bodyBytes` (413 beyond).
 */
export async function parseBodyStream(
  contentType: MimeType | null,
  chunks: AsyncIterable<Uint8Array>,
  limits: ParamLimits | undefined,
  contentTypeHeader: string | undefined,
  uploads: UploadFiles | undefined,
): Promise<Params> {
  if (contentType?.symbol === 'multipart_form') return parseMultipart(chunks, contentTypeHeader ?? contentType.string, limits, uploads);
  const max = resolveParamLimits(limits).bodyBytes;
  const held: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > max) throw new PayloadTooLarge('bodyBytes', max);
    held.push(chunk);
  }
  return parseBodyParams(contentType, Buffer.concat(held), limits, contentTypeHeader);
}

/** The body as UTF-8 text, refusing oversized bodies before decoding them. */
function bodyText(body: Uint8Array | string, limits: ParamLimits | undefined): string {
  if (typeof body === 'string') return body;
  const max = resolveParamLimits(limits).bodyBytes;
  if (body.byteLength > max) throw new PayloadTooLarge('bodyBytes', max);
  try {
    return utf8.decode(body);
  } catch {
    throw new ParamsParseError('SBX_ERR_PARAMS_ENCODING', 'Request body is not valid UTF-8');
  }
}

/** Old Safari and Prototype ajax bodies end with a NUL or a stray `&_=`; Rails trimmed both. */
function cleanUpAjaxBody(body: string): string {
  const trimmed = body.endsWith('\0') ? body.slice(0, -1) : body;
  return trimmed.endsWith('&_=') ? trimmed.slice(0, -3) : trimmed;
}

/**
 * A request's parameters as Rails merges them: body parameters, then the query's, then the path's (later wins).
 * @example mergeParameters({ foo: 1 }, { bar: 2 }) // { foo: 1, bar: 2 }
 */
export function mergeParameters(requestParameters: Params, queryParameters: Params, pathParameters: Params = {}): Params {
  const merged: Params = {};
  for (const source of [requestParameters, queryParameters, pathParameters]) {
    for (const key of Object.keys(source)) setParam(merged, key, source[key]);
  }
  return merged;
}
