/**
 * The HTTP transport over real sockets on 127.0.0.1: requests in and
 * responses out through `app.handle`, the limits only a transport can
 * enforce (body size, header count), what Node's parser refuses, keep-alive,
 * and a graceful close that lets in-flight requests finish.
 */
import { existsSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { ArgumentError, Controller } from '../../core/index.ts';
import type { App } from '../../machines/index.ts';
import { serve, type RunningServer } from '../../transport/index.ts';
import { appWith, withServer } from '../support/harness.ts';

const test = suite('serve answers HTTP requests through app.handle');

class EchoController extends Controller {
  show(): void {
    this.render({ json: { method: this.request.method, params: this.params, remote_ip: this.request.remote_ip, host: this.request.host_with_port, body_length: this.request.body.length } });
  }
  moved(): void {
    this.render({ text: 'gone', status: '404 Moved Elsewhere' });
  }
  async slow(): Promise<void> {
    await new Promise((r) => setTimeout(r, 150));
    this.render({ text: 'slow done' });
  }
}

const echoApp = () => appWith({ echo: EchoController });

interface Answer {
  status: number;
  reason: string;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(server: RunningServer, method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer | Buffer[]; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers: options.headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (Array.isArray(options.body)) {
      // Streamed in chunks without a Content-Length (chunked transfer encoding).
      for (const chunk of options.body) req.write(chunk);
      req.end();
    } else req.end(options.body);
  });
}

/** Writes raw bytes on a fresh connection and answers everything the server sends back. */
function raw(server: RunningServer, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (d) => { out += d.toString('latin1'); });
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}


test('a request goes through app.handle and its response comes back, from the socket peer', async () => {
  await withServer(echoApp(), {}, async (server) => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.is(server.host, '127.0.0.1');
    const res = await send(server, 'GET', '/echo/show?x=1', { headers: { 'X-Forwarded-For': '198.51.100.1' } });
    assert.is(res.status, 200);
    assert.is(res.headers['content-type'], 'application/json; charset=utf-8');
    const body = JSON.parse(res.body);
    assert.is(body.params.x, '1');
    assert.is(body.remote_ip, '127.0.0.1', 'the socket peer, not a header');
    assert.is(body.host, `127.0.0.1:${server.port}`);
    assert.ok(res.headers['x-runtime']);
    assert.ok(res.headers.etag);
  });
});

test('a request body reaches the app; HEAD gets headers only', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const posted = await send(server, 'POST', '/echo/show', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'title=Hello&n=2' });
    const body = JSON.parse(posted.body);
    assert.is(body.method, 'post');
    assert.is(body.params.title, 'Hello');
    const head = await send(server, 'HEAD', '/echo/show');
    assert.is(head.status, 200);
    assert.is(head.body, '');
    assert.ok(Number(head.headers['content-length']) > 0);
  });
});

test('a custom reason phrase is written on the status line', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const res = await send(server, 'GET', '/echo/moved');
    assert.is(res.status, 404);
    assert.is(res.reason, 'Moved Elsewhere');
    const raw404 = await raw(server, 'GET /echo/moved HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(raw404, /^HTTP\/1\.1 404 Moved Elsewhere\r\n/);
  });
});

test('a body declared larger than maxBodyBytes is 413 before it is read', async () => {
  await withServer(echoApp(), { maxBodyBytes: 16 }, async (server) => {
    const res = await send(server, 'POST', '/echo/show', { headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(100) });
    assert.is(res.status, 413);
    assert.is(res.body, 'Request body too large');
    assert.is(res.headers.connection, 'close');
    const fits = await send(server, 'POST', '/echo/show', { headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(16) });
    assert.is(JSON.parse(fits.body).body_length, 16);
  });
});

test('Expect: 100-continue gets its 100 only once the head is accepted: a body declared over maxBodyBytes is 413 with no invitation', async () => {
  await withServer(echoApp(), { maxBodyBytes: 1024 }, async (server) => {
    const refused = await raw(server, 'POST /echo/show HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 99999999999\r\n\r\n');
    assert.match(refused, /^HTTP\/1\.1 413 /);
    assert.not.match(refused, /100 Continue/);
    const accepted = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write('POST /echo/show HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\n'));
      let out = '';
      socket.on('data', (d) => {
        out += d.toString('latin1');
        // The body is sent only when invited, as a client that waits for 100 does.
        if (out === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write('a=1');
      });
      socket.on('close', () => resolve(out));
      socket.on('error', reject);
    });
    assert.match(accepted, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    assert.match(accepted, /"body_length":3/);
  });
});

