/**
 * The one place an error becomes a response: the status from the error
 * table, the body from public/<status>.html, diagnostics only for local
 * requests of an app that asks for them, and one log line per failure.
 */
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultErrorPage } from '../../../core/pipeline/default-pages.ts';
import { Controller, MethodNotAllowed, NotImplemented, RecordInvalid, StaleObjectError } from '../../../core/index.ts';
import { rescueTemplate } from '../../../core/pipeline/failures.ts';
import { appWith, call, tempDir } from '../../support/harness.ts';

const test = suite('failures answer the error status with a public page or local diagnostics');

class BoomController extends Controller {
  boom(): void {
    throw new Error('secret <detail> & stack');
  }
  thrown_string(): void {
    throw 'not an Error';
  }
  invalid(): void {
    throw new RecordInvalid(['Title is blank']);
  }
  stale(): void {
    throw new StaleObjectError();
  }
  only_get(): void {
    throw new MethodNotAllowed(['get', 'head']);
  }
  not_implemented(): void {
    throw new NotImplemented(['get']);
  }
  missing(): void {}
  echo_header(): void {
    // Copying a parameter into a header: the way a newline reaches one.
    this.head(200, { x_note: this.params.note });
  }
  bad_type(): void {
    this.render({ text: 'x', content_type: 'text/plain\r\nX-Injected: 1' });
  }
  set_status(): void {
    // A status copied from a parameter into the response by hand, past render's and head's own checks.
    this.render({ text: 'x' });
    this.response.status = Number(this.params.to);
  }
}

let pub = { path: '', remove: () => {} };
test.before(() => {
  pub = tempDir('failures-public');
  writeFileSync(join(pub.path, '500.html'), '<h1>We are sorry</h1>');
  writeFileSync(join(pub.path, '422.html'), '<h1>Rejected</h1>');
});
test.after(() => pub.remove());

/** An app logging JSON lines into `lines`. */
function logged(options: Parameters<typeof appWith>[1] = {}) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = appWith({ boom: BoomController }, { publicDir: pub.path, logger: pino({ level: 'info' }, sink), ...options });
  return { app, lines };
}

test('an unrescued exception is 500 with public/500.html, never the message or stack, for a remote client', async () => {
  const { app } = logged({ config: { consider_all_requests_local: true } });
  const res = await call(app, 'GET /boom/boom', { remoteAddress: '203.0.113.7' });
  assert.is(res.status, 500);
  assert.is(res.body, '<h1>We are sorry</h1>');
  assert.not.match(res.body, 'secret');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
});

test('a local request sees diagnostics when the app considers requests local: class, message and backtrace, escaped', async () => {
  const { app } = logged({ config: { consider_all_requests_local: true } });
  for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '']) {
    const res = await call(app, 'GET /boom/boom', { remoteAddress });
    assert.is(res.status, 500);
    assert.match(res.body, '<h1>Error in BoomController#boom</h1>');
    assert.match(res.body, 'secret &lt;detail&gt; &amp; stack');
    assert.match(res.body, 'failures.test.ts', 'the backtrace');
  }
});

test('refusals made before the app runs (no route, a bad Host) leave traces of later errors whole', async () => {
  const { app } = logged({ config: { consider_all_requests_local: true } });
  const before = Error.stackTraceLimit;
  assert.is((await call(app, 'GET /nowhere/at/all')).status, 404);
  assert.is((await call(app, 'GET /boom/boom', { headers: { host: 'bad host' } })).status, 400);
  assert.is(Error.stackTraceLimit, before);
  const res = await call(app, 'GET /boom/boom', { remoteAddress: '127.0.0.1' });
  assert.match(res.body, 'failures.test.ts', "the action's own error keeps its backtrace");
});

test('without consider_all_requests_local even a local request sees the public page', async () => {
  const { app } = logged({ config: { consider_all_requests_local: false } });
  assert.is((await call(app, 'GET /boom/boom', { remoteAddress: '127.0.0.1' })).body, '<h1>We are sorry</h1>');
});

