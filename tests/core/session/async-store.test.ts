/**
 * The session store interface is asynchronous in the maybe-promise way: a
 * store that says `asynchronous: true` may answer `load` and `commit` with
 * promises, and its session is loaded before the action runs (the forgery
 * check and filters read it synchronously) and committed before the
 * response goes; a store that answers a promise without saying so is told
 * how to fix it. The cookie store stays synchronous and lazy: a request that
 * never touches the session never loads it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, cookieSessionStore, type SessionData, type SessionStore } from '../../../core/index.ts';
import type { Request } from '../../../core/http/request.ts';
import { withApp } from '../../support/harness.ts';

const test = suite('session stores may answer with promises');

class VisitsController extends Controller {
  index(): void {
    this.session.visits = Number(this.session.visits ?? 0) + 1;
    this.render({ text: String(this.session.visits) });
  }

  new(): void {
    this.render({ text: 'untouched' });
  }
}

/** Sessions in a Map behind a delay, keyed by a cookie: an asynchronous store written against the public interface. */
function delayedStore(log: string[], asynchronous = true): SessionStore {
  const kept = new Map<string, SessionData>();
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5));
  return {
    asynchronous,
    load(request: Request) {
      log.push('load');
      const id = request.cookies.sid;
      return later(id !== undefined && kept.has(id) ? { ...kept.get(id)! } : {});
    },
    commit(request, response, data, state) {
      if (!state.changed) return;
      log.push('commit');
      const id = request.cookies.sid ?? 'only-visitor';
      return later(undefined).then(() => {
        kept.set(id, { ...data });
        response.cookies.push(`sid=${id}; Path=/`);
      });
    },
  };
}

test('an asynchronous store is loaded before the action and committed before the response', async () => {
  const log: string[] = [];
  await withApp({ visits: VisitsController }, { session_store: delayedStore(log) }, async (s) => {
    const first = await s.get('/visits');
    assert.is(first.body, '1');
    assert.equal(first.headers['set-cookie'], ['sid=only-visitor; Path=/']);
    assert.is((await s.get('/visits', { cookie: 'sid=only-visitor' })).body, '2');
    assert.equal(log, ['load', 'commit', 'load', 'commit']);
  });
});

test('a store that answers load with a promise without saying it is asynchronous fails with how to fix it', async () => {
  const log: string[] = [];
  await withApp({ visits: VisitsController }, { session_store: delayedStore(log, false), config: { consider_all_requests_local: true } }, async (s) => {
    const answer = await s.get('/visits', { 'x-forwarded-for': '' });
    assert.is(answer.status, 500);
    const line = s.lines.find((l) => l.msg === 'request errored');
    assert.match(String((line?.err as { message?: string })?.message), /declares asynchronous: true/);
  });
});

test('the cookie store is never loaded by a request that does not touch the session', async () => {
  let loads = 0;
  const store = cookieSessionStore({ key: '_s', secret: 'x'.repeat(32) });
  const counting: SessionStore = { ...store, load: (request) => { loads++; return store.load(request); } };
  await withApp({ visits: VisitsController }, { session_store: counting }, async (s) => {
    const cookie = (await s.get('/visits')).headers['set-cookie']![0].split(';')[0];
    assert.is(loads, 1);
    await s.get('/visits/new', { cookie });
    assert.is(loads, 1, 'untouched: not loaded');
    assert.is((await s.get('/visits', { cookie })).body, '2');
  });
});

test.run();
