/**
 * Pipelined requests over real sockets: answered in order, at most
 * `maxPipelined` of a connection's requests running at once, and a client
 * that writes far more than it reads is not read further, so it costs a
 * bounded amount and other clients are answered as usual.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { serve } from '../../transport/index.ts';
import { appWith, withServer } from '../support/harness.ts';

const test = suite('pipelined requests are bounded per connection');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const gauge = { running: 0, most: 0, started: 0 };
class GaugeController extends Controller {
  async show(): Promise<void> {
    gauge.started++;
    gauge.most = Math.max(gauge.most, ++gauge.running);
    await sleep(Number(this.params.ms ?? 5));
    gauge.running--;
    this.render({ text: `n=${String(this.params.id)}` });
  }
}
const app = () => appWith({ gauge: GaugeController });

for (const [reader, fastLane] of [['fast lane', true], ['node:http only', false]] as const) {
  test(`pipelined requests are answered in order, with at most maxPipelined running at once (${reader})`, async () => {
    Object.assign(gauge, { running: 0, most: 0, started: 0 });
    await withServer(app(), { maxPipelined: 4, fastLane }, async (server) => {
      const requests = Array.from({ length: 40 }, (_, i) => `GET /gauge/show/${i}?ms=${(i * 7) % 13} HTTP/1.1\r\nHost: x\r\n\r\n`).join('');
      const out = await new Promise<string>((resolve) => {
        let text = '';
        const socket = connect(server.port, '127.0.0.1', () => socket.write(requests));
        socket.on('close', () => resolve(text));
        socket.on('data', (d: Buffer) => {
          text += d.toString();
          if ((text.match(/n=\d+/g) ?? []).length === 40) {
            socket.destroy();
            resolve(text);
          }
        });
      });
      assert.equal((out.match(/n=\d+/g) ?? []), Array.from({ length: 40 }, (_, i) => `n=${i}`));
      assert.is(gauge.most, 4);
    });
  });

  test(`a client that pipelines thousands of requests and reads nothing is not read further, and others are served (${reader})`, async () => {
    Object.assign(gauge, { running: 0, most: 0, started: 0 });
    await withServer(app(), { maxPipelined: 16, fastLane }, async (server) => {
      let parsed = 0;
      server.server.on('request', () => parsed++);
      const flood = connect(server.port, '127.0.0.1');
      flood.on('error', () => {});
      // Never read: the answers pile up in the kernel, then in the server, and it stops reading this socket.
      flood.pause();
      const request = 'GET /gauge/show/1?ms=50 HTTP/1.1\r\nHost: x\r\n\r\n';
      const total = 50_000;
      await new Promise<void>((resolve) => flood.once('connect', () => resolve()));
      let written = 0;
      const write = (): void => {
        while (written < total) {
          written++;
          if (!flood.write(request)) return void flood.once('drain', write);
        }
      };
      write();
      await sleep(500);
      // 50 ms per answer, 16 at a time: half a second starts about 160; each read the socket gets parses one chunk more.
      assert.ok(gauge.most <= 16, `${gauge.most} ran at once`);
      // node:http parses requests ahead of the bound (they wait their turn); the lane takes no more than it runs.
      const taken = fastLane ? gauge.started : parsed;
      assert.ok(taken < 5_000, `${taken} requests were taken from the flooding connection`);
      const started = performance.now();
      const other = await new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port: server.port, path: '/gauge/show/2?ms=0', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        }).on('error', reject).end();
      });
      assert.is(other, 200);
      assert.ok(performance.now() - started < 1_000, `another client waited ${Math.round(performance.now() - started)} ms`);
      flood.destroy();
      // The flood's running requests finish after its socket is gone; the next specification counts from zero.
      for (let waited = 0; gauge.running > 0 && waited < 5_000; waited += 20) await sleep(20);
    });
  });
}

test('maxPipelined must be a positive integer', async () => {
  for (const maxPipelined of [0, 1.5, -1]) {
    await serve(app(), { port: 0, host: '127.0.0.1', maxPipelined }).then(
      () => assert.unreachable('accepted'),
      (e: Error) => assert.match(e.message, /maxPipelined must be a positive integer/),
    );
  }
});

test('size limits are whole numbers: a negative, fractional or endless one is refused when serving starts', async () => {
  const cases: [string, number, RegExp][] = [
    ['maxBodyBytes', -1, /maxBodyBytes must be a whole number, 0 or more/],
    ['maxBodyBytes', 1.5, /maxBodyBytes must be a whole number, 0 or more/],
    ['maxBodyBytes', Number.POSITIVE_INFINITY, /maxBodyBytes must be a whole number, 0 or more/],
    ['maxBodyBytes', Number.NaN, /maxBodyBytes must be a whole number, 0 or more/],
    ['maxHeaders', 0, /maxHeaders must be a positive integer/],
    ['maxHeaderBytes', -5, /maxHeaderBytes must be a positive integer/],
  ];
  for (const [name, value, message] of cases) {
    await serve(app(), { port: 0, host: '127.0.0.1', [name]: value }).then(
      () => assert.unreachable(`${name} ${value} accepted`),
      (e: Error) => assert.match(e.message, message),
    );
  }
});

test.run();
