/**
 * The heads the fast lane writes: node:http's, line for line, and refused
 * before a byte goes out where node:http would refuse them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResponseMessage } from '../../core/http/message.ts';
import { responseHead, utcDate, InvalidHeader } from '../../transport/response-head.ts';

const test = suite('the fast lane writes heads as node:http does');

const keep = { closes: false, keepAliveSeconds: 5, hasBody: true } as const;

test("the app's headers in order, then Date, Connection and Keep-Alive", () => {
  const { text, wide, closes } = responseHead({ status: 200, headers: { 'Content-Type': 'text/plain', 'Content-Length': '2', 'Set-Cookie': ['a=1', 'b=2'] }, body: 'hi' }, { ...keep, body: 'hi' });
  assert.is(text, `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nDate: ${utcDate()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n`);
  assert.is(wide, false);
  assert.is(closes, false);
});

test('a custom reason phrase, and a closing connection without Keep-Alive', () => {
  const { text } = responseHead({ status: 404, reason: 'Moved Elsewhere', headers: { 'Content-Length': '0' }, body: '' }, { ...keep, closes: true, body: '' });
  assert.ok(text.startsWith('HTTP/1.1 404 Moved Elsewhere\r\n'));
  assert.ok(text.endsWith('Connection: close\r\n\r\n'));
});

test("the app's own Connection: close closes; its own Date is kept", () => {
  const { text, closes } = responseHead({ status: 200, headers: { Connection: 'close', Date: 'Tue, 01 Jan 2008 00:00:00 GMT', 'Content-Length': '0' }, body: '' }, { ...keep, body: '' });
  assert.is(closes, true);
  assert.is(text.match(/Date:/g)?.length, 1);
  assert.is(text.match(/Connection:/g)?.length, 1);
});

test('a Content-Length in bytes when the app gave none and a body goes out; none for a bodiless answer', () => {
  assert.match(responseHead({ status: 200, headers: {}, body: 'caf\u00e9' }, { ...keep, body: 'caf\u00e9' }).text, /Content-Length: 5\r\n\r\n$/);
  assert.not.match(responseHead({ status: 304, headers: {}, body: '' }, { ...keep, hasBody: false, body: '' }).text, /Content-Length/);
});

test('a Latin-1 value is allowed and marked wide (heads go out as latin1 bytes)', () => {
  assert.is(responseHead({ status: 200, headers: { 'X-Name': 'caf\u00e9' }, body: '' }, { ...keep, body: '' }).wide, true);
});

test('a CR or LF in a value, a name that is no token, or a status out of range throws before anything is written', () => {
  const refused: ResponseMessage[] = [
    { status: 200, headers: { Location: '/a\r\nSet-Cookie: evil=1' }, body: '' },
    { status: 200, headers: { 'X-Name': '\u0100' }, body: '' },
    { status: 200, headers: { 'Bad Name': 'x' }, body: '' },
    { status: 200, reason: 'OK\r\nX: y', headers: {}, body: '' },
    { status: 42, headers: {}, body: '' },
  ];
  for (const response of refused) assert.throws(() => responseHead(response, { ...keep, body: '' }), (error: unknown) => error instanceof InvalidHeader);
});

test.run();
