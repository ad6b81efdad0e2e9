/**
 * multipart/form-data bodies (POST or PUT), read with busboy and bound by
 * Rails' rules: parts are grouped by name into `[name, values]` pairs and
 * handed to `parseRequestParameters`. A part with a non-blank filename is an
 * `UploadedFile`; any other part, whatever its Content-Type, is a string.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type Busboy from 'busboy';
import { BodyParseError, PayloadTooLarge, SignalboxError } from '../errors.ts';
import type { UploadFiles } from './upload-files.ts';
import { resolveParamLimits, type ParamLimits } from './limits.ts';
import { UploadPart, bytesToText, type Params } from './param-values.ts';
import { parseRequestParameters } from './request-parameters.ts';

// Loaded with the first multipart body, not with the app.
const requireHere = createRequire(import.meta.url);
let busboyModule: typeof Busboy | null = null;
const busboy = (config: Busboy.BusboyConfig): Busboy.Busboy => (busboyModule ??= requireHere('busboy') as typeof Busboy)(config);

/**
 * Parameters of a multipart body: bytes, or chunks as they arrive (a transport streams uploads
 * rather than holding them). `contentType` is the request's whole Content-Type header (its boundary
 * is needed). With `uploads`, a file part larger than `multipart.memoryBytes` is streamed to a
 * temporary file recorded there (for removal once the request ends); without, it is held in memory.
 * Malformed bodies reject with a 400 `BodyParseError`, and a body over a part, file or size limit
 * with a 413 `PayloadTooLarge`; either way, only once every file it started is closed.
 * @example await parseMultipart(body, 'multipart/form-data; boundary=AaB03x') // { foo: 'bar', file: UploadedFile }
 */
