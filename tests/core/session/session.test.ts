/**
 * One request's session: loaded from the store only when first touched,
 * the flash swept into it, written back only when it changed or was reset,
 * and `reset_session` starting over. A recording store stands in for a
 * real one; the last tests run real requests against the memory store.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Request, Response, createMimeRegistry, memorySessionStore, type SessionCommit, type SessionData, type SessionStore } from '../../../core/index.ts';
import { SessionHandle } from '../../../core/session/session.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('a request session is lazy, committed once, and can be reset');

const mime = createMimeRegistry();
const aRequest = () => new Request({ method: 'GET', url: '/', headers: {} }, { mime });

/** A store that hands out `stored` and records what it is asked to do. */
function recordingStore(stored: SessionData = {}, id: string | null = null) {
  const calls = { loads: 0, commits: [] as { data: SessionData; state: SessionCommit }[] };
  const store: SessionStore = {
    load: () => {
      calls.loads++;
      return structuredClone(stored);
    },
    commit: (_req, _res, data, state) => {
      calls.commits.push({ data: structuredClone(data), state });
    },
    ...(id === null ? {} : { session_id: () => id }),
  };
  return { store, calls };
}

test('nothing is loaded or written for a request that never touches the session', () => {
  const { store, calls } = recordingStore({ user: 1 });
  const session = new SessionHandle(store, aRequest());
  assert.not.ok(session.loaded);
  session.commit(new Response());
  assert.is(calls.loads, 0);
  assert.equal(calls.commits, []);
});

test('the data loads once, on first use', () => {
  const { store, calls } = recordingStore({ user: 1 });
  const session = new SessionHandle(store, aRequest());
  assert.is(session.data.user, 1);
  assert.ok(session.loaded);
  session.data.user = 2;
  assert.is(session.data.user, 2);
  assert.is(calls.loads, 1);
});

test('commit tells the store whether the data changed', () => {
  const unchanged = recordingStore({ user: 1 });
  const a = new SessionHandle(unchanged.store, aRequest());
  void a.data;
  a.commit(new Response());
  assert.equal(unchanged.calls.commits, [{ data: { user: 1 }, state: { changed: false, reset: false } }]);
  const changed = recordingStore({ user: 1 });
  const b = new SessionHandle(changed.store, aRequest());
  b.data.cart = [1];
  b.commit(new Response());
  assert.equal(changed.calls.commits, [{ data: { user: 1, cart: [1] }, state: { changed: true, reset: false } }]);
});

test('the flash is restored from the session and swept into it on commit', () => {
  const { store, calls } = recordingStore({ flash: { notice: 'old' } });
  const session = new SessionHandle(store, aRequest());
  assert.is(session.flash.get('notice'), 'old');
  assert.is(session.flash, session.flash, 'one flash per request');
  session.flash.set('alert', 'new');
  session.commit(new Response());
  assert.equal(calls.commits[0], { data: { flash: { alert: 'new' } }, state: { changed: true, reset: false } });
});

test('reset empties the data and the flash and says so to the store', () => {
  const { store, calls } = recordingStore({ user: 1, flash: { notice: 'x' } });
  const session = new SessionHandle(store, aRequest());
  void session.flash;
  session.reset();
  assert.equal(session.data, {});
  assert.is(session.flash.get('notice'), undefined);
  session.data.fresh = true;
  session.commit(new Response());
  assert.equal(calls.commits[0], { data: { fresh: true }, state: { changed: true, reset: true } });
});

test('reset before the session was ever loaded still resets it', () => {
  const { store, calls } = recordingStore({ user: 1 });
  const session = new SessionHandle(store, aRequest());
  session.reset();
  session.commit(new Response());
  assert.is(calls.loads, 0);
  assert.equal(calls.commits[0].state, { changed: true, reset: true });
});

test('id is the store session id, or null for stores without ids', () => {
  assert.is(new SessionHandle(recordingStore({}, 'abc').store, aRequest()).id, 'abc');
  assert.is(new SessionHandle(recordingStore().store, aRequest()).id, null);
});

class CounterController extends Controller {
  count(): void {
    const n = Number(this.session.count ?? 0) + 1;
    this.session.count = n;
    this.render({ text: String(n) });
  }
  peek(): void {
    this.render({ text: String(this.session.count ?? 'none') });
  }
  logout(): void {
    this.reset_session();
    this.session.fresh = 'yes';
    this.render({ text: 'reset' });
  }
  wipe(): void {
    this.reset_session();
    this.render({ text: 'wiped' });
  }
}

const cookieOf = (setCookie: string | undefined) => setCookie?.split(';')[0] ?? '';

test('across requests: the cookie carries the session id and the data survives', async () => {
  const store = memorySessionStore();
  const app = appWith({ counter: CounterController }, { session_store: store });
  const first = await call(app, 'GET /counter/count');
  assert.is(first.body, '1');
  const cookie = cookieOf(first.header('set-cookie'));
  assert.match(cookie, /^_session_id=[0-9a-f]{32}$/);
  const second = await call(app, 'GET /counter/count', { headers: { cookie } });
  assert.is(second.body, '2');
  assert.is(cookieOf(second.header('set-cookie')), cookie, 'the same session keeps its id');
  const peek = await call(app, 'GET /counter/peek', { headers: { cookie } });
  assert.is(peek.body, '2');
  assert.is(peek.header('set-cookie'), undefined, 'an unchanged session writes no cookie');
  assert.is((await call(app, 'GET /counter/peek')).body, 'none', 'no cookie, no session');
});

test('reset_session drops the old session and starts one under a new id', async () => {
  const store = memorySessionStore();
  const app = appWith({ counter: CounterController }, { session_store: store });
  const cookie = cookieOf((await call(app, 'GET /counter/count')).header('set-cookie'));
  const reset = await call(app, 'GET /counter/logout', { headers: { cookie } });
  const fresh = cookieOf(reset.header('set-cookie'));
  assert.match(fresh, /^_session_id=[0-9a-f]{32}$/);
  assert.is.not(fresh, cookie);
  assert.is((await call(app, 'GET /counter/peek', { headers: { cookie } })).body, 'none', 'the old id is gone');
  assert.is(store.sessions.size, 1);
  await call(app, 'GET /counter/wipe', { headers: { cookie: fresh } });
  assert.is(store.sessions.size, 0, 'a reset that keeps nothing stores nothing');
});

test.run();
