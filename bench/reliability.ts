/**
 * `npm run reliability -- <probe>...`: on-demand checks of what a hostile or
 * careless client can cost, against the example blog in production in its
 * own process on 127.0.0.1 (bench/servers/reliability-server.ts). Each is
 * bounded in time and requests, and writes its figures to bench/RESULTS.md:
 *
 *   soak        1,000,000 keep-alive requests (200/404/422 mixed), RSS sampled every 100,000 (SOAK_REQUESTS)
 *   slowloris   200 connections sending a header byte a second, while another client is served
 *   readers     50 clients that send requests and read their answers a byte at a time
 *   pipelining  one connection writes 50,000 pipelined requests and reads nothing; RSS and another client's latency
 *   shutdown    SIGTERM under keep-alive load: requests lost, ECONNRESETs, exit code and time
 *
 * Correctness and memory, not speed: run it under `nice`, on a quiet machine for the latencies.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { fmt, machine, writeSection } from './support/results.ts';

const SERVER = fileURLToPath(new URL('./servers/reliability-server.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

interface Running { child: ChildProcess; port: number; rss(): Promise<number>; exit: Promise<{ code: number | null; at: number }> }

function start(env: Record<string, string> = {}): Promise<Running> {
  const child = fork(SERVER, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const exit = new Promise<{ code: number | null; at: number }>((r) => child.once('exit', (code) => r({ code, at: performance.now() })));
  // One question at a time, so each answer goes to its own asker.
  let asked: Promise<number> = Promise.resolve(0);
  const rss = () => (asked = asked.then(() => new Promise<number>((resolve) => {
    child.once('message', (m) => resolve((m as { rss: number }).rss));
    child.send('rss');
  })));
  return new Promise((resolve) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, port: (JSON.parse(String(d)) as { port: number }).port, rss, exit }));
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

async function soak(): Promise<string> {
  const total = Number(process.env.SOAK_REQUESTS ?? 1_000_000);
  const server = await start();
  const statuses = new Map<number, number>();
  let errors = 0;
  let done = 0;
  const samples: [number, number][] = [[0, await server.rss()]];
  const started = performance.now();
  const deadline = started + 30 * 60_000;
  const paths: [string, string][] = [['GET', '/posts'], ['GET', '/posts/1'], ['GET', '/nowhere'], ['POST', '/posts']];
  await Promise.all(Array.from({ length: 32 }, async (_, c) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (done < total && performance.now() < deadline) {
      const [method, path] = paths[(done + c) % paths.length];
      done++;
      try {
        const status = await get(server.port, path, agent, method);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch {
        errors++;
      }
      if (done % 100_000 === 0) samples.push([done, await server.rss()]);
    }
    agent.destroy();
  }));
  const seconds = (performance.now() - started) / 1000;
  server.child.kill('SIGTERM');
  await server.exit;
  const at200k = samples.find(([n]) => n === 200_000)?.[1] ?? samples[1]?.[1] ?? samples[0][1];
  const last = samples[samples.length - 1][1];
  return `### Soak: ${fmt(done)} requests

32 keep-alive clients, requests cycling over \`GET /posts\` (200), \`GET /posts/1\` (200), \`GET /nowhere\` (404) and \`POST /posts\` without a token (422); ${seconds.toFixed(0)} s. Answers: ${[...statuses].sort().map(([s, n]) => `${s}: ${fmt(n)}`).join(', ')}; **errors: ${errors}**.

| requests | ${samples.map(([n]) => fmt(n)).join(' | ')} |
|---|${samples.map(() => '---:').join('|')}|
| RSS (MiB) | ${samples.map(([, r]) => MB(r)).join(' | ')} |

Last sample against the one at 200,000: ${(((last - at200k) / at200k) * 100).toFixed(1)}%.`;
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
  return `### Slowloris

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
  return `### Slow readers

50 connections each pipeline 20 \`GET /posts\` and read their answers a byte per 100 ms. After 3 s: RSS ${MB(before)} → ${MB(rss)} MiB; a normal request took ${during.toFixed(1)} ms.`;
}

async function pipelining(): Promise<string> {
  const server = await start();
  const idle = await server.rss();
  const flood = connect(server.port, '127.0.0.1');
  flood.on('error', () => {});
  flood.pause();
  await new Promise((r) => flood.once('connect', r));
  let written = 0;
  const write = (): void => {
    while (written < 50_000) {
      written++;
      if (!flood.write('GET /posts HTTP/1.1\r\nHost: x\r\n\r\n')) return void flood.once('drain', write);
    }
  };
  write();
  await sleep(3_000);
  const rss = await server.rss();
  const other = await latency(server.port);
  flood.destroy();
  server.child.kill('SIGTERM');
  await server.exit;
  return `### Unread pipelining

One connection writes 50,000 pipelined \`GET /posts\` and reads nothing (${fmt(written)} written before the kernel stopped taking more). After 3 s: RSS ${MB(idle)} MiB idle → ${MB(rss)} MiB; another client's \`GET /posts\` took ${other.toFixed(1)} ms.`;
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
  return `### Shutdown under load

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
  writeSection(`reliability-${name}`, `${text}\n\n_${machine()}; \`npm run reliability -- ${name}\`._`);
}
process.exit(0);
