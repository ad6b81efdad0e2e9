/**
 * The flash: values set now are seen on the next request and then swept;
 * `now` values never leave this request; `keep` and `discard` move values
 * between the two. Unit behaviour of `Flash`, then across real requests.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Flash, memorySessionStore } from '../../../core/index.ts';
import { appWith, call } from '../pipeline/support.ts';

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

test.run();
