/**
 * `verify`: prerequisites on params, session, flash, method and xhr, and
 * what a failed one answers (the declared render or redirect, flash and
 * headers, else 400).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, memorySessionStore, type VerifyOptions } from '../../../core/index.ts';
import { appWith, call, form } from '../../support/harness.ts';

const test = suite('verify guards an action with prerequisites');

function guarded(options: VerifyOptions, extra: Parameters<typeof appWith>[1] = {}) {
  class PagesController extends Controller {
    static {
      this.verify({ ...options, only: ['guarded'] });
    }
    guarded(): void {
      this.render({ text: 'passed' });
    }
    open(): void {
      this.render({ text: `open ${String(this.flash.get('error') ?? '')}` });
    }
    login_url(): string {
      return '/sessions/new';
    }
    remember(): void {
      this.session.user = 'ann';
      this.flash.set('seen', 'yes');
      this.render({ text: 'remembered' });
    }
  }
  return appWith({ pages: PagesController }, extra);
}

test('missing params fail with 400 and an empty body by default', async () => {
  const app = guarded({ params: ['id', 'name'] });
  let res = await call(app, 'GET /pages/guarded?id=1');
  assert.is(res.status, 400);
  assert.is(res.body, '');
  res = await call(app, 'GET /pages/guarded?id=1&name=x');
  assert.is(res.body, 'passed');
  res = await call(app, 'GET /pages/open');
  assert.is(res.status, 200, 'other actions are not guarded');
});

test('a required method (one or several) refuses the others', async () => {
  const app = guarded({ method: 'post' });
  assert.is((await call(app, 'GET /pages/guarded')).status, 400);
  assert.is((await call(app, 'POST /pages/guarded')).body, 'passed');
  const either = guarded({ method: ['put', 'DELETE'] });
  assert.is((await call(either, 'PUT /pages/guarded')).body, 'passed');
  assert.is((await call(either, 'POST /pages/guarded', form({ _method: 'delete' }))).body, 'passed', 'the simulated method counts');
  assert.is((await call(either, 'POST /pages/guarded')).status, 400);
});

test('xhr: true requires X-Requested-With, xhr: false refuses it', async () => {
  const ajax = { 'x-requested-with': 'XMLHttpRequest' };
  assert.is((await call(guarded({ xhr: true }), 'GET /pages/guarded')).status, 400);
  assert.is((await call(guarded({ xhr: true }), 'GET /pages/guarded', { headers: ajax })).body, 'passed');
  assert.is((await call(guarded({ xhr: false }), 'GET /pages/guarded', { headers: ajax })).status, 400);
});

test('render and redirect_to say what a failure answers; add_headers adds headers', async () => {
  let res = await call(guarded({ params: 'id', render: { text: 'need an id', status: 'unprocessable_entity' }, add_headers: { 'X-Reason': 'no id' } }), 'GET /pages/guarded');
  assert.is(res.status, 422);
  assert.is(res.body, 'need an id');
  assert.is(res.header('x-reason'), 'no id');
  res = await call(guarded({ params: 'id', redirect_to: { action: 'open' } }), 'GET /pages/guarded');
  assert.is(res.header('location'), 'http://test.host/pages/open');
  res = await call(guarded({ params: 'id', redirect_to: '/elsewhere' }), 'GET /pages/guarded');
  assert.is(res.header('location'), 'http://test.host/elsewhere');
});

test('a redirect_to naming a controller method redirects to what it returns; back goes to the Referer', async () => {
  let res = await call(guarded({ params: 'id', redirect_to: 'login_url' }), 'GET /pages/guarded');
  assert.is(res.header('location'), 'http://test.host/sessions/new');
  res = await call(guarded({ params: 'id', redirect_to: 'back' }), 'GET /pages/guarded', { headers: { referer: 'http://test.host/from' } });
  assert.is(res.header('location'), 'http://test.host/from');
});

test('session and flash prerequisites read the session store; add_flash reaches the next request', async () => {
  const app = guarded({ session: 'user', flash: 'seen', redirect_to: { action: 'open' }, add_flash: { error: 'log in first' } }, { session_store: memorySessionStore() });
  const refused = await call(app, 'GET /pages/guarded');
  assert.is(refused.status, 302);
  const cookie = refused.header('set-cookie')!.split(';')[0];
  assert.is((await call(app, 'GET /pages/open', { headers: { cookie } })).body, 'open log in first');
  const remembered = await call(app, 'GET /pages/remember', { headers: { cookie } });
  const again = remembered.header('set-cookie')?.split(';')[0] ?? cookie;
  assert.is((await call(app, 'GET /pages/guarded', { headers: { cookie: again } })).body, 'passed', 'session key and flash key present');
  assert.is((await call(app, 'GET /pages/guarded', { headers: { cookie: again } })).status, 302, 'the flash was swept after one request');
});

test.run();
