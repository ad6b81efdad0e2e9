/**
 * Sessions in Redis (Rails 2.1's `:mem_cache_store` role): the cookie
 * carries only a random session id; the data lives in Redis under
 * `<namespace>:<id>`, as JSON, for `ttl` seconds after it was last used
 * (every load renews it). Every worker and machine that names the same
 * Redis shares the sessions.
 *
 * Only ids this store issued are used: an id the client chose, or one whose
 * session has expired or was reset, reads as an empty session, and a
 * session written for it gets a new id (a visitor's session can never be
 * fixed by a link someone else made). `reset_session` issues a new id and
 * deletes the old record. A session emptied is deleted, and so is its cookie.
 * A session over `maxBytes` of JSON raises `SessionOverflow` and is not
 * written (the record stays as it was), as a cookie session over 4 KB raises
 * `CookieOverflow`.
 *
 * Failure is never silent. When Redis cannot be reached (or does not answer
 * within `read_timeout`), a request that carries a session id gets a 503
 * with `Retry-After` (`SessionStoreUnavailable`) instead of running with an
 * empty session: the visitor is neither logged out nor handed a fresh
 * session that would overwrite theirs later. A request without a session
 * cookie needs no Redis until it stores something, so such pages are
 * served as ever; one that does store something while Redis is away also
 * gets the 503, rather than a session that was never kept.
 *
 * @example
 *   createApp({ routes, controllers, session_store: redisSessionStore({ url: process.env.REDIS_URL, key: '_blog_session' }) })
 */
import { randomBytes } from 'node:crypto';
import { serialize } from 'cookie';
import type { Logger } from 'pino';
import { ArgumentError, SessionOverflow, SessionStoreUnavailable } from '../errors.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import { REDIS_CONNECTION_OPTIONS, RedisConnection, type RedisClient, type RedisConnectionOptions } from '../redis/connection.ts';
import { checkOptionNames } from '../options.ts';
import { sessionFromJson, type SessionCommit, type SessionCookieOptions, type SessionData, type SessionStore } from './store.ts';

export interface RedisSessionStoreOptions extends RedisConnectionOptions, SessionCookieOptions {
  /** The cookie carrying the session id (Rails' session key). Default `_session_id`. */
  readonly key?: string | undefined;
  /** Seconds a session lasts after it was last used (default two weeks). */
  readonly ttl?: number | undefined;
  /** Prefix of every Redis key (`<namespace>:<id>`). Default `session`. */
  readonly namespace?: string | undefined;
  /**
   * Largest session kept, in bytes of its JSON (default 1 MiB, memcached's limit, which bounded Rails'
   * `:mem_cache_store`); a larger one raises `SessionOverflow` (500) and is not written.
   */
  readonly maxBytes?: number | undefined;
  /** Seconds a 503 asks clients to wait before trying again (default 5). */
  readonly retryAfter?: number | undefined;
}

const ID = /^[0-9a-f]{32}$/;
const TWO_WEEKS = 14 * 24 * 3600;

/** What one request's cookie turned out to be. */
interface Seen {
  /** The id presented, when it is one this store keeps a session under; null otherwise. */
  readonly id: string | null;
  /** Whether the request presented a session cookie at all (so commit knows to delete a stale one). */
  readonly present: boolean;
}

export class RedisSessionStore implements SessionStore {
  readonly asynchronous = true;
  readonly key: string;
  readonly ttl: number;
  readonly namespace: string;
  readonly maxBytes: number;
  readonly #connection: RedisConnection;
  readonly #options: RedisSessionStoreOptions;
  readonly #retryAfter: number;
  readonly #ttlMs: number;
  readonly #seen = new WeakMap<Request, Seen>();

