/**
 * The parse stage: the message becomes a `Request` with its body and query
 * parameters, or the request ends early: 400 for what cannot be read, 413
 * for what is too large, 501 for an unknown method, 403 for a host the app
 * does not serve.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../../core/index.ts';
import { appWith, call, form, type AppOptions } from './support.ts';

const test = suite('parseRequest reads the message or ends the request with 400, 403, 413 or 501');

class EchoController extends Controller {
  show(): void {
    const { controller: _c, action: _a, ...params } = this.params;
    this.render({ json: { method: this.request.method, params } });
  }
  destroy(): void {
    this.render({ text: 'destroyed' });
  }
}

const app = (config: AppOptions['config'] = {}) => appWith({ echo: EchoController }, {
  draw: (map) => {
    map.resources('echo');
    map.connect(':controller/:action/:id');
  },
  config,
});
const echoed = async (res: Promise<{ body: string; status: number }>) => {
  const r = await res;
  assert.is(r.status, 200, r.body);
  return JSON.parse(r.body) as { method: string; params: Record<string, unknown> };
};

test('url-encoded, JSON and XML bodies become parameters', async () => {
  assert.equal((await echoed(call(app(), 'POST /echo/show', form({ 'post[title]': 'Hi', tags: 'a' })))).params, { post: { title: 'Hi' }, tags: 'a' });
  assert.equal((await echoed(call(app(), 'POST /echo/show', { headers: { 'content-type': 'application/json' }, body: '{"post":{"id":1}}' }))).params, { post: { id: 1 } });
  assert.equal((await echoed(call(app(), 'POST /echo/show', { headers: { 'content-type': 'application/xml' }, body: '<post><title>X</title></post>' }))).params, { post: { title: 'X' } });
  assert.equal((await echoed(call(app(), 'POST /echo/show', { headers: { 'content-type': 'text/plain' }, body: 'ignored' }))).params, {}, 'other types carry no parameters');
});

test('a multipart body is parsed asynchronously', async () => {
  const boundary = 'XyZ';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nMultipart\r\n--${boundary}--\r\n`;
  const params = (await echoed(call(app(), 'POST /echo/show', { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.from(body) }))).params;
  assert.equal(params, { title: 'Multipart' });
});

test('_method in a form body routes a POST as another method', async () => {
  const res = await call(app(), 'POST /echo/1', form({ _method: 'delete' }));
  assert.is(res.body, 'destroyed');
  assert.is((await call(app(), 'POST /echo/1?_method=delete')).body, 'destroyed');
});

test('a malformed query string (a bad escape, a hash where an array was) is 400', async () => {
  for (const target of ['/echo/show?a=%zz', '/echo/show?a[]=1&a[b]=2']) {
    const res = await call(app(), `GET ${target}`);
    assert.is(res.status, 400, target);
  }
});

test('a path whose percent-encoding does not decode is 400, before recognition', async () => {
  for (const target of ['/echo/%E0%A4%A', '/echo/%zz', '/echo/%']) {
    const res = await call(app(), `GET ${target}`);
    assert.is(res.status, 400, target);
  }
  assert.is((await call(app(), 'GET /echo/a%20b')).status, 200, 'a path that decodes is fine');
});

test('a malformed body is 400: bad JSON, bad XML, invalid UTF-8', async () => {
  assert.is((await call(app(), 'POST /echo/show', { headers: { 'content-type': 'application/json' }, body: '{"a":' })).status, 400);
  assert.is((await call(app(), 'POST /echo/show', { headers: { 'content-type': 'application/xml' }, body: '<a><b></a>' })).status, 400);
  assert.is((await call(app(), 'POST /echo/show', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from([0x61, 0x3d, 0xff, 0xfe]) })).status, 400);
});

test('parameters over the configured limits are refused: counts and depth 400, sizes 413', async () => {
  const limited = app({ limits: { keys: 3, depth: 2, bodyBytes: 64 } });
  const many = await call(limited, 'GET /echo/show?a=1&b=2&c=3&d=4');
  assert.is(many.status, 400, 'too many keys');
  assert.is(many.body, 'Too many parameters: the limit is 3\n', 'the client is told which limit it hit');
  assert.is(many.header('content-type'), 'text/plain; charset=utf-8');
  assert.is((await call(limited, 'GET /echo/show?a[b][c][d]=1')).status, 400, 'too deep');
  const big = await call(limited, 'POST /echo/show', { headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ a: 'x'.repeat(100) })) });
  assert.is(big.status, 413);
  assert.match(big.body, 'over the bodyBytes limit of 64');
});

test('an unknown method, sent or simulated, is 501 with the methods that are implemented', async () => {
  for (const [line, options] of [['BREW /echo/show', {}], ['PATCH /echo/1', {}], ['POST /echo/1', form({ _method: 'brew' })]] as const) {
    const res = await call(app(), line, options);
    assert.is(res.status, 501, line);
    assert.is(res.header('allow'), 'GET, HEAD, POST, PUT, DELETE, OPTIONS');
  }
});

test('with config.hosts, any other Host is refused with 403 before anything runs', async () => {
  const guarded = app({ hosts: ['example.com', '.example.org', 'localhost:3000'] });
  for (const host of ['example.com', 'example.com:8080', 'EXAMPLE.COM.', 'example.org', 'www.example.org', 'localhost:3000']) {
    assert.is((await call(guarded, 'GET /echo/show', { headers: { host } })).status, 200, host);
  }
  for (const host of ['evil.com', 'example.com.evil.com', 'notexample.org', 'localhost:4000', 'localhost']) {
    assert.is((await call(guarded, 'GET /echo/show', { headers: { host } })).status, 403, host);
  }
  assert.is((await call(app(), 'GET /echo/show', { headers: { host: 'anything.example' } })).status, 200, 'no list admits any host');
});


test.run();
