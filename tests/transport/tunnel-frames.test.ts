/**
 * Response frames as bytes: the tunnel writes each answer's UTF-8 bytes in
 * parts rather than serialising the frame whole, and those bytes must be
 * exactly what `JSON.stringify` of the frame object would give, for every
 * kind of body, id, reason and header a response can have.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResponseMessage } from '../../core/http/message.ts';
import { recordHead, recordsFrame, responseFrame, responseFrameBytes, type FrameId } from '../../transport/tunnel-frames.ts';

const test = suite('response frames are written byte for byte as JSON.stringify writes them');

const json = 'application/json; charset=utf-8';
const bodies: readonly (string | Uint8Array)[] = [
  '',
  'plain ascii',
  '{"title":"Hello from <Signalbox> & friends","body":"measured over \\"HTTP\\" — it\'s a bench."}',
  'café, naïve, ß: Latin-1 only',
  'astral 😀 and CJK 漢字',
  'escapes: \n\r\t\b\f \u0000 \u0001 \u001f \u007f " \\ /',
  'lone surrogates: \ud800 and \udfff and a pair \ud83d\ude00',
  'line separators \u2028 \u2029 and a BOM \ufeff at the end',
  'x'.repeat(20_000),
  `${'— '.repeat(9_000)}end`,
  new TextEncoder().encode('bytes, UTF-8: é — 😀'),
  new Uint8Array([0xff, 0xfe, 0x00, 0x41]),
  new Uint8Array(0),
];

function cases(): [FrameId, ResponseMessage][] {
  const out: [FrameId, ResponseMessage][] = [];
  const ids: FrameId[] = [1, 0, -7, 1.5, 1e21, 'abc', 'quote " and \\ and é', ''];
  let n = 0;
  for (const body of bodies) {
    for (const type of [json, 'image/png', undefined]) {
      const headers: Record<string, string | string[]> = { 'X-Runtime': '0.000123', ETag: '"abc"' };
      if (type !== undefined) headers['Content-Type'] = type;
      if (n % 3 === 0) headers['Set-Cookie'] = ['a=1; path=/', 'b="two"; HttpOnly'];
      if (n % 5 === 0) headers['X-Latin1'] = 'caf\u00e9';
      const reason = n % 4 === 1 ? 'Moved — elsewhere' : undefined;
      out.push([ids[n % ids.length], reason !== undefined ? { status: 301, headers, body, reason } : { status: 200 + (n % 7), headers, body }]);
      n++;
    }
  }
  return out;
}

test('every body, id, reason and header gives the bytes of the serialised frame', () => {
  for (const [id, response] of cases()) {
    const expected = Buffer.from(JSON.stringify(responseFrame(id, response)));
    const got = responseFrameBytes(id, response);
    assert.ok(got.equals(expected), `id ${JSON.stringify(id)}, body ${String(response.body).slice(0, 40)}: ${got.toString().slice(0, 120)}`);
  }
});

test('thousands of frames in a row each keep their own bytes (none is overwritten by a later one)', () => {
  const all = cases();
  const made: [Buffer, Buffer][] = [];
  for (let i = 0; i < 4000; i++) {
    const response = all[i % all.length][1];
    made.push([responseFrameBytes(i, response), Buffer.from(JSON.stringify(responseFrame(i, response)))]);
  }
  for (const [got, expected] of made) assert.ok(got.equals(expected));
});

test('a response of an unusual shape is serialised whole, with the same bytes', () => {
  const odd: ResponseMessage[] = [
    { status: 200, headers: { 'Content-Type': 'text/plain', toJSON: 'not a function' } as never, body: 'x' },
    { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'x', reason: undefined },
    { status: Number.NaN, headers: {}, body: 'x' },
  ];
  for (const response of odd) assert.ok(responseFrameBytes(3, response).equals(Buffer.from(JSON.stringify(responseFrame(3, response)))));
});

test('answer records carry each head as JSON and each body as its exact UTF-8 bytes, however many share a frame', () => {
  const all = cases();
  for (const count of [1, 3, all.length]) {
    for (let round = 0; round < 20; round++) {
      const chosen = all.slice(0, count);
      const frame = recordsFrame(chosen.map(([id, response]) => recordHead(id, response)), chosen.map(([, response]) => response.body));
      let at = 0;
      for (const [id, response] of chosen) {
        const headLength = frame.readUInt32BE(at);
        const bodyLength = frame.readUInt32BE(at + 4);
        const head = JSON.parse(frame.subarray(at + 8, at + 8 + headLength).toString('utf8')) as Record<string, unknown>;
        const body = frame.subarray(at + 8 + headLength, at + 8 + headLength + bodyLength);
        const { status, headers, reason } = response;
        assert.equal(head, JSON.parse(JSON.stringify(reason !== undefined ? { id, status, reason, headers } : { id, status, headers })));
        const expected = typeof response.body === 'string' ? Buffer.from(response.body) : Buffer.from(response.body);
        assert.ok(body.equals(expected), `body of ${JSON.stringify(id)}`);
        at += 8 + headLength + bodyLength;
      }
      assert.is(at, frame.length);
    }
  }
});

test.run();
