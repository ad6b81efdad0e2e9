/**
 * The body of a response that names a slice of a file (a public file too
 * large to hold in memory): streamed into an HTTP response with the
 * stream's backpressure, so memory stays at a few chunks whatever the
 * file's size; or read whole, without blocking, for the tunnel, whose
 * frames carry whole bodies. The headers already promised a length; if the
 * file turns out shorter (it shrank since its stat) or cannot be read, the
 * HTTP connection is closed rather than left waiting for bytes that will
 * never come, and the tunnel's read fails.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { FileSlice, ResponseMessage } from '../core/http/message.ts';

/** Streams `slice` into `res` (whose head is written) and ends it. @example sendFile(res, { path, start: 0, end: size - 1 }) */
export function sendFile(res: ServerResponse, slice: FileSlice): void {
  const expected = slice.end - slice.start + 1;
  let sent = 0;
  const source = createReadStream(slice.path, { start: slice.start, end: slice.end });
  source.on('data', (chunk) => {
    sent += chunk.length;
  });
  source.pipe(res, { end: false });
  source.once('end', () => {
    if (sent === expected) res.end();
    else res.destroy();
  });
  source.once('error', () => res.destroy());
  // A client that leaves stops the reading.
  res.once('close', () => source.destroy());
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

/** For messages that carry their whole body (the tunnel's frames): the answer with its file slice read in. */
export async function withFileBytes(response: ResponseMessage): Promise<ResponseMessage> {
  if (response.file === undefined) return response;
  const { file: _file, ...rest } = response;
  return { ...rest, body: await readSlice(response.file) };
}
