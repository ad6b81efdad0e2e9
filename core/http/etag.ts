/**
 * ETags as every part of the framework makes and checks them: the quoted MD5
 * of the body, and whether an If-None-Match header names one.
 */
import * as crypto from 'node:crypto';

// crypto.hash (Node 20.12+) digests in one call, without a Hash object per response.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash;
const md5Hex = oneShot
  ? (body: string | Uint8Array) => oneShot('md5', body, 'hex')
  : (body: string | Uint8Array) => crypto.createHash('md5').update(body).digest('hex');

export interface EtagMemoOptions {
  /** Bodies remembered per generation (two generations are kept). */
  readonly capacity?: number;
  /** Longest string body remembered, in UTF-16 units. */
  readonly max_chars?: number;
}

/**
 * Remembers the ETags of recent string bodies. Bodies repeat (the same page
 * for every visitor, the same JSON until the record changes), and finding a
 * string in a Map costs about half an MD5 of it. Entries live for two
 * generations, so a body asked for again stays. When a whole generation saw
 * few repeats (every body unique), the memo stands aside for eight
 * generations' worth of bodies, so unique bodies pay almost nothing for it.
 *
 * @example const memo = new EtagMemo(md5); memo.etag('<p>hi</p>') // computed; the second call is looked up
 */
export class EtagMemo {
  readonly #digest: (body: string | Uint8Array) => string;
  readonly #capacity: number;
  readonly #maxChars: number;
  #young = new Map<string, string>();
  #old = new Map<string, string>();
  #hits = 0;
  #misses = 0;
  /** Bodies still to digest without the memo after a generation of mostly unique bodies. */
  #standAside = 0;

  constructor(digest: (body: string | Uint8Array) => string, options: EtagMemoOptions = {}) {
    this.#digest = digest;
    this.#capacity = options.capacity ?? 512;
    // V8 hashes strings longer than 16,383 units by their length alone, so a Map of long strings degrades to comparisons.
    this.#maxChars = Math.min(options.max_chars ?? 16_383, 16_383);
  }

  /** The quoted ETag of `body`. */
  etag(body: string | Uint8Array): string {
    if (typeof body !== 'string' || body.length > this.#maxChars) return `"${this.#digest(body)}"`;
    if (this.#standAside > 0) {
      this.#standAside--;
      return `"${this.#digest(body)}"`;
    }
    let tag = this.#young.get(body);
    if (tag !== undefined) {
      this.#hits++;
      return tag;
    }
    tag = this.#old.get(body);
    if (tag !== undefined) this.#hits++;
    else {
      this.#misses++;
      tag = `"${this.#digest(body)}"`;
    }
    this.#young.set(body, tag);
    if (this.#young.size >= this.#capacity) this.#rotate();
    return tag;
  }

  /** What the memo holds and has done, for tests and diagnostics. */
  get stats(): { readonly size: number; readonly hits: number; readonly misses: number; readonly standing_aside: number } {
    return { size: this.#young.size + this.#old.size, hits: this.#hits, misses: this.#misses, standing_aside: this.#standAside };
  }

  #rotate(): void {
    const repeats = this.#hits;
    const fresh = this.#misses;
    this.#hits = 0;
    this.#misses = 0;
    if (repeats * 8 < fresh) {
      this.#young = new Map();
      this.#old = new Map();
      this.#standAside = this.#capacity * 8;
      return;
    }
    this.#old = this.#young;
    this.#young = new Map();
  }
}

const memo = new EtagMemo(md5Hex);

/** The ETag of a body, quoted. @example etagOf('hi') // '"49f68a5c8493ec2c0bf489821c21fc3b"' */
export function etagOf(body: string | Uint8Array): string {
  return memo.etag(body);
}

/** Whether an If-None-Match header names this ETag, its weak form, or `*`. */
export function ifNoneMatchNames(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
