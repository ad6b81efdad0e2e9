/**
 * One server of `bench/inspect.ts`, in its own process:
 *
 *   node dist/bench/servers/inspect-server.js <compiled|xstate> <off|on> [port]
 *
 * The app every HTTP bench runs (bench/servers/signalbox-app.ts: the ~670-route Rails table, the
 * production environment, no logging) behind `serve()` with `inspect: false` (off) or
 * `inspect: true` (on: the page at /__inspect and the trace channel at /__inspect/trace; traced
 * only while a viewer is connected). Listens on 127.0.0.1 and prints `LISTENING <port>` once
 * ready; exits on SIGTERM/SIGINT and when stdin closes.
 */
import type { Engine } from '../../machines/index.ts';
import { serve } from '../../transport/index.ts';
import { benchApp } from './signalbox-app.ts';

const [engine, mode, portArg] = process.argv.slice(2);
if ((engine !== 'compiled' && engine !== 'xstate') || (mode !== 'off' && mode !== 'on')) {
  console.error('usage: inspect-server.ts <compiled|xstate> <off|on> [port]');
  process.exit(2);
}

const running = await serve(benchApp(engine as Engine), { port: Number(portArg ?? 0), host: '127.0.0.1', inspect: mode === 'on' });
process.stdout.write(`LISTENING ${running.port}\n`);

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  // Bounded: exit even if a connection will not close.
  setTimeout(() => process.exit(0), 2000).unref();
  running.close().then(() => process.exit(0), () => process.exit(0));
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
