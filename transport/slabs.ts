/**
 * Bytes written into shared slabs, as `Buffer.from` cuts small strings from
 * Node's pool, but without a pass to measure them first: a writer asks for
 * room for at most `most` bytes (three per UTF-16 unit covers any string),
 * writes, and marks where it ended. What is used of a slab is never written
 * again, so every piece stays valid while anything holds it, and a slab is
 * freed with its last piece.
 *
 * @example const out = slabs.room(text.length * 3, () => Buffer.byteLength(text)); const start = slabs.at; const piece = slabs.cut(out, start, start + out.write(text, start));
 */
export class Slabs {
  #slab: Buffer | null = null;
  #used = 0;
  /** Where the room `room()` gave starts in the buffer it returned. */
  at = 0;

  /** `size`: the bytes of one slab; a piece of more than a quarter of it gets a buffer of its own. */
  constructor(readonly size: number) {}

  /** A buffer with room for at most `most` bytes from `at`: the slab, or, for a large piece, one of the exact size `exact()` measures. */
  room(most: number, exact: () => number): Buffer {
    if (most > this.size / 4) {
      this.at = 0;
      return Buffer.allocUnsafe(exact());
    }
    if (this.#slab === null || most > this.size - this.#used) {
      this.#slab = Buffer.allocUnsafeSlow(this.size);
      this.#used = 0;
    }
    this.at = this.#used;
    return this.#slab;
  }

  /** Marks the bytes of `out` up to `end` as used, when `out` is the slab. */
  used(out: Buffer, end: number): void {
    // Pieces start 8-byte aligned, as Node's pool aligns them.
    if (out === this.#slab) this.#used = (end + 7) & ~7;
  }

  /** The bytes written, from `start` to `end` (marked used). */
  cut(out: Buffer, start: number, end: number): Buffer {
    this.used(out, end);
    return out === this.#slab || start !== 0 || end !== out.length ? out.subarray(start, end) : out;
  }
}

/**
 * The bytes of `piece` in a buffer of their own. A piece that waits in a socket's queue keeps its whole
 * slab alive: a reader that stops reading, sent small answers while other connections fill slab after
 * slab, would hold a slab per answer, memory out of all proportion to the bytes it is owed. So a writer
 * whose socket already has bytes waiting sends copies, and a reader that fell behind holds at most the
 * slabs of what was written before it did.
 */
export function ownBytes(piece: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(piece.length);
  piece.copy(copy);
  return copy;
}