test('a streamed body without Content-Length is 413 once it passes maxBodyBytes', async () => {
  await withServer(echoApp(), { maxBodyBytes: 32 }, async (server) => {
    const res = await send(server, 'POST', '/echo/show', { headers: { 'Content-Type': 'text/plain' }, body: [Buffer.alloc(20, 'a'), Buffer.alloc(20, 'b')] });
    assert.is(res.status, 413);
    const small = await send(server, 'POST', '/echo/show', { headers: { 'Content-Type': 'text/plain' }, body: [Buffer.alloc(10, 'a'), Buffer.alloc(10, 'b')] });
    assert.is(JSON.parse(small.body).body_length, 20, 'chunks are joined');
  });
});

test('more header lines than maxHeaders is 431', async () => {
  await withServer(echoApp(), { maxHeaders: 5 }, async (server) => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 10; i++) headers[`X-H${i}`] = String(i);
    const res = await send(server, 'GET', '/echo/show', { headers });
    assert.is(res.status, 431);
    assert.is(res.body, 'Too many request headers');
    assert.is((await send(server, 'GET', '/echo/show')).status, 200);
  });
});

test('a request naming its host twice is 400 whichever line comes first, and never reaches the app', async () => {
  let ran = 0;
  class CountingController extends Controller {
    show(): void {
      ran++;
      this.render({ text: 'ran' });
    }
  }
  await withServer(appWith({ echo: CountingController }), {}, async (server) => {
    for (const hosts of [`Host: 127.0.0.1:${server.port}\r\nHost: evil.example`, `host: evil.example\r\nHOST: 127.0.0.1:${server.port}`]) {
      const out = await raw(server, `GET /echo/show HTTP/1.1\r\n${hosts}\r\n\r\n`);
      assert.match(out, /^HTTP\/1\.1 400 Bad Request\r\n[^]*Connection: close\r\n/, hosts);
      assert.match(out, /more than one Host header/);
    }
    assert.is(ran, 0, 'the app saw none of them');
    assert.is((await send(server, 'GET', '/echo/show')).status, 200);
    assert.is(ran, 1);
  });
});

test('a header block over maxHeaderBytes is 431 from the parser', async () => {
  await withServer(echoApp(), { maxHeaderBytes: 1024 }, async (server) => {
    const out = await raw(server, `GET /echo/show HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`);
    assert.match(out, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  });
});

test('a malformed request line or header is a clean 400 and the connection closes', async () => {
  await withServer(echoApp(), {}, async (server) => {
    for (const bytes of ['GET /a b HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /x HTTP/9.9\r\nHost: x\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n']) {
      const out = await raw(server, bytes);
      assert.match(out, /^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n$/, JSON.stringify(bytes));
    }
  });
});

test('what the parser refuses is logged, since the app never sees it', async () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  }));
  await withServer(appWith({ echo: EchoController }, { logger }), {}, async (server) => {
    await raw(server, 'GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n');
  });
  const refused = lines.find((l) => l.msg === 'request refused by the HTTP parser');
  assert.ok(refused, 'a log line for the refusal');
  assert.is(refused!.code, 'HPE_INVALID_HEADER_TOKEN');
  assert.is(refused!.remote, '127.0.0.1');
});

