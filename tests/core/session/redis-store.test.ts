/**
 * The Redis session store, over real HTTP against a real redis-server: the
 * cookie carries only an id this store issued, the data lives in Redis with
 * a TTL renewed on use, `reset_session` issues a new id and deletes the old
 * record, and when Redis cannot be reached a request that needs its session
 * is answered 503 with Retry-After: no session is lost, overwritten or
 * handed to someone else, and requests that need none are served as ever.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, redisSessionStore, SessionOverflow, SessionStoreUnavailable, type RedisSessionStore } from '../../../core/index.ts';
import { startRedis, type RedisServer } from '../../support/redis.ts';
import { gate, withApp, type Served } from '../../support/harness.ts';

const test = suite('redisSessionStore keeps sessions in Redis behind a random id');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class CountsController extends Controller {
  /** Counts this visitor's visits in the session. */
  index(): void {
    const n = Number(this.session.n ?? 0) + 1;
    this.session.n = n;
    this.render({ text: String(n) });
  }

  /** Reads the session without changing it. */
  show(): void {
    this.render({ text: String(this.session.n ?? 'none') });
  }

  /** Logs in: a new session (and id), as after any change of privilege. */
  create(): void {
    const n = this.session.n;
    this.reset_session();
    this.session.user = 'ada';
    this.session.n = n;
    this.render({ text: 'signed in' });
  }

  /** Keeps `mark` in the session, once the test opens the gate when `held` is given. */
  async edit(): Promise<void> {
    if (this.params.held !== undefined) {
      entered.open();
      await held.promise;
    }
    this.session[String(this.params.mark)] = true;
    this.render({ text: 'marked' });
  }

  /** Keeps `size` characters in the session. */
  update(): void {
    this.session.note = 'x'.repeat(Number(this.params.size));
    this.render({ text: 'noted' });
  }

  /** Empties the session. */
  destroy(): void {
    this.reset_session();
    this.render({ text: 'signed out' });
  }

  /** Never touches the session. */
  new(): void {
    this.render({ text: 'no session here' });
  }
}

/** `edit?held=1` opens `entered` once it runs (its session loaded), then waits for `held`. */
let held = gate();
let entered = gate();
let redis: RedisServer;
test.before(async () => {
  redis = await startRedis();
});
test.after(async () => {
  await redis?.stop();
});

async function withStore(options: Parameters<typeof redisSessionStore>[0], body: (s: Served, store: RedisSessionStore) => Promise<void>): Promise<void> {
  const store = redisSessionStore({ url: redis.url, key: '_app_session', ...options });
  try {
    await withApp({ counts: CountsController }, { session_store: store }, (s) => body(s, store));
  } finally {
    await store.close();
  }
}

function sessionCookie(headers: { 'set-cookie'?: string[] }): string | null {
  const cookie = (headers['set-cookie'] ?? []).find((c) => c.startsWith('_app_session='));
  return cookie === undefined ? null : cookie.split(';', 1)[0].slice('_app_session='.length);
}

test('the cookie holds only a random id; the data is in Redis under the namespace, with the ttl', async () => {
  await withStore({ ttl: 600 }, async (s) => {
    const first = await s.get('/counts');
    assert.is(first.body, '1');
    const id = sessionCookie(first.headers);
    assert.match(id ?? '', /^[0-9a-f]{32}$/);
    assert.match(first.headers['set-cookie']![0], /HttpOnly/i);
    assert.is(await redis.command('GET', `session:${id}`), '{"n":1}');
    const ttl = (await redis.command('PTTL', `session:${id}`)) as number;
    assert.ok(ttl > 590_000 && ttl <= 600_000, `ttl ${ttl}`);
    const second = await s.get('/counts', { cookie: `_app_session=${id}` });
    assert.is(second.body, '2');
    assert.is(sessionCookie(second.headers), null, 'the same id: no new cookie');
    assert.is((await s.get('/counts/1', { cookie: `_app_session=${id}` })).body, '2');
  });
});

