/**
 * What an inspector page may learn from a trace: events are rebuilt from
 * an allow-list of fields, paths keep parameter names but never values,
 * names must look like names. Then, end to end through the app and both
 * engines: a request carrying a cookie, credentials, a session, an
 * authenticity token and secret query values yields trace events in which
 * none of them appears.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../../core/index.ts';
import type { TraceEvent } from '../../../machines/index.ts';
import { FILTERED, sanitiseName, sanitisePath, sanitiseTraceEvent } from '../../../transport/inspect/sanitise.ts';
import { appWith } from '../../support/harness.ts';

const test = suite('trace sanitising');

const F = FILTERED;
const PATH_CASES: [string, unknown, string][] = [
  ['a plain path stays', '/posts/1.json', '/posts/1.json'],
  ['query values are filtered, names kept', '/posts?page=2&token=s3cret', `/posts?page=${F}&token=${F}`],
  ['bracketed names and empty values too', '/search?q[title]=x&flag&empty=', `/search?q[title]=${F}&flag&empty=${F}`],
  ['an authenticity token in the query', '/posts/1?_method=delete&authenticity_token=abc%2Bdef', `/posts/1?_method=${F}&authenticity_token=${F}`],
  ['a fragment is dropped', '/posts#comments', '/posts'],
  ['absolute form loses scheme, credentials and host', 'http://admin:hunter2@example.com/admin?x=1', `/admin?x=${F}`],
  ['absolute form without a path is /', 'https://example.com', '/'],
  ['a scheme-relative target loses its authority', '//user:pw@evil.example/x', '/x'],
  ['matrix parameters lose their values', '/files;jsessionid=ABC123/list;v=2;raw', `/files;jsessionid=${F}/list;v=${F};raw`],
  ['control characters are removed', '/a\r\nSet-Cookie: x\u0000\u007f', '/aSet-Cookie: x'],
  ['not a string', 42, '?'],
];

for (const [why, input, expected] of PATH_CASES) {
  test(`sanitisePath: ${why}`, () => {
    assert.is(sanitisePath(input), expected);
  });
}

test('sanitisePath bounds the length', () => {
  const out = sanitisePath(`/${'a'.repeat(5000)}`);
  assert.ok(out.length <= 1025, String(out.length));
  assert.ok(out.endsWith('…'));
});

test('events are rebuilt from their allowed fields: anything else never leaves', () => {
  const secrets = {
    headers: { cookie: '_s=SESSION', authorization: 'Basic c2VjcmV0' },
    cookie: '_s=SESSION', authorization: 'Bearer TOKEN', session: { user_id: 7 }, params: { password: 'pw' },
    body: 'authenticity_token=TOKEN', error: new Error('SECRET in message'), context: { run: {} },
  };
  const cases: [TraceEvent & Record<string, unknown>, unknown][] = [
    [{ kind: 'request', id: 'req-1', machine: 'request', method: 'POST', path: '/posts?token=T', transport: 'tunnel', t: 1.23456, ...secrets },
      { kind: 'request', id: 'req-1', machine: 'request', method: 'POST', path: `/posts?token=${F}`, transport: 'tunnel', t: 1.235 }],
    [{ kind: 'state', id: 'req-1', state: 'parsing', t: 2, ...secrets }, { kind: 'state', id: 'req-1', state: 'parsing', t: 2 }],
    [{ kind: 'transition', id: 'req-1', from: 'parsing', to: 'negotiating', event: 'xstate.done.actor.0.request.parsing', guard: null, t: 3, ...secrets },
      { kind: 'transition', id: 'req-1', from: 'parsing', to: 'negotiating', event: 'xstate.done.actor.0.request.parsing', guard: null, t: 3 }],
    [{ kind: 'done', id: 'req-1', status: 404, ms: 0.5, t: 4, ...secrets }, { kind: 'done', id: 'req-1', status: 404, ms: 0.5, t: 4 }],
  ];
  for (const [event, expected] of cases) {
    const wire = sanitiseTraceEvent(event);
    assert.equal(wire, expected, event.kind);
    assert.not.match(JSON.stringify(wire), /SESSION|c2VjcmV0|TOKEN|SECRET|password/);
  }
});

test('values of the wrong shape are replaced, unknown events dropped', () => {
  assert.equal(sanitiseTraceEvent({ kind: 'request', id: 'r', machine: 'request<script>', method: 'GET /x HTTP/1.1', path: '/', transport: 'carrier-pigeon', t: NaN }),
    { kind: 'request', id: 'r', machine: '?', method: '?', path: '/', transport: 'other', t: 0 });
  assert.equal(sanitiseTraceEvent({ kind: 'transition', id: 'r', from: 'a b', to: {}, event: '', guard: 'ok', t: 1 }),
    { kind: 'transition', id: 'r', from: '?', to: '?', event: '?', guard: 'ok', t: 1 });
  assert.equal(sanitiseTraceEvent({ kind: 'done', id: 'r', status: 99, ms: -3, t: Infinity }), { kind: 'done', id: 'r', status: 0, ms: 0, t: 0 });
  assert.equal(sanitiseTraceEvent({ kind: 'done', id: 'r', status: 200.5, ms: 1, t: 1 })?.kind, 'done');
  assert.is((sanitiseTraceEvent({ kind: 'done', id: 'r', status: 200.5, ms: 1, t: 1 }) as { status: number }).status, 0);
  for (const bad of [null, 'x', 42, {}, { kind: 'state', state: 'a', t: 1 }, { kind: 'state', id: 'bad id', state: 'a' }, { kind: 'state', id: 'x'.repeat(65), state: 'a' }, { kind: 'secret', id: 'r' }]) {
    assert.is(sanitiseTraceEvent(bad), null, JSON.stringify(bad));
  }
});

test('names: the same verdict every time, however many names go by', () => {
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 1500; i++) {
      assert.is(sanitiseName(`state${i}`), `state${i}`);
      assert.is(sanitiseName(`bad name ${i}`), '?');
    }
  }
  assert.is(sanitiseName('xstate.done.actor.0.request.parsing'), 'xstate.done.actor.0.request.parsing');
  assert.is(sanitiseName('a'.repeat(201)), '?');
  assert.is(sanitiseName(null), '?');
});

class SecretsController extends Controller<{ params: { post?: { title?: string } } }> {
  static {
    this.protect_from_forgery();
  }
  create(): void {
    this.session.user_id = 'USER-SECRET-7';
    this.render({ text: `ok ${String(this.params.post?.title ?? '')}` });
  }
}

test('a request full of secrets leaves none of them in its trace, under either engine', async () => {
  for (const engine of ['compiled', 'xstate'] as const) {
    const app = appWith({ secrets: SecretsController }, { engine, session: { key: '_s', secret: 's'.repeat(32) }, config: { allow_forgery_protection: true } });
    // A first request gives the session cookie (and its token) a real, signed value to leak.
    const first = await app.handle({ method: 'POST', url: '/secrets/create', headers: { host: 'test.host', 'content-type': 'application/json' }, body: '{"post":{"title":"BODY-SECRET"}}' });
    const cookie = String(first.headers['Set-Cookie']).split(';')[0];
    assert.ok(cookie.startsWith('_s='), engine);
    const events: unknown[] = [];
    app.trace((e) => events.push(sanitiseTraceEvent(e)));
    const res = await app.handle({
      method: 'POST',
      url: '/secrets/create?api_key=QUERY-SECRET&authenticity_token=TOKEN-SECRET',
      headers: { host: 'test.host', cookie, authorization: 'Basic QVVUSC1TRUNSRVQ=', 'x-csrf-token': 'HEADER-TOKEN-SECRET', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'authenticity_token=FORM-TOKEN-SECRET&post[title]=BODY-SECRET',
    });
    assert.is(res.status, 422, `${engine}: the forged token is refused`);
    const text = JSON.stringify(events);
    assert.ok(events.length > 5 && events.every((e) => e !== null), engine);
    for (const secret of ['QUERY-SECRET', 'TOKEN-SECRET', 'QVVUSC1TRUNSRVQ', 'HEADER-TOKEN', 'BODY-SECRET', 'USER-SECRET', cookie.slice(3, 40)]) {
      assert.not.ok(text.includes(secret), `${engine}: ${secret} leaked`);
    }
    assert.ok(text.includes('"path":"/secrets/create"'), engine);
  }
});

test.run();
