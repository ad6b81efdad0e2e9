/**
 * Query strings and url-encoded bodies, parsed as Rails 2.1 parses them
 * (`parse_query_parameters`): one parser for both, so `GET ?x=1` and a form
 * POST of `x=1` give the same parameters.
 *
 * Why not `qs`: it was configured as closely as it goes (strictNullHandling,
 * duplicates, depth/parameterLimit/arrayLimit with throwOnLimitExceeded, a
 * throwing decoder) and still differs on rules the request corpus asserts:
 *   - Rails binds pairs in arrival order, and in `x[y][][z]=10&x[y][][z]=20` the
 *     repeated `z` starts a second hash. qs decides duplicates per raw key before
 *     nesting: `duplicates: 'first'` drops the 20, `'combine'` also turns `a=1&a=2`
 *     into an array (invariant 6 forbids that), and its flat `depth: 0` mode
 *     groups values by key, losing the order the rule depends on.
 *   - `a[]=1&a[b]=2` must be refused (Rails' TypeError); qs merges it into `{0, b}`.
 *   - `a[1]` is a hash key in Rails; qs makes arrays (or throws, under arrayLimit).
 *   - Malformed names: `a/b[c]d=e` gives `{"a/b": {}}` in Rails, `{"a/b": {c: "e"}}`
 *     in qs; `[x]=1` is dropped by Rails, `{x: "1"}` in qs; `a=b]=c` is split at
 *     `]=` by qs.
 * So pairs are split here and bound by `NestedParams`, Rails' grammar in one small pass.
 */
import { ParamsParseError, PayloadTooLarge } from '../errors.ts';
import { resolveParamLimits, type ParamLimits } from './limits.ts';
import { hasMalformedEscape } from './env.ts';
import { NestedParams } from './nested-params.ts';
import type { Params } from './param-values.ts';

/**
 * Parameters of a query string or url-encoded body: `+` is a space, `%XX` escapes decode as
 * UTF-8 (a malformed escape, or escapes that are not UTF-8, is a 400), a name without `=` gives null, empty names are skipped,
 * the first value of a repeated plain key wins, and brackets nest (see `nested-params.ts`).
 * @example parseQuery('x[y][][z]=10&x[y][][w]=a') // { x: { y: [{ z: '10', w: 'a' }] } }
 */
export function parseQuery(query: string, limits?: ParamLimits): Params {
  const resolved = resolveParamLimits(limits);
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short strings skip the byte count.
  if (query.length * 3 > resolved.bodyBytes && Buffer.byteLength(query) > resolved.bodyBytes) {
    throw new PayloadTooLarge('bodyBytes', resolved.bodyBytes);
  }
  if (query.trim() === '') return {};
  const params = new NestedParams(resolved);
  for (const chunk of query.split('&')) {
    const eq = chunk.indexOf('=');
    const rawName = eq === -1 ? chunk : chunk.slice(0, eq);
    if (rawName === '') continue;
    params.add(unescapeParam(rawName), eq === -1 ? null : unescapeParam(chunk.slice(eq + 1)));
  }
  return params.result;
}

/**
 * Decodes one form-encoded name or value: `+` to space, then percent-escapes as UTF-8.
 * Malformed escapes and bytes that are not UTF-8 throw a 400 `ParamsParseError`.
 * @example unescapeParam('Don%27t+%26+Does') // "Don't & Does"
 */
export function unescapeParam(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Two different mistakes, told apart only now: an escape that is not `%XX`, and well-formed escapes
    // whose bytes are not UTF-8 (a form sent in Latin-1: `caf%E9`), which no malformed-escape message explains.
    const shown = JSON.stringify(text.slice(0, 100));
    throw new ParamsParseError('SBX_ERR_PARAMS_ENCODING', hasMalformedEscape(spaced)
      ? `Malformed %-escape in parameter ${shown}: a % must be followed by two hex digits (%25 for a % itself)`
      : `Parameter ${shown} is not UTF-8: its %-escapes decode to bytes that are not UTF-8 text (sent in another charset?)`);
  }
}