  constructor(options: RedisSessionStoreOptions = {}) {
    this.key = options.key ?? '_session_id';
    if (typeof this.key !== 'string' || this.key.trim() === '') throw new ArgumentError('A session cookie needs a key (its name)');
    this.ttl = positive('ttl', options.ttl, TWO_WEEKS);
    // Redis takes whole milliseconds: `1.1 * 3600` seconds is 3960000.0000000005 of them, which it refuses
    // (every session write would answer 503).
    this.#ttlMs = Math.ceil(this.ttl * 1000);
    if (!Number.isSafeInteger(this.#ttlMs)) throw new ArgumentError(`ttl is more seconds than Redis can keep a key for, not ${String(this.ttl)}`);
    this.#retryAfter = Math.ceil(positive('retryAfter', options.retryAfter, 5));
    // Retry-After is digits: 1e21 would be written "1e+21".
    if (!Number.isSafeInteger(this.#retryAfter)) throw new ArgumentError(`retryAfter is a number of seconds Retry-After can say, not ${String(options.retryAfter)}`);
    const maxBytes = options.maxBytes ?? 1024 * 1024;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new ArgumentError(`maxBytes must be a positive integer, not ${String(maxBytes)}`);
    this.maxBytes = maxBytes;
    this.namespace = options.namespace ?? 'session';
    if (typeof this.namespace !== 'string' || this.namespace === '') throw new ArgumentError('A Redis session namespace is a non-empty string');
    this.#options = options;
    this.#connection = new RedisConnection(options, { role: 'session', meanwhile: 'requests that carry a session answer 503', refused: 'requests whose session needs it answer 503' });
  }

  get name(): string {
    return `redis:${this.#connection.url}/${this.namespace}`;
  }

  useLogger(log: Logger): void {
    this.#connection.useLogger(log);
  }

  session_id(request: Request): string | null {
    return this.#seen.get(request)?.id ?? null;
  }

  /** An empty session at once for a request without a usable id; otherwise the record, renewed for another `ttl`. */
  load(request: Request): SessionData | Promise<SessionData> {
    const presented = request.cookies[this.key];
    const id = typeof presented === 'string' && ID.test(presented) ? presented : null;
    if (id === null) {
      this.#seen.set(request, { id: null, present: presented !== undefined });
      return {};
    }
    return this.#run((client) => client.getex(this.#redisKey(id), 'PX', this.#ttlMs)).then((text) => {
      const data = text === null ? null : sessionFromJson(text);
      this.#seen.set(request, { id: data === null ? null : id, present: true });
      return data ?? {};
    });
  }

  commit(request: Request, response: Response, data: SessionData, state: SessionCommit): void | Promise<void> {
    const seen = this.#seen.get(request) ?? { id: null, present: request.cookies[this.key] !== undefined };
    const empty = Object.keys(data).length === 0;
    if (!state.changed && !state.reset) return;
    const old = seen.id;
    if (empty) {
      if (!seen.present) return;
      response.cookies.push(this.#cookie('', true));
      if (old === null) return;
      return this.#run((client) => client.del(this.#redisKey(old))).then(() => undefined);
    }
    // A reset session, or one that had no record of ours, gets a new id; the old record goes.
    const id = state.reset || old === null ? randomBytes(16).toString('hex') : old;
    const text = JSON.stringify(data);
    // Every later request of this visitor would carry it to and from Redis, and a value big enough to outlast
    // read_timeout would hold up the other requests sharing the connection.
    const size = Buffer.byteLength(text);
    if (size > this.maxBytes) return Promise.reject(new SessionOverflow(size, this.maxBytes));
    return this.#run(async (client) => {
      await client.set(this.#redisKey(id), text, 'PX', this.#ttlMs);
      if (old !== null && old !== id) await client.del(this.#redisKey(old));
    }).then(() => {
      if (id !== old) response.cookies.push(this.#cookie(id, false));
    });
  }

  close(): Promise<void> {
    return this.#connection.close();
  }

  #redisKey(id: string): string {
    return `${this.namespace}:${id}`;
  }

  #run<T>(command: (client: RedisClient) => Promise<T>): Promise<T> {
    return this.#connection.run(command).catch((error: unknown) => {
      throw new SessionStoreUnavailable(this.name, this.#retryAfter, error);
    });
  }

  #cookie(value: string, deletion: boolean): string {
    const o = this.#options;
    return serialize(this.key, value, {
      path: o.path ?? '/',
      httpOnly: o.httponly ?? true,
      secure: o.secure ?? false,
      ...(o.same_site === false ? {} : { sameSite: o.same_site ?? 'lax' }),
      ...(o.domain ? { domain: o.domain } : {}),
      ...(deletion ? { expires: new Date(0) } : {}),
    });
  }
}

/** A Redis session store (ioredis must be installed). */
export function redisSessionStore(options: RedisSessionStoreOptions = {}): RedisSessionStore {
  checkOptionNames('redisSessionStore', options, REDIS_SESSION_OPTIONS);
  return new RedisSessionStore(options);
}

const REDIS_SESSION_OPTIONS: ReadonlySet<string> = new Set([...REDIS_CONNECTION_OPTIONS, 'key', 'ttl', 'namespace', 'maxBytes', 'retryAfter', 'httponly', 'secure', 'same_site', 'path', 'domain']);

function positive(name: string, given: number | undefined, fallback: number): number {
  if (given === undefined) return fallback;
  if (typeof given !== 'number' || !(given > 0) || !Number.isFinite(given)) throw new ArgumentError(`${name} is a positive number of seconds, not ${String(given)}`);
  return given;
}
