/**
 * Sends a slice of a file as an HTTP response body, from disk, with the
 * stream's backpressure: memory stays at a few chunks whatever the file's
 * size. The headers already promised a length; if the file turns out
 * shorter (it shrank since its stat) or cannot be read, the connection is
 * closed rather than left waiting for bytes that will never come.
 */
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { FileSlice } from '../core/public/file-answer.ts';

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
