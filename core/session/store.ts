/**
 * Where sessions live between requests. A store loads a request's session
 * data and, after the action, writes it back through the response (a
 * cookie) when it changed. Session ids and data travel in cookies only.
 */
import { randomBytes } from 'node:crypto';
import { serialize } from 'cookie';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';

export type SessionData = Record<string, unknown>;

export interface SessionCommit {
  /** The data differs from what was loaded. */
  readonly changed: boolean;
  /** `reset_session` was called: the old session must not survive. */
  readonly reset: boolean;
}

export interface SessionStore {
  /** The session data this request carries (an empty object when none or invalid). */
  load(request: Request): SessionData;
  /** Persists `data` through `response` when it changed or was reset; writes nothing otherwise. */
  commit(request: Request, response: Response, data: SessionData, state: SessionCommit): void;
  /** The request's session id, for stores that keep sessions by id (cookie stores have none). */
  session_id?(request: Request): string | null;
}

/** No sessions: every request starts empty and nothing is kept. */
export const NULL_SESSION_STORE: SessionStore = Object.freeze({
  load: () => ({}),
  commit: () => {},
});

export interface MemoryStoreOptions {
  /** Cookie carrying the session id (default `_session_id`). */
  readonly key?: string;
  /** Most sessions kept; the least recently used go first. */
  readonly maxSessions?: number;
  readonly secure?: boolean;
}

/** Sessions kept in this process, found by a random id in a cookie: for development and tests. */
export function memorySessionStore(options: MemoryStoreOptions = {}): SessionStore & { readonly sessions: Map<string, SessionData> } {
  const key = options.key ?? '_session_id';
  const max = options.maxSessions ?? 10_000;
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
