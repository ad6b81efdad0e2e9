/**
 * Replays every entry of the bad-input corpus (`SIGNALBOX_BAD_INPUTS`,
 * default tests/security/data/bad-inputs.json) against a real `serve()` on 127.0.0.1,
 * byte for byte, and checks the entry's `expect` (as read by
 * support/expect.ts), the invariants every entry shares, that no shared
 * prototype gained a key, and that a fresh `GET /` still answers 200.
 * WebSocket entries open the tunnel of the same server and send their
 * frames byte for byte (support/ws-wire.ts).
 * Ends with one line: `bad inputs: N passed, M failed`.
 *
 * Time bounds in the corpus are checked with a multiplier
 * (`SIGNALBOX_TIME_FACTOR`, default 5) because CI machines are shared and
 * the suite runs under coverage: the bounds exist to catch super-linear
 * work, which misses them by orders of magnitude, not by a factor of 5.
 */
import { existsSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, SignalboxError, Controller } from '../../core/index.ts';
import { createApp } from '../../machines/index.ts';
import { serve, type RunningServer } from '../../transport/index.ts';
import { SECRET, SESSION_KEY, ADMIN, securityApp, publicDir, type SecurityApp } from './support/app.ts';
import { applyGenerate, expectationOf, loadCorpus, randomToken, substitute, unknownPlaceholders, variants, type Entry, type Placeholders } from './support/corpus.ts';
import { absentFiles, closeBound, closeCodes, errorOrClose, normaliseExpect, readExpect, type Observed, type Reading } from './support/expect.ts';
import { invariantProblems, prototypeChanges, prototypeSnapshot, settledHeapMb } from './support/invariants.ts';
import { probe, requestBytes, send, type WireRequest, type WireResponse } from './support/wire.ts';
import { keepAliveRepeat } from './support/repeat.ts';
import { allowMoreTime } from '../harness/deadline.ts';
import { openWs } from './support/ws-wire.ts';

const TIME_FACTOR = Number(process.env.SIGNALBOX_TIME_FACTOR ?? 5);
/**
 * What a generated flood (`times`) may take per request beyond the runner's deadline: on a loaded
 * 2-core machine under coverage, client and server in this one process, a request takes up to about
 * half of it, so 100,000 get 100 s more.
 */
const FLOOD_MS_PER_REQUEST = 1;
/** `SIGNALBOX_BAD_INPUTS_VERBOSE=1` prints each response's status and time. */
const VERBOSE = process.env.SIGNALBOX_BAD_INPUTS_VERBOSE === '1';
const report = (id: string, o: Observed) => {
  if (VERBOSE) console.log(`  ${id.padEnd(24)} ${o.status} ${o.ms.toFixed(1).padStart(7)} ms ${o.echo ? o.echo.action : o.body.slice(0, 60).replace(/\s+/g, ' ')}`);
};
const HTTP_SURFACES = new Set(['query', 'urlencoded_body', 'multipart_body', 'json_body', 'cookie', 'header', 'path']);
const BODY_SURFACES = new Set(['urlencoded_body', 'multipart_body', 'json_body']);
const LATER_SURFACES: Record<string, string> = {};

const corpus = loadCorpus();
const tally = { passed: 0, failed: 0, skipped: [] as string[] };

let sec: SecurityApp;
let running: RunningServer;
let names: Placeholders;
let public500: string;
const slowClients: Promise<string | null>[] = [];
/** Entries whose outcome is only known at the end of the run (slow clients). */
const deferred = new Set<string>();

const bad = suite('bad inputs');

bad.before(async () => {
  sec = securityApp();
  running = await serve(sec.app, { port: 0 });
  public500 = readFileSync(join(sec.publicDir, '500.html'), 'utf8');
  names = {
    session_key: SESSION_KEY,
    valid_session: sec.valid_session,
    csrf_token: sec.csrf_token,
    host: `127.0.0.1:${running.port}`,
    ws_path: running.tunnel!.path,
    base64_valid_credentials: Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64'),
  };
});

