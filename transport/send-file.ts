/**
 * The body of a response that names a slice of a file (a public file too
 * large to hold in memory): streamed into an HTTP response with the
 * stream's backpressure, so memory stays at a few chunks whatever the
 * file's size; or read whole, without blocking, for the tunnel, whose
 * frames carry whole bodies. A file gone before it could be opened is
 * answered 404 instead. Once the head has promised a length, a file that
 * turns out shorter (it shrank since its stat) or cannot be read closes the
 * HTTP connection rather than leave it waiting for bytes that will never
 * come, and fails the tunnel's read.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import type { FileSlice, ResponseMessage } from '../core/http/message.ts';

/**
 * Where a streamed file slice goes: an HTTP response (`sendFile`), or a socket the fast lane answers on
 * directly (fast-lane.ts).
 */
export interface FileSink {
  /** Writes the answer's head; may throw (a head refused), which makes that request's 500. */
  writeHead(): void;
  /** Where the file's bytes are piped (never ended by the pipe). */
  readonly body: Writable;
  /** Called once the whole slice is out. */
  finish(): void;
  /** Cuts the connection: bytes already promised cannot come. */
  cut(): void;
  /** Whether anything of this answer went out, or the connection is gone: only cutting is left then. */
  readonly committed: boolean;
  /** Answers `answer` instead of the file, on a connection that closes after it. */
  instead(answer: ResponseMessage): void;
  /** Calls `listener` once if the client goes away; returns what stops listening. */
  onGone(listener: () => void): () => void;
}

/**
 * Streams `slice` into `sink` with the stream's backpressure. The head is written only once the file
 * is open: a file gone since it was found (deleted between the look-up's stat and this read) is then
 * answered 404, and one that cannot be opened 500, each closing the connection, rather than a 200 head
 * followed by nothing.
 */
export function streamSlice(sink: FileSink, slice: FileSlice): void {
  const expected = slice.end - slice.start + 1;
  let sent = 0;
  let opened = false;
  const source = createReadStream(slice.path, { start: slice.start, end: slice.end });
  // A client that leaves stops the reading.
  const stopListening = sink.onGone(() => source.destroy());
  source.once('open', () => {
    opened = true;
    try {
      sink.writeHead();
    } catch {
      // A head refused (the pipeline checks headers, so only a bug gets here): that request's 500.
      source.destroy();
      stopListening();
      return sink.instead(missingFile(500));
    }
    source.on('data', (chunk) => {
      sent += chunk.length;
    });
    source.pipe(sink.body, { end: false });
  });
  source.once('end', () => {
    stopListening();
    if (sent === expected) sink.finish();
    else sink.cut();
  });
  source.once('error', (error: NodeJS.ErrnoException) => {
    stopListening();
    if (opened || sink.committed) return void sink.cut();
    sink.instead(missingFile(isGone(error) ? 404 : 500));
  });
}

/**
 * Streams `slice` into `res` and ends it; `writeHead` writes the answer's head once the file is open
 * (see `streamSlice`). Without `writeHead`, the head is the caller's, written already.
 * @example sendFile(res, { path, start: 0, end: size - 1 }, () => res.writeHead(200, headers))
 */
export function sendFile(res: ServerResponse, slice: FileSlice, writeHead: () => void = () => {}): void {
  streamSlice({
    writeHead,
    body: res,
    finish: () => res.end(),
    cut: () => res.destroy(),
    get committed() {
      return res.headersSent || res.destroyed;
    },
    instead: (answer) => {
      res.writeHead(answer.status, { ...answer.headers, Connection: 'close' });
      res.end(answer.body);
    },
    onGone: (listener) => {
      res.once('close', listener);
      return () => res.off('close', listener);
    },
  }, slice);
}

/** A file gone since it was found: deleted, or a directory on its path replaced. */
function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function missingFile(status: 404 | 500): ResponseMessage {
  const body = status === 404 ? 'Not Found' : 'Internal Server Error';
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(body.length) }, body };
}

/** The bytes of a file slice, read without blocking; a file that has since shrunk is an error, not a short body. */
export async function readSlice(slice: FileSlice): Promise<Buffer> {
  const length = slice.end - slice.start + 1;
  const handle = await open(slice.path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(bytes, read, length - read, slice.start + read);
      if (bytesRead === 0) throw new Error(`${slice.path} ended ${length - read} bytes early`);
      read += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/** The length of a file slice. */
export function sliceLength(slice: FileSlice): number {
  return slice.end - slice.start + 1;
}

/**
 * For messages that carry their whole body (the tunnel's frames): the answer with its file slice read
 * in; a 404 in its place when the file has gone since it was found. Any other failure rejects.
 */
export async function withFileBytes(response: ResponseMessage): Promise<ResponseMessage> {
  if (response.file === undefined) return response;
  const { file: _file, ...rest } = response;
  try {
    return { ...rest, body: await readSlice(response.file) };
  } catch (error) {
    if (isGone(error)) return missingFile(404);
    throw error;
  }
}
