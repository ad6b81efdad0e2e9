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
 * An error made without a stack trace: for refusals no log line or development page shows a trace of (no
 * route, a forged token, a bad Host: all before any application code runs; an unknown action; nothing
 * acceptable, answered with an empty 406). Capturing the trace was most of the cost of such an answer, which a flood of them
 * multiplies. Errors raised anywhere else keep their traces.
 */
export function untraced<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Node's longest timer, in ms (about 24.8 days): a timer set for longer fires after 1 ms instead. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * `value` without the run of the characters `codes` it ends with. A loop, where a pattern such as `/\/+$/`
 * is tried from every position of a long run, and even the lookbehind form (`/(?<!\/)\/+$/`), linear in
 * V8, is found backtracking by the ReDoS check on a loaded machine.
 */
export function withoutTrailing(value: string, codes: readonly number[]): string {
  let end = value.length;
  while (end > 0 && codes.includes(value.charCodeAt(end - 1))) end--;
  return end === value.length ? value : value.slice(0, end);
}

const SLASH = [0x2f];

/** `value` without the slashes it ends with. */
export function withoutTrailingSlashes(value: string): string {
  return withoutTrailing(value, SLASH);
}
