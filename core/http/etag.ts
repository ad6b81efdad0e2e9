/**
 * ETags as every part of the framework makes and checks them: the quoted MD5
 * of the body, whether an If-None-Match header names one, and which
 * responses get one (a non-empty 200 without a validator of its own) with
 * the Cache-Control that goes with it. The freshness stage, the action cache
 * and cached pages all ask here, so they cannot disagree.
 */
import * as crypto from 'node:crypto';
import type { Response } from './response.ts';

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
 * The last few bodies are also kept aside, with their ETag and, once asked,
 * their length in UTF-8 bytes. A page rendered again is a new string of the
 * same text: comparing it with a recent one costs a pass over its bytes,
 * far less than the character-by-character hash a Map lookup needs, and the
 * respond stage's Content-Length then costs nothing.
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
  /** The last RECENT bodies digested or found, overwritten in turn. */
  readonly #recent: Recent[] = [];
  #nextRecent = 0;

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
    const recent = this.#recentOf(body);
    if (recent !== null) {
      this.#hits++;
      recent.seen++;
      return recent.tag;
    }
    let tag = this.#young.get(body);
    if (tag !== undefined) {
      this.#hits++;
      this.#keepRecent(body, tag);
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
    this.#keepRecent(body, tag);
    return tag;
  }

  /** The length of `body` in UTF-8 bytes: remembered for a recent body, counted otherwise. */
  byteLength(body: string): number {
    const recent = this.#recentOf(body);
    if (recent === null) return Buffer.byteLength(body);
    if (recent.length < 0) recent.length = Buffer.byteLength(body);
    return recent.length;
  }

  /** The UTF-8 bytes kept for `body`, when it is a recent body seen more than once and written since; else null. */
  bytesOf(body: string): Uint8Array | null {
    return this.#recentOf(body)?.bytes ?? null;
  }

  /**
   * Writes `body` as UTF-8 into `out` at `at` (room for three bytes per UTF-16 unit) and returns how many
   * bytes it wrote. A page rendered again is a new string of the same text: when it is a recent body whose
   * bytes were kept, they are copied, far cheaper than encoding it again, which for text outside Latin-1 is
   * a transcoding pass (about 0.6 µs for an 800-character page). Otherwise it is encoded, and its bytes are
   * kept (a copy of their own) once the same text has been seen twice, so unique bodies cost no copy.
   */
  writeUtf8(out: Buffer, body: string, at: number): number {
    const recent = this.#recentOf(body);
    if (recent !== null && recent.bytes !== null) {
      out.set(recent.bytes, at);
      return recent.bytes.length;
    }
    const length = out.write(body, at);
    if (recent !== null && recent.seen > 1) recent.bytes = new Uint8Array(out.subarray(at, at + length));
    return length;
  }

  /** The recent entry of the same text, now holding this very string (so the next look, by respond, is a pointer comparison). */
  #recentOf(body: string): Recent | null {
    const recent = this.#recent;
    for (let i = 0; i < recent.length; i++) {
      const entry = recent[i];
      // Strings of another length differ at once; equal ones are compared byte by byte, never hashed.
      if (entry.body === body) {
        entry.body = body;
        return entry;
      }
    }
    return null;
  }

  #keepRecent(body: string, tag: string): void {
    const entry: Recent = { body, tag, length: -1, seen: 1, bytes: null };
    if (this.#recent.length < RECENT) this.#recent.push(entry);
    else this.#recent[this.#nextRecent] = entry;
    this.#nextRecent = (this.#nextRecent + 1) % RECENT;
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

/** A recent body: its text, its quoted ETag, its UTF-8 length once asked (-1 before), how often its ETag was asked, and its UTF-8 bytes once kept. */
interface Recent {
  body: string;
  readonly tag: string;
  length: number;
  seen: number;
  bytes: Uint8Array | null;
}

/** How many recent bodies are compared before the Maps are asked: a page or two, with their JSON twins. */
const RECENT = 4;

const memo = new EtagMemo(md5Hex);

/** The ETag of a body, quoted. @example etagOf('hi') // '"49f68a5c8493ec2c0bf489821c21fc3b"' */
export function etagOf(body: string | Uint8Array): string {
  return memo.etag(body);
}

/** The body's length in bytes (UTF-8 for a string): what Content-Length says. A recent body's is remembered. */
export function byteLengthOf(body: string | Uint8Array): number {
  return typeof body === 'string' ? memo.byteLength(body) : body.byteLength;
}

/** `body` as UTF-8 into `out` at `at`, copied from the bytes kept with a recent body's ETag when there are some (EtagMemo#writeUtf8). Both transports write string bodies through here. */
export function writeBodyUtf8(out: Buffer, body: string, at: number): number {
  return memo.writeUtf8(out, body, at);
}

/** Whether an If-None-Match header names this ETag, its weak form, or `*`. */
export function ifNoneMatchNames(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** What a response with an ETag tells caches: keep it, but ask each time. */
export const REVALIDATE = 'private, max-age=0, must-revalidate';

/**
 * What the freshness stage will do to a response, done early: a non-empty 200 with no validator of
 * its own gets the MD5 ETag of its body. The ETag given, or null. The action cache calls it so that
 * the body it stores is digested once; the stage then finds the ETag already there.
 */
export function addBodyEtag(res: Response): string | null {
  return hasOwnValidator(res) ? null : giveBodyEtag(res);
}

/** An ETag or Last-Modified the action set: the response is then validated its own way. */
export function hasOwnValidator(res: Response): boolean {
  return res.etag !== undefined || res.header('Last-Modified') !== undefined;
}

/** Gives a non-empty 200 the ETag of its body; the ETag, or null when the response gets none. */
export function giveBodyEtag(res: Response): string | null {
  // A non-empty string has bytes: its length says so without encoding it (respond counts the bytes once).
  if (res.status !== 200 || (typeof res.body === 'string' ? res.body.length : res.body.byteLength) === 0) return null;
  const etag = etagOf(res.body);
  res.set_header('ETag', etag);
  return etag;
}
