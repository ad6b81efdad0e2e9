/**
 * What request parameters hold, and the one way this layer writes them.
 * Internal to `core/request/`; the public names are re-exported by `params.ts`.
 *
 * Parameter objects have the ordinary prototype (so they behave like any
 * object), but every key is written with `Object.defineProperty` and the
 * names that reach prototypes (`__proto__`, `constructor`, `prototype`) are
 * never written at all: a client cannot make a key special.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';

/** A parameter value: strings from forms, typed values from JSON and XML, uploads, and nested arrays and hashes. */
export type ParamValue = string | null | number | boolean | Date | UploadedFile | ParamValue[] | ParamObject;
/** A nested hash of parameters. */
export interface ParamObject {
  [key: string]: ParamValue;
}
/** A request's parameters. */
export type Params = Record<string, ParamValue>;

const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** True for the names that address prototypes; parsers drop them (and what hangs below them). */
export function isUnsafeKey(key: string): boolean {
  return UNSAFE_KEYS.has(key);
}

/** Writes `key` as a plain data property: no setter runs, so no name is special. Unsafe names are ignored. */
export function setParam(target: ParamObject, key: string, value: ParamValue): void {
  if (UNSAFE_KEYS.has(key)) return;
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The own value under `key`; inherited members (`toString`...) read as absent. */
export function ownParam(target: ParamObject, key: string): ParamValue | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/**
 * Whether `value` is a parameter hash (not an array, upload or date): what a form's `post[title]`
 * fields or a JSON body's object become.
 * @example const attributes = isParamObject(this.params.post) ? this.params.post : {};
 */
export function isParamObject(value: unknown): value is ParamObject {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as a parameter string: UTF-8 when they are valid UTF-8, else one
 * character per byte (latin1), which keeps binary values intact the way
 * Ruby 1.8's byte strings did.
 */
export function bytesToText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
}

/**
 * The name to keep from a client-supplied upload path: what follows its last `/`, `\` or `:`
 * (IE sent full Windows paths). `.` and `..` give the empty string.
 * @example originalFilename('c:\\Documents and Settings\\foo\\Desktop\\bar.jpg') // 'bar.jpg'
 */
export function originalFilename(path: string): string {
  const base = path.replace(/^[\s\S]*[:\\/]/, '');
  return base === '.' || base === '..' ? '' : base;
}

/**
 * An uploaded file: a multipart part sent with a filename, or an XML element of type `file`.
 * Small uploads are held in memory; larger ones (over `config.limits.multipart.memoryBytes`, 10 KB
 * by default) were streamed to a temporary file, named by `path`, which is removed when the request
 * ends: copy or move it within the request to keep it.
 */
export class UploadedFile {
  /** The client's file name, reduced to a basename. */
  readonly original_filename: string;
  /** The part's declared type, or null when it declared none. */
  readonly content_type: string | null;
  readonly size: number;
  /** The temporary file holding the upload, or null when it is held in memory. */
  readonly path: string | null;
  #content: Buffer | null;

  constructor(content: Buffer, originalFilename: string, contentType: string | null);
  constructor(content: { readonly path: string; readonly size: number }, originalFilename: string, contentType: string | null);
  constructor(content: Buffer | { readonly path: string; readonly size: number }, originalFilename: string, contentType: string | null) {
    this.original_filename = originalFilename;
    this.content_type = contentType;
    if (Buffer.isBuffer(content)) {
      this.#content = content;
      this.path = null;
      this.size = content.length;
    } else {
      this.#content = null;
      this.path = content.path;
      this.size = content.size;
    }
  }

  /** The bytes (read from the temporary file, synchronously, the first time for a file-backed upload). */
  get content(): Buffer {
    return (this.#content ??= readFileSync(this.path!));
  }

  /** The content as a string (UTF-8, or one character per byte when it is not UTF-8). */
  read(): string {
    return bytesToText(this.content);
  }

  /** The content as a stream, read from the temporary file without holding it whole. */
  stream(): Readable {
    return this.path !== null && this.#content === null ? createReadStream(this.path) : Readable.from([this.content]);
  }

  /** What logs and JSON dumps show: the metadata, never the bytes. */
  toJSON(): { original_filename: string; content_type: string | null; size: number } {
    return { original_filename: this.original_filename, content_type: this.content_type, size: this.size };
  }
}

/**
 * A multipart part before typing, as Rails' CGI layer hands it over: bytes, the part's
 * Content-Type (null when absent) and the raw filename (null when absent). Parts with a
 * non-blank filename become `UploadedFile`s; the others become strings.
 */
export class UploadPart {
  constructor(
    /** The bytes, or the temporary file they were streamed to. */
    readonly content: Buffer | { readonly path: string; readonly size: number },
    readonly content_type: string | null = null,
    readonly original_path: string | null = null,
  ) {}
}
