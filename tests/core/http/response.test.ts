/**
 * The `Response` an action builds: defaults, headers read and replaced by
 * any spelling, Location and ETag accessors, and the body's byte length.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Response } from '../../../core/index.ts';
import { contentTypeHeader, DEFAULT_CACHE_CONTROL, runtimeHeader, unsafeHeader } from '../../../core/http/response.ts';

const test = suite('Response holds status, headers and body until the respond stage');

test('a new response is 200, uncached, untyped, with the default charset', () => {
  const res = new Response();
  assert.is(res.status, 200);
  assert.is(res.reason, null);
  assert.is(res.body, '');
  assert.is(res.content_type, null);
  assert.is(res.charset, 'utf-8');
  assert.is(res.redirected_to, null);
  assert.equal(res.headers, { 'Cache-Control': DEFAULT_CACHE_CONTROL });
  assert.is(DEFAULT_CACHE_CONTROL, 'no-cache');
  assert.equal(res.cookies, []);
  assert.is(new Response('iso-8859-1').charset, 'iso-8859-1');
});

test('header() reads a header by any case', () => {
  const res = new Response();
  res.headers['X-Custom'] = 'a';
  assert.is(res.header('x-custom'), 'a');
  assert.is(res.header('X-CUSTOM'), 'a');
  assert.is(res.header('cache-control'), 'no-cache');
  assert.is(res.header('missing'), undefined);
});

test('set_header replaces the header under any other spelling; delete_header removes every spelling', () => {
  const res = new Response();
  res.headers['x-thing'] = 'old';
  res.headers['X-THING'] = 'older';
  res.set_header('X-Thing', 'new');
  assert.equal(res.headers, { 'Cache-Control': 'no-cache', 'X-Thing': 'new' });
  res.set_header('set-cookie', ['a=1', 'b=2']);
  assert.equal(res.header('Set-Cookie'), ['a=1', 'b=2']);
  res.delete_header('x-THING');
  assert.is(res.header('x-thing'), undefined);
  res.delete_header('not-there');
});

test('location reads and writes the Location header; undefined removes it', () => {
  const res = new Response();
  assert.is(res.location, undefined);
  res.location = 'http://test.host/a';
  assert.is(res.header('location'), 'http://test.host/a');
  res.set_header('location', ['http://first', 'http://second']);
  assert.is(res.location, 'http://first', 'the first of several');
  res.location = undefined;
  assert.is(res.header('Location'), undefined);
});

test('etag reads the ETag header by any case, the first of several', () => {
  const res = new Response();
  assert.is(res.etag, undefined);
  res.headers.etag = '"a"';
  assert.is(res.etag, '"a"');
  res.set_header('ETag', ['"b"', '"c"']);
  assert.is(res.etag, '"b"');
});

test('bodyBytes counts UTF-8 bytes of a string body, or the bytes of a binary one', () => {
  const res = new Response();
  assert.is(res.bodyBytes, 0);
  res.body = 'héllo';
  assert.is(res.bodyBytes, 6);
  res.body = new Uint8Array([1, 2, 3]);
  assert.is(res.bodyBytes, 3);
});

test('unsafeHeader names the first header, type, cookie or reason HTTP cannot carry', () => {
  const res = new Response();
  res.set_header('X-Note', 'fine');
  assert.is(unsafeHeader(res), null);
  res.set_header('X-Note', 'a\r\nb');
  assert.is(unsafeHeader(res), 'X-Note');
  res.delete_header('X-Note');
  res.content_type = 'text/html\n';
  assert.is(unsafeHeader(res), 'Content-Type');
  res.content_type = 'text/html';
  res.cookies.push('a=1', 'b=\u0000');
  assert.is(unsafeHeader(res), 'Set-Cookie');
  res.cookies.length = 0;
  res.reason = 'OK\r\nX: y';
  assert.is(unsafeHeader(res), 'Status');
});

test('unsafeHeader checks names and values by their own rules, however often a text was seen', () => {
  const res = new Response();
  // 'a b' is a safe value, seen many times, but never a safe name.
  for (let i = 0; i < 5; i++) {
    res.set_header('X-Spaced', 'a b');
    assert.is(unsafeHeader(res), null);
  }
  res.headers['a b'] = 'x';
  assert.is(unsafeHeader(res), 'a b');
  delete res.headers['a b'];
  // Past the remembered set's size, checks still hold.
  for (let i = 0; i < 1100; i++) {
    res.set_header('X-Spaced', `v${i}`);
    assert.is(unsafeHeader(res), null);
  }
  res.set_header('X-Spaced', 'v1\n');
  assert.is(unsafeHeader(res), 'X-Spaced');
});

test('contentTypeHeader joins type and charset, the same text for the same pair, however many pairs were seen', () => {
  assert.is(contentTypeHeader('text/html', 'utf-8'), 'text/html; charset=utf-8');
  assert.is(contentTypeHeader('text/html', null), 'text/html');
  assert.is(contentTypeHeader('text/html', ''), 'text/html');
  assert.is(contentTypeHeader('application/json', 'iso-8859-1'), 'application/json; charset=iso-8859-1');
  for (let i = 0; i < 300; i++) {
    assert.is(contentTypeHeader(`application/x-${i}`, `cs-${i % 70}`), `application/x-${i}; charset=cs-${i % 70}`);
  }
  assert.is(contentTypeHeader('text/html', 'utf-8'), 'text/html; charset=utf-8');
});

test('runtimeHeader writes milliseconds as seconds with five decimals, rounded to the nearest ten microseconds', () => {
  assert.is(runtimeHeader(0), '0.00000');
  assert.is(runtimeHeader(0.004), '0.00000');
  assert.is(runtimeHeader(0.006), '0.00001');
  assert.is(runtimeHeader(12.5), '0.01250');
  assert.is(runtimeHeader(999.999), '1.00000');
  assert.is(runtimeHeader(12345.678), '12.34568');
  // A clock that steps back never yields a negative runtime.
  assert.is(runtimeHeader(-3), '0.00000');
  for (let i = 0; i < 2000; i++) {
    const ms = Math.random() * 5000;
    assert.ok(Math.abs(Number(runtimeHeader(ms)) - ms / 1000) <= 0.000005 + 1e-12, String(ms));
    assert.match(runtimeHeader(ms), /^\d+\.\d{5}$/);
  }
});

test.run();
