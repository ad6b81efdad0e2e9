/**
 * `npm run reliability -- <probe>...`: on-demand checks of what a hostile or
 * careless client can cost, against the example blog in production in its
 * own process on 127.0.0.1 (bench/servers/reliability-server.ts). Each is
 * bounded in time and requests, and writes its figures to bench/RESULTS.md:
 *
 *   soak        1,000,000 keep-alive requests (200/404/422 mixed), RSS sampled every 100,000; passes with
 *               0 errors and the last sample within 15% of the one at 200,000, and exits 1 otherwise
 *               (SOAK_REQUESTS, SOAK_SAMPLE_EVERY; the reference is the sample a fifth of the way)
 *   slowloris   200 connections sending a header byte a second, while another client is served
 *   readers     50 clients that send requests and read their answers a byte at a time
 *   pipelining  one connection writes 50,000 pipelined requests and reads nothing; RSS and another client's latency
 *   shutdown    SIGTERM under keep-alive load: requests lost, ECONNRESETs, exit code and time
 *
 * Correctness and memory, not speed: run it under `nice`, on a quiet machine for the latencies.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { fmt, machine, writeSection } from './support/results.ts';

const SERVER = fileURLToPath(new URL('./servers/reliability-server.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

interface Memory { rss: number; heapUsed: number; heapTotal: number }
interface Running { child: ChildProcess; port: number; rss(): Promise<number>; gc(): Promise<Memory>; exit: Promise<{ code: number | null; at: number }> }

function start(env: Record<string, string> = {}, nodeOptions: string[] = []): Promise<Running> {
  const child = fork(SERVER, [], { execArgv: ['--import', 'tsx', ...nodeOptions], env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const exit = new Promise<{ code: number | null; at: number }>((r) => child.once('exit', (code) => r({ code, at: performance.now() })));
  // One question at a time, so each answer goes to its own asker.
  let asked: Promise<unknown> = Promise.resolve();
  const ask = (question: 'rss' | 'gc'): Promise<Memory> => {
    const answer = asked.then(() => new Promise<Memory>((resolve) => {
      child.once('message', (m) => resolve(m as Memory));
      child.send(question);
    }));
    asked = answer;
    return answer;
  };
  return new Promise((resolve) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, port: (JSON.parse(String(d)) as { port: number }).port, rss: () => ask('rss').then((m) => m.rss), gc: () => ask('gc'), exit }));
  });
}

function get(port: number, path: string, agent: Agent | false, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent, method, headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '13' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? 'post[title]=x' : undefined);
  });
}

async function latency(port: number): Promise<number> {
  const started = performance.now();
  await get(port, '/posts', false);
  return performance.now() - started;
}

/** The soak's target: RSS at the end within this fraction of the RSS at a fifth of the way (200,000 of 1,000,000), and no errors. */
const SOAK_RSS_DRIFT = 0.15;

async function soak(): Promise<string> {
  const total = Number(process.env.SOAK_REQUESTS ?? 1_000_000);
  const every = Number(process.env.SOAK_SAMPLE_EVERY ?? 100_000);
  // Each sample follows a full collection: a sample taken wherever the collector happened to be swings by
  // tens of MiB either way, and the question is whether memory is retained, not when V8 last collected.
  const server = await start({}, ['--expose-gc']);
  const retained = async (): Promise<number> => (await server.gc()).rss;
  const statuses = new Map<number, number>();
  const expected = new Set([200, 404, 422]);
  let errors = 0;
  let started = 0;
  let finished = 0;
  const samples: [number, number][] = [[0, await retained()]];
  const begun = performance.now();
  const deadline = begun + 30 * 60_000;
  const paths: [string, string][] = [['GET', '/posts'], ['GET', '/posts/1'], ['GET', '/nowhere'], ['POST', '/posts']];
  let sampling: Promise<void> = Promise.resolve();
  await Promise.all(Array.from({ length: 32 }, async (_, c) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (started < total && performance.now() < deadline) {
      const [method, path] = paths[(started + c) % paths.length];
      started++;
      try {
        const status = await get(server.port, path, agent, method);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        // Anything but the three answers this mix asks for (a 500, say) is an error too.
        if (!expected.has(status)) errors++;
      } catch {
        errors++;
      }
      finished++;
      // Sampled by requests answered, each multiple once, while the other clients keep going.
      if (finished % every === 0) {
        const at = finished;
        sampling = sampling.then(async () => {
          samples.push([at, await retained()]);
        });
      }
    }
    agent.destroy();
  }));
  await sampling;
  const seconds = (performance.now() - begun) / 1000;
  server.child.kill('SIGTERM');
  await server.exit;
  const referenceAt = Math.round(total / 5);
  const reference = samples.find(([n]) => n >= referenceAt && n > 0);
  const last = samples[samples.length - 1];
  const drift = reference === undefined ? null : (last[1] - reference[1]) / reference[1];
  const complete = finished === total;
  const pass = complete && errors === 0 && drift !== null && Math.abs(drift) <= SOAK_RSS_DRIFT;
  const verdict = `**${pass ? 'PASS' : 'FAIL'}**: ${fmt(finished)} of ${fmt(total)} requests answered within the 30-minute bound, ${errors} errors, last RSS sample ${drift === null ? 'not comparable (too few samples)' : `${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(1)}% against the one at ${fmt(reference![0])}`} (target: 0 errors, within ${SOAK_RSS_DRIFT * 100}%).`;
  console.log(verdict);
  if (!pass) process.exitCode = 1;
  return `## Reliability: soak of ${fmt(finished)} requests${total < 1_000_000 ? ` (a smoke run; the target is stated for 1,000,000: \`SOAK_REQUESTS\`)` : ''}