bad.after(async () => {
  await running.close();
  console.log(`bad inputs: ${tally.passed} passed, ${tally.failed} failed${tally.skipped.length ? `, ${tally.skipped.length} skipped` : ''}`);
  for (const line of tally.skipped) console.log(`  skipped ${line}`);
});

/** Header pairs from an input: an object (arrays give repeated lines) or generated pairs. */
function headerPairs(headers: unknown): [string, string][] {
  if (headers === undefined || headers === null) return [];
  const entries = Array.isArray(headers) ? (headers as [string, unknown][]) : Object.entries(headers as Record<string, unknown>);
  return entries.flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, String(v)] as [string, string]) : [[name, String(value)] as [string, string]]));
}

function wireRequest(input: any): WireRequest {
  const body = input.base64 !== undefined ? Buffer.from(input.base64, 'base64') : input.body !== undefined ? Buffer.from(input.body, 'latin1') : undefined;
  // Bodies are text in the corpus; send them as UTF-8 unless they are plainly bytes.
  const utf8Body = input.body !== undefined && /[^\x00-\xff]/.test(input.body) ? Buffer.from(input.body, 'utf8') : body;
  return {
    method: input.method ?? 'GET',
    target: input.path + (input.query ? `?${input.query}` : ''),
    headers: headerPairs(input.headers),
    body: utf8Body,
  };
}

