/**
 * Status lines from codes, symbols and strings (Rails 2.1's interpret_status),
 * and `head` option keys as header names.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { UnknownStatus } from '../../../core/errors.ts';
import { STATUS_CODES, SYMBOL_TO_STATUS_CODE, headOptionHeaderName, interpretStatus, statusCode } from '../../../core/http/status.ts';

const status = suite('HTTP status lines');

status('the table is Rails 2.1 STATUS_CODES: 49 codes from 100 to 510, frozen', () => {
  const codes = Object.keys(STATUS_CODES).map(Number);
  assert.is(codes.length, 49);
  assert.is(Math.min(...codes), 100);
  assert.is(Math.max(...codes), 510);
  assert.ok(Object.isFrozen(STATUS_CODES));
  assert.ok(Object.isFrozen(SYMBOL_TO_STATUS_CODE));
  for (const code of [102, 207, 226, 422, 423, 424, 426, 507, 510]) assert.ok(code in STATUS_CODES, `WebDAV/extension code ${code}`);
});

status('symbols are the reason phrases without spaces, underscored', () => {
  assert.is(SYMBOL_TO_STATUS_CODE.not_found, 404);
  assert.is(SYMBOL_TO_STATUS_CODE.unprocessable_entity, 422);
  assert.is(SYMBOL_TO_STATUS_CODE.non_authoritative_information, 203);
  assert.is(SYMBOL_TO_STATUS_CODE.multi_status, 207);
  assert.is(SYMBOL_TO_STATUS_CODE.im_used, 226);
  assert.is(SYMBOL_TO_STATUS_CODE.request_uri_too_long, 414);
  assert.is(SYMBOL_TO_STATUS_CODE.http_version_not_supported, 505);
  assert.is(SYMBOL_TO_STATUS_CODE.ok, 200);
  assert.is(Object.keys(SYMBOL_TO_STATUS_CODE).length, 49);
});

status('a code gives its status line; an unknown code gives the bare number', () => {
  assert.is(interpretStatus(404), '404 Not Found');
  assert.is(interpretStatus(100), '100 Continue');
  assert.is(interpretStatus(299), '299');
});

status('a symbol name gives the status line of its code', () => {
  assert.is(interpretStatus('created'), '201 Created');
  assert.is(interpretStatus('not_found'), '404 Not Found');
});

status('a string starting with a three-digit code is kept as given', () => {
  assert.is(interpretStatus('404 Eat Dirt'), '404 Eat Dirt');
  assert.is(interpretStatus('200'), '200');
});

status('an unknown symbol, or a code outside 100-999, throws UnknownStatus (a 500)', () => {
  for (const bad of ['not_a_status', 'toString', '__proto__', '', 'Not Found', 99, 1000, 200.5, Number.NaN]) {
    assert.throws(() => interpretStatus(bad), (e: unknown) => e instanceof UnknownStatus && e.status === 500, String(bad));
  }
});

status('statusCode is the numeric part of the line', () => {
  assert.is(statusCode(201), 201);
  assert.is(statusCode('unprocessable_entity'), 422);
  assert.is(statusCode('404 Eat Dirt'), 404);
  assert.throws(() => statusCode('teapot'), (e: unknown) => e instanceof UnknownStatus);
});

status('head option keys become dashed, capitalised header names', () => {
  assert.is(headOptionHeaderName('x_custom_header'), 'X-Custom-Header');
  assert.is(headOptionHeaderName('location'), 'Location');
  assert.is(headOptionHeaderName('ETag'), 'Etag');
  assert.is(headOptionHeaderName('content-type'), 'Content-Type');
  assert.is(headOptionHeaderName('x_trailing_'), 'X-Trailing');
});

status.run();
