/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import type { RunningServer } from '../../transport/index.ts';
import { appWith, withServer } from '../support/harness.ts';

/** Sends `request` whole, ends the client's side of the connection at once, and returns all the server sent before closing. */
function sendAndHalfClose(server: RunningServer, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(request));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/**
 * the HTTP transport's node:http side (transport/http.ts): a client that ends
 * its side of the connection once its request is sent (an HTTP/1.0 tool, `nc`,
 * a health check) got nothing back when the answer was not ready at once:
 * node:http took the end for an abort of the request. An upload (always read
 * by node:http, as it streams) or a slow action answered only clients that
 * kept their side open; the fast lane answered the same request.
 */
test('a client that half-closes after its request still gets the answer, from a slow action or an upload', async () => {
  let created = 0;
  class UploadsController extends Controller {
    async index(): Promise<void> {
      await new Promise((resolve) => setTimeout(resolve, 30));
      this.render({ text: 'slow answer' });
    }
    create(): void {
      created++;
      const file = this.params.file as { original_filename: string; size: number };
      this.render({ text: `${file.original_filename} ${file.size}` });
    }
  }
  const app = appWith({ uploads: UploadsController }, { draw: (map) => map.resources('uploads') });
  await withServer(app, {}, async (server) => {
    const slow = await sendAndHalfClose(server, 'GET /uploads HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n');
    assert.match(slow, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(slow.endsWith('slow answer'), slow);

    const body = '--B\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n' + 'x'.repeat(64 * 1024) + '\r\n--B--\r\n';
    const upload = await sendAndHalfClose(server, [
      'POST /uploads HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close', 'Content-Type: multipart/form-data; boundary=B',
      `Content-Length: ${Buffer.byteLength(body)}`, '', body,
    ].join('\r\n'));
    assert.match(upload, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(upload.endsWith(`big.bin ${64 * 1024}`), upload);
    assert.is(created, 1);

    // A request cut off by the client's end is still refused, not answered as if whole.
    const cut = await sendAndHalfClose(server, 'POST /uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 1000\r\n\r\n--B\r\n');
    assert.match(cut, /^HTTP\/1\.1 400 /);
    assert.is(created, 1);
  });
});

test.run();
