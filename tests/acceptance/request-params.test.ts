/**
 * The request corpus's HTTP `params` cases, replayed against the parsers
 * alone: the query string and the body (by its Content-Type) are parsed and
 * merged as Rails merges them, then compared with `expect.params` after
 * dropping the routing keys. The full HTTP replay belongs to the app's suite;
 * this pins the parsing half. Ends with `request params cases: N passed, M failed`.
 */
import { suite } from 'uvu';
import { createMimeRegistry } from '../../core/mime/types.ts';
import { contentTypeOf, queryString } from '../../core/request/env.ts';
import { mergeParameters, parseBodyParams, parseQuery, type Params } from '../../core/request/params.ts';
import { loadCorpus, show } from '../support/acceptance.ts';
import { sameFact } from '../support/request-facts.ts';

interface ParamsCase {
  id: string;
  kind: string;
  request: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
    body_base64?: string;
    body_parts?: ({ text: string } | { repeat: string; count: number })[];
  };
  expect: { params: Record<string, unknown>; params_match?: 'exact' | 'subset'; params_keys?: string[] };
}

function bodyOf(request: ParamsCase['request']): Buffer {
  if (request.body_base64 !== undefined) return Buffer.from(request.body_base64, 'base64');
  if (request.body_parts) return Buffer.from(request.body_parts.map((p) => ('text' in p ? p.text : p.repeat.repeat(p.count))).join(''), 'latin1');
  return Buffer.from(request.body ?? '');
}

/** `expected` holds (recursively) within `actual`; markers compare as in sameFact. */
function subset(actual: unknown, expected: unknown): boolean {
  const isHash = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isHash(expected) && !Object.keys(expected).some((k) => k.startsWith('$'))) {
    return isHash(actual) && Object.entries(expected).every(([k, v]) => Object.hasOwn(actual, k) && subset(actual[k], v));
  }
  return sameFact(actual, expected);
}

const mime = createMimeRegistry();
const test = suite('request params cases (parsers only)');
let passed = 0;
let failed = 0;

for (const { file, data } of loadCorpus<{ cases: ParamsCase[] }>(/request/)) {
  for (const c of data.cases.filter((k) => k.kind === 'params')) {
    test(`${file} ${c.id}`, async () => {
      const headers = Object.fromEntries(Object.entries(c.request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      const query = parseQuery(queryString(c.request.path));
      const body = await parseBodyParams(contentTypeOf(headers, mime), bodyOf(c.request), {}, headers['content-type']);
      const params: Params = mergeParameters(body, query);
      // The echo route's own controller/action override these (see the corpus README).
      delete params.controller;
      delete params.action;
      const e = c.expect;
      let ok = e.params_match === 'subset' ? subset(params, e.params) : sameFact(params, e.params);
      if (e.params_keys) ok &&= sameFact(Object.keys(params).sort(), [...e.params_keys].sort());
      if (ok) passed++;
      else {
        failed++;
        throw new Error(`${c.id}: expected ${show(e.params)}, got ${show(params)}`);
      }
    });
  }
}

test.after(() => {
  console.log(`request params cases: ${passed} passed, ${failed} failed`);
  if (failed > 0 || passed === 0) process.exitCode = 1;
});

test.run();
