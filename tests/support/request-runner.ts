/**
 * Replaying request cases of the corpus format: one case through one
 * transport on one engine (`runCase`), and every expectation the format
 * documents checked against what came back (`checkCase`). The request
 * acceptance suites (the peer corpus, the project's own extra cases, and the
 * transformed copy that proves the fixture general) all use these, most
 * through `requestSuite`. Not a test file itself.
 */
import { suite } from 'uvu';
import { ERROR_STATUS, type ResponseMessage } from '../../core/index.ts';
import type { Engine } from '../../machines/index.ts';
import { TRANSPORTS, handleTransport, type Transport } from './transports.ts';
import { sameValue, show } from './acceptance.ts';
import { caseTarget, fixtureApp, publicPage, type RequestCase } from './fixture-app.ts';

export interface Observed {
  response: ResponseMessage;
  errors: { type: string; code?: string; status: number }[];
  saved: Record<string, unknown> | null;
}

function bodyOf(c: RequestCase): Buffer | undefined {
  const r = c.request;
  if (r.body !== undefined) return Buffer.from(r.body, 'utf8');
  if (r.body_base64 !== undefined) return Buffer.from(r.body_base64, 'base64');
  if (r.body_parts) return Buffer.from(r.body_parts.map((p) => ('text' in p ? p.text : p.repeat.repeat(p.count))).join(''), 'latin1');
  return undefined;
}

/** The case's headers, plus Host (Rails tests ran against test.host) when it names none. */
function headersOf(c: RequestCase): Record<string, string> {
  const headers = { ...(c.request.headers ?? {}) };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'host')) headers.Host = 'test.host';
  return headers;
}

/** Whether a transport can replay the case (a remote address other than the loopback can only be given in-process). */
export function canRun(c: RequestCase, transport: Transport): boolean {
  return transport.chooses_remote_address || !c.setup?.remote_addr;
}

/** One case through one transport, on one engine. */
export async function runCase(c: RequestCase, engine: Engine, transport: Transport): Promise<Observed> {
  const fixture = fixtureApp(c, engine);
  const client = await transport.open(fixture.app, { remoteAddress: (c.setup?.remote_addr as string | undefined) ?? '127.0.0.1' });
  try {
    const res = await client.request({ method: c.request.method, path: c.request.path, headers: headersOf(c), body: bodyOf(c) });
    const response: ResponseMessage = { status: res.status, reason: res.reason, headers: res.headers as Record<string, string | string[]>, body: res.body.toString('utf8') };
    return { response, errors: fixture.errors, saved: fixture.saved.data };
  } finally {
    await client.close();
  }
}

function header(res: ResponseMessage, name: string): string | undefined {
  const key = Object.keys(res.headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : res.headers[key];
  return Array.isArray(v) ? v.join(', ') : v;
}

const text = (res: ResponseMessage) => (typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8'));

/** Expected parameter values, with the corpus's markers, against what the echo reported. */
function sameParam(actual: unknown, expected: unknown): boolean {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    const e = expected as Record<string, any>;
    if ('$file' in e) {
      const a = (actual as { $file?: Record<string, unknown> } | null)?.$file;
      if (!a) return false;
      return Object.entries(e.$file as Record<string, unknown>).every(([k, v]) => {
        if (k === 'content') return typeof v === 'string' ? Buffer.from(String(a.content), 'latin1').equals(Buffer.from(v, 'utf8')) || a.content === v : sameParam(String(a.content), v);
        return sameValue(a[k], v);
      });
    }
    if ('$repeat' in e) return actual === String(e.$repeat).repeat(e.count);
    if ('$date' in e) return (actual as { $dateValue?: string } | null)?.$dateValue === `${e.$date}T00:00:00.000Z`;
    if ('$time' in e) return new Date((actual as { $dateValue?: string } | null)?.$dateValue ?? NaN).getTime() === new Date(e.$time).getTime();
    if ('$binary_string' in e) return typeof actual === 'string' && Buffer.byteLength(actual, 'latin1') === e.$binary_string.size;
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    const keys = new Set([...Object.keys(a), ...Object.keys(e)]);
    return [...keys].every((k) => sameParam(a[k], e[k]));
  }
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((v, i) => sameParam(actual[i], v));
  return sameValue(actual, expected);
}

function subsetParams(actual: Record<string, unknown>, expected: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([k, v]) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).some((x) => x.startsWith('$'))) {
      return actual[k] !== null && typeof actual[k] === 'object' && subsetParams(actual[k] as Record<string, unknown>, v as Record<string, unknown>);
    }
    return sameParam(actual[k], v);
  });
}