test('a method token the parser does not know is 501; a known one the app does not accept is 501 from the app', async () => {
  await withServer(echoApp(), {}, async (server) => {
    assert.match(await raw(server, 'FROB /echo/show HTTP/1.1\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 501 Not Implemented\r\n/);
    const patch = await send(server, 'PATCH', '/echo/show');
    assert.is(patch.status, 501);
    assert.is(patch.headers.allow, 'GET, HEAD, POST, PUT, DELETE, OPTIONS');
  });
});

test('CONNECT is 501 and the connection closes, whatever follows it; the server goes on answering', async () => {
  await withServer(echoApp(), {}, async (server) => {
    for (const bytes of ['CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n', 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\nSSH-2.0-client\r\n']) {
      assert.is(await raw(server, bytes), 'HTTP/1.1 501 Not Implemented\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
    assert.is((await send(server, 'GET', '/echo/show')).status, 200);
  });
});

test('a request line without an HTTP version is 400, another major version 505, and the connection closes', async () => {
  await withServer(echoApp(), {}, async (server) => {
    assert.match(await raw(server, 'GET /echo/show\r\n\r\n'), /^HTTP\/1\.1 400 Bad Request\r\n[^]*Connection: close\r\n[^]*\r\n\r\nA request line needs an HTTP version$/);
    assert.match(await raw(server, 'GET /echo/show HTTP/2.0\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 505 HTTP Version Not Supported\r\n[^]*Connection: close\r\n/);
    assert.match(await raw(server, 'GET /echo/show HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 200 OK\r\n/);
  });
});

test('OPTIONS * asks about the server: 200 with Allow, before routing or any forgery check; another method with * is 400', async () => {
  await withServer(appWith({ echo: EchoController }, { config: { allow_forgery_protection: true } }), {}, async (server) => {
    const out = await raw(server, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(out, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(out, /\r\nAllow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n/);
    assert.match(await raw(server, 'GET * HTTP/1.1\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});

test('oversized chunk extensions are 413, as Node itself answers them, and the connection closes', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const head = 'POST /echo/show HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    for (const body of [`5;${'a'.repeat(20_000)}\r\nhello\r\n0\r\n\r\n`, `0;name=${'v'.repeat(20_000)}\r\n\r\n`]) {
      const out = await raw(server, head + body);
      assert.match(out, /^HTTP\/1\.1 413 Payload Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n$/);
    }
  });
});

test('malformed chunk extensions, and bytes after a chunked body that are no request, are 400 (never 501) and close the connection', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const head = 'POST /echo/show HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    for (const body of [
      '5;a="unterminated\r\nhello\r\n0\r\n\r\n',
      '5;a\x00b\r\nhello\r\n0\r\n\r\n',
      '5 ;a=b\r\nhello\r\n0\r\n\r\n',
      '5;a=b\r\nhello\r\n0\r\n\r\nGARBAGE',
      `5;a=b\r\nhello\r\n0;${'x'.repeat(100)}\r\n\r\n${'y'.repeat(20_000)}`,
    ]) {
      const out = await raw(server, head + body);
      assert.match(out, /^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n/, JSON.stringify(body.slice(0, 60)));
    }
    assert.is((await send(server, 'GET', '/echo/show')).status, 200);
  });
});

test('a multipart body whose file part is cut off is a 400, and the server goes on answering', async () => {
  await withServer(echoApp(), {}, async (server) => {
    const body = '--AaB03x\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\n\r\nabc';
    const cut = await send(server, 'POST', '/echo/show', { headers: { 'Content-Type': 'multipart/form-data; boundary=AaB03x' }, body });
    assert.is(cut.status, 400);
    assert.is((await send(server, 'GET', '/echo/show')).status, 200);
  });
});

test('keep-alive: several requests share one connection', async () => {
  await withServer(echoApp(), {}, async (server) => {
    let connections = 0;
    server.server.on('connection', () => connections++);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i++) assert.is((await send(server, 'GET', `/echo/show?i=${i}`, { agent })).status, 200);
    } finally {
      agent.destroy();
    }
    assert.is(connections, 1);
  });
});

test('close() lets an in-flight request finish, then stops accepting connections', async () => {
  const server = await serve(echoApp(), { port: 0, host: '127.0.0.1' });
  const inFlight = send(server, 'GET', '/echo/slow');
  await new Promise((r) => setTimeout(r, 40));
  const closed = server.close();
  assert.is(server.close(), closed, 'closing twice is the same close');
  const res = await inFlight;
  assert.is(res.status, 200);
  assert.is(res.body, 'slow done');
  await closed;
  await send(server, 'GET', '/echo/show').then(
    () => assert.unreachable('the server should be closed'),
    (e: NodeJS.ErrnoException) => assert.is(e.code, 'ECONNREFUSED'),
  );
});

test('a failure in the transport itself answers a plain 500', async () => {
  const app = echoApp();
  const failing = { ...app, handle: () => Promise.reject(new Error('handle failed')) } as App;
  await withServer(failing, {}, async (server) => {
    const res = await send(server, 'GET', '/echo/show');
    assert.is(res.status, 500);
    assert.is(res.body, 'Internal Server Error');
  });
});

test('answers of many concurrent requests all come back, each to its own request, with batching on and off', async () => {
  for (const batchWrites of [true, false]) {
    await withServer(echoApp(), { batchWrites }, async (server) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 20 });
      try {
        const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => send(server, 'GET', `/echo/show?i=${i}`, { agent })));
        answers.forEach((res, i) => {
          assert.is(res.status, 200);
          assert.is((JSON.parse(res.body) as { params: { i: string } }).params.i, String(i), `batchWrites ${batchWrites}: answer ${i}`);
        });
      } finally {
        agent.destroy();
      }
    });
  }
});

test('an answer the transport cannot write becomes a 500 without costing the answers batched with it', async () => {
  const app = echoApp();
  // A header value Node refuses to write (a bare newline) fails only that response.
  const flawed = {
    ...app,
    handle: async (message: Parameters<App['handle']>[0]) => {
      const res = await app.handle(message);
      return message.url.includes('bad') ? { ...res, headers: { ...res.headers, 'X-Bad': 'a\nb' } } : res;
    },
  } as App;
  await withServer(flawed, {}, async (server) => {
    const answers = await Promise.all(['/echo/show?n=1', '/echo/show?bad=1', '/echo/show?n=2'].map((path) => send(server, 'GET', path)));
    assert.equal(answers.map((a) => a.status), [200, 500, 200]);
    assert.is(answers[1].body, 'Internal Server Error');
    assert.is((JSON.parse(answers[2].body) as { params: { n: string } }).params.n, '2');
  });
});

test('serve rejects when the port cannot be bound', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as AddressInfo).port;
  try {
    await serve(echoApp(), { port, host: '127.0.0.1' }).then(
      () => assert.unreachable('should not bind'),
      (e: NodeJS.ErrnoException) => assert.is(e.code, 'EADDRINUSE'),
    );
  } finally {
    await new Promise((r) => blocker.close(r));
  }
});

