/**
 * `app.handle` on one route of the head-to-head bench (`bench/servers/bodies.ts`), a fixed number of times, sequentially, and nothing
 * else: the loop to count instructions over, which (unlike time) a busy shared host does not move.
 * The framework's cost per request is the difference between two counts divided by the difference
 * in requests, which cancels start-up, module loading and warm-up:
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
 *     node --single-threaded --import tsx bench/servers/handle-count.ts json 20000
 *   (the same with 10000; Ir per request = (Ir(20000) - Ir(10000)) / 10000)
 *
 * `--single-threaded` keeps V8's compiler and collector on the main thread, so the counts repeat.
 * Arguments: route (`json` or `html`), requests, engine (`compiled` by default).
 */
import type { RequestMessage } from '../../core/index.ts';
import type { Engine } from '../../machines/index.ts';
import { PATHS } from './bodies.ts';
import { benchApp } from './signalbox-app.ts';

const route = (process.argv[2] ?? 'json') as keyof typeof PATHS;
const requests = Number(process.argv[3] ?? 10_000);
const engine = (process.argv[4] ?? 'compiled') as Engine;
if (!(route in PATHS) || !Number.isInteger(requests) || requests < 0) throw new Error('usage: handle-count.ts json|html <requests> [compiled|xstate]');

// What transport/http.ts hands to app.handle for a wrk request: wrk sends only a Host header.
const message: RequestMessage = {
  method: 'GET', url: PATHS[route], headers: { host: '127.0.0.1:8080' }, body: Buffer.alloc(0),
  remoteAddress: '127.0.0.1', encrypted: false, transport: 'http', staticFiles: true,
};

const app = benchApp(engine);
for (let i = 0; i < requests; i++) {
  const res = await app.handle(message);
  if (res.status !== 200) throw new Error(`${route}: ${res.status}`);
}