test('a ttl that is no whole number of milliseconds (1.1 hours) is kept to the next one, and one past what Redis can say is refused', async () => {
  await withStore({ ttl: 1.1 * 3600 }, async (s) => {
    const answer = await s.get('/counts');
    assert.is(answer.status, 200);
    const ttl = (await redis.command('PTTL', `session:${sessionCookie(answer.headers)!}`)) as number;
    assert.ok(ttl > 3_950_000 && ttl <= 3_960_001, `ttl ${ttl}`);
  });
  assert.throws(() => redisSessionStore({ url: redis.url, ttl: 1e300 }), /ttl is more seconds than Redis can keep a key for/);
});

test('reading a session renews its ttl', async () => {
  await withStore({ ttl: 600 }, async (s) => {
    const id = sessionCookie((await s.get('/counts')).headers)!;
    await redis.command('PEXPIRE', `session:${id}`, '5000');
    await s.get('/counts/1', { cookie: `_app_session=${id}` });
    assert.ok(((await redis.command('PTTL', `session:${id}`)) as number) > 590_000);
  });
});

test('reset_session issues a new id and deletes the old record', async () => {
  await withStore({}, async (s) => {
    const old = sessionCookie((await s.get('/counts')).headers)!;
    const signedIn = await s.send('POST', '/counts', { cookie: `_app_session=${old}` });
    const id = sessionCookie(signedIn.headers)!;
    assert.ok(id !== old && /^[0-9a-f]{32}$/.test(id));
    assert.is(await redis.command('EXISTS', `session:${old}`), 0);
    assert.is(await redis.command('GET', `session:${id}`), '{"user":"ada","n":1}');
    assert.is((await s.get('/counts/1', { cookie: `_app_session=${old}` })).body, 'none', 'the old id leads nowhere');
    const out = await s.send('DELETE', '/counts/1', { cookie: `_app_session=${id}` });
    assert.match(out.headers['set-cookie']?.[0] ?? '', /^_app_session=;.*Expires=Thu, 01 Jan 1970/);
    assert.is(await redis.command('EXISTS', `session:${id}`), 0, 'an emptied session is deleted');
  });
});

test('an id the client made up, or one whose session expired, is never adopted: a session written for it gets a new id', async () => {
  await withStore({}, async (s) => {
    const chosen = 'a'.repeat(32);
    const answer = await s.get('/counts', { cookie: `_app_session=${chosen}` });
    assert.is(answer.body, '1');
    const id = sessionCookie(answer.headers)!;
    assert.ok(id !== chosen);
    assert.is(await redis.command('EXISTS', `session:${chosen}`), 0);
    for (const junk of ['../../etc', 'x'.repeat(5000), '']) {
      assert.is((await s.get('/counts/1', { cookie: `_app_session=${junk}` })).status, 200);
    }
  });
});

test('requests of different visitors, interleaved, never see each other\'s sessions', async () => {
  await withStore({}, async (s) => {
    const ids = await Promise.all(Array.from({ length: 5 }, async () => sessionCookie((await s.get('/counts')).headers)!));
    // Each visitor's requests one after another (two at once of one visitor race, last write wins, as in Rails); the visitors at once.
    const seen = await Promise.all(ids.map(async (id) => {
      const counts: string[] = [];
      for (let i = 0; i < 3; i++) counts.push((await s.get('/counts', { cookie: `_app_session=${id}` })).body);
      return counts;
    }));
    assert.equal(seen, ids.map(() => ['2', '3', '4']), 'each visitor counted only their own visits');
    for (const id of ids) assert.is((await s.get('/counts/1', { cookie: `_app_session=${id}` })).body, '4');
  });
});

