/**
 * One request's session. From a synchronous store it is loaded only when an
 * action first touches it, so requests that never use the session never
 * pay for it; an asynchronous store's is loaded by `prepare()` before the
 * action runs.
 */
import { ArgumentError } from '../errors.ts';
import { Flash } from './flash.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { MaybePromise, SessionData, SessionStore } from './store.ts';
import { isThenable } from '../util.ts';

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

  /**
   * Loads the session now when the store is asynchronous (a promise then, unless the store could
   * answer at once: no session cookie, say); does nothing for a synchronous store.
   */
  prepare(): MaybePromise<void> {
    if (this.#store.asynchronous !== true || this.#data !== null) return;
    const loaded = this.#store.load(this.#request);
    if (isThenable(loaded)) return Promise.resolve(loaded).then((data) => this.#loaded(data));
    this.#loaded(loaded);
  }

  /** The session data, loaded on first use. */
  get data(): SessionData {
    if (this.#data === null) {
      const loaded = this.#store.load(this.#request);
      if (isThenable(loaded)) {
        Promise.resolve(loaded).catch(() => {});
        throw new ArgumentError('The session store answered load() with a promise: an asynchronous store declares asynchronous: true, so the session is loaded before the action runs');
      }
      this.#loaded(loaded);
    }
    return this.#data!;
  }

  #loaded(data: SessionData): void {
    // A reset before the load finished wins.
    if (this.#data !== null) return;
    this.#data = data;
    this.#loadedAs = JSON.stringify(data);
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

  /** Sweeps the flash and writes the session back when it changed (a promise when the store is asynchronous). */
  commit(response: Response): MaybePromise<void> {
    if (this.#data === null) return;
    this.#flash?.sweep(this.#data);
    const changed = JSON.stringify(this.#data) !== this.#loadedAs;
    return this.#store.commit(this.#request, response, this.#data, { changed, reset: this.#reset });
  }
}
