/**
 * Where sessions live between requests. A store loads a request's session
 * data and, after the action, writes it back through the response (a
 * cookie) and, for a store that keeps sessions by id, wherever it keeps
 * them. Session ids and data travel in cookies only.
 *
 * The interface is asynchronous in the maybe-promise way: `load` and
 * `commit` may answer with a promise (a networked store, Redis say), and
 * answer synchronously when they can, so the default cookie store costs a
 * request no promise hop. A synchronous store's session is loaded on first
 * use (a request that never touches it pays nothing); an `asynchronous`
 * store's is loaded before the action runs, since `this.session` is read
 * synchronously.
 */
import { randomBytes } from 'node:crypto';
import { serialize } from 'cookie';
import type { Logger } from 'pino';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import { ArgumentError } from '../errors.ts';
import { checkOptionNames } from '../options.ts';

export type SessionData = Record<string, unknown>;

/**
 * A value a session holds: what survives JSON, which every store but the in-process one writes
 * (a `Date` would come back a string, a class instance a plain hash).
 */
export type SessionValue = string | number | boolean | null | SessionValue[] | { [key: string]: SessionValue | undefined };

/** A session as a controller reads and writes it (`this.session.user_id = user.id`); an absent key reads `undefined`. */
export interface Session {
  [key: string]: SessionValue | undefined;
}

/**
 * Session data from stored JSON text, or null when the text is not a session (not JSON, or not an
 * object): a store reads that as no session. Rebuilt key by key, so a `__proto__` key stays an
 * ordinary (ignored) key.
 */
export function sessionFromJson(text: string): SessionData | null {
  try {
    const data: unknown = JSON.parse(text);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
    const out: SessionData = {};
    for (const [k, v] of Object.entries(data)) if (k !== '__proto__') out[k] = v;
    return out;
  } catch {
    return null;
  }
}

export interface SessionCommit {
  /** The data differs from what was loaded. */
  readonly changed: boolean;
  /** `reset_session` was called: the old session must not survive. */
  readonly reset: boolean;
}

/** A value now, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** How a session's cookie is written, the same for the cookie store and the Redis store. */
export interface SessionCookieOptions {
  /** Hide the cookie from scripts (default true). */
  readonly httponly?: boolean | undefined;
  /** Send the cookie over HTTPS only (default false). */
  readonly secure?: boolean | undefined;
  readonly same_site?: 'lax' | 'strict' | 'none' | false | undefined;
  readonly path?: string | undefined;
  readonly domain?: string | undefined;
}

export interface SessionStore {
  /**
   * The session data this request carries (an empty object when none or invalid). A promise only
   * from an `asynchronous` store; rejecting fails the request (a `SessionStoreUnavailable` is a 503).
   */
  load(request: Request): MaybePromise<SessionData>;
  /**
   * Persists `data` through `response` when it changed or was reset; writes nothing otherwise. A
   * promise from an asynchronous store: the response waits for it, and a rejection replaces the
   * response with the error's (the session is never dropped silently).
   */
  commit(request: Request, response: Response, data: SessionData, state: SessionCommit): MaybePromise<void>;
  /** The request's session id, for stores that keep sessions by id (cookie stores have none). */
  session_id?(request: Request): string | null;
  /** True when `load` may answer with a promise: the session is then loaded before the action runs. */
  readonly asynchronous?: boolean;
  /** Hands the store the app's logger when it has none of its own (`createApp` calls it). */
  useLogger?(log: Logger): void;
  /** Lets go of connections and timers; the store is not used afterwards. */
  close?(): MaybePromise<void>;
}

/** A store that always answers at once (the cookie and memory stores). */
export interface SyncSessionStore extends SessionStore {
  load(request: Request): SessionData;
  commit(request: Request, response: Response, data: SessionData, state: SessionCommit): void;
}

/** No sessions: every request starts empty and nothing is kept. */
export const NULL_SESSION_STORE: SyncSessionStore = Object.freeze({
  load: () => ({}),
  commit: () => {},
});

const MEMORY_SESSION_OPTIONS: ReadonlySet<string> = new Set(['key', 'maxSessions', 'secure']);

export interface MemoryStoreOptions {
  /** Cookie carrying the session id (default `_session_id`). */
  readonly key?: string | undefined;
  /** Most sessions kept; the least recently used go first. */
  readonly maxSessions?: number | undefined;
  readonly secure?: boolean | undefined;
}

/** Sessions kept in this process, found by a random id in a cookie: for development and tests. */
export function memorySessionStore(options: MemoryStoreOptions = {}): SyncSessionStore & { readonly sessions: Map<string, SessionData> } {
  checkOptionNames('memorySessionStore', options, MEMORY_SESSION_OPTIONS);
  const key = options.key ?? '_session_id';
  const max = options.maxSessions ?? 10_000;
  // A count that is not one (NaN, text) would compare false with every size and keep sessions without bound.
  if (!Number.isSafeInteger(max) || max < 1) throw new ArgumentError(`memorySessionStore maxSessions must be a positive integer, not ${String(max)}`);
  if (typeof key !== 'string' || key === '') throw new ArgumentError('memorySessionStore key must be a cookie name');
  const sessions = new Map<string, SessionData>();
  const idOf = (request: Request) => {
    const id = request.cookies[key];
    return typeof id === 'string' && /^[0-9a-f]{32}$/.test(id) ? id : null;
  };
  return {
    sessions,
    session_id: (request) => idOf(request),
    load(request) {
      const id = idOf(request);
      const data = id === null ? undefined : sessions.get(id);
      if (id !== null && data !== undefined) {
        // Refresh recency: the Map's insertion order is the eviction order.
        sessions.delete(id);
        sessions.set(id, data);
      }
      return data === undefined ? {} : structuredClone(data);
    },
    commit(request, response, data, state) {
      if (!state.changed && !state.reset) return;
      const presented = idOf(request);
      // Only ids this store issued are kept: adopting a client-chosen id would let an attacker fix a victim's session.
      let id = state.reset || presented === null || !sessions.has(presented) ? null : presented;
      if (state.reset && presented !== null) sessions.delete(presented);
      if (Object.keys(data).length === 0) {
        if (id !== null) sessions.delete(id);
        return;
      }
      id ??= randomBytes(16).toString('hex');
      sessions.set(id, structuredClone(data));
      while (sessions.size > max) sessions.delete(sessions.keys().next().value!);
      response.cookies.push(serialize(key, id, { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secure ?? false }));
    },
  };
}