export function parseMultipart(body: Uint8Array | AsyncIterable<Uint8Array>, contentType: string, limits?: ParamLimits, uploads?: UploadFiles): Promise<Params> {
  const resolved = resolveParamLimits(limits);
  const { multipart } = resolved;
  // busboy also reads url-encoded bodies; this parser is for form-data only.
  if (!/^multipart\/form-data(?:[\s;]|$)/i.test(contentType.trimStart())) {
    return Promise.reject(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${JSON.stringify(contentType.slice(0, 100))} is not multipart/form-data`));
  }
  let parser: Busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // Filenames are reduced to basenames when typed (Windows paths included), not by busboy.
      preservePath: true,
      // latin1 keeps every byte of a field; fieldText turns valid UTF-8 back into text.
      defCharset: 'latin1',
      defParamCharset: 'utf8',
      limits: { parts: multipart.parts, files: multipart.files, fileSize: multipart.fileBytes, fieldSize: multipart.fieldBytes },
    });
  } catch (error) {
    // busboy throws synchronously for a missing boundary or a non-multipart type.
    return Promise.reject(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${(error as Error).message}`));
  }

  return new Promise<Params>((resolve, reject) => {
    let failure: Error | null = null;
    const parts: Part[] = [];
    const groups = new Map<string, (string | UploadPart | Part)[]>();
    let wake: (() => void) | null = null;
    const fail = (error: Error): void => {
      if (failure !== null) return;
      failure = error;
      wake?.();
      // Rejected once every file under way is closed, so none is written after the request is over.
      void Promise.allSettled(parts.map((p) => p.abort())).then(() => reject(error));
    };
    const add = (name: string | undefined, value: string | UploadPart | Part): void => {
      // busboy reports a missing or empty name as undefined: Rails skips such parts.
      if (name === undefined || name === '') return;
      const values = groups.get(name);
      if (values) values.push(value);
      else groups.set(name, [value]);
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(tooLarge('multipart.fieldBytes', multipart.fieldBytes));
      add(name, fieldText(value));
    });
    parser.on('file', (name, stream, info) => {
      // A part cut off before its closing delimiter errors its own stream, not the parser: without
      // this listener that error would be an uncaught exception and end the process.
      stream.on('error', (error: Error) => fail(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${error.message}`)));
      if (failure !== null) return void stream.resume();
      // An application/octet-stream part without a filename is a string to Rails: kept in memory, bounded as a field.
      const named = info.filename !== undefined;
      const part = new Part(stream, named && uploads !== undefined ? multipart.memoryBytes : Infinity, uploads, named ? Infinity : multipart.fieldBytes, fail);
      parts.push(part);
      stream.on('limit', () => fail(tooLarge('multipart.fileBytes', multipart.fileBytes)));
      add(name, part);
      part.typed = (content) => (named ? new UploadPart(content, info.mimeType === UNTYPED ? null : info.mimeType, info.filename) : bytesToText(content as Buffer));
    });
    parser.on('partsLimit', () => fail(tooLarge('multipart.parts', multipart.parts, `Too many parts in a multipart body: the limit is ${multipart.parts}`)));
    parser.on('filesLimit', () => fail(tooLarge('multipart.files', multipart.files, `Too many files in a multipart body: the limit is ${multipart.files}`)));
    parser.on('error', (error: Error) => fail(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${error.message}`)));
    parser.on('drain', () => wake?.());
    const closed = new Promise<void>((done) => parser.on('close', done));

    void (async () => {
      try {
        for await (const chunk of markUntypedParts(chunksOf(body), contentType)) {
          if (failure !== null) return;
          if (!parser.write(chunk)) await new Promise<void>((go) => { wake = go; });
          wake = null;
        }
        if (failure !== null) return;
        parser.end();
        await closed;
        const pairs: [string, (string | UploadPart)[]][] = [];
        for (const [name, values] of groups) pairs.push([name, await Promise.all(values.map((v) => (v instanceof Part ? v.done() : v)))]);
        if (failure !== null) return;
        resolve(parseRequestParameters(pairs, resolved));
      } catch (error) {
        fail(error instanceof SignalboxError ? error : error instanceof Error && error.name === 'Unavailable' ? error : new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${(error as Error).message}`));
      }
    })();
  });
}

/** The body as chunks: bytes are one chunk. */
async function* chunksOf(body: Uint8Array | AsyncIterable<Uint8Array>): AsyncIterable<Buffer> {
  if (body instanceof Uint8Array) {
    yield Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return;
  }
  for await (const chunk of body) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * One file part's content as it arrives: in memory up to `memoryBytes`, then in a temporary file of
 * `uploads` (what came before written first), the part's stream paused while each write is under
 * way, so a slow disk holds the parser (and the socket) back rather than filling memory.
 */
class Part {
  #chunks: Buffer[] = [];
  #size = 0;
  #file: { path: string; handle: FileHandle } | null = null;
  #writing: Promise<void> = Promise.resolve();
  readonly #ended: Promise<void>;
  /** Turns the content into the part's value (an `UploadPart`, or a string for a part without a filename). */
  typed: (content: Buffer | { path: string; size: number }) => string | UploadPart = () => '';

  constructor(
    readonly stream: Readable,
    readonly memoryBytes: number,
    readonly uploads: UploadFiles | undefined,
    readonly maxBytes: number,
    readonly fail: (error: Error) => void,
  ) {
    this.#ended = new Promise<void>((done) => stream.on('end', done));
    stream.on('data', (chunk: Buffer) => this.#take(chunk));
  }

  #take(chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.maxBytes) return this.fail(tooLarge('multipart.fieldBytes', this.maxBytes));
    if (this.#file === null && (this.#size <= this.memoryBytes || this.uploads === undefined)) {
      this.#chunks.push(chunk);
      return;
    }
    this.stream.pause();
    const held = this.#chunks;
    this.#chunks = [];
    this.#writing = this.#writing.then(async () => {
      this.#file ??= await this.uploads!.create();
      for (const c of [...held, chunk]) await this.#file.handle.write(c);
    }).then(() => {
      this.stream.resume();
    }, (error: unknown) => {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
  }

  /** The part's value, once its stream ended and its file (if any) is closed. */
  async done(): Promise<string | UploadPart> {
    await this.#ended;
    await this.#writing;
    if (this.#file === null) return this.typed(Buffer.concat(this.#chunks));
    await this.#file.handle.close();
    return this.typed({ path: this.#file.path, size: this.#size });
  }

  /** Stops taking content and closes the file; the request's cleanup removes it. */
  async abort(): Promise<void> {
    this.stream.removeAllListeners('data');
    this.stream.resume();
    await this.#writing.catch(() => undefined);
    await this.#file?.handle.close().catch(() => undefined);
  }
}

function tooLarge(limit: string, max: number, message?: string): PayloadTooLarge {
  return new PayloadTooLarge(limit, max, message);
}

/** A latin1-decoded field as text: UTF-8 when its bytes are UTF-8, else kept byte for byte. */
function fieldText(value: string): string {
  // A part that declared its own charset was decoded with it: above U+00FF it is text already.
  return /[^\x00-\xff]/.test(value) ? value : bytesToText(Buffer.from(value, 'latin1'));
}

/** Stands in for "no Content-Type header" so an upload's type reads as null, as in Rails. */
const UNTYPED = 'application/x-signalbox-untyped';
const HEADER_END = Buffer.from('\r\n\r\n');
const MARKER = Buffer.from(`\r\nContent-Type: ${UNTYPED}`);
/** busboy refuses longer part headers anyway. */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The charsets busboy decodes a field with (its own table, lower-cased). For any other it answers
 * no value at all, so the field's bytes would be lost and the request fail on a TypeError; `base64`
 * is no charset (busboy would hand back the field's bytes in base64).
 */
const DECODED_CHARSETS: ReadonlySet<string> = new Set([
  'utf-8', 'utf8', 'latin1', 'ascii', 'us-ascii', 'iso-8859-1', 'iso8859-1', 'iso88591', 'iso_8859-1', 'windows-1252',
  'iso_8859-1:1987', 'cp1252', 'x-cp1252', 'utf16le', 'utf-16le', 'ucs2', 'ucs-2',
]);
const CONTENT_TYPE_LINE = /^(content-type[ \t]*:)([^\r\n]*)$/gim;
const CHARSET_PARAM = /;[ \t]*charset[ \t]*=[ \t]*("[^"]*"|[^; \t]*)[ \t]*/gi;

/**
 * A field's header block without a `charset` busboy cannot decode (`Shift_JIS`, `ISO-2022-JP`,
 * `UTF-7`...), or null when it declares none such: the field is then read as Rails read every
 * field, as its bytes (UTF-8 text when they are UTF-8).
 */
function withoutUndecodedCharset(headers: string): string | null {
  let changed = false;
  const out = headers.replace(CONTENT_TYPE_LINE, (_, name: string, value: string) => name + value.replace(CHARSET_PARAM, (param, given: string) => {
    if (DECODED_CHARSETS.has(given.replace(/^"|"$/g, '').toLowerCase())) return param;
    changed = true;
    return '';
  }));
  return changed ? out : null;
}

/**
 * busboy reports RFC 7578's default `text/plain` for a part without a Content-Type and does not
 * expose part headers, but Rails (and the peer suite) give such uploads a null content type.
 * So upload headers without one get a marker header as the body streams past, and a field's header
 * loses a charset busboy cannot decode (`withoutUndecodedCharset`). Parts are found with
 * the delimiter busboy itself searches for (`CRLF--boundary`, or `--boundary` opening the body),
 * across chunk boundaries. A header
 * block longer than busboy accepts passes unchanged, and if the boundary cannot be read here the
 * body goes through unchanged and the type reads `text/plain`.
 */
export async function* markUntypedParts(chunks: AsyncIterable<Buffer>, contentType: string): AsyncIterable<Buffer> {
  const boundary = /boundary=(?:"([^"]+)"|([^;,\s]+))/i.exec(contentType);
  if (!boundary) {
    yield* chunks;
    return;
  }
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  // The body is read as if a CRLF came before it, so a delimiter opening it is found like any other; those two bytes are never sent on.
  let pending: Buffer = Buffer.from('\r\n');
  let unsent = 2;
  let state: 'scan' | 'after' | 'rest' = 'scan';
  const out: Buffer[] = [];
  const emit = (bytes: Buffer): void => {
    if (unsent > 0) {
      const cut = Math.min(unsent, bytes.length);
      unsent -= cut;
      bytes = bytes.subarray(cut);
    }
    if (bytes.length > 0) out.push(bytes);
  };
  const step = (final: boolean): void => {
    for (;;) {
      if (state === 'rest') {
        emit(pending);
        pending = EMPTY;
        return;
      }
      if (state === 'scan') {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Keep what could be the start of a delimiter split across chunks.
          const keep = final ? 0 : Math.min(pending.length, delimiter.length - 1);
          emit(pending.subarray(0, pending.length - keep));
          pending = pending.subarray(pending.length - keep);
          return;
        }
        emit(pending.subarray(0, at + delimiter.length));
        pending = pending.subarray(at + delimiter.length);
        state = 'after';
      }
      // Just after a delimiter: `--` closes the body, CRLF opens a part's headers.
      if (pending.length < 2 && !final) return;
      if (pending[0] === 0x2d && pending[1] === 0x2d) {
        state = 'rest';
        continue;
      }
      if (!(pending[0] === 0x0d && pending[1] === 0x0a)) {
        state = 'scan';
        continue;
      }
      const headersEnd = pending.indexOf(HEADER_END);
      if (headersEnd < 0) {
        if (pending.length - 2 > MAX_HEADER_BYTES || final) state = 'scan';
        else return;
        continue;
      }
      const next = pending.indexOf(delimiter, 2);
      const inPart = headersEnd > 0 && headersEnd - 2 <= MAX_HEADER_BYTES && (next < 0 || headersEnd < next);
      const headers = inPart ? pending.toString('latin1', 2, headersEnd) : '';
      const file = /filename\*?=/i.test(headers);
      const readable = file ? null : withoutUndecodedCharset(headers);
      if (file && !/^content-type[ \t]*:/im.test(headers)) {
        emit(pending.subarray(0, headersEnd));
        emit(MARKER);
        pending = pending.subarray(headersEnd);
      } else if (readable !== null) {
        emit(pending.subarray(0, 2));
        emit(Buffer.from(readable, 'latin1'));
        pending = pending.subarray(headersEnd);
      }
      state = 'scan';
    }
  };
  for await (const chunk of chunks) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    step(false);
    if (out.length > 0) yield* out.splice(0);
  }
  step(true);
  if (pending.length > 0) emit(pending);
  yield* out.splice(0);
}

const EMPTY: Buffer = Buffer.alloc(0);
