/**
 * One request's session, loaded from the store only when an action first
 * touches it, so requests that never use the session never pay for it.
 */
import { Flash } from './flash.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { SessionData, SessionStore } from './store.ts';

export class SessionHandle {
  readonly #store: SessionStore;
  readonly #request: Request;
  #data: SessionData | null = null;
  #loadedAs = '';
  #flash: Flash | null = null;
  #reset = false;

  constructor(store: SessionStore, request: Request) {
    this.#store = store;
    this.#request = request;
  }

  /** The session data, loaded on first use. */
  get data(): SessionData {
    if (this.#data === null) {
      this.#data = this.#store.load(this.#request);
      this.#loadedAs = JSON.stringify(this.#data);
    }
    return this.#data;
  }

  get loaded(): boolean {
    return this.#data !== null;
  }

  /** The session's id when the store keeps sessions by id; null otherwise. */
  get id(): string | null {
    return this.#store.session_id?.(this.#request) ?? null;
  }

  /** The flash, restored from the session on first use. */
  get flash(): Flash {
    return (this.#flash ??= new Flash(this.data));
  }

  /** The flash if this request has looked at it (without restoring it otherwise). */
  get loadedFlash(): Flash | null {
    return this.#flash;
  }

  /** Drops everything in the session (Rails' `reset_session`); the next response starts a new one. */
  reset(): void {
    this.#data = {};
    this.#flash = null;
    this.#reset = true;
  }

  /** Sweeps the flash and writes the session back when it changed. */
  commit(response: Response): void {
    if (this.#data === null) return;
    this.#flash?.sweep(this.#data);
    const changed = JSON.stringify(this.#data) !== this.#loadedAs;
    this.#store.commit(this.#request, response, this.#data, { changed, reset: this.#reset });
  }
}