test('serve() given a function that cannot build the app rejects with its error, as a port it cannot bind does', async () => {
  const broken = new Error('SIGNALBOX_SECRET is missing');
  let served: Promise<RunningServer> | undefined;
  assert.not.throws(() => { served = serve(() => { throw broken; }, { port: 0, host: '127.0.0.1' }); }, 'no synchronous throw: one way to handle a failed start');
  await served!.then(() => assert.unreachable('should not serve'), (e: unknown) => assert.is(e, broken));
  await serve(() => null as unknown as App, { port: 0, host: '127.0.0.1' }).then(
    () => assert.unreachable('should not serve'),
    (e: unknown) => { assert.instance(e, ArgumentError); assert.match((e as Error).message, 'serve() needs an app made by createApp'); },
  );
});

test('serve() refuses an option name it does not know, and points a snake_case one at its camelCase name', async () => {
  for (const [options, message] of [
    [{ max_body_bytes: 10 }, /Unknown serve\(\) option "max_body_bytes" \(did you mean maxBodyBytes\?\)/],
    [{ maxBody: 10 }, /Unknown serve\(\) option "maxBody"$/],
    [{ tunnel: { max_in_flight: 4 } }, /Unknown tunnel option "max_in_flight" \(did you mean maxInFlight\?\)/],
  ] as const) {
    await serve(echoApp(), { port: 0, host: '127.0.0.1', ...(options as object) }).then(
      () => assert.unreachable('an unknown option'),
      (e: Error) => assert.match(e.message, message),
    );
  }
});

test('serve() refuses a port that is not one, where Node would create a Unix socket of that name; PORT\'s digits are a port', async () => {
  const here = process.cwd();
  for (const port of ['abc', '30OO', -1, 65536, 80.5, '', true]) {
    await serve(echoApp(), { port: port as number, host: '127.0.0.1' }).then(
      (running) => running.close().then(() => assert.unreachable(`port ${String(port)} was taken`)),
      (e: Error) => {
        assert.instance(e, ArgumentError);
        assert.match(e.message, /port must be a whole number from 0 to 65535/);
      },
    );
    if (typeof port === 'string' && port !== '') assert.not.ok(existsSync(join(here, port)), `no socket file ${port}`);
  }
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const free = (blocker.address() as AddressInfo).port;
  await new Promise((r) => blocker.close(r));
  const running = await serve(echoApp(), { port: String(free) as unknown as number, host: '127.0.0.1' });
  try {
    assert.is(running.port, free);
  } finally {
    await running.close();
  }
});

test('serve() refuses a host that is not one, where Node would listen on every interface', async () => {
  for (const host of [5, '', '  ', ['127.0.0.1']]) {
    await serve(echoApp(), { port: 0, host: host as string }).then(
      (running) => running.close().then(() => assert.unreachable(`host ${JSON.stringify(host)} listened on ${running.host}`)),
      (e: Error) => {
        assert.instance(e, ArgumentError);
        assert.match(e.message, /host must be a host name or address \('0\.0\.0\.0' or '::' for every interface\)/);
      },
    );
  }
  const running = await serve(echoApp(), { port: 0 });
  try {
    assert.is(running.host, '127.0.0.1', 'no host is 127.0.0.1');
  } finally {
    await running.close();
  }
});

test('handleSignals installs SIGTERM and SIGINT handlers (once each)', async () => {
  const before = { term: process.listeners('SIGTERM'), int: process.listeners('SIGINT') };
  const server = await serve(echoApp(), { port: 0, host: '127.0.0.1', handleSignals: true });
  try {
    const added = process.listeners('SIGTERM').filter((l) => !before.term.includes(l));
    assert.is(added.length, 1);
    assert.is(process.listeners('SIGINT').filter((l) => !before.int.includes(l)).length, 1);
  } finally {
    // Never let the handler run here: it exits the process.
    for (const l of process.listeners('SIGTERM')) if (!before.term.includes(l)) process.removeListener('SIGTERM', l);
    for (const l of process.listeners('SIGINT')) if (!before.int.includes(l)) process.removeListener('SIGINT', l);
    await server.close();
  }
});

test.run();