/** The inputs an entry stands for: itself, and each value its expectation asks to "also try". */
function inputsOf(entry: Entry, input: any): any[] {
  const alternatives = variants(entry.expect);
  if (alternatives.length === 0) return [input];
  const out = [input];
  for (const listed of alternatives) {
    const value = substitute(listed, names);
    const copy = structuredClone(input);
    if (entry.surface === 'query') {
      copy.query = value;
    } else if (BODY_SURFACES.has(entry.surface)) {
      copy.body = value;
      delete copy.base64;
    } else if (entry.surface === 'cookie') {
      // The session cookie's value, when the header carries one; else the whole Cookie header.
      const pairs = headerPairs(copy.headers).map(([n, v]) => [n, n.toLowerCase() !== 'cookie' ? v : v.includes(`${SESSION_KEY}=`) ? v.replace(new RegExp(`(${SESSION_KEY}=)[^;]*`), `$1${value}`) : value]);
      copy.headers = pairs;
    } else if (entry.surface === 'header' && /^[!#$%&'*+.^_`|~\w-]+:\s/.test(value)) {
      // A whole header line ("X-Forwarded-Host: evil.example"): that header set to that value.
      const colon = value.indexOf(':');
      const name = value.slice(0, colon);
      copy.headers = [...headerPairs(copy.headers).filter(([n]) => n.toLowerCase() !== name.toLowerCase()), [name, value.slice(colon + 1).trim()]];
    } else if (entry.surface === 'header') {
      // The header whose value starts the way the variant does (`Basic ...`), else the first header.
      const pairs = headerPairs(copy.headers);
      const word = value.split(' ')[0];
      const index = Math.max(0, pairs.findIndex(([, v]) => word !== '' && v.startsWith(word)));
      pairs[index] = [pairs[index][0], value.startsWith(word) && word !== '' ? value : `${pairs[index][1].split(' ')[0]} ${Buffer.from(value).toString('base64')}`];
      copy.headers = pairs;
    } else if (entry.surface === 'path') {
      copy.path = value.startsWith('/') ? value : copy.path.replace(/\.[^./]+$/, value);
    } else {
      // Never a silent pass: a variant this runner cannot place fails the entry.
      throw new Error(`${entry.id}: cannot apply the variant ${JSON.stringify(value)} to a ${entry.surface} entry`);
    }
    out.push(copy);
  }
  return out;
}

function observe(response: WireResponse & { interim?: number[] }, ms: number, eventsBefore: number): Observed {
  const body = response.body.toString('utf8');
  let echo: Observed['echo'] = null;
  if ((response.headers['content-type']?.[0] ?? '').startsWith('application/json')) {
    try {
      const parsed = JSON.parse(body) as Observed['echo'];
      if (parsed && typeof parsed === 'object' && 'action' in parsed && 'params' in parsed) echo = parsed;
    } catch {
      // Not an echo: checks that need one report it.
    }
  }
  return { status: response.status, headers: response.headers, body, ms, actions: sec.events.slice(eventsBefore), echo, interim: response.interim ?? [], closed: response.closed_by_server };
}

/** Checks that follow from the surface itself: a cookie that is not the valid one gives an empty session; JSON scalars arrive unchanged. */
function surfaceProblems(entry: Entry, input: any, o: Observed): string[] {
  const problems: string[] = [];
  if (entry.surface === 'cookie' && o.echo) {
    const cookie = headerPairs(input.headers).find(([n]) => n.toLowerCase() === 'cookie')?.[1] ?? '';
    const first = new RegExp(`(?:^|;\\s*)${SESSION_KEY}=([^;]*)`).exec(cookie)?.[1];
    if (first !== sec.valid_session && Object.keys(o.echo.session ?? {}).length > 0) problems.push(`a session from a cookie that is not validly signed: ${JSON.stringify(o.echo.session)}`);
  }
  if (entry.surface === 'json_body' && o.echo && /json/.test(headerPairs(input.headers).find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '')) {
    let data: unknown;
    try {
      data = JSON.parse(input.body);
    } catch {
      return problems;
    }
    const walk = (value: unknown, path: string[]) => {
      // An echo is JSON: it cannot carry a number JSON.parse made infinite (1e400).
      if (typeof value === 'number' && !Number.isFinite(value)) return;
      if (value === null || typeof value !== 'object') {
        const actual = path.reduce<any>((node, key) => (node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? node[key] : undefined), o.echo!.params);
        if (actual !== value) problems.push(`JSON value at ${path.join('.')} arrived as ${JSON.stringify(actual)}, not ${JSON.stringify(value)}`);
        return;
      }
      if (Array.isArray(value)) return;
      for (const key of Object.keys(value)) if (!['__proto__', 'constructor', 'prototype'].includes(key) && !(path.length === 0 && fromPath(key))) walk((value as Record<string, unknown>)[key], [...path, key]);
    };
    // Path parameters win over the body's (Rails' path_parameters): controller and action always, and any key the path gave a value.
    const segments = new Set(String(input.path ?? '').split(/[/.?]/).map((segment) => { try { return decodeURIComponent(segment); } catch { return segment; } }));
    const fromPath = (key: string) => {
      const echoed: unknown = Object.hasOwn(o.echo!.params ?? {}, key) ? o.echo!.params[key] : undefined;
      return key === 'controller' || key === 'action' || (typeof echoed === 'string' && segments.has(echoed));
    };
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) walk(data, []);
  }
  return problems;
}

function statusProblem(reading: Reading, status: number, closed = false): string | null {
  if (reading.statuses.has(status)) return null;
  // Closed without an answer, where the prose allows it (a connection left hanging is no close).
  if (status === 0 && closed && reading.close_allowed) return null;
  if (!reading.exclusive && status > 0 && status < 500) return null;
  return `status ${status}, expected ${reading.exclusive ? '' : 'below 500 or '}${[...reading.statuses].filter((s) => s < 200 || s >= 300 || reading.statuses.size < 50).join('/')}`;
}

/** Everything wrong with one observed response. */
function problemsWith(entry: Entry, input: any, reading: Reading, o: Observed): string[] {
  const problems = [
    statusProblem(reading, o.status, o.closed),
    ...invariantProblems(o, { public500, secret: SECRET, session_key: SESSION_KEY, host: names.host }),
    ...reading.checks.map((c) => {
      const problem = c.run(o);
      return problem === null ? null : `${c.name}: ${problem}`;
    }),
    ...surfaceProblems(entry, input, o),
  ];
  if (reading.within_ms !== null && o.ms > reading.within_ms * TIME_FACTOR) problems.push(`took ${o.ms.toFixed(0)} ms, bound ${reading.within_ms} ms (x${TIME_FACTOR})`);
  return problems.filter((p): p is string => p !== null);
}

