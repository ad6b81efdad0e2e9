/**
 * Upgrade requests reach their endpoint by path: the tunnel at its path,
 * the inspector's trace channel at its own, anything else 404, through one
 * 'upgrade' listener that `serve()` owns (none at all when there is no
 * WebSocket endpoint). `attachTunnel` keeps working on a server of one's own.
 */
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { attachTunnel, createTunnel, serve, type RunningServer } from '../../transport/index.ts';
import { withServer } from './support.ts';
import { handshake, inspectedApp } from './inspect/support.ts';

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
