/**
 * The messages the primary and its workers exchange over the cluster's IPC
 * channel. Every one carries `signalbox` (its kind), so an application's own
 * cluster messages pass by untouched. Internal to the transports.
 */
import { isRelayedExpiry, type RelayedExpiry } from '../core/caching/relay.ts';

export type ClusterMessage =
  /** Primary to worker: drain and exit. */
  | { readonly signalbox: 'shutdown' }
  /** Worker to primary: carry this expiry to every other worker; primary to worker: apply it. */
  | { readonly signalbox: 'expire'; readonly id: string; readonly expiry: RelayedExpiry }
  /** Worker to primary: applied. */
  | { readonly signalbox: 'expired'; readonly id: string }
  /** Primary to the worker that asked: every other worker has applied it (or could not be waited for). */
  | { readonly signalbox: 'expire-done'; readonly id: string }
  /** Worker to primary: its `serve()` failed (the app could not be built, the port could not be had), and why. */
  | { readonly signalbox: 'failed'; readonly message: string; readonly code: string | null };

/** Set in a worker's environment by the primary, so `serve()` there knows to serve rather than fork. */
export const WORKER_ENV = 'SIGNALBOX_WORKER';

/** The message, when it is one of ours and well formed; null otherwise. */
export function clusterMessage(value: unknown): ClusterMessage | null {
  if (value === null || typeof value !== 'object') return null;
  const m = value as Record<string, unknown>;
  switch (m.signalbox) {
    case 'shutdown':
      return { signalbox: 'shutdown' };
    case 'expire':
      return typeof m.id === 'string' && isRelayedExpiry(m.expiry) ? { signalbox: 'expire', id: m.id, expiry: m.expiry } : null;
    case 'expired':
    case 'expire-done':
      return typeof m.id === 'string' ? { signalbox: m.signalbox, id: m.id } : null;
    case 'failed':
      return typeof m.message === 'string' ? { signalbox: 'failed', message: m.message, code: typeof m.code === 'string' ? m.code : null } : null;
    default:
      return null;
  }
}