async function runHttp(entry: Entry, reading: Reading): Promise<string[]> {
  const { input, repeat } = applyGenerate(entry);
  const filled = substitute(input, names);
  if (repeat) return runRepeated(entry, reading, filled, repeat.times);
  const problems: string[] = [];
  // A heap bound on a single request: measured around all its variants.
  const heapBefore = reading.heap_mb === null ? 0 : settledHeapMb();
  for (const variant of inputsOf(entry, filled)) {
    const eventsBefore = sec.events.length;
    const started = performance.now();
    const response = await send(running.port, requestBytes(wireRequest(variant), names.host));
    const observed = observe(response, performance.now() - started, eventsBefore);
    report(entry.id, observed);
    const label = variant === filled ? '' : `[variant ${JSON.stringify(headerPairs(variant.headers).map(([, v]) => v.slice(0, 40)).concat(variant.path ?? []).join(' '))}] `;
    problems.push(...problemsWith(entry, variant, reading, observed).map((p) => label + p));
  }
  if (reading.heap_mb !== null) {
    const growth = settledHeapMb() - heapBefore;
    if (growth >= reading.heap_mb) problems.push(`heap grew ${growth.toFixed(1)} MB`);
  }
  return problems;
}

/** `per_request_unique`: the request many times, each with its own `{{rand}}`, and the heap afterwards. */
async function runRepeated(entry: Entry, reading: Reading, input: any, times: number): Promise<string[]> {
  // The flood's length is the corpus's to choose: its time grows with it, and so does its deadline.
  allowMoreTime(times * FLOOD_MS_PER_REQUEST);
  const before = settledHeapMb();
  const problems = new Set<string>();
  await keepAliveRepeat(running.port, names.host, times, () => {
    // One fresh token per request, wherever the entry puts `{{rand}}`: target, header names and values, body.
    const token = randomToken();
    return wireRequest(substitute(structuredClone(input), { ...names, rand: token }));
  }, (status, ms) => {
    const problem = statusProblem(reading, status);
    if (problem) problems.add(problem);
    if (reading.within_ms !== null && ms > reading.within_ms * TIME_FACTOR) problems.add(`a request took ${ms.toFixed(0)} ms`);
  });
  const growth = settledHeapMb() - before;
  if (reading.heap_mb !== null && growth >= reading.heap_mb) problems.add(`heap grew ${growth.toFixed(1)} MB over ${times} requests`);
  return [...problems];
}

/** A raw entry's follow-up: exact bytes (`"..."`, `{ raw }`, `{ base64 }`) or a request like an HTTP entry's input. */
function afterBytes(after: unknown): Buffer {
  if (typeof after === 'string') return Buffer.from(after, 'latin1');
  const a = after as { raw?: string; base64?: string };
  if (a.base64 !== undefined) return Buffer.from(a.base64, 'base64');
  if (a.raw !== undefined) return Buffer.from(a.raw, 'latin1');
  return requestBytes(wireRequest(after), names.host);
}

