/**
 * `send_data` and `send_file`, as Rails 2.1's ActionController::Streaming: bytes or a file sent as a
 * download (or shown inline), with the headers that say so. A file is sent from disk as the transport
 * reads it (HTTP streams it with its back-pressure), never held whole unless `stream: false` asks for
 * that. A path the user chose (`send_file(params.path)`) can read any file the process may: the
 * action must decide which files it sends.
 */
import { access, constants, open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ArgumentError, MissingFile } from '../errors.ts';
import type { MimeRegistry } from '../mime/types.ts';
import { checkOptionNames, shownValue } from '../options.ts';
import { DEFAULT_CACHE_CONTROL, type Response } from '../http/response.ts';

export interface SendDataOptions {
  /** The name the browser suggests for the download (`filename="..."`). */
  readonly filename?: string | undefined;
  /** A content type (`text/csv`), or a registered format's name (`csv`, `json`). Default `application/octet-stream`. */
  readonly type?: string | undefined;
  /** `attachment` (the default: a download) or `inline` (shown in the browser). */
  readonly disposition?: string | undefined;
  /** The status, as `render` takes it. Default 200. */
  readonly status?: number | string | undefined;
}

export interface SendFileOptions extends SendDataOptions {
  /** False reads the whole file before answering; true (the default) sends it from disk as it is read. */
  readonly stream?: boolean | undefined;
  /** Taken for Rails' sake; Node reads a file 64 KiB at a time. */
  readonly buffer_size?: number | undefined;
  /** True sends no body and an `X-Sendfile` header with the path, for a front server (Apache's mod_xsendfile, lighttpd) to send the file. */
  readonly x_sendfile?: boolean | undefined;
  /** True leaves the file name out, for the browser to take it from the URL. */
  readonly url_based_filename?: boolean | undefined;
}

const DATA_OPTIONS: ReadonlySet<string> = new Set(['filename', 'type', 'disposition', 'status']);
const FILE_OPTIONS: ReadonlySet<string> = new Set([...DATA_OPTIONS, 'stream', 'buffer_size', 'x_sendfile', 'url_based_filename']);

/** What sending fills in: the response, and the app's MIME types for a type given by name. */
export interface SendTarget {
  readonly response: Response;
  readonly mime: MimeRegistry;
  setStatus(status: number | string): void;
}

/** Checks `send_data`'s arguments; what `fill` then does sets the response. */
export function sendData(target: SendTarget, data: unknown, options: SendDataOptions): () => void {
  checkOptionNames('send_data', options, DATA_OPTIONS);
  if (typeof data !== 'string' && !(data instanceof Uint8Array)) throw new ArgumentError(`send_data sends a string or bytes (a Uint8Array or Buffer), not ${shownValue(data)}`);
  const headers = sendHeaders(target.mime, options, options.filename);
  return () => {
    setSent(target, headers, options.status);
    target.response.body = data;
  };
}

/**
 * Checks `send_file`'s options, then (asynchronously, once the file is found) sets the response: the file
 * as a slice the transport sends from disk, its whole bytes with `stream: false`, or only an `X-Sendfile`
 * header. A path that is no readable file is a `MissingFile`.
 */
export function sendFile(target: SendTarget, path: unknown, options: SendFileOptions): () => Promise<void> {
  checkOptionNames('send_file', options, FILE_OPTIONS);
  if (typeof path !== 'string' || path === '') throw new ArgumentError(`send_file takes the path of a file, not ${shownValue(path)}`);
  if (options.buffer_size !== undefined && !(Number.isInteger(options.buffer_size) && options.buffer_size > 0)) {
    throw new ArgumentError(`send_file's buffer_size must be a positive whole number of bytes, not ${shownValue(options.buffer_size)}`);
  }
  const filename = options.url_based_filename === true && options.filename === undefined ? undefined : (options.filename ?? basename(path));
  const headers = sendHeaders(target.mime, options, filename);
  return async () => {
    const size = await readableFileSize(path);
    setSent(target, headers, options.status);
    const response = target.response;
    if (options.x_sendfile === true) {
      response.set_header('X-Sendfile', path);
      response.body = '';
    } else if (options.stream === false) {
      response.body = await readWhole(path);
    } else if (size === 0) {
      response.body = new Uint8Array(0);
    } else {
      response.body = '';
      response.file = { path, start: 0, end: size - 1 };
    }
  };
}