/**
 * What a Rails exception class answers with here: the framework error of the same name (its code is
 * `SBX_ERR_` and the name in upper snake case, without an `Error` suffix) and that code's status; any
 * other class is an unrescued exception, 500.
 */
export function expectedRaise(railsClass: string): { status: number; type: string; code?: string } {
  const name = railsClass.replace(/^.*::/, '');
  const code = `SBX_ERR_${name.replace(/Error$/, '').replace(/([a-z\d])([A-Z])/g, '$1_$2').toUpperCase()}`;
  const type = name === 'RuntimeError' ? 'Error' : name;
  if (code in ERROR_STATUS) return { status: ERROR_STATUS[code as keyof typeof ERROR_STATUS], type, code };
  return { status: 500, type };
}

/** `<contents of public/404.html>` stands for that page of the fixture's public directory. */
function expectedBody(body: string): string {
  const page = /^<contents of public\/(\d+)\.html>$/.exec(body);
  return page ? publicPage(page[1]) : body;
}

/** Checks every expectation of a case; returns the failures. */
export function checkCase(c: RequestCase, seen: Observed): string[] {
  const problems: string[] = [];
  const { response: res } = seen;
  const e = c.expect;
  const fail = (what: string, expected: unknown, actual: unknown) => problems.push(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  let echo: Record<string, any> | null = null;
  if (c.request.method === 'HEAD' && !('params' in e)) {
    echo = { method: header(res, 'X-Echo-Method'), format: header(res, 'X-Echo-Format') };
  } else if ('params' in e || 'method' in e || 'format' in e) {
    try {
      echo = JSON.parse(text(res));
    } catch {
      fail('echo body', 'JSON', text(res).slice(0, 200));
    }
  }
  if (echo) {
    if ('params' in e) {
      const ok = e.params_match === 'subset' ? subsetParams(echo.params, e.params) : sameParam(echo.params, e.params);
      if (!ok) fail('params', e.params, echo.params);
      if (e.params_keys && !sameValue(Object.keys(echo.params).sort(), [...e.params_keys].sort())) fail('params_keys', e.params_keys, Object.keys(echo.params));
    }
    if ('method' in e && echo.method !== e.method) fail('method', e.method, echo.method);
    if ('format' in e && echo.format !== e.format) fail('format', e.format, echo.format);
  }
  if ('status' in e && res.status !== e.status) fail('status', e.status, res.status);
  if ('reason' in e && (res.reason ?? '') !== e.reason) fail('reason', e.reason, res.reason);
  // A null value expects the header to be absent.
  for (const [name, value] of Object.entries((e.headers ?? {}) as Record<string, string | null>)) {
    if ((header(res, name) ?? null) !== value) fail(`header ${name}`, value, header(res, name));
  }
  const [type, ...params] = (header(res, 'Content-Type') ?? '').split(';').map((s) => s.trim());
  if ('content_type' in e && type !== e.content_type) fail('content_type', e.content_type, type);
  if ('charset' in e) {
    const charset = params.find((p) => p.startsWith('charset='))?.slice(8) ?? null;
    if (charset !== e.charset) fail('charset', e.charset, charset);
  }
  if ('body' in e) {
    const expected = expectedBody(String(e.body));
    if (text(res) !== expected) fail('body', expected, text(res));
  }
  for (const part of (e.body_contains ?? []) as string[]) if (!text(res).includes(part)) fail('body contains', part, text(res).slice(0, 300));
  if (e.body_nonempty && text(res).length === 0) fail('body', 'non-empty', '');
  if ('block' in e && header(res, 'X-Block') !== e.block) fail('block', e.block, header(res, 'X-Block'));
  if ('redirected_to' in e) {
    const location = header(res, 'Location') ?? '';
    // `{action}` is relative to the requested controller, as assert_redirected_to reads it.
    const expected = typeof e.redirected_to === 'string' ? e.redirected_to : `/${e.redirected_to.controller ?? caseTarget(c).controller}/${e.redirected_to.action}`;
    const actual = location.replace(/^https?:\/\/[^/]+/, '');
    if (actual !== expected) fail('redirected_to', expected, location);
  }
  if ('flash' in e) {
    // No flash written is an empty flash.
    const flash = (seen.saved?.flash ?? {}) as Record<string, unknown>;
    if (!sameValue(flash, e.flash)) fail('flash', e.flash, flash);
  }
  if ('raises' in e) {
    if (e.raises === null) {
      if (res.status >= 500 || seen.errors.some((x) => x.status >= 500)) fail('raises', 'nothing', seen.errors);
    } else {
      const want = expectedRaise(String(e.raises));
      if (res.status !== want.status) fail(`status for ${e.raises}`, want.status, res.status);
      // Where the app logged the failure, it must be this error.
      if (seen.errors.length > 0 && !seen.errors.some((x) => (want.code !== undefined && x.code === want.code) || x.type === want.type)) {
        fail(`raised ${e.raises}`, want.code ?? want.type, seen.errors);
      }
    }
  }
  return problems;
}

export interface Run {
  readonly name: string;
  readonly engine: Engine;
  readonly transport: Transport;
}

/** Both engines in-process; every other transport on the default engine (engines.test.ts proves the engines agree). */
export const ALL_RUNS: readonly Run[] = [
  { name: 'handle/compiled', engine: 'compiled', transport: handleTransport },
  { name: 'handle/xstate', engine: 'xstate', transport: handleTransport },
  ...TRANSPORTS.filter((t) => t !== handleTransport).map((transport) => ({ name: transport.name, engine: 'compiled' as Engine, transport })),
];

/**
 * Defines and runs a suite replaying every case of `corpus` (files of `{ cases }`) through each run.
 * Ends with `<name>: N passed, M failed`, and fails the process when anything failed or nothing passed.
 */
export function requestSuite(name: string, corpus: readonly { file: string; data: { cases?: RequestCase[] } }[], runs: readonly Run[] = ALL_RUNS): void {
  let passed = 0;
  let failed = 0;
  const failures: string[] = [];
  const test = suite(name);
  for (const { file, data } of corpus) {
    for (const c of data.cases ?? []) {
      for (const r of runs) {
        if (!canRun(c, r.transport)) continue;
        test(`[${r.name}] ${file} ${c.id}`, async () => {
          let problems: string[];
          try {
            problems = checkCase(c, await runCase(c, r.engine, r.transport));
          } catch (error) {
            problems = [`the request failed: ${String(error)}`];
          }
          if (problems.length === 0) passed++;
          else {
            failed++;
            failures.push(`[${r.name}] ${c.id}: ${problems.join('; ')}`);
            throw new Error(problems.join('\n'));
          }
        });
      }
    }
  }
  test.after(() => {
    for (const f of failures.slice(0, 80)) console.log(`  FAIL ${f}`);
    console.log(`${name}: ${passed} passed, ${failed} failed`);
    if (failed > 0 || passed === 0) process.exitCode = 1;
  });
  test.run();
}