async function runRaw(entry: Entry, reading: Reading): Promise<string[]> {
  const { input } = applyGenerate(entry);
  const filled = substitute(input, names);
  const bytes = filled.base64 !== undefined ? Buffer.from(filled.base64, 'base64') : Buffer.from(filled.raw, 'latin1');
  if (filled.drip) {
    // A slow client: run it alongside the rest of the corpus, and check it at the end.
    const started = performance.now();
    deferred.add(entry.id);
    // The bound the entry recommends ("<= 60s, recommend <= 30s"), else 20 s; with room for a server that checks its
    // timeouts once a second on a loaded machine (2 s, or a tenth of the bound).
    const bound = closeBound(entry.expect) ?? 20;
    const slack = Math.max(2, bound / 10);
    slowClients.push(send(running.port, bytes, { timeoutMs: Math.max(70_000, (bound + 10) * 1000), drip: filled.drip }).then((r) => {
      const seconds = (performance.now() - started) / 1000;
      // A 408 or a close both cut the client off.
      if (!r.closed_by_server && r.status === 0) return `${entry.id}: the server never closed the slow connection`;
      return seconds <= bound + slack ? null : `${entry.id}: the slow connection was closed after ${seconds.toFixed(1)} s (recommended at most ${bound} s)`;
    }));
    return [];
  }
  const eventsBefore = sec.events.length;
  const started = performance.now();
  // `after`: a follow-up request on the same connection, once the first is answered.
  const then = filled.after === undefined ? undefined : afterBytes(filled.after);
  const response = await send(running.port, bytes, { then });
  const observed = observe(response, performance.now() - started, eventsBefore);
  report(entry.id, observed);
  // Give a smuggled second request the chance to reach an action before looking.
  await new Promise((r) => setTimeout(r, 50));
  const problems = problemsWith(entry, filled, reading, { ...observed, actions: sec.events.slice(eventsBefore) });
  if (then !== undefined) {
    // The server may close after a refusal; if it kept the connection, the follow-up is answered, and not with a failure.
    if (response.next === undefined && !response.closed_by_server) problems.push('the follow-up on the same connection got no answer');
    if (response.next !== undefined && (response.next.status === 0 || response.next.status >= 500)) problems.push(`the follow-up on the same connection got ${response.next.status}`);
  }
  return problems;
}

interface Answer { id?: unknown; status?: number; headers?: Record<string, string | string[]>; body?: string; bodyBase64?: string; error?: { code: string; status: number; message: string } }

/** A tunnel answer as the checks see a response. */
function observeAnswer(a: Answer, ms: number): Observed {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(a.headers ?? {})) headers[name.toLowerCase()] = Array.isArray(value) ? value : [value];
  const body = a.body ?? (a.bodyBase64 !== undefined ? Buffer.from(a.bodyBase64, 'base64').toString('utf8') : a.error?.message ?? '');
  const wire: WireResponse = { status: a.error ? a.error.status : a.status ?? 0, headers, body: Buffer.from(body), raw: Buffer.alloc(0), closed_by_server: false };
  return observe(wire, ms, 0);
}

const FRAME_OPCODES = { text: 1, binary: 2, ping: 9, close: 8, raw: -1 } as const;
const FRAME_FIELDS = new Set(['opcode', 'data', 'base64', 'note']);