test('development considers requests local by default; test and production do not', async () => {
  const dev = appWith({ boom: BoomController }, { environment: 'development', logger: false });
  assert.match((await call(dev, 'GET /boom/boom', { remoteAddress: '127.0.0.1', headers: { host: 'localhost:3000' } })).body, 'secret');
  const prod = appWith({ boom: BoomController }, { environment: 'production', logger: false, session: false });
  assert.is((await call(prod, 'GET /boom/boom', { remoteAddress: '127.0.0.1' })).body, defaultErrorPage(500));
});

test('diagnostics name the kind of failure: missing template, unknown action, routing error', async () => {
  const { app } = logged({ config: { consider_all_requests_local: true } });
  const local = { remoteAddress: '127.0.0.1' };
  assert.match((await call(app, 'GET /boom/missing', local)).body, '<h1>Template is missing in BoomController#missing</h1>');
  const unknown = (await call(app, 'GET /boom/nope', local)).body;
  assert.match(unknown, '<h1>Unknown action</h1>');
  assert.match(unknown, 'No action responded to nope');
  const ghost = appWith({ boom: BoomController }, {
    draw: (map) => map.named('ghost', 'ghost', { controller: 'ghosts', action: 'index' }),
    config: { consider_all_requests_local: true },
  });
  const routing = await call(ghost, 'GET /ghost', local);
  assert.is(routing.status, 404);
  assert.match(routing.body, '<h1>Routing Error</h1>', 'a route to a controller the app lacks');
  const nowhere = await call(ghost, 'GET /nowhere', local);
  assert.is(nowhere.status, 404);
  assert.match(nowhere.body, 'No route matches "/nowhere" with {:method=&gt;:get}', 'no route at all, in Rails\' words');
  assert.is(rescueTemplate(new Error('x')), 'diagnostics');
});

test('a thrown non-Error is still a 500, described by its text', async () => {
  const { app } = logged({ config: { consider_all_requests_local: true } });
  const res = await call(app, 'GET /boom/thrown_string', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'not an Error');
});

test('model errors answer their table status: RecordInvalid 422, StaleObjectError 409', async () => {
  const { app } = logged();
  assert.is((await call(app, 'GET /boom/invalid')).status, 422);
  assert.is((await call(app, 'GET /boom/stale')).status, 409);
});

test('MethodNotAllowed and NotImplemented thrown by an action carry Allow', async () => {
  const { app } = logged();
  let res = await call(app, 'GET /boom/only_get');
  assert.is(res.status, 405);
  assert.is(res.header('allow'), 'GET, HEAD');
  res = await call(app, 'GET /boom/not_implemented');
  assert.is(res.status, 501);
  assert.is(res.header('allow'), 'GET');
});

test('a failure keeps nothing the action half-built (headers, cookies, status)', async () => {
  class HalfController extends Controller {
    go(): void {
      this.response.set_header('X-Half', 'built');
      this.cookies.set('half', '1');
      this.response.status = 201;
      throw new Error('then failed');
    }
  }
  const res = await call(appWith({ half: HalfController }), 'GET /half/go');
  assert.is(res.status, 500);
  assert.is(res.header('x-half'), undefined);
  assert.is(res.header('set-cookie'), undefined);
});

test('a header HTTP cannot carry fails the action with InvalidResponseHeader (500), logged, and nothing of it is sent', async () => {
  for (const engine of ['compiled', 'xstate'] as const) {
    const { app, lines } = logged({ engine });
    const res = await call(app, `GET /boom/echo_header?note=${encodeURIComponent('a\r\nSet-Cookie: admin=1')}`, { remoteAddress: '203.0.113.7' });
    assert.is(res.status, 500, engine);
    assert.is(res.body, '<h1>We are sorry</h1>');
    assert.is(res.header('x-note'), undefined);
    assert.is(res.header('set-cookie'), undefined);
    const line = lines.find((l) => l.msg === 'request errored')!;
    assert.is((line.err as { type: string }).type, 'InvalidResponseHeader');
    assert.match((line.err as { message: string }).message, '"X-Note"');
    assert.is((await call(app, `GET /boom/echo_header?note=${encodeURIComponent('tab\tand é are fine')}`)).status, 200, `${engine}: tabs and Latin-1 pass`);
    assert.is((await call(app, 'GET /boom/bad_type', { remoteAddress: '203.0.113.7' })).status, 500, `${engine}: a content type with a newline`);
  }
});

