/**
 * `serve(() => app, { workers })` in a child process
 * (tests/transport/fixtures/cluster-server.ts), with every log line of the
 * primary and its workers collected, and plain HTTP requests to it on fresh
 * connections (so the primary's round-robin spreads them over the workers).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { ClusterOptions } from '../../transport/index.ts';
import { PATIENCE_MS } from '../support/patience.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/cluster-server.ts', import.meta.url));

export interface ClusterProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** The workers' pids when it started. */
  readonly workers: number[];
  /** Every log line so far, primary's and workers', parsed. */
  readonly logs: Record<string, unknown>[];
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  get(path: string, method?: string, headers?: Record<string, string>): Promise<Answer>;
  /** Waits until a log line passes `test` (at most `ms`). */
  waitForLog(test: (line: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
}

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** When the answer came, `performance.now()`. */
  readonly at: number;
}

export function get(port: number, path: string, method = 'GET', headers: Record<string, string> = {}, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, at: performance.now() }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Whatever a failed test left running goes with the test process.
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** A cluster process as it starts: its output and exit, before (or without) its workers listening. */
export type StartingCluster = Pick<ClusterProcess, 'child' | 'logs' | 'exited' | 'waitForLog'>;

export function clusterProcess(options: ClusterOptions, env: Record<string, string> = {}, cwd?: string): Promise<ClusterProcess> {
  const { starting, listening } = startCluster(options, env, cwd);
  return listening.then(({ test_port, workers }) => ({ ...starting, port: test_port, workers, get: (path: string, method?: string, headers?: Record<string, string>) => get(test_port, path, method, headers) }));
}

/** Starts the cluster process; `listening` settles once every worker listens (or rejects when it exits first). */
export function startCluster(options: ClusterOptions, env: Record<string, string> = {}, cwd?: string): { starting: StartingCluster; listening: Promise<{ test_port: number; workers: number[] }> } {
  // tsx by its own location, so that the process may start in any directory.
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), FIXTURE], {
    ...(cwd !== undefined ? { cwd } : {}),
    env: { ...process.env, NODE_ENV: 'development', ...env, SIGNALBOX_TEST_SERVE: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const watchers = new Set<() => void>();
  let announced: ((value: { test_port: number; workers: number[] }) => void) | null = null;
  const lines = (stream: NodeJS.ReadableStream) => {
    let pending = '';
    stream.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const all = pending.split('\n');
      pending = all.pop()!;
      for (const line of all) {
        if (line.trim() === '') continue;
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(line) as Record<string, unknown>;
        } catch {
          parsed = { msg: line };
        }
        if (typeof parsed.test_port === 'number') announced?.(parsed as { test_port: number; workers: number[] });
        else logs.push(parsed);
        for (const watcher of watchers) watcher();
      }
    });
  };
  lines(child.stdout!);
  lines(child.stderr!);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    // 'close': the process has exited and its output has been read to the end.
    child.once('close', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  const waitForLog = (test: (line: Record<string, unknown>) => boolean, ms = PATIENCE_MS) => new Promise<Record<string, unknown>>((resolve, reject) => {
    const check = () => {
      const found = logs.find(test);
      if (found === undefined) return;
      watchers.delete(check);
      clearTimeout(timer);
      resolve(found);
    };
    const timer = setTimeout(() => {
      watchers.delete(check);
      reject(new Error(`no such log line within ${ms} ms: ${JSON.stringify(logs.slice(-20))}`));
    }, ms);
    timer.unref();
    watchers.add(check);
    check();
  });
  children.add(child);
  void exit.then(() => children.delete(child));
  const listening = new Promise<{ test_port: number; workers: number[] }>((resolve, reject) => {
    announced = resolve;
    void exit.then(({ code }) => reject(new Error(`the cluster exited (${code}) before listening: ${JSON.stringify(logs)}`)));
  });
  return { starting: { child, logs, exited: () => exit, waitForLog }, listening };
}
