/**
 * Every store a user builds by hand checks its options when it is made: an option it does not take is
 * an ArgumentError naming it (and the option most likely meant), where it would have left a default in
 * place without a word, and a size that is not a count is refused before it can leave a store unbounded.
 * No Redis is needed: nothing connects until a store is used.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, fileStore, memorySessionStore, memoryStore, redisCacheStore, redisSessionStore } from '../../core/index.ts';

const test = suite('stores check their options when they are made');

function refused(make: () => unknown, message: RegExp): void {
  assert.throws(make, (e: unknown) => e instanceof ArgumentError && message.test((e as Error).message), message.source);
}

test('an option a store does not take is refused by name, pointed at the one meant', () => {
  refused(() => memoryStore({ max_entries: 10 } as never), /^Unknown memoryStore option "max_entries" \(did you mean maxEntries\?\)$/);
  refused(() => fileStore('tmp/cache', { expires_in: 60 } as never), /^Unknown fileStore option "expires_in"$/);
  refused(() => memorySessionStore({ max_sessions: 5 } as never), /^Unknown memorySessionStore option "max_sessions" \(did you mean maxSessions\?\)$/);
  refused(() => redisCacheStore({ ulr: 'redis://127.0.0.1:6379/0' } as never), /^Unknown redisCacheStore option "ulr" \(did you mean url\?\)$/);
  refused(() => redisCacheStore({ expiresIn: 60 } as never), /^Unknown redisCacheStore option "expiresIn" \(did you mean expires_in\?\)$/);
  refused(() => redisSessionStore({ sameSite: 'lax' } as never), /^Unknown redisSessionStore option "sameSite" \(did you mean same_site\?\)$/);
});

test('options that are not an object, and a file store with no directory, are refused', () => {
  refused(() => memoryStore('big' as never), /memoryStore options must be an object, not string/);
  refused(() => redisSessionStore(5 as never), /redisSessionStore options must be an object/);
  for (const directory of [undefined, 5, '']) refused(() => fileStore(directory as never), /fileStore needs a directory path/);
});

test('a Redis session store whose maxBytes is not a count of bytes is refused: NaN or text would bound nothing', () => {
  for (const maxBytes of [Number.NaN, '100', 0, 1.5, Number.POSITIVE_INFINITY]) refused(() => redisSessionStore({ maxBytes } as never), /maxBytes must be a positive integer/);
});

test('Redis timeouts past Node\'s longest timer, and a retryAfter Retry-After cannot say, are refused: the timers would fire at once', () => {
  for (const make of [redisSessionStore, redisCacheStore]) {
    refused(() => make({ read_timeout: 3_000_000 }), /^read_timeout is at most 2147483.647 seconds \(the longest timer Node keeps\), not 3000000$/);
    refused(() => make({ connect_timeout: 1e9 }), /^connect_timeout is at most 2147483.647 seconds/);
  }
  refused(() => redisSessionStore({ retryAfter: 1e21 }), /^retryAfter is a number of seconds Retry-After can say, not 1e\+21$/);
});

test('a Redis url whose database is not a number, or that does not parse, is refused where the store is made, not by a process that crashes once it connects', async () => {
  for (const make of [redisSessionStore, redisCacheStore]) {
    refused(() => make({ url: 'redis://127.0.0.1:6379/abc' }), /^A Redis url names its database by number \(redis:\/\/host:6379\/0\), not "abc"$/);
    refused(() => make({ url: 'redis://127.0.0.1:6379/0?db=main' }), /names its database by number .*, not "main"$/);
    refused(() => make({ url: 'redis://127.0.0.1:6379/-1' }), /names its database by number .*, not "-1"$/);
    refused(() => make({ url: 'redis://:secret@127.0.0.1:99999/0' }), /^A Redis url is redis:\/\/\[user:password@\]host:port\/db, and "redis:\/\/:\*\*\*@127.0.0.1:99999\/0" does not parse as one$/);
  }
  // No database, or a number (one Redis does not have is refused by Redis, when connecting), is taken.
  const taken = ['redis://127.0.0.1:1', 'redis://127.0.0.1:1/', 'redis://127.0.0.1:1/15', 'rediss://user:pw@127.0.0.1:1/0?family=4'].map((url) => redisCacheStore({ url, connect_timeout: 0.1 }));
  await Promise.all(taken.map((store) => store.close()));
});

test('a memory session store whose maxSessions is not a count is refused: NaN or text would never evict', () => {
  for (const maxSessions of [Number.NaN, '100', 0, 1.5]) refused(() => memorySessionStore({ maxSessions } as never), /memorySessionStore maxSessions must be a positive integer/);
  refused(() => memorySessionStore({ key: '' }), /memorySessionStore key must be a cookie name/);
});

test('every option a store documents is taken', async () => {
  memoryStore({ maxEntries: 10, maxBytes: 1024, now: () => 0 });
  fileStore('tmp/cache', { now: () => 0 });
  memorySessionStore({ key: '_sid', maxSessions: 10, secure: true });
  const cache = redisCacheStore({ url: 'redis://127.0.0.1:1/0', connect_timeout: 0.1, read_timeout: 0.1, namespace: 'n', expires_in: 60, maxValueBytes: 1024 });
  const sessions = redisSessionStore({ url: 'redis://127.0.0.1:1/0', connect_timeout: 0.1, read_timeout: 0.1, key: 'k', ttl: 60, namespace: 'n', maxBytes: 4096, retryAfter: 5, httponly: true, secure: true, same_site: 'lax', path: '/', domain: 'example.com' });
  await Promise.all([cache.close(), sessions.close()]);
});

test.run();
