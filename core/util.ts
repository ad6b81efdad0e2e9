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
