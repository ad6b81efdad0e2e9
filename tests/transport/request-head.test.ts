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

const leftToNode: Record<string, string> = {
  'a body by Content-Length': head('POST /posts HTTP/1.1', 'Host: a', 'Content-Length: 3'),
  'a body by Transfer-Encoding': head('POST /posts HTTP/1.1', 'Host: a', 'Transfer-Encoding: chunked'),
  'both framings at once': head('POST / HTTP/1.1', 'Host: a', 'Content-Length: 3', 'Transfer-Encoding: chunked'),
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
