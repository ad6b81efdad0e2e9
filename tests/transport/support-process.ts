/** A `serve()` in a child process (tests/transport/fixtures/signal-server.ts), for what only real signals show. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServeOptions } from '../../transport/index.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/signal-server.ts', import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** The log lines written so far. */
  readonly logs: Record<string, unknown>[];
  /** Resolves with the exit code and how long after `since` (performance.now()) it came. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export function serverProcess(options: ServeOptions = {}, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, ...env, SIGNALBOX_TEST_SERVE: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let pending = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    // 'close': the process has exited and its output has been read to the end (at 'exit' its last lines may not have been).
    child.once('close', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ child, port: (JSON.parse(out.slice(0, newline)) as { port: number }).port, logs, exited: () => exit });
    });
    void exit.then(({ code }) => reject(new Error(`the server process exited (${code}) before listening: ${JSON.stringify(logs)}`)));
  });
}
