/**
 * Many requests over a few keep-alive connections: what a flood of
 * distinct-but-similar requests (`per_request_unique`) looks like, without
 * exhausting the machine's ephemeral ports the way fresh connections would.
 */
import http from 'node:http';
import type { WireRequest } from './wire.ts';

/** Sends `times` requests made by `make`, `concurrency` at a time; `each` sees every status and duration. */
export async function keepAliveRepeat(
  port: number,
  times: number,
  make: () => WireRequest,
  each: (status: number, ms: number) => void,
  concurrency = 8,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const one = (request: WireRequest) => new Promise<void>((done, fail) => {
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, method: request.method, path: request.target, agent, headers: Object.fromEntries(request.headers) }, (res) => {
      res.resume();
      res.on('end', () => {
        each(res.statusCode ?? 0, performance.now() - started);
        done();
      });
    });
    req.on('error', fail);
    req.end(request.body);
  });
  const worker = async () => {
    while (next < times) {
      next++;
      await one(make());
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
}
