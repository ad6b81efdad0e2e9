/**
 * Fuzzing, bounded so `npm test` stays quick (`npm run fuzz` runs 100,000
 * inputs of each): every request parser either accepts an input or refuses
 * it with a typed 4xx error, quickly, without touching a prototype; and
 * whole random requests over real HTTP and through the tunnel are answered
 * below 500 (or closed cleanly) while the server keeps answering.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createBlogApp } from '../../examples/blog/app.ts';
import { serve, type RunningServer } from '../../transport/index.ts';
import { judge, PARSERS, prototypeSnapshot } from './support/fuzz-targets.ts';
import { FUZZ_SERVER_TIMEOUTS, rawRequest, sendRaw, SLOW_MS, TunnelProbe, tunnelFrame } from './support/fuzz-transports.ts';

const test = suite('random input is refused cleanly, never a crash');
const RUNS = Number(process.env.SIGNALBOX_FUZZ_RUNS ?? 300);
/** A status a bad request may get: a 4xx, or 501 (a method not implemented) and 505 (another HTTP version). */
const clean = (status: number) => status < 500 || status === 501 || status === 505;

for (const target of PARSERS) {
  test(`${target.name}: accepted or a typed 4xx, in bounded time, no pollution`, async () => {
    const before = prototypeSnapshot();
    await fc.assert(fc.asyncProperty(target.input, async (input) => {
      const { outcome, error, ms } = await judge(target, input);
      assert.ok(outcome !== 'crash', `${JSON.stringify(input)} crashed the parser: ${String((error as Error)?.stack ?? error)}`);
      assert.ok(ms < SLOW_MS, `${JSON.stringify(input)} took ${ms} ms`);
      assert.is(prototypeSnapshot(), before, `${JSON.stringify(input)} changed a prototype`);
    }), { numRuns: RUNS });
  });
}

let server: RunningServer;
test.before(async () => {
  server = await serve(createBlogApp({ environment: 'test', logger: false }), { port: 0, host: '127.0.0.1', ...FUZZ_SERVER_TIMEOUTS });
});
test.after(async () => {
  await server.close();
});

test('random raw requests over HTTP are answered with a 4xx (or 501/505) or closed, and the server keeps answering', async () => {
  await fc.assert(fc.asyncProperty(rawRequest, async (bytes) => {
    const { status, hang } = await sendRaw(server.port, bytes);
    assert.not.ok(hang, `no answer to ${JSON.stringify(bytes)}`);
    assert.ok(clean(status), `${status} for ${JSON.stringify(bytes)}`);
  }), { numRuns: Math.ceil(RUNS / 5) });
  assert.is((await sendRaw(server.port, 'GET /posts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).status, 200);
});

test('random tunnel frames are answered with a 4xx (or 501) or better, and the socket stays usable', async () => {
  const probe = await TunnelProbe.open(`ws://127.0.0.1:${server.port}/_tunnel`);
  try {
    await fc.assert(fc.asyncProperty(tunnelFrame, async (frame) => {
      const { status, hang } = await probe.send(frame);
      assert.not.ok(hang, `no answer to ${frame(0)}`);
      assert.ok(status > 0 && clean(status), `${status} for ${frame(0)}`);
    }), { numRuns: RUNS });
    assert.ok(probe.open);
    assert.is((await probe.send((id) => JSON.stringify({ id, method: 'GET', path: '/posts' }))).status, 200);
  } finally {
    probe.close();
  }
});

test.run();
