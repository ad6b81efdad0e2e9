/**
 * `npm run fuzz`: 100,000 random inputs for each request parser and each
 * transport (raw HTTP requests over real sockets, frames through the
 * tunnel), all against 127.0.0.1, counting for each: inputs, accepted,
 * typed errors (a 4xx the framework means), crashes (any other exception, or
 * a 5xx other than 501/505), hangs (for a request: neither an answer nor a
 * close within the server's own request timeout and a margin; for a parser:
 * over 2 s), slow answers (over 2 s, answered all the same) and prototype
 * pollution. Writes the counts to bench/RESULTS.md. A correctness run, not a
 * speed one: run it under `nice`. `FUZZ_INPUTS=n` changes the count.
 */
import fc from 'fast-check';
import { createBlogApp } from '../examples/blog/app.ts';
import { serve } from '../transport/index.ts';
import { judge, PARSERS, prototypeSnapshot } from '../tests/reliability/support/fuzz-targets.ts';
import { FUZZ_SERVER_TIMEOUTS, HANG_MS, rawRequest, sendRaw, SLOW_MS, TunnelProbe, tunnelFrame, type WireOutcome } from '../tests/reliability/support/fuzz-transports.ts';
import { fmt, machine, writeSection } from './support/results.ts';

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_101);

interface Row { name: string; inputs: number; accepted: number; typed: number; crashes: number; hangs: number; slow: number; pollution: number; slowestMs: number; examples: string[] }
const row = (name: string): Row => ({ name, inputs: 0, accepted: 0, typed: 0, crashes: 0, hangs: 0, slow: 0, pollution: 0, slowestMs: 0, examples: [] });

async function fuzzParsers(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const target of PARSERS) {
    const r = row(target.name);
    const before = prototypeSnapshot();
    for (const input of fc.sample(target.input, { numRuns: INPUTS, seed: SEED })) {
      const { outcome, error, ms } = await judge(target, input);
      r.inputs++;
      r.slowestMs = Math.max(r.slowestMs, ms);
      if (outcome === 'accepted') r.accepted++;
      else if (outcome === 'refused') r.typed++;
      else {
        r.crashes++;
        if (r.examples.length < 3) r.examples.push(`${JSON.stringify(input).slice(0, 120)}: ${String(error)}`);
      }
      if (ms > SLOW_MS) r.hangs++;
      if (prototypeSnapshot() !== before) r.pollution++;
    }
    console.log(`${target.name}: ${JSON.stringify({ ...r, examples: undefined })}`);
    rows.push(r);
  }
  return rows;
}

const clean = (status: number) => status < 500 || status === 501 || status === 505;

/** Runs `total` cases `concurrency` at a time. */
async function pool(total: number, concurrency: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) await one(next++);
  }));
}

function tally(r: Row, outcome: WireOutcome, input: string): void {
  r.inputs++;
  r.slowestMs = Math.max(r.slowestMs, outcome.ms);
  if (outcome.ms > SLOW_MS) r.slow++;
  if (outcome.hang) {
    r.hangs++;
    if (r.examples.length < 3) r.examples.push(`hang: ${JSON.stringify(input).slice(0, 120)}`);
  } else if (!clean(outcome.status)) {
    r.crashes++;
    if (r.examples.length < 3) r.examples.push(`${outcome.status}: ${JSON.stringify(input).slice(0, 120)}`);
  } else if (outcome.status >= 400 || outcome.status === 0) r.typed++;
  else r.accepted++;
}

async function fuzzTransports(): Promise<Row[]> {
  const server = await serve(createBlogApp({ environment: 'test', logger: false }), { port: 0, host: '127.0.0.1', ...FUZZ_SERVER_TIMEOUTS });
  const before = prototypeSnapshot();
  const http = row('HTTP (raw requests, real sockets)');
  const requests = fc.sample(rawRequest, { numRuns: INPUTS, seed: SEED });
  await pool(INPUTS, 32, async (i) => tally(http, await sendRaw(server.port, requests[i]), requests[i]));
  if (prototypeSnapshot() !== before) http.pollution++;
  console.log(`http: ${JSON.stringify({ ...http, examples: undefined })}`);
  const tunnel = row('tunnel (frames over one WebSocket)');
  const frames = fc.sample(tunnelFrame, { numRuns: INPUTS, seed: SEED });
  const probe = await TunnelProbe.open(`ws://127.0.0.1:${server.port}/_tunnel`);
  await pool(INPUTS, 64, async (i) => tally(tunnel, await probe.send(frames[i]), frames[i](0)));
  probe.close();
  if (prototypeSnapshot() !== before) tunnel.pollution++;
  console.log(`tunnel: ${JSON.stringify({ ...tunnel, examples: undefined })}`);
  // The server still answers, and nothing else about it changed.
  const after = await sendRaw(server.port, 'GET /posts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  if (after.status !== 200) http.crashes++;
  await server.close();
  return [http, tunnel];
}

const started = Date.now();
const parsers = await fuzzParsers();
const transports = await fuzzTransports();
const table = (rows: Row[]) => rows.map((r) => `| ${r.name} | ${fmt(r.inputs)} | ${fmt(r.accepted)} | ${fmt(r.typed)} | ${r.crashes} | ${r.hangs} | ${r.slow} | ${r.pollution} | ${r.slowestMs.toFixed(1)} |`).join('\n');
const examples = [...parsers, ...transports].flatMap((r) => r.examples.map((e) => `- ${r.name}: ${e}`));
writeSection('fuzz', `
## Fuzzing (\`npm run fuzz\`)

${fmt(INPUTS)} random inputs per request parser and per transport (seed ${SEED}), generated by fast-check from the targets in \`tests/reliability/support/\` (random text biased toward each grammar's own characters and pieces: brackets, escapes, \`__proto__\`, CDATA, boundaries, base64...). A parser's input is **accepted**, or refused with a **typed** error (a \`SignalboxError\` with a 4xx status), or a **crash** (anything else thrown). A transport's input is a whole request against \`serve()\` of the example blog on 127.0.0.1: a raw HTTP request on a fresh connection, or a frame on one tunnel socket; a crash is a 5xx other than 501/505, a **hang** neither an answer nor a close within ${HANG_MS / 1000} s of connecting (the fuzzed server's request timeout, ${FUZZ_SERVER_TIMEOUTS.requestTimeoutMs / 1000} s, plus the second Node takes to notice it and a margin: a request the server waits on legitimately, such as a body shorter than its Content-Length, ends in a 4xx or a close within that), and **slow** an answer after more than ${SLOW_MS / 1000} s (for parsers a hang is one input taking that long). The client half-closes its side 200 ms after writing, as one that has sent all it will. **Pollution**: a new own property on \`Object\`, \`Array\`, \`Function\` or \`String.prototype\`. Transports' "typed" column counts 4xx answers and clean closes; "accepted" counts 2xx/3xx.

${machine()}; ${((Date.now() - started) / 60_000).toFixed(1)} minutes.

| target | inputs | accepted | typed errors | crashes | hangs | slow (> ${SLOW_MS / 1000} s) | pollution | slowest (ms) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${table(parsers)}
${table(transports)}
${examples.length > 0 ? `\nFailures:\n${examples.join('\n')}\n` : ''}`);
console.log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(0);
