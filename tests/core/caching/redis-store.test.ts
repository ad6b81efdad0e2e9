/**
 * The Redis cache store, against a real redis-server: the store contract,
 * keys under the namespace with Redis's own expiry, and failure as part of
 * the design: while Redis is killed or too slow, reads miss and writes are
 * skipped at once (never waiting past `read_timeout`), the outage is logged
 * once, the connection comes back by itself, and an expiry made meanwhile is
 * carried out before anything is read from the store again; writes a full
 * Redis refuses are skipped, and the refusal is logged once.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { redisCacheStore, type RedisCacheStore } from '../../../core/caching/index.ts';
import { globPrefix } from '../../../core/caching/redis-store.ts';
import { ArgumentError } from '../../../core/errors.ts';
import { startRedis, type RedisServer } from '../../support/redis.ts';
import { storeContract } from './store-contract.ts';

const test = suite('redisCacheStore keeps entries in Redis, and a Redis outage only makes the cache miss');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let redis: RedisServer;
const stores: RedisCacheStore[] = [];
let made = 0;

test.before(async () => {
  redis = await startRedis();
});

test.after(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
});

function logged(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const text of chunk.toString().split('\n')) if (text.trim()) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}

function store(options: Parameters<typeof redisCacheStore>[0] = {}): RedisCacheStore {
  const s = redisCacheStore({ url: redis.url, namespace: `test${++made}`, ...options });
  stores.push(s);
  return s;
}

storeContract(test, () => store());

test('entries live under <namespace>:<key>, as JSON, and expires_in is Redis\'s own expiry', async () => {
  const s = store({ namespace: 'app-one' });
  await s.write('views/a.com/posts/1.html', 'page', { expires_in: 60 });
  assert.is(await redis.command('GET', 'app-one:views/a.com/posts/1.html'), '"page"');
  const ttl = (await redis.command('PTTL', 'app-one:views/a.com/posts/1.html')) as number;
  assert.ok(ttl > 59_000 && ttl <= 60_000, `ttl ${ttl}`);
  await s.write('short', 'gone soon', { expires_in: 0.2 });
  assert.is(await s.read('short'), 'gone soon');
  await sleep(350);
  assert.is(await s.read('short'), undefined);
  const other = store({ namespace: 'app-two' });
  assert.is(await other.read('views/a.com/posts/1.html'), undefined, 'namespaces do not see each other');
  await other.clear();
  assert.is(await s.read('views/a.com/posts/1.html'), 'page', "clear empties its own namespace only");
});

test('a store-wide expires_in applies to writes that name none; a value over maxValueBytes is not written', async () => {
  const s = store({ expires_in: 30, maxValueBytes: 100 });
  await s.write('k', 'v');
  const ttl = (await redis.command('PTTL', `${s.namespace}:k`)) as number;
  assert.ok(ttl > 29_000 && ttl <= 30_000, `ttl ${ttl}`);
  assert.is(await s.write('big', 'x'.repeat(200)), false);
  assert.is(await s.exist('big'), false);
});

test('an expires_in of any size is written: one past what Redis\'s milliseconds can say keeps the entry with no expiry', async () => {
  const s = store();
  assert.ok(await s.write('odd', 'v', { expires_in: 1.0001 }));
  const ttl = (await redis.command('PTTL', `${s.namespace}:odd`)) as number;
  assert.ok(ttl > 900 && ttl <= 1_001, `ttl ${ttl}`);
  assert.ok(await s.write('forever', 'v', { expires_in: 1e300 }));
  assert.is(await redis.command('PTTL', `${s.namespace}:forever`), -1);
  assert.is(await s.read('forever'), 'v');
});

test('options are checked where the store is made', () => {
  const isArgumentError = (e: unknown) => e instanceof ArgumentError;
  assert.throws(() => redisCacheStore({ url: 'http://127.0.0.1' }), isArgumentError);
  assert.throws(() => redisCacheStore({ url: redis.url, namespace: '' }), isArgumentError);
  assert.throws(() => redisCacheStore({ url: redis.url, read_timeout: 0 }), isArgumentError);
  assert.throws(() => redisCacheStore({ url: redis.url, expires_in: -5 }), isArgumentError);
  assert.throws(() => redisCacheStore({ url: redis.url, maxValueBytes: 1.5 }), isArgumentError);
});

test('delete_matched visits only the keys an anchored pattern\'s literal start allows', () => {
  assert.is(globPrefix(/^views\/[^/]*\/posts\/1(?:\.[^/;]*|;accept=.*)?$/s), 'views/');
  assert.is(globPrefix(/^views\/example\.com\/posts/), 'views/example.com/posts');
  assert.is(globPrefix(/^views\/ab?c/), 'views/a', 'a quantified character is not certain');
  assert.is(globPrefix(/^views\/a|other/), '', 'an alternative at the top promises nothing');
  assert.is(globPrefix(/views/), '');
  assert.is(globPrefix(/^Views/i), '');
  assert.is(globPrefix('views/'), '');
});

test('Redis killed: reads miss and writes are skipped at once, one warning for the outage, and it comes back by itself', async () => {
  const { logger, lines } = logged();
  const s = store({ logger });
  await s.write('k', 'before');
  await redis.kill();
  const started = performance.now();
  for (let i = 0; i < 20; i++) {
    assert.is(await s.read('k'), undefined);
    assert.is(await s.write('k', 'during'), false);
    assert.is(await s.exist('k'), false);
  }
  assert.ok(performance.now() - started < 1_000, `60 operations took ${Math.round(performance.now() - started)} ms`);
  const warnings = lines.filter((l) => l.level === 40);
  assert.is(warnings.length, 1, JSON.stringify(warnings));
  assert.match(String(warnings[0].msg), /Redis unreachable: cache reads miss and writes are skipped/);
  await redis.restart();
  const deadline = performance.now() + 5_000;
  while (!(await s.write('k', 'after'))) {
    assert.ok(performance.now() < deadline, 'the store reconnected within 5 s');
    await sleep(50);
  }
  assert.is(await s.read('k'), 'after');
  assert.ok(lines.some((l) => l.msg === 'Redis reachable again'));
  assert.is(lines.filter((l) => l.level === 40).length, 1, 'still one warning');
});

test('Redis full at maxmemory with noeviction: writes are skipped and reads still hit, and the refusal is logged once, not per write', async () => {
  const { logger, lines } = logged();
  const s = store({ logger });
  assert.ok(await s.write('kept', 'before'));
  await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
  await redis.command('CONFIG', 'SET', 'maxmemory', '1');
  try {
    for (let i = 0; i < 20; i++) assert.is(await s.write(`new${i}`, 'refused'), false);
    assert.is(await s.read('kept'), 'before', 'reads are still answered');
  } finally {
    await redis.command('CONFIG', 'SET', 'maxmemory', '0');
  }
  const warnings = lines.filter((l) => l.level === 40);
  assert.is(warnings.length, 1, JSON.stringify(warnings));
  assert.is(warnings[0].msg, 'Redis refused a command (OOM): the cache goes on without what Redis refuses');
  assert.match(String(warnings[0].reason), /^OOM command not allowed/);
  assert.is(warnings[0].store, 'cache');
  assert.ok(await s.write('new0', 'accepted'), 'written again once Redis has room');
  assert.is(await s.read('new0'), 'accepted');
});

test('Redis too slow to answer: each command gives up at read_timeout, and an expiry made meanwhile is carried out before the next read', async () => {
  const s = store({ read_timeout: 0.2 });
  await s.write('views/x/posts/1', 'stale');
  await s.write('views/x/posts/2', 'kept');
  await redis.command('CLIENT', 'PAUSE', '800', 'ALL');
  const started = performance.now();
  assert.is(await s.delete_matched(/^views\/x\/posts\/1$/), 0, 'not reached now');
  assert.ok(performance.now() - started < 600, `gave up after ${Math.round(performance.now() - started)} ms`);
  assert.is(await s.read('views/x/posts/2'), undefined, 'nothing is read while an expiry is owed');
  await sleep(900);
  const deadline = performance.now() + 5_000;
  while ((await redis.command('EXISTS', `${s.namespace}:views/x/posts/1`)) !== 0) {
    await s.read('views/x/posts/2');
    assert.ok(performance.now() < deadline, 'the owed expiry was carried out');
    await sleep(50);
  }
  assert.is(await s.read('views/x/posts/2'), 'kept');
  assert.is(await s.read('views/x/posts/1'), undefined);
});

test('a Redis that never answered: the store starts anyway, and every read misses promptly', async () => {
  const { logger, lines } = logged();
  const s = redisCacheStore({ url: 'redis://127.0.0.1:1/0', logger, connect_timeout: 0.5 });
  stores.push(s);
  const started = performance.now();
  assert.is(await s.read('k'), undefined);
  assert.is(await s.write('k', 'v'), false);
  assert.ok(performance.now() - started < 1_500, `${Math.round(performance.now() - started)} ms`);
  assert.is(lines.filter((l) => l.level === 40).length, 1);
});

test.run();
