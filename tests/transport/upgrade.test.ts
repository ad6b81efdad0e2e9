/**
 * Upgrade requests reach their endpoint by path: the tunnel at its path,
 * the inspector's trace channel at its own, anything else 404, through one
 * 'upgrade' listener that `serve()` owns (none at all when there is no
 * WebSocket endpoint). Upgrades to other protocols (h2c) elsewhere are plain
 * requests to the app. `attachTunnel` keeps working on a server of one's own.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { attachTunnel, createTunnel, serve, type RunningServer } from '../../transport/index.ts';
import { inspectedApp } from './inspect/support.ts';
import { Controller } from '../../core/index.ts';
import { appWith, withServer, handshake } from '../support/harness.ts';

const test = suite('upgrade routing');

test('tunnel and inspector on one port: each path to its endpoint, anything else 404, one listener', async () => {
  await withServer(inspectedApp(), { inspect: true }, async (server) => {
    assert.is(server.server.listenerCount('upgrade'), 1);
    assert.is(await handshake(server, '/_tunnel'), 101);
    assert.is(await handshake(server, '/__inspect/trace'), 101);
    assert.is(await handshake(server, '/_tunnel?x=1'), 101, 'the query string is not part of the path');
    for (const path of ['/elsewhere', '/__inspect', '/__inspect/trace/x', '/_tunnel/', '/']) {
      assert.is(await handshake(server, path), 404, path);
    }
  });
});

test('the tunnel alone: the trace path is 404; the inspector alone: the tunnel path is 404', async () => {
  await withServer(inspectedApp(), { inspect: false }, async (server) => {
    assert.is(await handshake(server, '/__inspect/trace'), 404);
    assert.is(await handshake(server, '/_tunnel'), 101);
  });
  await withServer(inspectedApp(), { inspect: true, tunnel: false }, async (server) => {
    assert.is(server.tunnel, null);
    assert.is(server.server.listenerCount('upgrade'), 1);
    assert.is(await handshake(server, '/_tunnel'), 404);
    assert.is(await handshake(server, '/__inspect/trace'), 101);
  });
  await withServer(inspectedApp(), { inspect: false, tunnel: false }, async (server) => {
    assert.is(server.server.listenerCount('upgrade'), 0);
  });
});

test('a moved tunnel and a moved inspector route by their new paths; they may not share one', async () => {
  await withServer(inspectedApp(), { inspect: { path: '/insp' }, tunnel: { path: '/ws' } }, async (server) => {
    assert.is(await handshake(server, '/ws'), 101);
    assert.is(await handshake(server, '/insp/trace'), 101);
    assert.is(await handshake(server, '/_tunnel'), 404);
    assert.is(await handshake(server, '/__inspect/trace'), 404);
  });
  await serve(inspectedApp(), { port: 0, inspect: true, tunnel: { path: '/__inspect/trace' } }).then(
    (s) => s.close().then(() => assert.unreachable('shared path accepted')),
    (e: Error) => assert.match(e.message, /cannot share the path \/__inspect\/trace/),
  );
});

test('a refused path is logged', async () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write(chunk: Buffer, _e, done) { lines.push(JSON.parse(chunk.toString('utf8'))); done(); } }));
  await withServer(inspectedApp({ logger }), {}, async (server) => {
    assert.is(await handshake(server, '/nope?secret=1'), 404);
  });
  const line = lines.find((l) => String(l.msg).startsWith('upgrade refused'));
  assert.is(line?.status, 404);
  assert.is(line?.path, '/nope', 'without the query');
});

class FormsController extends Controller {
  show(): void {
    this.render({ text: `${this.request.method} ${this.request.path}` });
  }
  create(): void {
    this.render({ text: JSON.stringify(this.params.post ?? null) });
  }
}

/** Writes `raw` bytes (in pieces, to cross TCP segments) and reads until the server closes the connection. */
function exchange(server: RunningServer, ...pieces: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', async () => {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    let text = '';
    socket.on('data', (d: Buffer) => { text += d.toString('utf8'); });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const H2C = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n';

test('an h2c upgrade (curl --http2) is answered by the app as plain HTTP/1.1, then the connection closes', async () => {
  await withServer(appWith({ forms: FormsController }), {}, async (server) => {
    const got = await exchange(server, `GET /forms/show HTTP/1.1\r\nHost: x\r\n${H2C}\r\n`);
    assert.match(got, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(got, /\r\nConnection: close\r\n/i);
    assert.not.match(got, /\r\nUpgrade:/i, 'no switch is offered');
    assert.ok(got.endsWith('\r\n\r\nget /forms/show'), got);
    const head = await exchange(server, `HEAD /forms/show HTTP/1.1\r\nHost: x\r\n${H2C}\r\n`);
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n[\s\S]*Content-Length: 15\r\n/i);
    assert.ok(head.endsWith('\r\n\r\n'), 'HEAD has no body');
    assert.match(await exchange(server, `GET /nowhere HTTP/1.1\r\nHost: x\r\n${H2C}\r\n`), /^HTTP\/1\.1 404 /);
    // A WebSocket handshake at a path no endpoint owns is still refused as one.
    assert.is(await handshake(server, '/forms/show'), 404);
  });
});

test('a plain upgrade request\'s Content-Length body reaches the action, across TCP segments; a chunked one is 411; a client leaving midway is harmless', async () => {
  await withServer(appWith({ forms: FormsController }), { maxBodyBytes: 64 }, async (server) => {
    const body = 'post[title]=hello&post[body]=world';
    const head = `POST /forms/create HTTP/1.1\r\nHost: x\r\n${H2C}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
    for (const pieces of [[head + body], [head + body.slice(0, 10), body.slice(10)], [head, body]]) {
      const got = await exchange(server, ...pieces);
      assert.match(got, /^HTTP\/1\.1 200 OK\r\n/);
      assert.ok(got.endsWith('{"title":"hello","body":"world"}'), got);
    }
    const big = 'x'.repeat(100);
    assert.match(await exchange(server, `POST /forms/create HTTP/1.1\r\nHost: x\r\n${H2C}Content-Length: ${big.length}\r\n\r\n${big}`), /^HTTP\/1\.1 413 /);
    assert.match(await exchange(server, `POST /forms/create HTTP/1.1\r\nHost: x\r\n${H2C}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`), /^HTTP\/1\.1 411 /);
    // A client that leaves halfway through its body takes nothing down with it.
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(head + body.slice(0, 10));
        setTimeout(() => { socket.destroy(); resolve(); }, 30);
      });
    });
    // The server is none the worse for any of it.
    assert.match(await exchange(server, `GET /forms/show HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), /^HTTP\/1\.1 200 /);
  });
});

function listen(server: Server): Promise<RunningServer> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const port = (server.address() as { port: number }).port;
    resolve({ server, port } as RunningServer);
  }));
}

test('attachTunnel on a server of one\'s own answers every upgrade; createTunnel\'s handler can be routed to', async () => {
  const app = inspectedApp();
  const own = createServer((_req, res) => res.end('plain'));
  const attached = attachTunnel(own, app);
  const running = await listen(own);
  assert.is(await handshake(running, '/_tunnel'), 101);
  assert.is(await handshake(running, '/other'), 404);
  await attached.close();
  await new Promise((r) => own.close(r));

  const routed = createServer((_req, res) => res.end('plain'));
  const t = createTunnel(app, { path: '/t' });
  routed.on('upgrade', (req, socket, head) => t.handleUpgrade(req, socket, head));
  const running2 = await listen(routed);
  assert.is(await handshake(running2, '/t'), 101);
  assert.is(await handshake(running2, '/_tunnel'), 404, 'the handler still checks its own path');
  await t.close();
  await new Promise((r) => routed.close(r));
});

test.run();