/** WebSocket entries: the upgrade as written, then each frame; the answers, close code and liveness are checked. */
async function runWs(entry: Entry, reading: Reading): Promise<string[]> {
  const { input } = applyGenerate(entry);
  const filled = substitute(input, names) as { upgrade: { path: string; headers?: unknown }; frames: { opcode: 'text' | 'binary' | 'ping' | 'close' | 'raw'; data?: string; base64?: string }[] };
  const started = performance.now();
  const session = await openWs(running.port, names.host, filled.upgrade.path, headerPairs(filled.upgrade.headers));
  const problems: string[] = [];
  const codes = closeCodes(entry.expect);
  const errorAnswers = errorOrClose(entry.expect);
  try {
    if (session.status !== 101) {
      const o = observeAnswer({ status: session.status }, performance.now() - started);
      report(entry.id, o);
      if (session.status === 0 && /closed/.test(entry.expect)) return problems;
      return problemsWith(entry, filled, reading, o);
    }
    let sent = 0;
    // A frame this runner would send as something else (an unknown opcode, a field it ignores) fails the entry instead.
    const odd = filled.frames.flatMap((f, i) => [
      ...(Object.hasOwn(FRAME_OPCODES, f.opcode) ? [] : [`frame ${i}: unknown opcode ${JSON.stringify(f.opcode)}`]),
      ...Object.keys(f).filter((k) => !FRAME_FIELDS.has(k)).map((k) => `frame ${i}: a field this runner does not send: ${k}`),
    ]);
    if (odd.length > 0) return odd;
    for (const f of filled.frames) {
      session.send(f.opcode, f.base64 !== undefined ? Buffer.from(f.base64, 'base64') : Buffer.from(f.data ?? '', 'utf8'));
      if (f.opcode === 'text' || f.opcode === 'binary') sent++;
    }
    const answers = (): Answer[] => session.frames.filter((fr) => fr.opcode === 1).map((fr) => JSON.parse(fr.payload.toString('utf8')) as Answer);
    // Wait for every answer, or for the close an entry expects instead.
    const enough = () => sent > 0 && answers().length >= sent && (codes.length === 0 || errorAnswers);
    await session.waitFor(() => session.ended || session.closeCode !== null || enough(), 5_000);
    const ms = performance.now() - started;
    const got = answers();
    for (const a of got) {
      const o = observeAnswer(a, ms);
      report(entry.id, o);
      problems.push(...problemsWith(entry, filled, reading, o).map((p) => `[frame ${String(a.id)}] ${p}`));
    }
    if (codes.length > 0) {
      const closedRight = session.closeCode !== null && codes.includes(session.closeCode);
      const answeredWithError = errorAnswers && got.length > 0 && got.every((a) => a.error !== undefined);
      if (!closedRight && !answeredWithError) problems.push(`expected close ${codes.join('/')}${errorAnswers ? ' or error frames' : ''}, got close ${session.closeCode ?? 'none'} and ${got.length} answer(s)`);
      if (reading.within_ms !== null && ms > reading.within_ms * TIME_FACTOR) problems.push(`took ${ms.toFixed(0)} ms, bound ${reading.within_ms} ms (x${TIME_FACTOR})`);
    } else if (got.length < sent) {
      problems.push(`${sent - got.length} of ${sent} frame(s) got no answer (close ${session.closeCode ?? 'none'})`);
    }
    if (/stays open|remains usable|connection alive/.test(entry.expect)) {
      session.send('text', Buffer.from(JSON.stringify({ id: 'probe', method: 'GET', path: '/' })));
      const answered = await session.waitFor(() => answers().some((a) => a.id === 'probe' && a.status === 200), 5_000);
      if (!answered) problems.push('the connection did not answer a GET / afterwards');
    }
    return problems;
  } finally {
    session.destroy();
  }
}

async function runRedirect(entry: Entry, reading: Reading): Promise<string[]> {
  const filled = substitute(entry.input, names);
  const target = filled.redirect_to;
  const query = typeof target === 'string'
    ? `to=${encodeURIComponent(target)}`
    : Object.entries(target as Record<string, string>).map(([k, v]) => `to%5B${encodeURIComponent(k)}%5D=${encodeURIComponent(v)}`).join('&');
  const request: WireRequest = { method: 'GET', target: `/fixture/redirect?${query}`, headers: headerPairs(filled.request?.headers) };
  const eventsBefore = sec.events.length;
  const started = performance.now();
  const response = await send(running.port, requestBytes(request, names.host));
  const observed = observe(response, performance.now() - started, eventsBefore);
  report(entry.id, observed);
  return problemsWith(entry, filled, reading, observed);
}

