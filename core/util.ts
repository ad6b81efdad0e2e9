/**
 * Small helpers with no home of their own, used by several rungs of core/
 * (routing, controllers, caching). They depend on nothing.
 */

/**
 * What a bare record inherits: nothing. Its prototype is an empty, frozen object with no prototype of its own.
 * Built with `new`, such records start in V8's fast mode and share their shapes; `Object.create(null)` makes a
 * dictionary, slow to fill and to read, and `Object.setPrototypeOf(record, null)` costs about 70 ns a call, which
 * for a request's headers was 1–2% of a tunnelled request's server time.
 */
class Bare {}
delete (Bare.prototype as { constructor?: unknown }).constructor;
Object.setPrototypeOf(Bare.prototype, null);
Object.freeze(Bare.prototype);

/**
 * An empty record that inherits nothing (no `toString`, no `__proto__` accessor, no `constructor`), for
 * data keyed by names that come from outside, such as a request's headers.
 * @example const headers = bareRecord<string>(); 'constructor' in headers // false
 */
export function bareRecord<T>(): Record<string, T> {
  return new Bare() as Record<string, T>;
}

/** A hash literal (`{ ... }`, `Object.create(null)` or a `bareRecord()`), not an array, a class instance or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || proto === Bare.prototype;
}

/** `text` as a RegExp source matching itself literally. @example escapeRegExp('a.b') // 'a\\.b' */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/**
 * Whether `value` is a promise or any other thenable (an object or function with a `then` method),
 * which is what `await` waits for. Code that can finish synchronously asks this instead of
 * `instanceof Promise`, so a thenable from another realm or library is awaited too.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * `next(value)` at once when `value` is not a thenable, else a promise of `next` applied to what it
 * settles to (`failed`, when given, takes a rejection). The synchronous path stays synchronous: most
 * requests never wait on anything, and each promise hop costs a turn of the microtask queue.
 * @example thenOrNow(filter(c), () => action(c))
 */
export function thenOrNow<T, R>(value: T | PromiseLike<T>, next: (value: T) => R, failed?: (error: unknown) => R): R | Promise<Awaited<R>> {
  if (!isThenable(value)) return next(value as T);
  return Promise.resolve(value).then(next, failed) as Promise<Awaited<R>>;
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
