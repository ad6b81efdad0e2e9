/**
 * A route's fixed values that are not text: a list (`path: ['home']`) or a hash (`member: { remove: 'get' }`,
 * which `with_options` hands to the named routes inside it, or a misspelt `:requirements`). Rails kept such a
 * value in the route as it was given: `parameter_shell` put it in every recognition's params, `Route#defaults`
 * in every named helper's options, and generation took the route only when the options held an equal value
 * (`hash[:key] == value`). Here the value is frozen once at declaration, its leaves turned into parameter text,
 * and each recognition gets its own copy, as each Rails request built its params afresh.
 */
import { ArgumentError } from '../errors.ts';
import { isRequirementInput } from './requirement.ts';
import { isPlainObject, toParam } from './params.ts';
import type { FixedHash, FixedLeaf, ParamLeaf } from './types.ts';

// Declarations are code, so only a cyclic value can nest without end; this depth says so instead of overflowing.
const MAX_DEPTH = 32;

/** A hash given as an option, frozen with its leaves as parameter text; refused when it nests without end. */
export function fixedHash(key: string, value: Record<string, unknown>): FixedHash {
  return fixedObject(key, value, 0);
}

function fixedObject(key: string, value: Record<string, unknown>, depth: number): FixedHash {
  if (depth > MAX_DEPTH) throw new ArgumentError(`:${key} nests hashes or lists more than ${MAX_DEPTH} deep (does it contain itself?)`);
  const out: Record<string, FixedLeaf> = {};
  for (const name of Object.keys(value)) {
    // Parameter names become object keys; this one would reach the copy's prototype instead.
    if (name === '__proto__') throw new ArgumentError(`__proto__ cannot name a key of the hash given for :${key}`);
    out[name] = fixedLeaf(key, value[name], depth + 1);
  }
  return Object.freeze(out);
}

function fixedLeaf(key: string, value: unknown, depth: number): FixedLeaf {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    if (depth > MAX_DEPTH) throw new ArgumentError(`:${key} nests hashes or lists more than ${MAX_DEPTH} deep (does it contain itself?)`);
    return Object.freeze(value.map((v: unknown) => fixedLeaf(key, v, depth + 1)));
  }
  // A pattern inside the hash is kept as its text: params hold text, and Rails compared it only with ==.
  if (isPlainObject(value) && !isRequirementInput(value) && typeof value.to_param !== 'function') return fixedObject(key, value, depth);
  return toParam(value) ?? '';
}

/** True for a fixed hash, as against a fixed value, list, pattern or nil. */
export function isFixedHash(value: unknown): value is FixedHash {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { source?: unknown }).source !== 'string';
}

/** A recognition's own copy of a fixed list or hash: what one action does to it, the next request does not see. */
export function copyFixed(value: FixedLeaf): ParamLeaf {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyFixed);
  const out: Record<string, ParamLeaf> = {};
  for (const name of Object.keys(value)) out[name] = copyFixed((value as FixedHash)[name]);
  return out;
}

/** Rails' `hash[key] == value` for a fixed value: text by `to_param`, a boolean itself, a list only a list, a hash only a hash. */
export function matchesFixedLeaf(given: unknown, fixed: FixedLeaf): boolean {
  if (fixed === null || typeof fixed === 'string') return toParam(given) === fixed;
  // Ruby's true and false equal only themselves: not the text "true", nor a key left out.
  if (typeof fixed === 'boolean') return given === fixed;
  if (Array.isArray(fixed)) {
    return Array.isArray(given) && given.length === fixed.length && given.every((v, i) => matchesFixedLeaf(v, fixed[i]));
  }
  if (!isPlainObject(given)) return false;
  const hash = fixed as FixedHash;
  const names = Object.keys(hash);
  const givenNames = Object.keys(given).filter((name) => given[name] !== undefined);
  return givenNames.length === names.length && names.every((name) => Object.prototype.hasOwnProperty.call(given, name) && matchesFixedLeaf(given[name], hash[name]));
}
