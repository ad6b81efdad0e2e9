/**
 * JSON request bodies, as Rails 2.1 reads them: an object body is the
 * parameters, anything else (array, string, number, null) goes under `_json`.
 */
import { BodyParseError, ParamsParseError, PayloadTooLarge } from '../errors.ts';
import { prescanJson } from './prescan.ts';
import { resolveParamLimits, type ParamLimits, type ResolvedParamLimits } from './limits.ts';
import { setParam, type ParamObject, type ParamValue, type Params } from './param-values.ts';

/**
 * Parameters of a JSON body. Strict `JSON.parse` (anything else is a 400 `BodyParseError`);
 * an empty body is `{}`; `__proto__`, `constructor` and `prototype` keys are dropped; nulls
 * inside arrays are removed (Rails 5's deep_munge rule: `[null]` becomes `[]`, so a lone null
 * can never pass as a list of ids).
 * @example parseJsonParams('[1, 2]') // { _json: [1, 2] }
 */
export function parseJsonParams(body: string, limits?: ParamLimits): Params {
  const resolved = resolveParamLimits(limits);
  if (body.length * 3 > resolved.bodyBytes && Buffer.byteLength(body) > resolved.bodyBytes) {
    throw new PayloadTooLarge('bodyBytes', resolved.bodyBytes);
  }
  if (body.trim() === '') return {};
  // Over a count or depth limit: refused where the count is crossed, before JSON.parse reads the rest.
  prescanJson(body, resolved);
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    throw new BodyParseError('SBX_ERR_JSON_PARSE', `Invalid JSON body: ${(error as Error).message}`);
  }
  const copy = new JsonCopier(resolved);
  if (isJsonObject(data)) return copy.object(data, 0);
  const params: Params = {};
  setParam(params, '_json', copy.value(data, 1));
  return params;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Copies parsed JSON into parameter values, enforcing the limits on the way. */
class JsonCopier {
  readonly #limits: ResolvedParamLimits;
  #count = 0;

  constructor(limits: ResolvedParamLimits) {
    this.#limits = limits;
  }

  /** The members of `source`, whose own values sit at `depth`. */
  object(source: Record<string, unknown>, depth: number): ParamObject {
    const target: ParamObject = {};
    for (const key of Object.keys(source)) {
      this.#countOne();
      setParam(target, key, this.value(source[key], depth + 1));
    }
    return target;
  }

  /** One value whose children (if it has any) sit at `depth`. */
  value(source: unknown, depth: number): ParamValue {
    if (source === null || typeof source !== 'object') return source as ParamValue;
    if (depth > this.#limits.depth) {
      throw new ParamsParseError('SBX_ERR_PARAMS_DEPTH', `JSON body nested too deeply: the limit is ${this.#limits.depth} levels`);
    }
    if (!Array.isArray(source)) return this.object(source as Record<string, unknown>, depth);
    if (source.length > this.#limits.arrayLength) {
      throw new ParamsParseError('SBX_ERR_PARAMS_COUNT', `Too many elements in a JSON array: the limit is ${this.#limits.arrayLength}`);
    }
    const out: ParamValue[] = [];
    for (const element of source) {
      this.#countOne();
      if (element !== null) out.push(this.value(element, depth + 1));
    }
    return out;
  }

  #countOne(): void {
    if (++this.#count > this.#limits.keys) {
      throw new ParamsParseError('SBX_ERR_PARAMS_COUNT', `Too many parameters in a JSON body: the limit is ${this.#limits.keys}`);
    }
  }
}