interface SentHeaders {
  readonly type: string;
  readonly disposition: string;
}

function sendHeaders(mime: MimeRegistry, options: SendDataOptions, filename: string | undefined): SentHeaders {
  const disposition = options.disposition ?? 'attachment';
  if (typeof disposition !== 'string' || !DISPOSITION.test(disposition)) {
    throw new ArgumentError(`disposition must be attachment or inline, not ${shownValue(disposition)}`);
  }
  if (filename !== undefined && typeof filename !== 'string') throw new ArgumentError(`filename must be a string, not ${shownValue(filename)}`);
  return { type: contentType(mime, options.type), disposition: dispositionHeader(disposition, filename) };
}

const DISPOSITION = /^[A-Za-z][A-Za-z0-9-]*$/;

/** A content type as given, or the type a registered format's name stands for (`csv`). */
function contentType(mime: MimeRegistry, type: unknown): string {
  if (type === undefined) return 'application/octet-stream';
  if (typeof type !== 'string' || type.trim() === '') throw new ArgumentError(`type must be a content type or a format's name, not ${shownValue(type)}`);
  const given = type.trim();
  if (given.includes('/')) return given;
  const found = mime.lookup_by_extension(given) ?? mime.get(given);
  if (found === undefined) throw new ArgumentError(`Unknown MIME type ${given}: give a content type (text/csv), or a format registered with the app's MIME types`);
  return found.string;
}

/**
 * `attachment; filename="report.csv"`. The quoted name keeps printable ASCII, with quotes and backslashes
 * escaped and control characters dropped (a line break would end the header); a name with other
 * characters also goes as RFC 5987's `filename*`, in UTF-8, which browsers prefer, beside an ASCII
 * stand-in for those that do not read it.
 */
export function dispositionHeader(disposition: string, filename: string | undefined): string {
  if (filename === undefined) return disposition;
  // A lone surrogate has no UTF-8 form (encodeURIComponent would throw): it stands as U+FFFD.
  const printable = filename.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD');
  const quoted = printable.replace(EVERY_NOT_ASCII, '_').replace(/["\\]/g, (c) => `\\${c}`);
  const header = `${disposition}; filename="${quoted}"`;
  if (!NOT_ASCII.test(printable)) return header;
  const encoded = encodeURIComponent(printable).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${header}; filename*=UTF-8''${encoded}`;
}

// The characters no header may carry, and those outside printable ASCII.
const CONTROL = /[\u0000-\u001f\u007f]/g;
const NOT_ASCII = /[^\u0020-\u007e]/;
const EVERY_NOT_ASCII = /[^\u0020-\u007e]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function setSent(target: SendTarget, headers: SentHeaders, status: number | string | undefined): void {
  const response = target.response;
  if (status !== undefined) target.setStatus(status);
  response.set_header('Content-Type', headers.type);
  // As Rails' response when it sends a file: the app's charset is not added to a type that names none.
  if (!/;\s*charset=/i.test(headers.type)) response.charset = null;
  response.set_header('Content-Disposition', headers.disposition);
  response.set_header('Content-Transfer-Encoding', 'binary');
  // A download the browser has been told not to keep is gone before an application can open it (Rails' words: IE).
  if (response.header('Cache-Control') === DEFAULT_CACHE_CONTROL) response.set_header('Cache-Control', 'private');
}

/** The size of the file at `path`, or a `MissingFile` when it is not a file the process can read (as Rails' `File.file?` and `File.readable?`). */
async function readableFileSize(path: string): Promise<number> {
  let size: number;
  try {
    // Looked at, not opened: opening a named pipe would wait for a writer.
    const stats = await stat(path);
    if (!stats.isFile()) throw new MissingFile(path);
    await access(path, constants.R_OK);
    size = stats.size;
  } catch (error) {
    throw error instanceof MissingFile ? error : new MissingFile(path, error);
  }
  return size;
}

async function readWhole(path: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
    return await handle.readFile();
  } catch (error) {
    throw new MissingFile(path, error);
  } finally {
    await handle?.close();
  }
}
