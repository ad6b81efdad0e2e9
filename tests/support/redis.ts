/**
 * A real redis-server for tests: started on a free port of 127.0.0.1 in a
 * scratch directory (no persistence, nothing shared with any other Redis),
 * stopped at the end, and killed and restarted on the same port when a test
 * needs an outage. Without a redis-server binary, `startRedis` throws
 * `Unavailable` (the test is skipped locally, and fails under CI=true):
 * `.ci/setup-redis` installs Debian's package, or point
 * SIGNALBOX_REDIS_SERVER at a binary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { Unavailable } from '../harness/unavailable.ts';
import { PATIENCE_MS } from './patience.ts';
import { scratchDir } from './temp.ts';

const BINARY = process.env.SIGNALBOX_REDIS_SERVER ?? '/usr/bin/redis-server';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>/0` */
  readonly url: string;
  /** The server's process id while it runs (a benchmark pins it to a core and counts its CPU). */
  readonly pid: number | null;
  /** Kills the server at once (SIGKILL): clients see their connection drop. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
  /** Runs one command through a raw connection (RESP), answering its reply as text. */
  command(...args: string[]): Promise<string | string[] | number | null>;
}

/** Whether a redis-server binary is here. */
export function redisAvailable(): boolean {
  return existsSync(BINARY);
}

/** A free port of 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  if (!redisAvailable()) {
    throw new Unavailable(`redis-server is not installed at ${BINARY}: run \`bash .ci/setup-redis\` (Debian: apt-get install -y redis-server), or point SIGNALBOX_REDIS_SERVER at a redis-server binary`);
  }
  const port = await freePort();
  const dir = scratchDir('redis');
  let child: ChildProcess | null = null;
  const launch = async (): Promise<void> => {
    const started = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let stderr = '';
    started.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    const deadline = performance.now() + PATIENCE_MS;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode}): ${stderr}`);
      if (await answers(port)) return;
      if (performance.now() > deadline) throw new Error(`redis-server did not answer on port ${port} within ${PATIENCE_MS / 1000} s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const halt = (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      running.once('exit', () => resolve());
      running.kill(signal);
    });
  };
  await launch();
  const stopOnExit = () => child?.kill('SIGKILL');
  process.once('exit', stopOnExit);
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    get pid() {
      return (child as ChildProcess | null)?.pid ?? null;
    },
    kill: () => halt('SIGKILL'),
    restart: launch,
    async stop() {
      await halt('SIGTERM');
      process.off('exit', stopOnExit);
    },
    command: (...args) => rawCommand(port, args),
  };
}

async function answers(port: number): Promise<boolean> {
  try {
    return (await rawCommand(port, ['PING'])) === 'PONG';
  } catch {
    return false;
  }
}

/** One command over a fresh connection, with a small RESP reader (enough for status, integer, bulk and flat array replies). */
function rawCommand(port: number, args: readonly string[]): Promise<string | string[] | number | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    socket.setTimeout(2_000, () => socket.destroy(new Error('redis command timed out')));
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const parsed = parseReply(buffer, 0);
      if (parsed === undefined) return;
      socket.end();
      if (parsed.value instanceof Error) reject(parsed.value);
      else resolve(parsed.value);
    });
  });
}

type Reply = string | number | null | string[] | Error;

function parseReply(buffer: Buffer, at: number): { value: Reply; end: number } | undefined {
  const lineEnd = buffer.indexOf('\r\n', at);
  if (lineEnd < 0) return undefined;
  const type = String.fromCharCode(buffer[at]);
  const line = buffer.toString('utf8', at + 1, lineEnd);
  switch (type) {
    case '+': return { value: line, end: lineEnd + 2 };
    case '-': return { value: new Error(line), end: lineEnd + 2 };
    case ':': return { value: Number(line), end: lineEnd + 2 };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, end: lineEnd + 2 };
      if (buffer.length < lineEnd + 2 + length + 2) return undefined;
      return { value: buffer.toString('utf8', lineEnd + 2, lineEnd + 2 + length), end: lineEnd + 2 + length + 2 };
    }
    case '*': {
      const count = Number(line);
      const items: string[] = [];
      let end = lineEnd + 2;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, end);
        if (item === undefined) return undefined;
        items.push(Array.isArray(item.value) ? JSON.stringify(item.value) : String(item.value));
        end = item.end;
      }
      return { value: count < 0 ? null : items, end };
    }
    default: return { value: new Error(`unexpected reply ${JSON.stringify(line)}`), end: lineEnd + 2 };
  }
}
