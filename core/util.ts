/**
 * Small helpers with no home of their own, used by several rungs of core/
 * (routing, controllers, caching). They depend on nothing.
 */

/** A hash literal (`{ ... }` or `Object.create(null)`), not an array, a class instance or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
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