32 keep-alive clients, requests cycling over \`GET /posts\` (200), \`GET /posts/1\` (200), \`GET /nowhere\` (404) and \`POST /posts\` without a token (422); ${seconds.toFixed(0)} s. Answers: ${[...statuses].sort(([a], [b]) => a - b).map(([st, n]) => `${st}: ${fmt(n)}`).join(', ')}; **errors: ${errors}** (a failed request, or any status but those three). RSS sampled every ${fmt(every)} answered requests, each after a full garbage collection:

| requests | ${samples.map(([n]) => fmt(n)).join(' | ')} |
|---|${samples.map(() => '---:').join('|')}|
| RSS (MiB) | ${samples.map(([, r]) => MB(r)).join(' | ')} |

${verdict}`;
}

async function slowloris(): Promise<string> {
  const server = await start();
  const sockets = Array.from({ length: 200 }, () => {
    const s = connect(server.port, '127.0.0.1', () => s.write('GET /posts HTTP/1.1\r\nHost: x\r\n'));
    s.on('error', () => {});
    return s;
  });
  const drip = setInterval(() => { for (const s of sockets) if (!s.destroyed) s.write('X-a: b\r\n'); }, 1_000);
  const closedAt: number[] = [];
  const started = performance.now();
  for (const s of sockets) s.once('close', () => closedAt.push(performance.now() - started));
  await sleep(500);
  const during = await latency(server.port);
  await sleep(12_000);
  clearInterval(drip);
  for (const s of sockets) s.destroy();
  server.child.kill('SIGTERM');
  await server.exit;
  closedAt.sort((a, b) => a - b);
  return `## Reliability: slowloris

200 connections each send a request line and then one header line a second, never finishing. Closed by the server within ${(closedAt[Math.floor(closedAt.length * 0.99)] / 1000).toFixed(1)} s (p99; header timeout 10 s, checked every second) with 408; a normal request meanwhile took ${during.toFixed(1)} ms.`;
}

