/**
 * A worker of `serve(app, { workers: N })`: its server is an ordinary
 * `serve()` on the shared port; this wires it to the primary. The primary's
 * shutdown message drains the server (as SIGTERM would) and ends the
 * process, and so does the primary's going away; the app's cache expiries
 * go to the other workers through the primary, and theirs are applied here.
 * Internal to the transports.
 */
import cluster from 'node:cluster';
import type { App } from '../machines/app.ts';
import type { RelayedExpiry } from '../core/caching/relay.ts';
import { isThenable } from '../core/util.ts';
import { clusterMessage, type ClusterMessage } from './cluster-messages.ts';

/** How long an expiry waits for the primary to say every worker applied it, should the primary be slow. */
const RELAY_WAIT_MS = 3_000;

/**
 * Tells the primary why this worker's `serve()` failed, then rejects with the error: the primary's own
 * `serve()` rejects with the same message and `code` (`EADDRINUSE`, say), so the script that started the
 * cluster can say what went wrong as it would for one process. The rejection waits until the message is
 * written, since a script that exits on it would otherwise end the process with the message unsent.
 */
export function tellPrimary(error: unknown): Promise<never> {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const failed: ClusterMessage = { signalbox: 'failed', message, code: typeof code === 'string' ? code : null };
  return new Promise<never>((_, reject) => {
    if (!process.connected) return reject(error);
    try {
      process.send!(failed, undefined, undefined, () => reject(error));
    } catch {
      reject(error);
    }
  });
}

/** Connects a worker's running server and app to the primary. */
export function joinCluster(app: App, close: () => Promise<void>): void {
  const waiting = new Map<string, () => void>();
  let sequence = 0;
  const send = (message: ClusterMessage): void => {
    if (process.connected) process.send!(message);
  };
  // `?.`: transports also serve stand-in apps that have no caches.
  app.caching?.useRelay({
    publish(expiry: RelayedExpiry): Promise<void> {
      if (!process.connected) return Promise.resolve();
      const id = String(++sequence);
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => done(), RELAY_WAIT_MS);
        const done = (): void => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        };
        waiting.set(id, done);
        send({ signalbox: 'expire', id, expiry });
      });
    },
  });
  let stopping = false;
  const drain = (): void => {
    stopping = true;
    void close().then(() => app.close()).finally(() => process.exit(0));
  };
  // The channel closes without a shutdown when the primary is gone (killed, crashed, out of memory). Node's
  // cluster then exits the worker at once, cutting off the requests it is answering, unless
  // `exitedAfterDisconnect` is set: it is, and the worker drains instead, as at a shutdown, then exits, since
  // nothing would restart it or stop it any more. The listening socket closes with the drain, so a primary
  // started again can take the port. A drain under way when the primary goes goes on.
  cluster.worker?.once('disconnect', () => {
    cluster.worker!.exitedAfterDisconnect = true;
    if (stopping) return;
    app.log.warn('the primary is gone (its channel closed): draining, then exiting');
    drain();
  });
  process.on('message', (raw: unknown) => {
    const message = clusterMessage(raw);
    if (message === null) return;
    switch (message.signalbox) {
      case 'shutdown':
        if (stopping) return;
        app.log.info('shutting down at the primary\'s request');
        drain();
        return;
      case 'expire': {
        const acknowledge = (): void => send({ signalbox: 'expired', id: message.id });
        let applied;
        try {
          applied = app.caching.applyRelayed(message.expiry);
        } catch (error) {
          app.log.error({ err: error }, 'a relayed cache expiry failed');
        }
        if (isThenable(applied)) {
          void Promise.resolve(applied).then(acknowledge, (error: unknown) => {
            app.log.error({ err: error }, 'a relayed cache expiry failed');
            acknowledge();
          });
        } else acknowledge();
        return;
      }
      case 'expire-done':
        waiting.get(message.id)?.();
        return;
      default:
    }
  });
}
