/**
 * Shutdown always ends: a real SIGTERM to a server in its own process.
 * Requests already received are answered (the last on each connection with
 * `Connection: close`), idle keep-alive sockets close at once, half-sent
 * requests get 408 at their timeouts, new connections are refused, and at
 * the shutdown timeout whatever is left is cut, counted in the log, and the
 * process exits 0; a second signal exits at once. Under load no keep-alive
 * client sees a reset.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, PATIENCE_MS } from '../support/patience.ts';
import { tunnel } from '../../transport/index.ts';
import { serverProcess } from './support-process.ts';

const test = suite('a shutdown always ends');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer { status: number; headers: IncomingHttpHeaders; body: string }

function get(port: number, path: string, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw connection: what the server sends, and when it closed. */
function rawConnection(port: number, bytes: string): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve) => {
    let out = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      resolve({ socket, received: () => out, closed });
    });
    socket.on('data', (d: Buffer) => { out += d.toString('latin1'); });
    socket.on('error', () => {});
    const closed = new Promise<number>((r) => socket.once('close', () => r(performance.now())));
  });
}

// Every connection starts in the fast lane; with it off, node:http reads them all. Both drain alike.
for (const [reader, fastLane] of [['fast lane', true], ['node:http only', false]] as const) {
  test(`a half-sent request gets 408 during the drain, and the process exits 0 within the timeout (${reader})`, async () => {
    const server = await serverProcess({ fastLane,  headersTimeoutMs: 600, shutdownTimeoutMs: 5_000 });
    const half = await rawConnection(server.port, 'GET /slow/show HTTP/1.1\r\nHost: x\r\n');
    await sleep(100);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    await half.closed;
    assert.match(half.received(), /^HTTP\/1\.1 408 Request Timeout\r\n/);
    const { code, at } = await server.exited();
    assert.is(code, 0);
    assert.ok(at - signalled < 5_000 + 1_000, `exited ${Math.round(at - signalled)} ms after the signal`);
  });

  test(`requests already received are answered with Connection: close; idle sockets close at once; new connections are refused (${reader})`, async () => {
    const server = await serverProcess({ fastLane,  shutdownTimeoutMs: 5_000 });
    const idle = await rawConnection(server.port, 'GET /slow/show HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(1_200);
    assert.match(idle.received(), /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(idle.received(), /Connection: keep-alive/);
    const slow = get(server.port, '/slow/show?ms=400');
    await sleep(100);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const closedAt = await idle.closed;
    assert.ok(closedAt - signalled < 300, `the idle socket closed ${Math.round(closedAt - signalled)} ms after the signal`);
    await sleep(50);
    await get(server.port, '/slow/show').then(
      () => assert.unreachable('a new connection was accepted'),
      (error: NodeJS.ErrnoException) => assert.is(error.code, 'ECONNREFUSED'),
    );
    const answer = await slow;
    assert.is(answer.status, 200);
    assert.is(answer.body, 'slept 400');
    assert.is(answer.headers.connection, 'close');
    assert.is((await server.exited()).code, 0);
  });

  test(`a keep-alive client held up 150 ms before its next request as the drain begins is answered, not reset (${reader})`, async () => {
    const server = await serverProcess({ fastLane, shutdownTimeoutMs: 5_000 });
    const connection = await rawConnection(server.port, 'GET /slow/show HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((answered) => connection.socket.once('data', answered));
    const answeredAt = performance.now();
    server.child.kill('SIGTERM');
    // Its GC, or a busy host, holds the client up for a moment after the answer.
    await sleep(150 - (performance.now() - answeredAt));
    const before = connection.received().length;
    connection.socket.write('GET /slow/show?ms=1 HTTP/1.1\r\nHost: x\r\n\r\n');
    await connection.closed;
    const last = connection.received().slice(before);
    assert.match(last, /^HTTP\/1\.1 200 OK\r\n/, JSON.stringify(last));
    assert.match(last, /slept 1$/);
    assert.is((await server.exited()).code, 0);
  });

  test(`a request that reaches a busy server as its connection's grace runs out is answered with Connection: close, not reset (${reader})`, async () => {
    const server = await serverProcess({ fastLane, shutdownTimeoutMs: 5_000 });
    const ask = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const answers = (connection: { received: () => string }) => connection.received().split('HTTP/1.1 200 OK\r\n').length - 1;
    // Two keep-alive clients that paused 400 ms between their requests: the drain gives each the longest grace, 1 s.
    const [waiting, holding] = await Promise.all([rawConnection(server.port, ask('/slow/show')), rawConnection(server.port, ask('/slow/show'))]);
    await sleep(400);
    for (const connection of [waiting, holding]) connection.socket.write(ask('/slow/show'));
    assert.ok(await eventually(() => answers(waiting) === 2 && answers(holding) === 2), 'both answered twice');
    server.child.kill('SIGTERM');
    assert.ok(await eventually(() => server.logs.some((l) => l.msg === 'shutting down')), 'the drain began');
    // One client's request holds the server's event loop (a CPU-bound action, a long GC pause) past the other's grace,
    // and the other's next request arrives meanwhile: it is in the server's socket before the grace timer can run.
    const release = join(mkdtempSync(join(tmpdir(), 'signalbox-hold-')), 'release');
    holding.socket.write(ask(`/slow/show?hold=${encodeURIComponent(release)}`));
    assert.ok(await eventually(() => server.logs.some((l) => l.msg === 'holding the event loop')), 'the loop is held');
    const before = waiting.received().length;
    waiting.socket.write(ask('/slow/show?ms=1'));
    await sleep(1_200);
    writeFileSync(release, '');
    await Promise.all([waiting.closed, holding.closed]);
    const last = waiting.received().slice(before);
    assert.match(last, /^HTTP\/1\.1 200 OK\r\n/, `after the grace: ${JSON.stringify(last)}`);
    assert.match(last, /\r\nConnection: close\r\n/i);
    assert.match(last, /slept 1$/);
    assert.is(answers(holding), 3);
    assert.is((await server.exited()).code, 0);
  });

  test(`at the shutdown timeout the requests left are cut, counted in the log, and the process exits 0 (${reader})`, async () => {
    const server = await serverProcess({ fastLane,  shutdownTimeoutMs: 300 });
    const stuck = get(server.port, '/slow/show?ms=20000').then(() => 'answered', (error: NodeJS.ErrnoException) => error.code);
    await sleep(100);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const { code, at } = await server.exited();
    assert.is(code, 0);
    assert.ok(at - signalled < 300 + 1_000, `exited ${Math.round(at - signalled)} ms after the signal`);
    assert.is(await stuck, 'ECONNRESET');
    const line = server.logs.find((l) => l.msg === 'shutdown timeout: cut 1 requests');
    assert.ok(line, JSON.stringify(server.logs.map((l) => l.msg)));
    assert.is(line!.requestsCut, 1);
  });

  test(`SIGNALBOX_SHUTDOWN_TIMEOUT sets the timeout in seconds (${reader})`, async () => {
    const server = await serverProcess({ fastLane }, { SIGNALBOX_SHUTDOWN_TIMEOUT: '0.2' });
    void get(server.port, '/slow/show?ms=20000').catch(() => {});
    await sleep(100);
    server.child.kill('SIGTERM');
    assert.is((await server.exited()).code, 0);
    assert.is(server.logs.find((l) => l.msg === 'shutdown timeout: cut 1 requests')?.timeoutMs, 200);
  });

  test(`a second signal exits at once (${reader})`, async () => {
    const server = await serverProcess({ fastLane,  shutdownTimeoutMs: 20_000 });
    void get(server.port, '/slow/show?ms=20000').catch(() => {});
    await sleep(100);
    server.child.kill('SIGTERM');
    await sleep(100);
    const again = performance.now();
    server.child.kill('SIGINT');
    const { code, at } = await server.exited();
    assert.is(code, 130);
    assert.ok(at - again < 1_000);
    assert.ok(server.logs.some((l) => l.msg === 'second signal: exiting now' && l.requestsCut === 1));
  });

  test(`under load, keep-alive clients lose no request received before the signal and never see a reset (${reader})`, async () => {
    const server = await serverProcess({ fastLane,  shutdownTimeoutMs: 5_000 });
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    let stop = false;
    const client = async (): Promise<void> => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (!stop) {
        try {
          const answer = await get(server.port, '/slow/show?ms=2', agent);
          count(answer.status === 200 ? 'answered' : `status ${answer.status}`);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? String(error);
          count(code);
          // Refused: the server no longer accepts, as it should; this client is done.
          if (code === 'ECONNREFUSED') break;
        }
      }
      agent.destroy();
    };
    const clients = Array.from({ length: 8 }, client);
    // Under way before the signal, however slow the machine.
    assert.ok(await eventually(() => (outcomes.get('answered') ?? 0) >= 100), JSON.stringify([...outcomes]));
    server.child.kill('SIGTERM');
    const exit = await server.exited();
    stop = true;
    await Promise.all(clients);
    assert.is(exit.code, 0);
    assert.equal([...outcomes.keys()].filter((k) => k !== 'answered' && k !== 'ECONNREFUSED'), [], JSON.stringify([...outcomes]));
  });
}

test('a tunnel client loses no request to a rolling restart: what the draining server did not read goes out again on the next server', async () => {
  const first = await serverProcess({ shutdownTimeoutMs: 5_000 });
  const t = await tunnel(`ws://127.0.0.1:${first.port}/_tunnel`, { reconnect: { minMs: 20, maxMs: 100, retries: 200 }, timeoutMs: PATIENCE_MS });
  const outcomes = new Map<string, number>();
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  const closes: unknown[] = [];
  t.on('disconnect', (info) => closes.push(info.code));
  let stop = false;
  const client = async (): Promise<void> => {
    while (!stop) {
      try {
        const answer = await t.request({ path: '/slow/show?ms=5' });
        count(answer.status === 200 ? 'answered' : `status ${answer.status}`);
      } catch (error) {
        count((error as { code?: string }).code ?? String(error));
      }
    }
  };
  const clients = Array.from({ length: 8 }, client);
  try {
    assert.ok(await eventually(() => (outcomes.get('answered') ?? 0) >= 100), JSON.stringify([...outcomes]));
    first.child.kill('SIGTERM');
    assert.is((await first.exited()).code, 0);
    const before = outcomes.get('answered') ?? 0;
    // The next server, on the same port, as a process manager starts it.
    const second = await serverProcess({ port: first.port, shutdownTimeoutMs: 5_000 });
    try {
      assert.ok(await eventually(() => (outcomes.get('answered') ?? 0) >= before + 100), JSON.stringify([...outcomes]));
    } finally {
      stop = true;
      await Promise.all(clients);
      await t.close();
      second.child.kill('SIGTERM');
      await second.exited();
    }
  } finally {
    stop = true;
    await t.close();
  }
  assert.equal(closes, [1001]);
  assert.equal([...outcomes.keys()], ['answered'], JSON.stringify([...outcomes]));
});

test('a shutdown timeout longer than Node\'s longest timer is refused when serving starts, where Node would have fired it at once', async () => {
  const { serve } = await import('../../transport/index.ts');
  const { appWith } = await import('../support/harness.ts');
  // The error serve() rejects with; a server it started by mistake is closed again.
  const refusal = (options: { shutdownTimeoutMs?: number }) => serve(appWith({}), { port: 0, host: '127.0.0.1', ...options })
    .then(async (server) => {
      await server.close();
      return null;
    }, (error: Error) => error);
  const given = await refusal({ shutdownTimeoutMs: 3e9 });
  assert.match(given?.message ?? 'served', /^The shutdown timeout is at most 2147482647 ms, the longest timer Node keeps, not 3000000000$/);
  const before = process.env.SIGNALBOX_SHUTDOWN_TIMEOUT;
  process.env.SIGNALBOX_SHUTDOWN_TIMEOUT = '3000000';
  try {
    const fromEnv = await refusal({});
    assert.match(fromEnv?.message ?? 'served', /^The shutdown timeout is at most 2147482.647 seconds \(SIGNALBOX_SHUTDOWN_TIMEOUT\)/);
  } finally {
    if (before === undefined) delete process.env.SIGNALBOX_SHUTDOWN_TIMEOUT;
    else process.env.SIGNALBOX_SHUTDOWN_TIMEOUT = before;
  }
  assert.is((await refusal({ shutdownTimeoutMs: 2_147_482_647 })), null, 'the longest is taken');
});

test('request, head and keep-alive timeouts are whole ms within Node\'s longest timer, and the head\'s within the request\'s, or serving does not start', async () => {
  const { serve } = await import('../../transport/index.ts');
  const { appWith } = await import('../support/harness.ts');
  const refusal = (options: { requestTimeoutMs?: number; headersTimeoutMs?: number; keepAliveTimeoutMs?: number }) => serve(appWith({}), { port: 0, host: '127.0.0.1', ...options })
    .then(async (server) => {
      await server.close();
      return null;
    }, (error: Error) => error);
  // Past the longest timer Node truncates a socket's timeout with a warning, and fires any other timer after 1 ms.
  assert.match((await refusal({ keepAliveTimeoutMs: 3e9 }))?.message ?? 'served', /^serve\(\) option keepAliveTimeoutMs must be a whole number of ms from 0 \(none\) to 2147483647, the longest timer Node keeps, not 3000000000$/);
  for (const [name, value] of [['requestTimeoutMs', Number.NaN], ['headersTimeoutMs', -1], ['keepAliveTimeoutMs', 1.5]] as const) {
    assert.match((await refusal({ [name]: value }))?.message ?? 'served', new RegExp(`^serve\\(\\) option ${name} must be a whole number`), `${name}: ${value}`);
  }
  assert.match((await refusal({ requestTimeoutMs: 5_000, headersTimeoutMs: 8_000 }))?.message ?? 'served', 'headersTimeoutMs (8000) must not be longer than requestTimeoutMs (5000)');
  assert.is(await refusal({ requestTimeoutMs: 5_000 }), null, 'a shorter request timeout alone shortens the head\'s default with it');
  assert.is(await refusal({ requestTimeoutMs: 0, headersTimeoutMs: 0, keepAliveTimeoutMs: 2_147_483_647 }), null, '0 is none, and the longest timer is taken');
});

test.run();