test('a status no status line can carry, set on the response by hand, fails the action with UnknownStatus (500), logged', async () => {
  for (const engine of ['compiled', 'xstate'] as const) {
    for (const to of ['99999', '42', '2.5', 'NaN']) {
      const { app, lines } = logged({ engine });
      const res = await call(app, `GET /boom/set_status?to=${to}`);
      assert.is(res.status, 500, `${engine}: ${to}`);
      assert.is(res.body, '<h1>We are sorry</h1>');
      const line = lines.find((l) => l.msg === 'request errored')!;
      assert.is((line.err as { type: string }).type, 'UnknownStatus', `${engine}: ${to}`);
      assert.is(lines.find((l) => l.msg === 'request completed')!.status, 500, 'the completed line says what was sent');
    }
    const { app } = logged({ engine });
    for (const to of ['100', '299', '999']) assert.is((await call(app, `GET /boom/set_status?to=${to}`)).status, Number(to), `${engine}: ${to} passes`);
  }
});

test('server errors log "request errored" at error level; refusals log "request refused" at info', async () => {
  const { app, lines } = logged();
  await call(app, 'GET /boom/boom');
  await call(app, 'GET /boom/invalid');
  const errored = lines.find((l) => l.msg === 'request errored')!;
  assert.is(errored.level, 50);
  assert.is(errored.status, 500);
  assert.is(errored.controller, 'boom');
  assert.is(errored.action, 'boom');
  const refused = lines.find((l) => l.msg === 'request refused')!;
  assert.is(refused.level, 30);
  assert.is(refused.status, 422);
  assert.is(refused.code, 'SBX_ERR_RECORD_INVALID');
  assert.is(lines.filter((l) => l.msg === 'request completed').length, 2);
});

test('every early ending logs one line from the same typed error: refusals at info, server errors at error', async () => {
  class OnlyHtmlController extends Controller {
    show(): void {
      this.respond_to({ html: true });
    }
  }
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = appWith({ only_html: OnlyHtmlController }, { logger: pino({ level: 'info' }, sink), draw: (map) => map.resources('only_html', { only: ['show'] }) });
  const ends: [string, number, string, string][] = [
    ['GET /nowhere', 404, 'request refused', 'SBX_ERR_ROUTING'],
    ['DELETE /only_html/1', 405, 'request refused', 'SBX_ERR_METHOD_NOT_ALLOWED'],
    ['GET /only_html/1.json', 406, 'request refused', 'SBX_ERR_NOT_ACCEPTABLE'],
    ['BREW /only_html/1', 501, 'request errored', 'UnknownHttpMethod'],
  ];
  for (const [line, status, msg, what] of ends) {
    lines.length = 0;
    const res = await call(app, line);
    assert.is(res.status, status, line);
    const failures = lines.filter((l) => l.msg === 'request refused' || l.msg === 'request errored');
    assert.is(failures.length, 1, line);
    assert.is(failures[0].msg, msg, line);
    assert.is(failures[0].level, status >= 500 ? 50 : 30, line);
    assert.is(failures[0].status, status, line);
    assert.is(status >= 500 ? (failures[0].err as { type: string }).type : failures[0].code, what, line);
  }
});

test('one Allow policy: the methods the error names, for 405 and 501 alike', async () => {
  const { app } = logged();
  assert.is((await call(app, 'BREW /boom/boom')).header('allow'), 'GET, HEAD, POST, PUT, DELETE, OPTIONS', 'an unknown method: the methods HTTP is served with here');
  assert.is((await call(app, 'GET /boom/not_implemented')).header('allow'), 'GET', 'NotImplemented from an action: its own list');
  assert.is((await call(app, 'GET /boom/only_get')).header('allow'), 'GET, HEAD');
});

test.run();
