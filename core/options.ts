/**
 * Options given by hand, checked where they are given: `serve()`, `createApp`, the stores, controller
 * declarations and the tunnel client all name an option they do not take (and the one it most likely
 * meant), and describe a value of the wrong type, the same way, with an `ArgumentError`.
 */
import { ArgumentError } from './errors.ts';

/**
 * Throws an `ArgumentError` when `options` is not an object, or names the first of its keys that is not in
 * `known`: a misspelt key would otherwise leave its setting at the default without a word.
 */
export function checkOptionNames(owner: string, options: unknown, known: ReadonlySet<string>): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new ArgumentError(`${owner} options must be an object, not ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`);
  const unknown = unknownOption(owner, options, known);
  if (unknown !== null) throw new ArgumentError(unknown);
}

/**
 * An options hash as the types of the options it belongs to are written: every key may be left out or
 * given as `undefined`, and either means the default. A consumer compiling with
 * `exactOptionalPropertyTypes` can then pass a value that may be missing (`url: process.env.REDIS_URL`).
 */
export type Options<T> = { [K in keyof T]?: T[K] | undefined };

/**
 * The entries of `options` that hold a value: a key given as `undefined` counts as not given, as every
 * option check reads it, so that `{ ...defaults, ...givenOptions(options) }` keeps the default where a
 * plain spread would replace it with `undefined` (`config: { perform_caching: undefined }` turning the
 * cache off, `forgeryExemptTypes: undefined` failing every request). `Object.fromEntries` defines each
 * key as data, so a `__proto__` key stays a key and never becomes the result's prototype.
 */
export function givenOptions<T extends object>(options: T | undefined): Partial<T> {
  if (options === undefined) return {};
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * What to add to an error about a value written as a Ruby symbol in a string (`':comments'`, `':put'`), as a
 * routes file ported by hand from `:has_many => :comments` has it: the same name without its colon. Empty
 * for any other value.
 */
export function rubySymbolHint(value: unknown): string {
  return typeof value === 'string' && /^:\w+$/.test(value) ? ` (a Ruby symbol is written here as a plain string: ${JSON.stringify(value.slice(1))})` : '';
}

/** A value as an error message shows it: text quoted (the first 40 characters), a number as itself, else its kind. */
export function shownValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

/**
 * The first key of `options` that is not in `known`, as the message of the error to raise, or null. The
 * message points at the known name the key most likely meant: one that differs only in case and underscores
 * (`max_body_bytes`, `publicdir`: options mix Rails' snake_case names with camelCase ones Signalbox adds), or
 * else one within two typing slips of it (`onl`, `excpet`).
 * @example unknownOption('serve()', { max_body: 1 }, new Set(['maxBody'])) // 'Unknown serve() option "max_body" (did you mean maxBody?)'
 */
export function unknownOption(owner: string, options: object, known: ReadonlySet<string>): string | null {
  for (const key of Object.keys(options)) {
    if (known.has(key)) continue;
    const meant = meantName(key, known);
    return `Unknown ${owner} option ${JSON.stringify(key)}${meant === null ? '' : ` (did you mean ${meant}?)`}`;
  }
  return null;
}

/** The name in `known` that `key` most likely meant (same but for case and underscores, else within two slips), or null. */
export function meantName(key: string, known: ReadonlySet<string>): string | null {
  const loose = looseName(key);
  for (const name of known) if (looseName(name) === loose) return name;
  if (key.length < 3) return null;
  for (const name of known) if (editDistanceAtMost(loose, looseName(name), 2)) return name;
  return null;
}

const looseName = (name: string): string => name.replace(/_/g, '').toLowerCase();

/** Whether `a` becomes `b` by at most `limit` insertions, deletions, substitutions or swaps of neighbours. */
function editDistanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  // Optimal string alignment distance, rows of the usual table; names are short.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] <= limit;
}