async function readers(): Promise<string> {
  const server = await start();
  const before = await server.rss();
  const sockets = Array.from({ length: 50 }, () => {
    const s = connect(server.port, '127.0.0.1', () => s.write('GET /posts HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(20)));
    s.on('error', () => {});
    s.pause();
    return s;
  });
  const trickle = setInterval(() => { for (const s of sockets) s.read(1); }, 100);
  await sleep(3_000);
  const during = await latency(server.port);
  const rss = await server.rss();
  clearInterval(trickle);
  for (const s of sockets) s.destroy();
  server.child.kill('SIGTERM');
  await server.exit;
  return `## Reliability: slow readers

50 connections each pipeline 20 \`GET /posts\` and read their answers a byte per 100 ms. After 3 s: RSS ${MB(before)} → ${MB(rss)} MiB; a normal request took ${during.toFixed(1)} ms.`;
}

/**
 * Bytes the kernel holds on the connection(s) to `port`, from `ss` (null without it): `requests`,
 * still on their way to the server (its Recv-Q, and the client's Send-Q), and `answers`, on their
 * way back (the server's Send-Q, and the client's Recv-Q).
 */
function kernelQueues(port: number): { requests: number; answers: number } | null {
  try {
    const out = execFileSync('ss', ['-tnH', 'state', 'established', `( sport = :${port} or dport = :${port} )`], { encoding: 'utf8' });
    const queued = { requests: 0, answers: 0 };
    for (const line of out.trim().split('\n').filter(Boolean)) {
      const [recvQ, sendQ, local] = line.trim().split(/\s+/);
      const serverSide = local.endsWith(`:${port}`);
      queued.requests += Number(serverSide ? recvQ : sendQ);
      queued.answers += Number(serverSide ? sendQ : recvQ);
    }
    return queued;
  } catch {
    return null;
  }
}

/** The bytes of one whole answer to `request` (sent with Connection: close), head included. */
function answerBytes(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const socket = connect(port, '127.0.0.1', () => socket.end(request.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')));
    socket.on('data', (d: Buffer) => { bytes += d.length; });
    socket.on('close', () => resolve(bytes - 'Connection: close\r\n'.length));
    socket.on('error', reject);
  });
}

const WARM_REQUESTS = 20_000;

async function pipelining(): Promise<string> {
  const server = await start({}, ['--expose-gc']);
  const cold = await server.gc();
  // Idle means ready to serve: the code a request runs is compiled and the heap has grown to serve it.
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let warmed = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (warmed++ < WARM_REQUESTS) await get(server.port, '/posts', agent);
  }));
  agent.destroy();
  await sleep(500);
  const idle = await server.gc();
  const flood = connect(server.port, '127.0.0.1');
  flood.on('error', () => {});
  flood.pause();
  await new Promise((r) => flood.once('connect', r));
  const REQUEST = 'GET /posts HTTP/1.1\r\nHost: x\r\n\r\n';
  let written = 0;
  const write = (): void => {
    while (written < 50_000) {
      written++;
      if (!flood.write(REQUEST)) return void flood.once('drain', write);
    }
  };
  write();
  await sleep(3_000);
  const floodedRss = await server.rss();
  const flooded = await server.gc();
  const other = await latency(server.port);
  // What the kernel still holds for the flood: the server's receive queue and the client's send queue.
  const queued = kernelQueues(server.port);
  const answerSize = await answerBytes(server.port, REQUEST);
  const sent = written * REQUEST.length - flood.writableLength;
  flood.destroy();
  server.child.kill('SIGTERM');
  await server.exit;
  return `## Reliability: unread pipelining

One connection writes 50,000 pipelined \`GET /posts\` (${fmt(written * REQUEST.length)} bytes) and reads nothing. RSS: ${MB(cold.rss)} MiB just started; **${MB(idle.rss)} MiB idle** (after a full garbage collection, as every figure here but one) after serving ${fmt(WARM_REQUESTS)} ordinary requests on 8 keep-alive connections (what any server grows by once its requests' code is compiled and its heap has grown to serve them); **${MB(flooded.rss)} MiB** 3 s into the flood (**+${MB(flooded.rss - idle.rss)} MiB**; ${MB(floodedRss)} MiB before that collection). V8's heap: ${MB(idle.heapUsed)} MiB in use (of ${MB(idle.heapTotal)} MiB reserved) idle, ${MB(flooded.heapUsed)} (of ${MB(flooded.heapTotal)}) during the flood: **+${MB(flooded.heapUsed - idle.heapUsed)} MiB held** for the flood's requests. ${queued === null ? '' : `Of the ${fmt(sent)} bytes of requests sent, ${fmt(queued.requests)} were still in the kernel's socket queues (kernel memory, not the process's): the server had taken ${fmt(sent - queued.requests)} bytes (${fmt(Math.floor((sent - queued.requests) / REQUEST.length))} requests) off the socket, and answered ${fmt(Math.round(queued.answers / answerSize))} of them (${fmt(queued.answers)} bytes of answers of ${fmt(answerSize)} bytes each, queued in the kernel toward the client that does not read) before its writes backed up and the connection was no longer read. `}Another client's \`GET /posts\` took ${other.toFixed(1)} ms.`;
}

async function shutdown(): Promise<string> {
  const server = await start({ SHUTDOWN_MS: '10000' });
  const outcomes = new Map<string, number>();
  let stop = false;
  let sent = 0;
  let answered = 0;
  const clients = Array.from({ length: 16 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (!stop) {
      sent++;
      try {
        await get(server.port, '/posts', agent);
        answered++;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'other';
        outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
        if (code === 'ECONNREFUSED') break;
      }
    }
    agent.destroy();
  });
  await sleep(3_000);
  const signalled = performance.now();
  server.child.kill('SIGTERM');
  const { code, at } = await server.exit;
  stop = true;
  await Promise.all(clients);
  const lost = sent - answered - (outcomes.get('ECONNREFUSED') ?? 0);
  return `## Reliability: shutdown under load

16 keep-alive clients loop \`GET /posts\`; SIGTERM after 3 s. ${fmt(answered)} answered; requests lost (sent, neither answered nor refused a connection): **${lost}**; errors by code: ${outcomes.size === 0 ? 'none' : [...outcomes].map(([c, n]) => `${c} ${n}`).join(', ')} (ECONNREFUSED is the new connection a client opens after its \`Connection: close\` answer); **ECONNRESET: ${outcomes.get('ECONNRESET') ?? 0}**. Exit code ${code}, ${((at - signalled) / 1000).toFixed(2)} s after the signal.`;
}

const PROBES: Record<string, () => Promise<string>> = { soak, slowloris, readers, pipelining, shutdown };
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(PROBES);
const parts: string[] = [];
for (const name of chosen) {
  const probe = PROBES[name];
  if (probe === undefined) throw new Error(`Unknown probe ${name}; one of ${Object.keys(PROBES).join(', ')}`);
  console.log(`running ${name}...`);
  const text = await probe();
  console.log(text);
  parts.push(text);
  const settings = Object.keys(process.env).filter((k) => k.startsWith(`${name.toUpperCase()}_`)).map((k) => `${k}=${process.env[k]} `).join('');
  writeSection(`reliability-${name}`, `${text}\n\n_${machine()}; \`${settings}npm run reliability -- ${name}\`._`);
}
process.exit(process.exitCode ?? 0);