/** A route with the entry's requirements, served by its own app. */
async function runRouteRequirement(entry: Entry, reading: Reading): Promise<string[]> {
  const { input } = applyGenerate(entry);
  const requirements: Record<string, RegExp> = {};
  for (const [name, spec] of Object.entries(input.requirements as Record<string, { source: string; flags: string }>)) requirements[name] = new RegExp(spec.source, spec.flags);
  const pattern = String(input.route).replace(/^\//, '');
  class ProbeController extends Controller {
    show(): void {
      this.render({ json: { action: 'probe#show', params: this.params, session: {} } });
    }
  }
  let routes;
  try {
    routes = draw((map) => {
      map.connect(pattern, { controller: 'probe', action: 'show', requirements });
      map.root({ controller: 'probe', action: 'show' });
    });
  } catch (error) {
    if (/raises at boot|raises at declaration/.test(entry.expect)) return error instanceof SignalboxError ? [] : [`declaring failed with ${String(error)}, not a typed error`];
    return [`declaring the route failed: ${String(error)}`];
  }
  if (/raises at boot|raises at declaration/.test(entry.expect)) return ['the route was accepted at declaration'];
  const app = createApp({ routes, controllers: { probe: ProbeController }, environment: 'production', logger: false, publicDir: publicDir(), session: false });
  const server = await serve(app, { port: 0 });
  try {
    const started = performance.now();
    const response = await send(server.port, requestBytes({ method: input.request.method, target: input.request.path, headers: [] }, `127.0.0.1:${server.port}`));
    const answered = observe(response, performance.now() - started, sec.events.length);
    // The probe's own app records no events: its echo says which action answered.
    const observed = { ...answered, actions: answered.echo ? [{ action: answered.echo.action, path: input.request.path as string }] : [] };
    report(entry.id, observed);
    const problems = problemsWith(entry, input, reading, observed);
    if ((await probe(server.port)) !== 200) problems.push('the route\'s server stopped answering');
    return problems;
  } finally {
    await server.close();
  }
}

for (const listed of corpus) {
  // "same as <id>" read as the named entry's expectation too.
  // In plain characters ("1,000 ms", curly quotes), so every reader of the prose sees the same text.
  const entry: Entry = { ...listed, expect: normaliseExpect(expectationOf(listed, corpus)) };
  const later = LATER_SURFACES[entry.surface];
  if (later !== undefined) {
    tally.skipped.push(`${entry.id}: ${later}`);
    continue;
  }
  bad(`${entry.id} (${entry.source}): ${entry.expect.slice(0, 90)}`, async () => {
    const reading = readExpect(entry.expect, names.host);
    sec.events.length = 0;
    const before = prototypeSnapshot();
    // An expectation the reader cannot check fails the entry, whatever the server did.
    const unread = reading.unread.map((u) => `the expectation states ${u}`);
    for (const name of unknownPlaceholders(substitute({ input: entry.input, generate: entry.generate }, names))) unread.push(`the input names a placeholder this runner does not fill: ${name}`);
    let problems: string[];
    if (HTTP_SURFACES.has(entry.surface)) problems = await runHttp(entry, reading);
    else if (entry.surface === 'raw_http') problems = await runRaw(entry, reading);
    else if (entry.surface === 'redirect_target') problems = await runRedirect(entry, reading);
    else if (entry.surface === 'route_requirement') problems = await runRouteRequirement(entry, reading);
    else if (entry.surface === 'ws_frame') problems = await runWs(entry, reading);
    else problems = [`unknown surface ${entry.surface}`];
    problems.push(...unread, ...prototypeChanges(before));
    for (const file of absentFiles(entry.expect)) if (existsSync(file)) problems.push(`${file} exists`);
    const followUp = await probe(running.port);
    if (followUp !== 200) problems.push(`the follow-up GET / got ${followUp}`);
    if (deferred.has(entry.id) && problems.length === 0) return;
    if (problems.length === 0) tally.passed++;
    else tally.failed++;
    assert.ok(problems.length === 0, `${entry.id}:\n  ${problems.join('\n  ')}`);
  });
}

bad('slow clients are cut off without holding anyone else up', async () => {
  const problems = (await Promise.all(slowClients)).filter((p): p is string => p !== null);
  // Each slow client's entry is counted here, once its outcome is known.
  tally.passed += slowClients.length - problems.length;
  tally.failed += problems.length;
  assert.equal(problems, []);
});

bad.run();
