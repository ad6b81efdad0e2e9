/**
 * What a deployed blog relies on beyond its pages: links and redirects for
 * clients that name no host, and request logs that say which action answered.
 */
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { serve } from '../../transport/index.ts';
import { createBlogApp } from '../../examples/blog/app.ts';
import { ADMIN, ADMIN_AUTHORIZATION } from './support.ts';

/** HTTP/1.0 clients may omit Host; URLs then name the address the request arrived at, as Rails used SERVER_ADDR. */
test('a request without a Host header is redirected to the address it arrived at', async () => {
  const server = await serve(createBlogApp({ environment: 'test', logger: false }), { port: 0 });
  try {
    const body = 'post%5Btitle%5D=No+host&post%5Bbody%5D=HTTP%2F1.0';
    const raw = await new Promise<string>((resolveRaw, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.write(`POST /posts HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolveRaw(data));
      socket.on('error', reject);
    });
    const [statusLine] = raw.split('\r\n');
    assert.is(statusLine, 'HTTP/1.1 302 Found');
    assert.match(raw, `\r\nLocation: http://127.0.0.1:${server.port}/posts/4\r\n`);
  } finally {
    await server.close();
  }
});

test('the request log names the controller and action whose exception made the 500', async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text.trim() !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  const app = createBlogApp({ environment: 'test', logger: pino({ level: 'info' }, sink), admin: ADMIN });
  const res = await app.handle({ method: 'GET', url: '/admin/crash', headers: { host: 'blog.test', authorization: ADMIN_AUTHORIZATION } });
  assert.is(res.status, 500);
  const completed = lines.find((l) => l.msg === 'request completed');
  assert.equal({ controller: completed?.controller, action: completed?.action }, { controller: 'admin/dashboard', action: 'crash' });
  const errored = lines.find((l) => l.msg === 'request errored');
  assert.equal({ controller: errored?.controller, action: errored?.action, reqId: errored?.reqId }, { controller: 'admin/dashboard', action: 'crash', reqId: completed?.reqId });
});

test.run();
