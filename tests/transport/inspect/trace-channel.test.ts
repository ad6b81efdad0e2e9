/**
 * The trace channel's limits, shortened so they show: a page that stops
 * reading loses events (and is told how many) instead of making the server
 * buffer them; a page that stops answering pings is dropped, and with it the
 * app's trace listener; the recent requests kept for late pages are bounded;
 * a closing channel refuses new pages.
 */
import { createServer, type Server } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import type { App } from '../../../machines/index.ts';
import { TraceChannel, type TraceChannelLimits } from '../../../transport/inspect/trace-channel.ts';
import type { RunningServer } from '../../../transport/index.ts';
import { handshake, inspectedApp, Viewer } from './support.ts';

const test = suite('the trace channel');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withChannel(app: App, limits: Partial<TraceChannelLimits>, body: (server: RunningServer, channel: TraceChannel) => Promise<void>): Promise<void> {
  const channel = new TraceChannel(app, { path: '/trace', machines: ['request'], limits });
  const http: Server = createServer((_req, res) => res.end());
  http.on('upgrade', channel.handleUpgrade);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const server = { server: http, port: (http.address() as { port: number }).port } as RunningServer;
  try {
    await body(server, channel);
  } finally {
    await channel.close();
    await new Promise((r) => http.close(r));
  }
}

const request = (app: App, i: number) => app.handle({ method: 'GET', url: `/echo/show/${i}`, headers: { host: 'test.host' } });

test('a page that stops reading loses events, and is told how many once it reads again', async () => {
  const app = inspectedApp();
  await withChannel(app, { max_buffered: 64 * 1024, flush_ms: 1 }, async (server) => {
    const viewer = await Viewer.open(server, '/trace');
    // Stop reading: the kernel's buffers fill, then the server's, then batches are dropped.
    const socket = (viewer.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    for (let i = 0; i < 40 && !viewer.frames.some((f) => f.type === 'dropped'); i++) {
      for (let j = 0; j < 500; j++) await request(app, j);
      await sleep(5);
    }
    socket.resume();
    // The count goes out with the first batch this page can take again.
    for (let i = 0; i < 200 && !viewer.frames.some((f) => f.type === 'dropped'); i++) {
      await request(app, i);
      await sleep(20);
    }
    const dropped = viewer.frames.find((f) => f.type === 'dropped') as { events: number };
    assert.ok(dropped.events > 0);
    await viewer.close();
  });
});

test('a page that stops answering pings is dropped, and the app is no longer traced', async () => {
  const app = inspectedApp();
  await withChannel(app, { heartbeatMs: 30 }, async (server, channel) => {
    const live = await Viewer.open(server, '/trace');
    const silent = await Viewer.open(server, '/trace', { autoPong: false });
    assert.is(channel.viewers, 2);
    assert.is(await silent.closed, 1006, 'cut off');
    await live.until(() => channel.viewers === 1);
    await sleep(100);
    assert.is(live.ws.readyState, WebSocket.OPEN, 'a page that answers stays');
    assert.ok(channel.listening);
    await live.close();
    await live.until(() => channel.viewers === 0);
    assert.not.ok(channel.listening);
  });
});

test('recent requests for late pages are bounded; pages beyond the limit are refused', async () => {
  const app = inspectedApp();
  await withChannel(app, { recent_requests: 3, max_viewers: 2 }, async (server, channel) => {
    const first = await Viewer.open(server, '/trace');
    for (let i = 0; i < 5; i++) await request(app, i);
    await first.done(5);
    const second = await Viewer.open(server, '/trace');
    const paths = second.hello.recent.flatMap((e) => (e.kind === 'request' ? [e.path] : []));
    assert.equal(paths, ['/echo/show/2', '/echo/show/3', '/echo/show/4']);
    assert.is(await handshake(server, '/trace'), 503, 'two pages at most here');
    assert.is(await handshake(server, '/elsewhere'), 404, 'its own path only');
    assert.is(channel.viewers, 2);
    await Promise.all([first.close(), second.close()]);
  });
});

test('a closing channel refuses new pages, and sends what it held before closing', async () => {
  const app = inspectedApp();
  await withChannel(app, { flush_ms: 10_000 }, async (server, channel) => {
    const viewer = await Viewer.open(server, '/trace');
    await request(app, 1);
    const closed = channel.close(4000);
    assert.is(await handshake(server, '/trace'), 503);
    await closed;
    assert.is(await viewer.closed, 4000);
    assert.is(viewer.events.filter((e) => e.kind === 'done').length, 1, 'the pending batch went out first');
    assert.is(channel.close(), closed, 'closing twice is closing once');
  });
});

test.run();
