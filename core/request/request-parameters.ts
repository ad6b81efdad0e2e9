/**
 * Rails 2.1's `parse_request_parameters`: the CGI-style `name => [values]`
 * hash that multipart parsing produces, turned into nested parameters.
 */
import { ArgumentError, ParamsParseError } from '../errors.ts';
import { resolveParamLimits, type ParamLimits } from './limits.ts';
import { NestedParams } from './nested-params.ts';
import { UploadPart, UploadedFile, bytesToText, originalFilename, type ParamValue, type Params } from './param-values.ts';

/** One CGI parameter: its name (null is ignored) and its values in arrival order. */
export type RequestParameterPair = readonly [name: string | null, values: readonly unknown[] | null];

/**
 * Nested parameters from `[name, values]` pairs. Names without brackets take their first
 * value; bracketed names take one value per round, name by name, the way Rails walked its
 * CGI hash (so `a[][x]`/`a[][y]` values pair up into hashes). Blank names are dropped, a
 * null value is `''`, and an `UploadPart` becomes an `UploadedFile` when it has a filename
 * and a string otherwise.
 * @example parseRequestParameters([['selected[]', ['1', '2']], ['a/b[c]d', ['e']]]) // { selected: ['1', '2'], 'a/b': {} }
 */
export function parseRequestParameters(pairs: readonly RequestParameterPair[], limits?: ParamLimits): Params {
  const resolved = resolveParamLimits(limits);
  // A CGI hash holds each name once; repeated names in the input extend the same queue.
  const queues = new Map<string, unknown[]>();
  for (const [name, values] of pairs) {
    if (name === null || name.trim() === '') continue;
    let queue = queues.get(name);
    if (!queue) queues.set(name, (queue = []));
    for (const value of values ?? [null]) queue.push(value);
  }

  const params = new NestedParams(resolved);
  while (queues.size > 0) {
    for (const [name, queue] of queues) {
      if (!name.includes('[')) {
        params.set(name, typedValue(queue[0], resolved.arrayLength));
        queues.delete(name);
      } else {
        params.add(name, typedValue(queue.shift(), resolved.arrayLength));
        if (queue.length === 0) queues.delete(name);
      }
    }
  }
  return params.result;
}

/** Rails' `get_typed_value`: strings stay, nil is '', arrays map, uploads without a filename are read as strings. */
function typedValue(value: unknown, maxArray: number): ParamValue {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (value instanceof UploadedFile) return value;
  if (value instanceof UploadPart) {
    const path = value.original_path;
    if (path === null || path.trim() === '') return bytesToText(value.content);
    return new UploadedFile(value.content, originalFilename(path), value.content_type);
  }
  if (Array.isArray(value)) {
    if (value.length > maxArray) {
      throw new ParamsParseError('SBX_ERR_PARAMS_COUNT', `Too many elements in a parameter array: the limit is ${maxArray}`);
    }
    return value.map((v) => typedValue(v, maxArray));
  }
  throw new ArgumentError(`Unknown form value of type ${typeof value}: expected a string, null, an array or an UploadPart`);
}
