/**
 * One file under `public/` as a response: validators (a weak ETag of size
 * and change time, Last-Modified) and the conditional requests they answer
 * (304), single byte ranges (206, or 416 when none of the file is asked
 * for), Cache-Control, and where the bytes come from. Small files (most
 * assets) are held in memory until the file changes; larger ones are never
 * read whole: the response names a slice of the file and the transport
 * sends it from disk, so a big download costs neither the event loop nor
 * memory in proportion to its size. Nothing here reads synchronously: each
 * answer stats the file (and reads a small one that changed) without
 * blocking the event loop. The respond stage turns the response into the
 * message the transports write, as it does every response.
 */
import { readFile, stat } from 'node:fs/promises';
import parseRange from 'range-parser';
import type { HeaderValue } from '../http/message.ts';
import { ifNoneMatchNames } from '../http/etag.ts';
import { Response } from '../http/response.ts';
import { sameVersion, stampOf, type FileStamp } from '../caching/file-stamp.ts';

/** What a file response needs of the request: its method (ranges are for GET) and its headers. */
export interface FileRequest {
  readonly method?: string;
  /** Header names in any case (`node:http` and the tunnel give them in lower case). */
  readonly headers?: Readonly<Record<string, HeaderValue | undefined>>;
}

/** A public file's validators, the version of the file they describe, and its bytes when it is small enough to hold. */
interface PublicFile {
  readonly stamp: FileStamp;
  readonly size: number;
  readonly body: Buffer | null;
  /** Weak: it names the file's size and change time, not its bytes. */
  readonly etag: string;
  readonly last_modified: string;
}

// Files up to MEMO_MAX_FILE are read whole and kept; larger ones are streamed.
export const MEMO_MAX_FILE = 256 * 1024;
const MEMO_MAX_BYTES = 16 * 1024 * 1024;
const memo = new Map<string, PublicFile>();
let memoBytes = 0;

/**
 * The response for the file at `path` (null when it is gone or not a regular file), of type `type`
 * (the whole Content-Type value), with `cacheControl` when given.
 *
 * @example await fileAnswer('/app/public/app.css', { method: 'GET', headers: { range: 'bytes=0-99' } }, 'text/css') // 206
 */
export async function fileAnswer(path: string, request: FileRequest, type: string, cacheControl?: string): Promise<Response | null> {
  const file = await currentFile(path);
  if (file === null) return null;
  const res = publicResponse();
  res.set_header('ETag', file.etag);
  res.set_header('Last-Modified', file.last_modified);
  if (cacheControl !== undefined) res.set_header('Cache-Control', cacheControl);
  if (notModified(request, file)) {
    res.status = 304;
    return res;
  }
  const range = wantedRange(request, file);
  if (range === 'unsatisfiable') {
    res.status = 416;
    res.set_header('Content-Range', `bytes */${file.size}`);
    res.content_type = 'text/plain; charset=utf-8';
    return res;
  }
  const [start, end] = range ?? [0, file.size - 1];
  res.content_type = type;
  res.set_header('Accept-Ranges', 'bytes');
  if (range !== null) {
    res.status = 206;
    res.set_header('Content-Range', `bytes ${start}-${end}/${file.size}`);
  }
  if (file.body !== null) res.body = range === null ? file.body : file.body.subarray(start, end + 1);
  else res.file = { path, start, end };
  return res;
}

/**
 * A response for something under `public/`: its Content-Type is given whole (an extension cannot
 * say a charset, so none is added), and it carries no Cache-Control unless it says so itself.
 */
export function publicResponse(): Response {
  const res = new Response();
  res.charset = null;
  res.delete_header('Cache-Control');
  return res;
}

/** The file as it is now; a stat per call, a read only when it changed (and only when it is small). */
async function currentFile(path: string): Promise<PublicFile | null> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return null;
    const known = memo.get(path);
    if (sameVersion(known?.stamp, stats)) return known!;
    if (known !== undefined) forget(path, known);
    const validators = { etag: `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`, last_modified: new Date(stats.mtimeMs).toUTCString() };
    if (stats.size > MEMO_MAX_FILE) return { stamp: stampOf(stats), size: stats.size, body: null, ...validators };
    const body = await readFile(path);
    const file: PublicFile = { stamp: stampOf(stats), size: body.byteLength, body, ...validators };
    // A file that changed while it was read is served as read but not kept: its stamp describes other bytes.
    if (body.byteLength === stats.size && !memo.has(path)) remember(path, file);
    return file;
  } catch {
    return null;
  }
}

// Bounded: when full, the oldest entries make room (a Map iterates in insertion order).
function remember(path: string, file: PublicFile): void {
  const size = file.body!.byteLength;
  for (const [name, old] of memo) {
    if (memoBytes + size <= MEMO_MAX_BYTES) break;
    forget(name, old);
  }
  memo.set(path, file);
  memoBytes += size;
}

function forget(path: string, file: PublicFile): void {
  memo.delete(path);
  memoBytes -= file.body?.byteLength ?? 0;
}

/** RFC 9110 §13.2.2: If-None-Match decides when present; otherwise If-Modified-Since, to the second. */
function notModified(request: FileRequest, file: PublicFile): boolean {
  const tags = headerOf(request, 'if-none-match');
  if (tags !== undefined) return ifNoneMatchNames(tags, file.etag);
  const since = headerOf(request, 'if-modified-since');
  if (since === undefined) return false;
  const at = Date.parse(since);
  // A date in the future is no date at all (§13.1.3).
  return !Number.isNaN(at) && at <= Date.now() && Math.floor(file.stamp.mtimeMs / 1000) * 1000 <= at;
}

/**
 * The one byte range to send, null for the whole file, or 'unsatisfiable' (RFC 9110 §14). Ranges are
 * for GET only; a malformed header, or several ranges (which would need multipart/byteranges), get the
 * whole file, as the RFC allows. If-Range holding anything but the current Last-Modified (our ETag is
 * weak, and If-Range compares strongly) means the client's copy is stale: it gets the whole file too.
 */
function wantedRange(request: FileRequest, file: PublicFile): readonly [number, number] | 'unsatisfiable' | null {
  const header = headerOf(request, 'range');
  if (header === undefined || (request.method ?? 'GET') !== 'GET') return null;
  const ifRange = headerOf(request, 'if-range');
  if (ifRange !== undefined && ifRange.trim() !== file.last_modified) return null;
  const ranges = parseRange(file.size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return [ranges[0].start, ranges[0].end];
}

/** A request header as one string (repeated fields joined with commas), or undefined; the name is given in lower case. */
export function headerOf(request: FileRequest, name: string): string | undefined {
  const headers = request.headers;
  if (headers === undefined) return undefined;
  let value = headers[name];
  if (value === undefined) {
    // Transports give lower-case names; a message built in-process may not.
    for (const key in headers) if (key.length === name.length && key.toLowerCase() === name) value = headers[key];
  }
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}
