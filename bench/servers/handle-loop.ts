/**
 * `app.handle` in a loop, without HTTP: what the framework itself costs per request, in time and
 * in bytes allocated, for each engine and route of `bench/http.ts`. Prints one JSON line.
 *
 *   node --expose-gc --max-semi-space-size=128 --import tsx bench/servers/handle-loop.ts [iterations]
 *
 * Time: median of ROUNDS (7) interleaved rounds of `iterations` sequential awaited calls, after warm-up.
 * Bytes: growth of the used heap over ALLOC_N calls that run without any GC in between (a large
 * young generation and a forced GC before; runs with a GC inside are discarded and retried).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { RequestMessage } from '../../core/index.ts';
import type { Engine } from '../../machines/index.ts';
import { PATHS } from './bodies.ts';
import { benchApp } from './signalbox-app.ts';

const ITERATIONS = Number(process.argv[2] ?? 3000);
const ROUNDS = 7;
const ALLOC_N = 250;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

// What transport/http.ts hands to app.handle for a wrk request: wrk sends only a Host header.
const message = (url: string): RequestMessage => ({
  method: 'GET', url, headers: { host: '127.0.0.1:8080' }, body: Buffer.alloc(0),
  remoteAddress: '127.0.0.1', encrypted: false, transport: 'http',
});

let gcs = 0;
new PerformanceObserver((list) => { gcs += list.getEntries().length; }).observe({ entryTypes: ['gc'] });
const tick = () => new Promise((r) => setTimeout(r, 0));

const engines: Engine[] = ['compiled', 'xstate'];
const apps = new Map(engines.map((e) => [e, benchApp(e)]));
const cells = engines.flatMap((engine) => (['json', 'html'] as const).map((route) => ({ engine, route, msg: message(PATHS[route]) })));

async function loop(engine: Engine, msg: RequestMessage, n: number): Promise<void> {
  const app = apps.get(engine)!;
  for (let i = 0; i < n; i++) {
    const res = await app.handle(msg);
    if (res.status !== 200) throw new Error(`${engine} ${msg.url}: ${res.status}`);
  }
}

for (const c of cells) await loop(c.engine, c.msg, ITERATIONS);
const times = new Map<string, number[]>();
for (let r = 0; r < ROUNDS; r++) for (const c of cells) {
  const t = performance.now();
  await loop(c.engine, c.msg, ITERATIONS);
  const us = ((performance.now() - t) * 1000) / ITERATIONS;
  times.set(`${c.engine}/${c.route}`, [...(times.get(`${c.engine}/${c.route}`) ?? []), us]);
}

const bytes = new Map<string, number>();
for (const c of cells) {
  for (let attempt = 0; attempt < 10; attempt++) {
    gc();
    await tick();
    const before = gcs;
    const used = getHeapStatistics().used_heap_size;
    await loop(c.engine, c.msg, ALLOC_N);
    const grown = getHeapStatistics().used_heap_size - used;
    await tick();
    if (gcs === before) { bytes.set(`${c.engine}/${c.route}`, grown / ALLOC_N); break; }
  }
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const out: Record<string, { us: number; bytes: number | null }> = {};
for (const [key, xs] of times) out[key] = { us: median(xs), bytes: bytes.get(key) ?? null };
process.stdout.write(`${JSON.stringify(out)}\n`);
