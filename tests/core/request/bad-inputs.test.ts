/**
 * The advisory corpus (`bad-inputs.json`) entries aimed at query strings and
 * url-encoded, multipart and JSON bodies, fed straight to the parsers. Each
 * must end in parameters or a typed 400/413, quickly, without touching a
 * prototype; the table below states what each entry's `expect` needs from
 * this layer (CSRF, sessions and routing are checked elsewhere).
 */
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SignalboxError } from '../../../core/errors.ts';
import { createMimeRegistry } from '../../../core/mime/types.ts';
import { contentTypeOf } from '../../../core/request/env.ts';
import { UploadedFile, parseBodyParams, parseQuery, type Params } from '../../../core/request/params.ts';
import { CORPUS_PATH } from '../../security/support/corpus.ts';

interface Entry {
  id: string;
  surface: string;
  input: { query?: string; headers?: Record<string, string>; body?: string; base64?: string };
  generate?: { field: string; prefix?: string; repeat: string; times: number; suffix?: string } | { field: string; prefix?: string; repeat: string; times: number; suffix?: string }[];
}

type Outcome = { query: Params; body: Params } | { status: number; code: string };
type Check = (outcome: Outcome) => void;

const rejected = (...statuses: number[]): Check => (o) => {
  assert.ok('status' in o, `expected a ${statuses.join('/')} error, got ${JSON.stringify(o)}`);
  assert.ok(statuses.includes((o as { status: number }).status), `status ${(o as { status: number }).status}`);
};
const parsed = (check: (query: Params, body: Params) => void): Check => (o) => {
  assert.ok('query' in o, `expected parameters, got ${JSON.stringify(o)}`);
  const { query, body } = o as { query: Params; body: Params };
  check(query, body);
};
const noAdmin = (post: unknown) => assert.is((post as Record<string, unknown>).admin, undefined);

/** What each entry's `expect` asks of the parsers. */
const EXPECT: Record<string, Check> = {
  'qs-proto-1': parsed((q) => {
    assert.not.ok(Array.isArray(q.a));
    assert.not.ok(Object.hasOwn(q.a as object, '__proto__'));
  }),
  'qs-proto-2': parsed((q) => assert.equal(q, {})),
  'qs-proto-4': parsed((q) => assert.equal(q, { a: {} })),
  'qs-sparse-1': parsed((q) => assert.equal(q, { a: { 999999999: 'x' } })),
  'qs-conflict-1': rejected(400),
  'qs-format-3': rejected(400),
  'qs-method-arr-1': rejected(400),
  'qs-sessid-1': parsed((q) => assert.is(q._session_id, 'attackerfixed')),
  'qs-dots-1': parsed((q) => assert.is(q['a.b'], 'c')),
  'form-proto-1': parsed((_q, b) => {
    assert.is((b.post as Params).title, 'x');
    noAdmin(b.post);
  }),
  'form-depth-1': rejected(400, 413),
  'form-arr-1': rejected(400, 413),
  'form-big-1': rejected(413),
  'form-token-arr-1': parsed((_q, b) => assert.equal(b.post, { title: 'x' })),
  'form-xhr-1': parsed((_q, b) => assert.equal(b, { post: { title: 'x' } })),
  'form-dotxml-1': parsed((_q, b) => assert.equal(b, { post: { title: 'x' } })),
  'form-method-get-1': parsed((_q, b) => assert.is(b._method, 'get')),
  'form-method-bad-1': parsed((_q, b) => assert.is(b._method, 'TRACE')),
  'mp-dicer-1': rejected(400),
  'mp-trunc-1': rejected(400),
  'mp-noboundary-1': rejected(400),
  'mp-proto-1': parsed((_q, b) => {
    assert.is((b.post as Params).title, 'x');
    noAdmin(b.post);
  }),
  'mp-filename-1': parsed((_q, b) => {
    const post = b.post as Record<string, UploadedFile>;
    assert.equal([post.file.original_filename, post.file2.original_filename], ['pwned.txt', 'evil.bat']);
  }),
  'mp-parts-1': rejected(413),
  'json-proto-1': parsed((_q, b) => {
    assert.equal(b, { post: { title: 'x' } });
    noAdmin(b);
  }),
  'json-proto-2': parsed((_q, b) => assert.equal(b, { post: {} })),
  'json-hasown-1': parsed((_q, b) => assert.is(Object.getOwnPropertyDescriptor(b, 'hasOwnProperty')?.value, 1)),
  'json-null-1': parsed((_q, b) => assert.equal(b, { _json: null })),
  'json-munge-1': parsed((_q, b) => assert.equal(b, { user: { token: [], email: null, id: { $ne: null } } })),
  'json-yaml-1': rejected(400),
  'json-ctype-1': parsed((_q, b) => assert.equal(b, {})),
  'json-ctype-2': parsed((_q, b) => assert.equal(b, {})),
};

const SURFACES = new Set(['query', 'urlencoded_body', 'multipart_body', 'json_body']);
const PLACEHOLDERS: Record<string, string> = { session_key: '_session', valid_session: 'data--digest', csrf_token: 'TOKEN' };

function expand(entry: Entry): Entry['input'] {
  const input = structuredClone(entry.input) as Record<string, unknown>;
  for (const g of [entry.generate ?? []].flat()) {
    input[g.field] = `${(input[g.field] as string | undefined) ?? ''}${g.prefix ?? ''}${g.repeat.repeat(g.times)}${g.suffix ?? ''}`;
  }
  const fill = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (m, name: string) => PLACEHOLDERS[name] ?? m);
  return JSON.parse(fill(JSON.stringify(input))) as Entry['input'];
}

async function outcomeOf(input: Entry['input']): Promise<Outcome> {
  const mime = createMimeRegistry();
  const headers = Object.fromEntries(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  try {
    const query = parseQuery(input.query ?? '');
    const raw = input.base64 !== undefined ? Buffer.from(input.base64, 'base64') : Buffer.from(input.body ?? '');
    const body = await parseBodyParams(contentTypeOf(headers, mime), raw, {}, headers['content-type']);
    return { query, body };
  } catch (error) {
    // Only typed 4xx errors are acceptable outcomes; anything else fails the test here.
    if (!(error instanceof SignalboxError) || error.status >= 500) throw error;
    return { status: error.status, code: error.code };
  }
}

const entries = (JSON.parse(readFileSync(CORPUS_PATH, 'utf8')) as Entry[]).filter((e) => SURFACES.has(e.surface));
const test = suite('advisory corpus: parameter surfaces');

test('every entry for these surfaces has an expectation here', () => {
  assert.equal(entries.map((e) => e.id).filter((id) => !(id in EXPECT)), []);
});

for (const entry of entries) {
  test(`${entry.id} (${entry.surface})`, async () => {
    const protoBefore = [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join());
    const input = expand(entry);
    const started = performance.now();
    const outcome = await outcomeOf(input);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < (entry.id === 'mp-parts-1' ? 2000 : 1000), `${entry.id} took ${elapsed.toFixed(0)} ms`);
    EXPECT[entry.id]?.(outcome);
    const protoAfter = [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join());
    assert.equal(protoAfter, protoBefore, 'no prototype gained a property');
    assert.is(({} as Record<string, unknown>).polluted, undefined);
    assert.is(({} as Record<string, unknown>).admin, undefined);
  });
}

test.run();
