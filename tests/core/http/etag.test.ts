/**
 * ETags: the quoted MD5 of the body, remembered for repeated string bodies
 * without ever answering a different one, and If-None-Match matching.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { byteLengthOf, EtagMemo, etagOf, ifNoneMatchNames, writeBodyUtf8 } from '../../../core/http/etag.ts';

const test = suite('ETags are quoted MD5s of the body, remembered for repeated bodies');

const md5 = (body: string | Uint8Array) => createHash('md5').update(body).digest('hex');

/** A memo over MD5 that counts the digests it computed. */
function counted(options?: { capacity?: number; max_chars?: number }) {
  const calls = { n: 0 };
  const memo = new EtagMemo((body) => {
    calls.n++;
    return md5(body);
  }, options);
  return { memo, calls };
}

test('etagOf is the quoted hex MD5 of strings and bytes alike', () => {
  assert.is(etagOf('hi'), '"49f68a5c8493ec2c0bf489821c21fc3b"');
  assert.is(etagOf(Buffer.from('hi')), '"49f68a5c8493ec2c0bf489821c21fc3b"');
  assert.is(etagOf('héllo'), `"${md5('héllo')}"`);
});

test('a repeated body is digested once, even when it is a new string of the same text', () => {
  const { memo, calls } = counted();
  const body = JSON.stringify({ id: 1, title: 'Hello' });
  const first = memo.etag(body);
  const again = memo.etag(JSON.stringify({ id: 1, title: 'Hello' }));
  assert.is(again, first);
  assert.is(first, `"${md5(body)}"`);
  assert.is(calls.n, 1);
  assert.is(memo.stats.hits, 1);
});

test('different bodies never share an ETag', () => {
  const { memo } = counted();
  const seen = new Map<string, string>();
  for (let i = 0; i < 2000; i++) {
    const body = `<p>${i % 300}</p>`;
    const tag = memo.etag(body);
    assert.is(tag, `"${md5(body)}"`);
    if (seen.has(tag)) assert.is(seen.get(tag), body);
    seen.set(tag, body);
  }
});

test('bytes and long strings are digested every time, never remembered', () => {
  const { memo, calls } = counted({ max_chars: 10 });
  const bytes = Buffer.from('same bytes');
  memo.etag(bytes);
  memo.etag(bytes);
  memo.etag('a string longer than ten');
  memo.etag('a string longer than ten');
  assert.is(calls.n, 4);
  assert.is(memo.stats.size, 0);
});

test('hot bodies survive a generation change; the memo holds at most two generations', () => {
  const { memo, calls } = counted({ capacity: 8 });
  for (let round = 0; round < 50; round++) {
    memo.etag('hot page');
    memo.etag(`cold ${round}`);
  }
  // The hot page was digested once; each cold body once.
  assert.is(calls.n, 51);
  assert.ok(memo.stats.size <= 16);
});

test('when a generation is nearly all unique bodies, the memo stands aside, then tries again', () => {
  const { memo, calls } = counted({ capacity: 8 });
  for (let i = 0; i < 8; i++) memo.etag(`unique ${i}`);
  assert.is(memo.stats.standing_aside, 64);
  assert.is(memo.stats.size, 0);
  // Standing aside, even a repeated body is digested each time.
  memo.etag('again');
  memo.etag('again');
  assert.is(calls.n, 10);
  for (let i = 0; i < 62; i++) memo.etag(`unique late ${i}`);
  assert.is(memo.stats.standing_aside, 0);
  memo.etag('again');
  memo.etag('again');
  assert.is(calls.n, 73);
  assert.is(memo.stats.hits, 1);
});

test('a recent body is found again by its text, and its byte length is remembered with it', () => {
  const { memo, calls } = counted();
  const body = JSON.stringify({ title: 'héllo — a bench' });
  memo.etag(body);
  // A new string of the same text, as the next render of the same page makes.
  assert.is(memo.etag(JSON.stringify({ title: 'héllo — a bench' })), `"${md5(body)}"`);
  assert.is(calls.n, 1);
  assert.is(memo.byteLength(body), Buffer.byteLength(body));
  assert.is(memo.byteLength(body), Buffer.byteLength(body));
  // Same length in UTF-16 units, other text and other bytes: never taken for the recent one.
  assert.is(memo.byteLength('hello'), 5);
  memo.etag('héllo');
  assert.is(memo.byteLength('hello'), 5);
  assert.is(memo.byteLength('héllo'), 6);
  assert.is(memo.etag('hello'), `"${md5('hello')}"`);
});

test('a recent body seen again keeps its UTF-8 bytes, and the same text is then copied rather than encoded', () => {
  const { memo } = counted();
  const text = () => JSON.stringify({ title: 'héllo — a bench', lone: '\ud800' });
  const out = Buffer.alloc(200);
  const first = text();
  memo.etag(first);
  memo.writeUtf8(out, first, 0);
  assert.is(memo.bytesOf(first), null, 'a body seen once keeps nothing: unique bodies cost no copy');
  const second = text();
  memo.etag(second);
  memo.writeUtf8(out, second, 0);
  out.fill(0);
  const third = text();
  memo.etag(third);
  assert.equal(Buffer.from(memo.bytesOf(third)!), Buffer.from(third), 'its own copy, exactly what encoding gives (a lone surrogate as U+FFFD)');
  assert.is(memo.writeUtf8(out, third, 3), Buffer.byteLength(third));
  assert.equal(out.subarray(3, 3 + Buffer.byteLength(third)), Buffer.from(third), 'and it is what a later write copies');
  // Same length in UTF-16 units, other text: never given another body's bytes.
  const other = JSON.stringify({ title: 'hallo — a bench', lone: '\ud800' });
  assert.is(other.length, third.length);
  assert.is(memo.bytesOf(other), null);
});

test('writeBodyUtf8 writes the same bytes as Buffer#write, whether it encodes or copies', () => {
  const page = () => `<p>${'naïve — ✓ '.repeat(20)}</p>`;
  for (let i = 0; i < 4; i++) {
    const body = page();
    etagOf(body);
    const out = Buffer.alloc(body.length * 3 + 8, 0xff);
    const written = writeBodyUtf8(out, body, 8);
    assert.is(written, Buffer.byteLength(body), `round ${i}`);
    assert.equal(out.subarray(8, 8 + written), Buffer.from(body), `round ${i}`);
    assert.ok(out.subarray(0, 8).every((b) => b === 0xff) && out.subarray(8 + written).every((b) => b === 0xff), 'nothing outside its place');
  }
});

test('byteLengthOf counts the UTF-8 bytes of a string body and the bytes of a binary one', () => {
  etagOf('€ and more');
  assert.is(byteLengthOf('€ and more'), 12);
  assert.is(byteLengthOf('€ and mord'), 12);
  assert.is(byteLengthOf('e and more'), 10);
  assert.is(byteLengthOf(new Uint8Array([1, 2, 3])), 3);
  assert.is(byteLengthOf(''), 0);
});

test('If-None-Match names an ETag exactly, in its weak form, in a list, or with *', () => {
  const tag = '"abc"';
  assert.ok(ifNoneMatchNames('"abc"', tag));
  assert.ok(ifNoneMatchNames('W/"abc"', tag));
  assert.ok(ifNoneMatchNames('"x", "abc"', tag));
  assert.ok(ifNoneMatchNames('*', tag));
  assert.not.ok(ifNoneMatchNames('"abcd"', tag));
  assert.not.ok(ifNoneMatchNames(undefined, tag));
  assert.not.ok(ifNoneMatchNames('"abc"', undefined));
});

test.run();
