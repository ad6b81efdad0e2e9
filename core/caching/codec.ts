/**
 * Cache values as JSON, for stores that keep text (the file and Redis
 * stores). JSON cannot hold bytes: they travel as `{ "$b": base64 }`, and
 * every key of the value's own objects that starts with `$` gets one more,
 * so no object of the value can pass for bytes.
 */
import type { CacheValue } from './store.ts';

/** The JSON-ready form of a value. */
export function encodeValue(value: CacheValue): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return { $b: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (Array.isArray(value)) return (value as readonly CacheValue[]).map(encodeValue);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) setOwn(out, k.startsWith('$') ? `$${k}` : k, encodeValue(v));
  return out;
}

/** The value a parsed `encodeValue` form stands for. */
export function decodeValue(value: unknown): CacheValue {
  if (value === null || typeof value !== 'object') return value as CacheValue;
  if (Array.isArray(value)) return value.map(decodeValue);
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  if (keys.length === 1 && keys[0] === '$b' && typeof record.$b === 'string') return new Uint8Array(Buffer.from(record.$b, 'base64'));
  const out: Record<string, CacheValue> = {};
  for (const k of keys) setOwn(out, k.startsWith('$') ? k.slice(1) : k, decodeValue(record[k]));
  return out;
}

// A key such as `__proto__` must stay a key: plain assignment would set the object's prototype instead.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
