/**
 * The development pages through a whole app: what a request from this
 * machine sees in development for each early ending (no route, a method
 * the path does not take, an unknown method, a forged form, an exception),
 * what anyone else sees (the public page, or a short default one, never
 * internals), and the one log line each failure writes.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../../core/index.ts';
import { defaultErrorPage } from '../../../core/pipeline/default-pages.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('development pages for local requests, public pages for the rest');

class AccountsController extends Controller {
  static {
    this.protect_from_forgery();
  }
  show(): void {
    this.session.user_id = 42;
    this.session.note = '<b>bold</b>';
    throw new TypeError(`no account for ${String(this.params.id)}`);
  }
  update(): void {
    this.render({ text: 'updated' });
  }
}

/** A development app over `map.resources('accounts')`, logging into `lines`. */
function development(options: Parameters<typeof appWith>[1] = {}) {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = appWith({ accounts: AccountsController }, {
    draw: (map) => map.resources('accounts', { only: ['show', 'update'] }),
    environment: 'development', session: { secret: 'x'.repeat(40) }, logger: pino({ level: 'info' }, sink), ...options,
  });
  return { app, lines };
}

const LOCAL = { remoteAddress: '127.0.0.1', headers: { host: 'localhost:3000' } };
const REMOTE = { remoteAddress: '203.0.113.7', headers: { host: 'localhost:3000' } };

test('no route: Rails\' words, the routes, and one info line naming the path', async () => {
  const { app, lines } = development();
  const res = await call(app, 'GET /nowhere/at/all?x=1', LOCAL);
  assert.is(res.status, 404);
  assert.match(res.body, '<h1>Routing Error</h1>');
  assert.match(res.body, 'No route matches "/nowhere/at/all" with {:method=&gt;:get}');
  assert.match(res.body, '<code>/accounts/:id</code>');
  const refused = lines.filter((l) => l.msg === 'request refused');
  assert.is(refused.length, 1);
  assert.is(refused[0].level, 30);
  assert.is(refused[0].status, 404);
  assert.match(refused[0].message, '/nowhere/at/all');
});

test('a route to a controller the app has not registered: the routing page says where controllers are registered and names those there are', async () => {
  const { app, lines } = development({ draw: (map) => { map.resources('accounts', { only: ['show'] }); map.resources('notes'); } });
  const res = await call(app, 'GET /notes', LOCAL);
  assert.is(res.status, 404);
  assert.match(res.body, '<h1>Routing Error</h1>');
  assert.match(res.body, 'No controller "notes" for /notes: createApp({ controllers }) registers "accounts"');
  const refused = lines.filter((l) => l.msg === 'request refused');
  assert.is(refused.length, 1);
  assert.match(refused[0].message, 'createApp({ controllers }) registers "accounts"');
  const remote = await call(app, 'GET /notes', REMOTE);
  assert.is(remote.status, 404);
  assert.not.match(remote.body, 'createApp');
});

test('a method the path does not take: the routing page names the methods it does, with Allow', async () => {
  // Forgery protection refuses an unrouted POST first (no route is a way around it): off here to reach the route check.
  const { app } = development({ config: { allow_forgery_protection: false } });
  const res = await call(app, 'POST /accounts/1', LOCAL);
  assert.is(res.status, 405);
  assert.is(res.header('allow'), 'GET, PUT');
  assert.match(res.body, 'Only GET, PUT requests are allowed.');
});

test('an exception: class, controller#action, message, parameters and the session, escaped; the log has its stack at error', async () => {
  const { app, lines } = development();
  const res = await call(app, 'GET /accounts/7?password=hunter2', LOCAL);
  assert.is(res.status, 500);
  assert.match(res.body, '<h1>TypeError in AccountsController#show</h1>');
  assert.match(res.body, 'no account for 7');
  assert.match(res.body, 'development-pages.test.ts', 'the application trace reaches this file');
  assert.match(res.body, '"id": "7"');
  assert.match(res.body, '"password": "[FILTERED]"');
  assert.not.match(res.body, 'hunter2');
  assert.match(res.body, '"user_id": 42');
  assert.match(res.body, '&lt;b&gt;bold&lt;/b&gt;');
  const errored = lines.filter((l) => l.msg === 'request errored');
  assert.is(errored.length, 1);
  assert.is(errored[0].level, 50);
  assert.match(errored[0].err.stack, 'TypeError: no account for 7');
});

test('a forged form: the page says the authenticity token was invalid', async () => {
  const { app } = development();
  const res = await call(app, 'PUT /accounts/1', { ...LOCAL, headers: { ...LOCAL.headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'account[name]=x' });
  assert.is(res.status, 422);
  assert.match(res.body, '<h1>InvalidAuthenticityToken in AccountsController#update</h1>');
});

test('an unknown method is refused before the request is read, so even locally it gets the short page, with Allow', async () => {
  const { app } = development();
  const res = await call(app, 'BREW /accounts/1', LOCAL);
  assert.is(res.status, 501);
  assert.is(res.header('allow'), 'GET, HEAD, POST, PUT, DELETE, OPTIONS');
  assert.is(res.body, defaultErrorPage(501));
});

test('a request from elsewhere gets the public page, here the short default one: never a message, trace or parameter', async () => {
  const { app } = development({ config: { hosts: [], allow_forgery_protection: false } });
  for (const [line, status] of [['GET /nowhere', 404], ['POST /accounts/1', 405], ['GET /accounts/7?q=secret', 500], ['BREW /accounts/1', 501]] as const) {
    const res = await call(app, line, REMOTE);
    assert.is(res.status, status, line);
    assert.is(res.body, defaultErrorPage(status), line);
  }
  const { app: protectedApp } = development({ config: { hosts: [] } });
  const forged = await call(protectedApp, 'PUT /accounts/1', { ...REMOTE, headers: { ...REMOTE.headers, 'content-type': 'application/x-www-form-urlencoded' } });
  assert.is(forged.status, 422);
  assert.is(forged.body, defaultErrorPage(422));
});

test('the default page is short and names the status; defaultErrorPages: false gives Rails 2.1\'s single space', async () => {
  assert.is(defaultErrorPage(404), '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>404 Not Found</title></head>\n<body><h1>404 Not Found</h1></body>\n</html>\n');
  assert.match(defaultErrorPage(599), '599 Error');
  const { app } = development({ config: { hosts: [], defaultErrorPages: false } });
  assert.is((await call(app, 'GET /nowhere', REMOTE)).body, ' ');
});

test('nothing acceptable stays an empty 406, locally too, as Rails\' head :not_acceptable', async () => {
  class PagesController extends Controller {
    go(): void {
      this.respond_to({ json: () => this.render({ json: {} }) });
    }
  }
  const app = appWith({ pages: PagesController }, { environment: 'development', session: false });
  const res = await call(app, 'GET /pages/go', { ...LOCAL, headers: { ...LOCAL.headers, accept: 'text/html' } });
  assert.is(res.status, 406);
  assert.is(res.body, '');
});

test.run();
