/**
 * The render/ETag stage: a default content type; an MD5 ETag for a
 * non-empty 200 (unless the action set its own validator); revalidation
 * Cache-Control with it; and 304 for a GET or HEAD that already has it.
 */
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../../core/index.ts';
import { appWith, call, form } from './support.ts';

const test = suite('prepareResponse adds ETags and answers 304 to conditional GETs');

class PagesController extends Controller {
  show(): void { this.render({ text: 'hello' }); }
  create(): void { this.render({ text: 'hello' }); }
  empty(): void { this.render({ text: '' }); }
  created(): void { this.render({ text: 'hello', status: 'created' }); }
  tagged(): void {
    this.response.set_header('ETag', '"v1"');
    this.render({ text: 'hello' });
  }
  dated(): void {
    this.response.set_header('Last-Modified', 'Wed, 01 Jan 2020 00:00:00 GMT');
    this.render({ text: 'hello' });
  }
  public_cache(): void {
    this.response.set_header('Cache-Control', 'public, max-age=60');
    this.render({ text: 'hello' });
  }
  untyped(): void {
    this.response.body = 'raw body';
    this.head('ok');
  }
}

const app = () => appWith({ pages: PagesController });
const md5 = (text: string) => `"${createHash('md5').update(text).digest('hex')}"`;

test('a non-empty 200 gets the MD5 of its body as ETag, and revalidation Cache-Control', async () => {
  const res = await call(app(), 'GET /pages/show');
  assert.is(res.header('etag'), md5('hello'));
  assert.is(res.header('cache-control'), 'private, max-age=0, must-revalidate');
});

test('an empty body or a non-200 status gets no ETag and stays no-cache', async () => {
  for (const action of ['empty', 'created']) {
    const res = await call(app(), `GET /pages/${action}`);
    assert.is(res.header('etag'), undefined, action);
    assert.is(res.header('cache-control'), 'no-cache', action);
  }
});

test('a GET or HEAD whose If-None-Match names the ETag is 304 without body or Content-Type', async () => {
  for (const method of ['GET', 'HEAD']) {
    const res = await call(app(), `${method} /pages/show`, { headers: { 'if-none-match': md5('hello') } });
    assert.is(res.status, 304, method);
    assert.is(res.reason, undefined, 'the standard reason phrase');
    assert.is(res.body, '');
    assert.is(res.header('content-type'), undefined);
    assert.is(res.header('content-length'), undefined);
    assert.is(res.header('etag'), md5('hello'));
  }
});

test('If-None-Match lists, * and weak validators all match', async () => {
  for (const header of [`"x", ${md5('hello')}`, '*', `W/${md5('hello')}`]) {
    assert.is((await call(app(), 'GET /pages/show', { headers: { 'if-none-match': header } })).status, 304, header);
  }
  assert.is((await call(app(), 'GET /pages/show', { headers: { 'if-none-match': '"stale"' } })).status, 200);
});

test('a POST is never answered 304, even with a matching If-None-Match', async () => {
  const res = await call(app(), 'POST /pages/create', { headers: { 'if-none-match': md5('hello') } });
  assert.is(res.status, 200);
  assert.is(res.body, 'hello');
  const put = await call(app(), 'POST /pages/create', { ...form({ _method: 'put' }), headers: { 'content-type': 'application/x-www-form-urlencoded', 'if-none-match': '*' } });
  assert.is(put.status, 200);
});

test('an ETag the action set is kept, and conditional GETs match it', async () => {
  let res = await call(app(), 'GET /pages/tagged');
  assert.is(res.header('etag'), '"v1"');
  assert.is(res.header('cache-control'), 'private, max-age=0, must-revalidate');
  res = await call(app(), 'GET /pages/tagged', { headers: { 'if-none-match': '"v1"' } });
  assert.is(res.status, 304);
});

test('a Last-Modified set by the action stands instead of a generated ETag', async () => {
  const res = await call(app(), 'GET /pages/dated');
  assert.is(res.header('etag'), undefined);
  assert.is(res.header('last-modified'), 'Wed, 01 Jan 2020 00:00:00 GMT');
  assert.is(res.header('cache-control'), 'private, max-age=0, must-revalidate');
});

test('an explicit Cache-Control is kept', async () => {
  assert.is((await call(app(), 'GET /pages/public_cache')).header('cache-control'), 'public, max-age=60');
});

test('a response nobody typed is text/html', async () => {
  const res = await call(app(), 'GET /pages/untyped');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
});

test.run();
