/**
 * How one process's cache expiries reach the app's other processes. Under
 * `serve(app, { workers })` every worker has its own memory store and its
 * own renders under way; an expiry made in one worker is carried (as
 * cluster messages, by the transport) to every other, which applies it
 * with `Caching.applyRelayed`. The messages are plain data, so any channel
 * that carries JSON can relay them.
 */

/** An expiry as it travels: a page path, or the pattern of the cache entries removed. */
export type RelayedExpiry =
  | { readonly kind: 'page'; readonly path: string }
  | { readonly kind: 'entries'; readonly source: string; readonly flags: string };

export interface ExpiryRelay {
  /** Sends an expiry to every other process; settles once each has applied it (or could not be waited for longer). */
  publish(expiry: RelayedExpiry): Promise<void>;
}

/** Whether a message is a relayed expiry (what arrives from another process is checked, not trusted). */
export function isRelayedExpiry(value: unknown): value is RelayedExpiry {
  if (value === null || typeof value !== 'object') return false;
  const e = value as Record<string, unknown>;
  if (e.kind === 'page') return typeof e.path === 'string';
  return e.kind === 'entries' && typeof e.source === 'string' && typeof e.flags === 'string' && /^[dgimsuvy]*$/.test(e.flags);
}
