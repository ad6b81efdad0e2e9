/**
 * The fast lane's reader of request heads takes only heads that cannot be
 * read two ways, and leaves every other head (answers null) to node:http.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readSimpleHead } from '../../transport/request-head.ts';

const test = suite('the fast lane reads only simple request heads');

const head = (...lines: string[]) => lines.join('\r\n');

test('a plain GET is read: method, target as sent, lower-cased names, values without surrounding space', () => {
  const read = readSimpleHead(head('GET /posts/1.json?page=2&q=a%20b HTTP/1.1', 'Host: example.com', 'Accept:  application/json \t', 'X-Empty:'), 100);
  assert.ok(read);
  assert.is(read.method, 'GET');
  assert.is(read.url, '/posts/1.json?page=2&q=a%20b');
  assert.equal({ ...read.headers }, { host: 'example.com', accept: 'application/json', 'x-empty': '' });
  assert.is(read.closes, false);
});

test('Connection: close is noted; keep-alive is not', () => {
  assert.is(readSimpleHead(head('GET / HTTP/1.1', 'Host: a', 'Connection: Close'), 100)?.closes, true);
  assert.is(readSimpleHead(head('GET / HTTP/1.1', 'Host: a', 'Connection: keep-alive'), 100)?.closes, false);
});

test('a header named like a property every object has is left to node:http, and no prototype changes', () => {
  assert.is(readSimpleHead(head('GET / HTTP/1.1', 'Host: a', '__proto__: {"polluted":1}'), 100), null);
  assert.is(readSimpleHead(head('GET / HTTP/1.1', 'Host: a', 'Constructor: x'), 100), null);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test('a body by one plain Content-Length is read, and its length given', () => {
  const read = readSimpleHead(head('POST /posts HTTP/1.1', 'Host: a', 'Content-Type: application/x-www-form-urlencoded', 'Content-Length: 7'), 100);
  assert.ok(read);
  assert.is(read.bodyLength, 7);
  assert.is(read.headers['content-length'], '7');
  assert.is(readSimpleHead(head('PUT /posts/1 HTTP/1.1', 'Host: a', 'content-length:12'), 100)?.bodyLength, 12);
  assert.is(readSimpleHead(head('PATCH /posts/1 HTTP/1.1', 'Host: a', 'Content-Length: 000000000000042'), 100)?.bodyLength, 42);
});

test('Content-Length: 0 is read as no body; no Content-Length is no body', () => {
  assert.is(readSimpleHead(head('POST /posts HTTP/1.1', 'Host: a', 'Content-Length: 0'), 100)?.bodyLength, 0);
  assert.is(readSimpleHead(head('DELETE /posts/1 HTTP/1.1', 'Host: a'), 100)?.bodyLength, 0);
});

test('a multipart request without a body is read; with one it is left to node:http, which streams uploads', () => {
  const multipart = 'Content-Type: multipart/form-data; boundary=x';
  assert.is(readSimpleHead(head('POST /posts HTTP/1.1', 'Host: a', multipart), 100)?.bodyLength, 0);
  assert.is(readSimpleHead(head('POST /posts HTTP/1.1', 'Host: a', multipart, 'Content-Length: 0'), 100)?.bodyLength, 0);
  assert.is(readSimpleHead(head('POST /posts HTTP/1.1', 'Host: a', multipart, 'Content-Length: 20'), 100), null);
  assert.is(readSimpleHead(head('POST /posts HTTP/1.1', 'Host: a', 'Content-Length: 20', 'content-type:  Multipart/Form-Data;boundary=x'), 100), null);
});

const post = (...lines: string[]) => head('POST /posts HTTP/1.1', 'Host: a', ...lines);

// Where a body ends must never be a question two readers could answer differently (request smuggling).
const framingsLeftToNode: Record<string, string> = {
  'a body by Transfer-Encoding': post('Transfer-Encoding: chunked'),
  'Content-Length with Transfer-Encoding': post('Content-Length: 3', 'Transfer-Encoding: chunked'),
  'Transfer-Encoding with Content-Length': post('Transfer-Encoding: chunked', 'Content-Length: 3'),
  'Content-Length with Transfer-Encoding: identity': post('Content-Length: 3', 'Transfer-Encoding: identity'),
  'two equal Content-Lengths': post('Content-Length: 5', 'Content-Length: 5'),
  'two different Content-Lengths': post('Content-Length: 5', 'Content-Length: 6'),
  'two Content-Lengths in different cases': post('Content-Length: 5', 'content-length: 5'),
  'a Content-Length with a plus sign': post('Content-Length: +5'),
  'a negative Content-Length': post('Content-Length: -5'),
  'a Content-Length after two spaces': post('Content-Length:  5'),
  'a Content-Length after a tab': post('Content-Length:\t5'),
  'a Content-Length with a space after it': post('Content-Length: 5 '),
  'a Content-Length with a space inside': post('Content-Length: 5 5'),
  'a hexadecimal Content-Length': post('Content-Length: 0x5'),
  'a Content-Length with an exponent': post('Content-Length: 5e1'),
  'a Content-Length with a fraction': post('Content-Length: 5.0'),
  'a Content-Length list': post('Content-Length: 5,5'),
  'a Content-Length list with a space': post('Content-Length: 5, 5'),
  'an empty Content-Length': post('Content-Length:'),
  'a Content-Length of one space': post('Content-Length: '),
  'a Content-Length of 16 digits': post('Content-Length: 1000000000000000'),
  'a huge Content-Length': post(`Content-Length: ${'9'.repeat(40)}`),
  'a body with Expect: 100-continue': post('Content-Length: 3', 'Expect: 100-continue'),
};

for (const [what, text] of Object.entries(framingsLeftToNode)) {
  test(`${what} is left to node:http`, () => {
    assert.is(readSimpleHead(text, 100), null);
  });
}

const leftToNode: Record<string, string> = {
  'an upgrade': head('GET /_tunnel HTTP/1.1', 'Host: a', 'Connection: Upgrade', 'Upgrade: websocket'),
  'Expect: 100-continue': head('PUT / HTTP/1.1', 'Host: a', 'Expect: 100-continue'),
  'a Connection option other than keep-alive or close': head('GET / HTTP/1.1', 'Host: a', 'Connection: keep-alive, TE'),
  'HTTP/1.0': head('GET / HTTP/1.0', 'Host: a'),
  'another version': head('GET / HTTP/2.0', 'Host: a'),
  'no version': 'GET /',
  'no Host': head('GET / HTTP/1.1', 'Accept: */*'),
  'a repeated header': head('GET / HTTP/1.1', 'Host: a', 'Host: b'),
  'a repeated header in another case': head('GET / HTTP/1.1', 'Host: a', 'Cookie: x=1', 'cookie: y=2'),
  'a space before the colon': head('GET / HTTP/1.1', 'Host : a'),
  'a folded header line': head('GET / HTTP/1.1', 'Host: a', 'X-A: one', ' two'),
  'a line without a colon': head('GET / HTTP/1.1', 'Host: a', 'garbage'),
  'a bare LF': 'GET / HTTP/1.1\nHost: a',
  'a bare CR': 'GET / HTTP/1.1\r\nHost: a\rX-B: c',
  'a NUL in a value': head('GET / HTTP/1.1', 'Host: a', 'X-A: b\0c'),
  'a non-ASCII value': head('GET / HTTP/1.1', 'Host: a', 'X-A: caf\u00e9'),
  'a non-ASCII target': head('GET /caf\u00e9 HTTP/1.1', 'Host: a'),
  'an absolute-form target': head('GET http://a/ HTTP/1.1', 'Host: a'),
  'the asterisk form': head('OPTIONS * HTTP/1.1', 'Host: a'),
  'a fragment': head('GET /a#b HTTP/1.1', 'Host: a'),
  'quotes and braces in the target': head('GET /a"{b} HTTP/1.1', 'Host: a'),
  'two spaces in the request line': head('GET  / HTTP/1.1', 'Host: a'),
  'a method the app does not implement': head('PROPFIND / HTTP/1.1', 'Host: a'),
  'a lower-case method': head('get / HTTP/1.1', 'Host: a'),
  'a blank line before the request line': head('', 'GET / HTTP/1.1', 'Host: a'),
};

for (const [what, text] of Object.entries(leftToNode)) {
  test(`${what} is left to node:http`, () => {
    assert.is(readSimpleHead(text, 100), null);
  });
}

test('more header lines than the limit are left to node:http, which refuses them', () => {
  const lines = ['GET / HTTP/1.1', 'Host: a'];
  for (let i = 0; i < 5; i++) lines.push(`X-${i}: ${i}`);
  assert.ok(readSimpleHead(head(...lines), 6));
  assert.is(readSimpleHead(head(...lines), 5), null);
});

test.run();
