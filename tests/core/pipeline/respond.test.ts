/**
 * The respond stage, the one place that decides what goes on the wire:
 * Content-Type with charset, Content-Length, Set-Cookie, X-Runtime, HEAD
 * without a body, 1xx/204/304 without one, and a custom reason phrase.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, memorySessionStore } from '../../../core/index.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('respond turns the response into the message the transport writes');

class PagesController extends Controller {
  show(): void { this.render({ text: 'héllo wörld' }); }
  binary(): void {
    this.head('ok');
    this.response.content_type = 'application/octet-stream';
    this.response.charset = null;
    this.response.body = new Uint8Array([0, 1, 2, 255]);
  }
  no_content(): void { this.render({ text: 'dropped', status: 204 }); }
  not_modified(): void { this.render({ text: 'dropped', status: 304 }); }
  informational(): void { this.render({ text: 'dropped', status: 102 }); }
  moved(): void { this.render({ text: 'gone', status: '404 Moved' }); }
  login(): void {
    this.session.user = 'ann';
    this.cookies.set('theme', 'dark');
    this.render({ text: 'in' });
  }
}

const app = (options: Parameters<typeof appWith>[1] = {}) => appWith({ pages: PagesController }, options);

test('the body goes out with its UTF-8 byte length and a charset on its type', async () => {
  const res = await call(app(), 'GET /pages/show');
  assert.is(res.body, 'héllo wörld');
  assert.is(res.header('content-length'), '13');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
});

test('the app default charset is used', async () => {
  const res = await call(app({ config: { default_charset: 'iso-8859-1' } }), 'GET /pages/show');
  assert.is(res.header('content-type'), 'text/html; charset=iso-8859-1');
});

test('a binary body goes out as bytes, with its length', async () => {
  const res = await call(app(), 'GET /pages/binary');
  assert.equal([...(res.message.body as Uint8Array)], [0, 1, 2, 255]);
  assert.is(res.header('content-length'), '4');
  assert.is(res.header('content-type'), 'application/octet-stream');
});

test('HEAD keeps the GET headers and Content-Length but sends no body', async () => {
  const get = await call(app(), 'GET /pages/show');
  const head = await call(app(), 'HEAD /pages/show');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  assert.is(head.header('content-length'), get.header('content-length'));
  assert.is(head.header('etag'), get.header('etag'));
  assert.is(head.header('content-type'), get.header('content-type'));
});

test('204 and 304 carry no body, no Content-Type and no Content-Length; 1xx no body', async () => {
  for (const action of ['no_content', 'not_modified']) {
    const res = await call(app(), `GET /pages/${action}`);
    assert.is(res.body, '', action);
    assert.is(res.header('content-type'), undefined, action);
    assert.is(res.header('content-length'), undefined, action);
  }
  const info = await call(app(), 'GET /pages/informational');
  assert.is(info.status, 102);
  assert.is(info.body, '');
});

test('every response carries X-Runtime in seconds', async () => {
  for (const line of ['GET /pages/show', 'GET /nowhere', 'BREW /pages/show']) {
    assert.match((await call(app(), line)).header('x-runtime') ?? '', /^\d+\.\d{5}$/, line);
  }
});

test('a custom reason phrase travels in the message; the standard one is left to the transport', async () => {
  const moved = await call(app(), 'GET /pages/moved');
  assert.is(moved.status, 404);
  assert.is(moved.reason, 'Moved');
  assert.is(moved.body, 'gone');
  assert.is((await call(app(), 'GET /nowhere')).reason, undefined);
});

test('session and cookie writes become one Set-Cookie list', async () => {
  const res = await call(app({ session_store: memorySessionStore() }), 'GET /pages/login');
  const cookies = res.headers['Set-Cookie'] as string[];
  assert.ok(Array.isArray(cookies));
  assert.is(cookies.length, 2);
  assert.is(cookies[0], 'theme=dark; Path=/');
  assert.match(cookies[1], /^_session_id=[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
  assert.is((await call(app(), 'GET /pages/show')).header('set-cookie'), undefined, 'no writes, no header');
});

test.run();