test('Redis away: a request with a session answers 503 with Retry-After; one that needs no session is served; nothing is lost', async () => {
  await withStore({ read_timeout: 0.3, retryAfter: 7 }, async (s) => {
    const id = sessionCookie((await s.get('/counts')).headers)!;
    await redis.command('CLIENT', 'PAUSE', '1200', 'ALL');
    const started = performance.now();
    const refused = await s.get('/counts', { cookie: `_app_session=${id}` });
    assert.is(refused.status, 503);
    assert.is(refused.headers['retry-after'], '7');
    assert.ok(performance.now() - started < 1_000, `answered in ${Math.round(performance.now() - started)} ms`);
    assert.is((await s.get('/counts/new')).status, 200, 'no cookie, no session needed');
    assert.is((await s.get('/counts')).status, 503, 'a new session that cannot be kept is not pretended');
    assert.ok(s.lines.some((l) => l.msg === 'request refused' && l.code === 'SBX_ERR_SESSION_STORE_UNAVAILABLE' && l.status === 503), 'logged as the store being away');
    await sleep(1_300);
    assert.is((await s.get('/counts', { cookie: `_app_session=${id}` })).body, '2', 'the session was kept as it was');
  });
});

test('Redis killed under load: the outage is logged once and its end once; each request turned away gets one short line, never an error with its stack', async () => {
  await withStore({}, async (s) => {
    const id = sessionCookie((await s.get('/counts')).headers)!;
    await redis.kill();
    try {
      const statuses = await Promise.all(Array.from({ length: 60 }, () => s.get('/counts', { cookie: `_app_session=${id}` }).then((r) => r.status)));
      assert.ok(statuses.every((status) => status === 503), JSON.stringify(statuses));
    } finally {
      await redis.restart();
    }
    const deadline = performance.now() + 5_000;
    while ((await s.get('/counts', { cookie: `_app_session=${id}` })).status !== 200 && performance.now() < deadline) await sleep(50);
    assert.is(s.lines.filter((l) => String(l.msg).startsWith('Redis unreachable')).length, 1, 'one warning for the outage');
    assert.is(s.lines.filter((l) => l.msg === 'Redis reachable again').length, 1, 'one line for its end');
    assert.is(s.lines.filter((l) => l.msg === 'request errored').length, 0, 'no request logged as an error of the app');
    const turnedAway = s.lines.filter((l) => l.msg === 'request refused' && l.status === 503);
    assert.ok(turnedAway.length >= 60, `${turnedAway.length} lines for the requests turned away`);
    for (const line of turnedAway) {
      assert.is(line.code, 'SBX_ERR_SESSION_STORE_UNAVAILABLE');
      assert.is(line.err, undefined, 'no stack');
      assert.match(String(line.message), /^The session store \(redis:redis:\/\/127\.0\.0\.1:\d+\/0\/session\) is unavailable: Redis at /);
    }
  });
});

test('Redis gone while a session read is in flight: the 503 says the connection closed before Redis answered, not a client option to change', async () => {
  await withStore({ read_timeout: 10 }, async (s) => {
    const id = sessionCookie((await s.get('/counts')).headers)!;
    await redis.command('CLIENT', 'PAUSE', '5000', 'ALL');
    const answer = s.get('/counts', { cookie: `_app_session=${id}` });
    await sleep(200);
    await redis.kill();
    try {
      assert.is((await answer).status, 503);
    } finally {
      await redis.restart();
    }
    const refused = String(s.lines.find((l) => l.msg === 'request refused')?.message);
    assert.match(refused, /: the connection closed before Redis answered$/);
    for (const line of s.lines) assert.not.match(JSON.stringify(line), /maxRetriesPerRequest/);
  });
});

test('two requests of one visitor at once each write back the whole session they loaded: the last to finish wins', async () => {
  await withStore({}, async (s) => {
    const id = sessionCookie((await s.get('/counts')).headers)!;
    held = gate();
    entered = gate();
    const slow = s.get('/counts/1/edit?mark=first&held=1', { cookie: `_app_session=${id}` });
    // The first has loaded the session and waits in its action while the second runs whole.
    await entered.promise;
    assert.is((await s.get('/counts/1/edit?mark=second', { cookie: `_app_session=${id}` })).status, 200);
    assert.is(await redis.command('GET', `session:${id}`), '{"n":1,"second":true}');
    held.open();
    assert.is((await slow).status, 200);
    assert.is(await redis.command('GET', `session:${id}`), '{"n":1,"first":true}', 'the later write replaced the earlier, as in Rails');
  });
});

