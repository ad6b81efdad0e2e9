/**
 * A reader that stops reading holds the bytes it is owed, not the slabs its answers were cut from.
 * Both transports write answers as pieces of shared slabs (transport/slabs.ts). A piece waiting in a
 * stalled socket's queue keeps its whole slab alive. So a client that reads nothing, sent one small
 * answer after another while other connections' answers fill slab after slab, could make the server
 * hold a slab for every small answer. The memory would grow with the other connections' traffic, not
 * with what the stalled client asked for.
 *
 * The tunnel stops reading a socket once `backpressureBytes` (1 MiB by default) wait for it; 1 MiB of
 * small answers could still have pinned thousands of slabs. The test raises the bound so that the
 * small answers are read whatever waits. The HTTP fast lane stops reading a connection as soon as its
 * socket needs a drain (16 KiB waiting), and copies what it writes behind a waiting queue the same way.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Socket } from 'node:net';
import * as v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WebSocket } from 'ws';
import { Controller } from '../../core/index.ts';
import { appWith, withServer } from '../support/harness.ts';

v8.setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Memory held by ArrayBuffers (slabs and every Buffer's bytes) after full collections, in MiB. */
function arrayBuffersMiB(): number {
  collect();
  collect();
  return process.memoryUsage().arrayBuffers / 2 ** 20;
}

class BytesController extends Controller {
  show(): void {
    this.render({ text: 'x'.repeat(Number(this.params.id)) });
  }
}

const app = () => appWith({ bytes: BytesController });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Far more than the kernel takes for a socket whose reader is paused: the rest waits in the server. */
const FILL_BYTES = 24 * 2 ** 20;
/** Small answers sent to the stalled reader, each between other traffic. */
const ROUNDS = 400;
/** Growth allowed: the small answers (under 1 MiB with a slab or two) and room; without the copies, about 10 MiB. */
const MAX_GROWTH_MIB = 6;

async function openTunnel(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, ['signalbox-tunnel.2']);
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  return ws;
}

/** Counts the answer records a batching socket receives; `until(n)` waits for the n-th. */
function counter(ws: WebSocket): { until: (n: number) => Promise<void> } {
  let seen = 0;
  ws.on('message', (data: Buffer) => {
    for (let at = 0; at + 8 <= data.length; seen++) at += 8 + data.readUInt32BE(at) + data.readUInt32BE(at + 4);
  });
  return {
    until: async (n) => {
      const deadline = Date.now() + 20_000;
      while (seen < n) {
        if (Date.now() > deadline) throw new Error(`only ${seen} of ${n} answers`);
        await sleep(1);
      }
    },
  };
}

const test = suite('a reader that stops reading holds what it is owed, not the slabs its answers came from');

test('a stalled tunnel socket, sent small answers between other sockets\' traffic, holds about their bytes', async () => {
  await withServer(app(), { tunnel: { backpressureBytes: 1024 * 2 ** 20, maxInFlight: 100_000 } }, async (server) => {
    const url = `ws://127.0.0.1:${server.port}/_tunnel`;
    const stalled = await openTunnel(url);
    const busy = await openTunnel(url);
    const answers = counter(busy);
    (stalled as unknown as { _socket: Socket })._socket.pause();
    // Big answers (each its own buffer) fill what the kernel holds for it: what follows waits in the server.
    const big = 400_000;
    stalled.send(JSON.stringify(Array.from({ length: FILL_BYTES / big }, (_, id) => ({ id, method: 'GET', path: `/bytes/show/${big}` }))));
    await sleep(300);
    const before = arrayBuffersMiB();
    let asked = 0;
    for (let round = 0; round < ROUNDS; round++) {
      stalled.send(JSON.stringify({ id: 1_000 + round, method: 'GET', path: '/bytes/show/10' }));
      // About 20 KB of answers a round: a slab is filled every dozen rounds.
      busy.send(JSON.stringify(Array.from({ length: 12 }, (_, i) => ({ id: asked + i, method: 'GET', path: '/bytes/show/1500' }))));
      asked += 12;
      await answers.until(asked);
    }
    const grown = arrayBuffersMiB() - before;
    assert.ok(grown < MAX_GROWTH_MIB, `the stalled socket's ${ROUNDS} small answers grew ArrayBuffer memory by ${grown.toFixed(1)} MiB`);
    stalled.terminate();
    busy.close();
  });
});

test.run();
