/**
 * The flash: messages that survive exactly one redirect. Values set during a
 * request are kept in the session for the next one and then swept;
 * `flash.now` values are for the current request only.
 */

const STORED = 'flash';
// Symbols, not private fields: the flash is reached through a Proxy (below), and a private field cannot be read through one.
const VALUES = Symbol('signalbox.flash.values');
const KEEP = Symbol('signalbox.flash.keep');

/**
 * Rails' `flash[:notice] = 'Saved'` and `flash[:notice]`, ported as `flash.notice = 'Saved'` and
 * `flash.notice` (or `flash['notice']`): any name that is not one of the flash's own members reads and
 * sets a message, as `get` and `set` do. Without this the assignment made a property the flash never
 * stored, and the message was lost without a word.
 */
const MESSAGES: ProxyHandler<Flash> = {
  get(target, key, receiver) {
    if (typeof key !== 'string' || key in target) return Reflect.get(target, key, receiver);
    return target.get(key);
  },
  set(target, key, value) {
    if (typeof key !== 'string') return false;
    if (key in target) throw new TypeError(`flash.${key} is the flash's own ${key === 'empty' ? 'property' : 'method'}, not a message: use flash.set(${JSON.stringify(key)}, …)`);
    target.set(key, value);
    return true;
  },
  has(target, key) {
    return typeof key === 'string' && !(key in target) ? target.get(key) !== undefined : key in target;
  },
};

export class Flash {
  /** A message by name, as Rails' `flash[:notice]`: read it and set it like a property (`flash.notice = 'Saved'`). */
  [message: string]: unknown;
  readonly [VALUES]: Record<string, unknown>;
  readonly [KEEP]: Set<string>;

  /** Restores the flash a previous request stored in `session`. */
  constructor(session: Record<string, unknown>) {
    const stored = session[STORED];
    this[VALUES] = Object.create(null) as Record<string, unknown>;
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
      for (const [k, v] of Object.entries(stored)) this[VALUES][k] = v;
    }
    // Restored values are shown now and then dropped, unless kept again.
    this[KEEP] = new Set();
    return new Proxy(this, MESSAGES);
  }

  get(key: string): unknown {
    return this[VALUES][key];
  }

  /** Sets a value for the next request (and this one). */
  set(key: string, value: unknown): void {
    this[VALUES][key] = value;
    this[KEEP].add(key);
  }

  /** Sets several values at once, as Rails' `flash.update`. */
  update(values: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(values)) this.set(k, v);
  }

  /** A value for this request only. */
  now(key: string, value: unknown): void {
    this[VALUES][key] = value;
    this[KEEP].delete(key);
  }

  /** Keeps a restored value for one more request. */
  keep(key?: string): void {
    for (const k of key === undefined ? Object.keys(this[VALUES]) : [key]) this[KEEP].add(k);
  }

  discard(key?: string): void {
    for (const k of key === undefined ? [...this[KEEP]] : [key]) this[KEEP].delete(k);
  }

  toJSON(): Record<string, unknown> {
    return { ...this[VALUES] };
  }

  get empty(): boolean {
    return Object.keys(this[VALUES]).length === 0;
  }

  /** Writes what the next request should see back into `session` (removing the key when nothing is left). */
  sweep(session: Record<string, unknown>): void {
    const next: Record<string, unknown> = {};
    for (const k of this[KEEP]) next[k] = this[VALUES][k];
    if (Object.keys(next).length > 0) session[STORED] = next;
    else if (STORED in session) delete session[STORED];
  }
}
