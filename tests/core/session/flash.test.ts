/**
 * The flash: values set now are seen on the next request and then swept;
 * `now` values never leave this request; `keep` and `discard` move values
 * between the two. Unit behaviour of `Flash`, then across real requests.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Flash, html, memorySessionStore, memoryViews } from '../../../core/index.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('the flash lives for exactly one more request');

test('a fresh flash is empty; set values are read back and kept for the next request', () => {
  const session: Record<string, unknown> = {};
  const flash = new Flash(session);
  assert.ok(flash.empty);
  flash.set('notice', 'Saved');
  flash.update({ alert: 'Careful', count: 2 });
  assert.is(flash.get('notice'), 'Saved');
  assert.not.ok(flash.empty);
  flash.sweep(session);
  assert.equal(session.flash, { notice: 'Saved', alert: 'Careful', count: 2 });
});

test('restored values are shown once and then dropped; keep saves them for one more request', () => {
  const session: Record<string, unknown> = { flash: { notice: 'from last time', other: 'x' } };
  const flash = new Flash(session);
  assert.is(flash.get('notice'), 'from last time');
  assert.equal(flash.toJSON(), { notice: 'from last time', other: 'x' });
  flash.keep('notice');
  flash.sweep(session);
  assert.equal(session.flash, { notice: 'from last time' });
  const next = new Flash(session);
  next.keep();
  next.sweep(session);
  assert.equal(session.flash, { notice: 'from last time' }, 'keep() with no key keeps everything');
  new Flash(session).sweep(session);
  assert.not.ok('flash' in session, 'nothing left: the key goes');
});

test('now sets a value for this request only, even over one set for the next', () => {
  const session: Record<string, unknown> = {};
  const flash = new Flash(session);
  flash.set('notice', 'later');
  flash.now('notice', 'only now');
  assert.is(flash.get('notice'), 'only now');
  flash.sweep(session);
  assert.not.ok('flash' in session);
});

test('discard drops a key (or every key) from the next request', () => {
  const session: Record<string, unknown> = {};
  const flash = new Flash(session);
  flash.set('a', 1);
  flash.set('b', 2);
  flash.discard('a');
  flash.sweep(session);
  assert.equal(session.flash, { b: 2 });
  const all = new Flash({});
  all.set('a', 1);
  all.discard();
  const out: Record<string, unknown> = {};
  all.sweep(out);
  assert.equal(out, {});
});

test('a stored flash that is not an object is ignored', () => {
  for (const stored of ['text', ['a'], null, 3]) assert.ok(new Flash({ flash: stored }).empty, String(stored));
});

test('a stored key named like a prototype property stays a plain value', () => {
  const flash = new Flash({ flash: JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c"}') });
  assert.is(flash.get('constructor'), 'c');
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test('across requests: set + redirect shows the message once; flash.now never reaches the next request', async () => {
  class PostsController extends Controller {
    create(): void {
      this.flash.set('notice', 'Post was created');
      this.flash.now('alert', 'only on this page');
      this.redirect_to({ action: 'index' });
    }
    index(): void {
      this.render({ text: `notice=${String(this.flash.get('notice') ?? '')} alert=${String(this.flash.get('alert') ?? '')}` });
    }
  }
  const app = appWith({ posts: PostsController }, { session_store: memorySessionStore() });
  const created = await call(app, 'POST /posts/create');
  const cookie = created.header('set-cookie')!.split(';')[0];
  assert.is((await call(app, 'GET /posts/index', { headers: { cookie } })).body, 'notice=Post was created alert=');
  assert.is((await call(app, 'GET /posts/index', { headers: { cookie } })).body, 'notice= alert=');
});

test('a message reads and sets like a property, as Rails\' flash[:notice]: flash.notice = … is flash.set(\'notice\', …)', () => {
  const session: Record<string, unknown> = { flash: { alert: 'from last time' } };
  const flash = new Flash(session);
  assert.is(flash.alert, 'from last time');
  assert.is(flash['missing'], undefined);
  assert.ok('alert' in flash);
  assert.not.ok('missing' in flash);
  flash.notice = 'Saved';
  flash['warning'] = 'Careful';
  assert.is(flash.get('notice'), 'Saved');
  assert.is(flash.notice, 'Saved');
  assert.not.ok(flash.empty);
  flash.sweep(session);
  assert.equal(session.flash, { notice: 'Saved', warning: 'Careful' }, 'kept for the next request like set(); the restored alert is swept');
});

test('the flash\'s own members cannot be overwritten as messages: the error says to use set()', () => {
  const flash = new Flash({});
  for (const member of ['now', 'keep', 'set', 'empty']) {
    assert.throws(() => { (flash as Record<string, unknown>)[member] = 'x'; }, new RegExp(`^flash\\.${member} is the flash's own (method|property), not a message: use flash\\.set\\("${member}", …\\)$`), member);
  }
  flash.set('now', 'a message named like a method');
  assert.is(flash.get('now'), 'a message named like a method');
  assert.is(typeof flash.now, 'function');
});

test('across requests: flash.notice set before a redirect is what the next page\'s template reads as v.flash.notice', async () => {
  class PostsController extends Controller {
    create(): void {
      this.flash.notice = 'Post was created';
      this.redirect_to({ action: 'index' });
    }
    index(): void {}
  }
  const app = appWith({ posts: PostsController }, {
    session_store: memorySessionStore(),
    views: memoryViews({ 'posts/index.html': (v) => html`<p>${v.flash.notice}</p>` }),
  });
  const created = await call(app, 'POST /posts/create');
  const cookie = created.header('set-cookie')!.split(';')[0];
  assert.is((await call(app, 'GET /posts/index', { headers: { cookie } })).body, '<p>Post was created</p>');
  assert.is((await call(app, 'GET /posts/index', { headers: { cookie } })).body, '<p></p>');
});

test.run();
