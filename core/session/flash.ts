/**
 * The flash: messages that survive exactly one redirect. Values set during a
 * request are kept in the session for the next one and then swept;
 * `flash.now` values are for the current request only.
 */

const STORED = 'flash';

export class Flash {
  readonly #values: Record<string, unknown>;
  readonly #keep: Set<string>;

  /** Restores the flash a previous request stored in `session`. */
  constructor(session: Record<string, unknown>) {
    const stored = session[STORED];
    this.#values = Object.create(null) as Record<string, unknown>;
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
      for (const [k, v] of Object.entries(stored)) this.#values[k] = v;
    }
    // Restored values are shown now and then dropped, unless kept again.
    this.#keep = new Set();
  }

  get(key: string): unknown {
    return this.#values[key];
  }

  /** Sets a value for the next request (and this one). */
  set(key: string, value: unknown): void {
    this.#values[key] = value;
    this.#keep.add(key);
  }

  /** Sets several values at once, as Rails' `flash.update`. */
  update(values: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(values)) this.set(k, v);
  }

  /** A value for this request only. */
  now(key: string, value: unknown): void {
    this.#values[key] = value;
    this.#keep.delete(key);
  }

  /** Keeps a restored value for one more request. */
  keep(key?: string): void {
    for (const k of key === undefined ? Object.keys(this.#values) : [key]) this.#keep.add(k);
  }

  discard(key?: string): void {
    for (const k of key === undefined ? [...this.#keep] : [key]) this.#keep.delete(k);
  }

  toJSON(): Record<string, unknown> {
    return { ...this.#values };
  }

  get empty(): boolean {
    return Object.keys(this.#values).length === 0;
  }

  /** Writes what the next request should see back into `session` (removing the key when nothing is left). */
  sweep(session: Record<string, unknown>): void {
    const next: Record<string, unknown> = {};
    for (const k of this.#keep) next[k] = this.#values[k];
    if (Object.keys(next).length > 0) session[STORED] = next;
    else if (STORED in session) delete session[STORED];
  }
}
