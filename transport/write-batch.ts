/**
 * Coalesced response writes. Under load, one turn of the event loop reads
 * requests from many connections; answering each at once interleaves every
 * request's work with a write system call, and each write wakes the peer on
 * its own. Holding the answers until the loop has read everything ready
 * (`setImmediate` runs right after the poll phase) and then writing them
 * back to back keeps the pipeline's code hot and lets a client's event loop
 * collect many answers per wake-up. A full batch is written at once, so no
 * answer waits behind more than `max` others.
 *
 * @example const batch = new WriteBatch(writeOne, 64); batch.add(res, response)
 */
export class WriteBatch<T, M> {
  readonly #targets: T[] = [];
  readonly #messages: M[] = [];
  #scheduled = false;

  /** `write` sends one answer; it must not throw (report failures itself). */
  constructor(readonly write: (target: T, message: M) => void, readonly max = 64) {}

  /** Queues an answer; it is written once the event loop has read what is ready, or when the batch is full. */
  add(target: T, message: M): void {
    this.#targets.push(target);
    this.#messages.push(message);
    if (this.#targets.length >= this.max) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#onImmediate);
    }
  }

  /** How many answers wait. */
  get size(): number {
    return this.#targets.length;
  }

  /** Writes every queued answer now, in arrival order. */
  flush(): void {
    const targets = this.#targets;
    const messages = this.#messages;
    // Writing may settle more requests synchronously; they join this flush rather than wait for the next.
    for (let i = 0; i < targets.length; i++) this.write(targets[i], messages[i]);
    targets.length = 0;
    messages.length = 0;
  }

  readonly #onImmediate = (): void => {
    this.#scheduled = false;
    this.flush();
  };
}