test('a session over maxBytes raises SessionOverflow (500) and is not written: the visitor keeps the session stored before', async () => {
  await withStore({ maxBytes: 10_000 }, async (s, store) => {
    assert.is(store.maxBytes, 10_000);
    const id = sessionCookie((await s.get('/counts')).headers)!;
    const refused = await s.send('PUT', '/counts/1?size=20000', { cookie: `_app_session=${id}` });
    assert.is(refused.status, 500);
    assert.is(sessionCookie(refused.headers), null);
    const logged = s.lines.find((l) => l.msg === 'request errored');
    assert.is((logged?.err as { type?: string } | undefined)?.type, 'SessionOverflow');
    assert.match(String((logged?.err as { message?: string } | undefined)?.message), /^Session of 20\d{3} bytes exceeds the store's 10000-byte limit/);
    assert.is(await redis.command('GET', `session:${id}`), '{"n":1}', 'the stored session is untouched');
    assert.is((await s.get('/counts/1', { cookie: `_app_session=${id}` })).body, '1');
    assert.is((await s.send('PUT', '/counts/1?size=5000', { cookie: `_app_session=${id}` })).status, 200, 'a session under the limit is kept');
    assert.is(((await redis.command('GET', `session:${id}`)) as string).length, '{"n":1,"note":""}'.length + 5000);
    // A new visitor's first session is bounded too, and gets no cookie for a session that was not kept.
    const fresh = await s.send('PUT', '/counts/1?size=20000');
    assert.is(fresh.status, 500);
    assert.is(sessionCookie(fresh.headers), null);
  });
});

test('the default maxBytes is 1 MiB', () => {
  const store = redisSessionStore({ url: redis.url });
  assert.is(store.maxBytes, 1024 * 1024);
  return store.close();
});

test('Redis holding its connections without answering: commands do not pile up behind the silence, and the session is served again once it answers', async () => {
  await withStore({ read_timeout: 0.3 }, async (s) => {
    const id = sessionCookie((await s.get('/counts')).headers)!;
    await redis.command('CONFIG', 'RESETSTAT');
    // Writes only (a session read renews its ttl, so it is one), so that UNPAUSE still gets through; far
    // longer than the requests below take.
    await redis.command('CLIENT', 'PAUSE', '60000', 'WRITE');
    let statuses: number[] = [];
    try {
      // Ten visitors' requests one after another: each may send a command only after the last was answered.
      const each = await Promise.all(Array.from({ length: 10 }, async () => {
        const seen: number[] = [];
        for (let i = 0; i < 20; i++) seen.push((await s.get('/counts', { cookie: `_app_session=${id}` })).status);
        return seen;
      }));
      statuses = each.flat();
    } finally {
      await redis.command('CLIENT', 'UNPAUSE');
    }
    assert.ok(statuses.every((status) => status === 503), `every request answered 503: ${JSON.stringify(statuses)}`);
    await sleep(300);
    // What was sent during the silence runs once Redis answers again: only the first commands, not one per request.
    const stats = String(await redis.command('INFO', 'commandstats'));
    const loads = Number(/cmdstat_getex:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    assert.ok(loads <= 50, `${loads} session reads were left queued for Redis, of ${statuses.length} requests`);
    const deadline = performance.now() + 10_000;
    let answer = await s.get('/counts/1', { cookie: `_app_session=${id}` });
    while (answer.status !== 200) {
      assert.ok(performance.now() < deadline, 'reconnected within 10 s');
      await sleep(100);
      answer = await s.get('/counts/1', { cookie: `_app_session=${id}` });
    }
    assert.is(answer.body, '1', 'the session was kept as it was');
  });
});

test('a Redis that takes the connection and never answers, from the start: a burst of requests each gets its 503, sharing one wait for the connection', async () => {
  // A TCP server that accepts and never answers: the handshake hangs, so the first connection never comes.
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning);
  };
  process.on('warning', onWarning);
  const store = redisSessionStore({ url: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}/0`, key: '_app_session', connect_timeout: 0.5, read_timeout: 0.5 });
  try {
    await withApp({ counts: CountsController }, { session_store: store }, async (s) => {
      const answers = await Promise.all(Array.from({ length: 40 }, () => s.get('/counts', { cookie: `_app_session=${'c'.repeat(32)}` })));
      assert.ok(answers.every((a) => a.status === 503 && a.headers['retry-after'] === '5'), JSON.stringify(answers.map((a) => a.status)));
      assert.is((await s.get('/counts/new')).status, 200);
    });
    // Warnings are emitted on the next tick.
    await sleep(50);
    assert.equal(warnings.map((w) => `${w.name}: ${w.message}`), [], 'no listener piled up per request');
  } finally {
    process.off('warning', onWarning);
    await store.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('Redis not running at all: 503 with Retry-After, at once', async () => {
  const store = redisSessionStore({ url: 'redis://127.0.0.1:1/0', key: '_app_session', connect_timeout: 0.3 });
  try {
    await withApp({ counts: CountsController }, { session_store: store }, async (s) => {
      const answer = await s.get('/counts', { cookie: `_app_session=${'b'.repeat(32)}` });
      assert.is(answer.status, 503);
      assert.is(answer.headers['retry-after'], '5');
      assert.is((await s.get('/counts/new')).status, 200);
    });
  } finally {
    await store.close();
  }
});

test('a URL naming a database Redis does not have: 503 saying so, and nothing written to database 0', async () => {
  await redis.command('FLUSHALL');
  const url = redis.url.replace(/\/0$/, '/99');
  const store = redisSessionStore({ url, key: '_app_session' });
  try {
    await withApp({ counts: CountsController }, { session_store: store }, async (s) => {
      const answer = await s.get('/counts');
      assert.is(answer.status, 503);
      assert.is((await s.get('/counts/new')).status, 200, 'no session, no Redis needed');
      const warning = s.lines.find((l) => l.msg === 'Redis unreachable: requests that carry a session answer 503 until it is back');
      assert.match(String(warning?.reason), 'the URL names database 99');
    });
  } finally {
    await store.close();
  }
  assert.is(await redis.command('DBSIZE'), 0, 'the session did not land in database 0');
});

test('Redis killed and restarted: sessions work again without a restart of the app', async () => {
  await withStore({}, async (s) => {
    await s.get('/counts');
    await redis.kill();
    assert.is((await s.get('/counts')).status, 503);
    await redis.restart();
    const deadline = performance.now() + 5_000;
    let answer = await s.get('/counts');
    while (answer.status !== 200) {
      assert.ok(performance.now() < deadline, 'reconnected within 5 s');
      await sleep(50);
      answer = await s.get('/counts');
    }
    assert.is(answer.body, '1');
  });
});

test('the overflow is a typed error with its code, from the one table', () => {
  const error = new SessionOverflow(2_000_000, 1_048_576);
  assert.is(error.code, 'SBX_ERR_SESSION_OVERFLOW');
  assert.is(error.status, 500);
  assert.is(error.size, 2_000_000);
  assert.is(error.expose, false);
});

test('the 503 is a typed error with its code, from the one table', () => {
  const error = new SessionStoreUnavailable('redis://x', 3);
  assert.is(error.code, 'SBX_ERR_SESSION_STORE_UNAVAILABLE');
  assert.is(error.status, 503);
  assert.is(error.retryAfter, 3);
  assert.is(error.expose, false);
});

test.run();
