/**
 * The tunnel client's side of a response frame: the `fetch`-like
 * `TunnelResponse`, and base64 without Node's `Buffer` for browsers.
 * Internal to `tunnel-client.ts` (the types are public through it).
 */
import type { FrameId, ResponseFrame } from './tunnel-frames.ts';

export interface TunnelResponse {
  readonly id: FrameId;
  readonly status: number;
  /** Whether the status is 2xx. */
  readonly ok: boolean;
  /** The app's own reason phrase when it set one, else ''. */
  readonly statusText: string;
  readonly headers: {
    /** A header by any case; repeated values joined with `, `; null when absent. */
    get(name: string): string | null;
    /** Every `Set-Cookie` line. */
    getSetCookie(): string[];
    readonly raw: Readonly<Record<string, string | string[]>>;
  };
  readonly body: Uint8Array;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// A record's body is the text's own bytes: a leading BOM is part of the text, as it is in a text frame's body.
const recordDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A response frame read lazily: the bytes are made only when asked for (most callers want text or JSON). */
export class FrameResponse implements TunnelResponse {
  readonly id: FrameId;
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: FrameHeaders;
  readonly #text: string | null;
  readonly #base64: string;
  /** A binary record's body, as received (a view into the frame it came in). */
  readonly #raw: Uint8Array | null;
  #bytes: Uint8Array | null = null;

  /** `raw`: the body bytes of a record of the batching protocol, whose head carries no body. */
  constructor(frame: ResponseFrame, raw: Uint8Array | null = null) {
    this.id = frame.id;
    this.status = frame.status;
    this.ok = frame.status >= 200 && frame.status < 300;
    this.statusText = frame.reason ?? '';
    this.headers = new FrameHeaders(frame.headers as Record<string, string | string[]>);
    this.#text = typeof frame.body === 'string' ? frame.body : null;
    this.#base64 = frame.bodyBase64 ?? '';
    this.#raw = raw;
  }

  get body(): Uint8Array {
    // A record's bytes are copied out, so that the body's buffer holds this body only.
    return (this.#bytes ??= this.#raw !== null ? this.#raw.slice() : this.#text !== null ? encoder.encode(this.#text) : fromBase64(this.#base64));
  }

  async text(): Promise<string> {
    return this.#readText();
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#readText()) as unknown;
  }

  #readText(): string {
    if (this.#text !== null) return this.#text;
    return this.#raw !== null ? recordDecoder.decode(this.#raw) : decoder.decode(this.body);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.body;
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }
}

class FrameHeaders {
  readonly raw: Readonly<Record<string, string | string[]>>;

  constructor(raw: Record<string, string | string[]>) {
    this.raw = raw;
  }

  get(name: string): string | null {
    const value = this.#find(name);
    return value === undefined ? null : typeof value === 'string' ? value : value.join(', ');
  }

  getSetCookie(): string[] {
    const value = this.#find('set-cookie');
    return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
  }

  #find(name: string): string | string[] | undefined {
    if (Object.hasOwn(this.raw, name)) return this.raw[name];
    const lower = name.toLowerCase();
    // Only names of the same length can match: no lower-casing of every header on every look-up.
    for (const key of Object.keys(this.raw)) if (key.length === lower.length && key.toLowerCase() === lower) return this.raw[key];
    return undefined;
  }
}

type BufferLike = { from(data: Uint8Array | string, encoding?: string): Uint8Array & { toString(encoding: string): string } };

function nodeBuffer(): BufferLike | undefined {
  return (globalThis as { Buffer?: BufferLike }).Buffer;
}

export function toBase64(bytes: Uint8Array): string {
  const buffer = nodeBuffer();
  if (buffer !== undefined) return buffer.from(bytes).toString('base64');
  let binary = '';
  // In slices: String.fromCharCode with a huge argument list overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const buffer = nodeBuffer();
  if (buffer !== undefined) return buffer.from(text, 'base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
