/**
 * The primary of `serve(app, { workers: N })`: it forks N workers with
 * `node:cluster` (each runs the same script, and its `serve()` builds the
 * app and listens; the primary hands them connections on the shared port),
 * keeps N running, relays cache expiries between them, and shuts them all
 * down together. The primary never builds the app.
 *
 * - A worker that dies is replaced, and the log says which, how it ended
 *   (exit code or signal) and when the next starts. One that dies soon after
 *   starting (under 10 s) is replaced after a back-off that doubles with each
 *   such death in a row (0.1 s up to 30 s), so a crash at start-up does not
 *   spin. If one of the first workers dies before it has listened, `serve()`
 *   rejects: the app cannot start. When the worker's own `serve()` failed (the
 *   app could not be built, the port was taken), the primary's rejects with
 *   its message and `code`.
 * - `reload()` (and SIGHUP with `handleSignals`) replaces the workers one at
 *   a time, each by a new one that loads the application afresh: the old one
 *   drains only once its replacement listens, so the cluster keeps serving
 *   and no request is lost. A replacement that fails to start (its app does
 *   not build, or it has not listened within `RELOAD_START_MS`) ends the
 *   reload: the workers running keep serving, and the log and the rejection
 *   say why.
 * - `close()` (and SIGTERM/SIGINT with `handleSignals`) gives every worker
 *   the drain of `shutdownTimeoutMs` (transport/http.ts); the primary resolves
 *   once all have exited, or at that deadline plus a second, when any worker
 *   left is killed. A second signal kills the workers and exits at once.
 * - A primary that dies without a shutdown leaves its workers to drain as at
 *   one and exit (transport/worker.ts), not to end at once with their
 *   requests, as Node's cluster would have them.
 * - Workers accept connections from the shared socket themselves (the
 *   cluster's SCHED_NONE policy) rather than being handed them by the
 *   primary (round-robin): a worker that dies then takes with it only the
 *   connections it had accepted, which its clients see reset at once, where
 *   a connection in transit to it under round-robin would hang unanswered.
 *   `NODE_CLUSTER_SCHED_POLICY=rr` in the environment chooses round-robin.
 * - An expiry made in one worker (`expire_action`, `expire_fragment`,
 *   `expire_page`) is sent to every other, and the worker that made it hears
 *   back once all have applied it (at most 2 s later).
 */
import cluster, { type Worker } from 'node:cluster';
import { realpathSync } from 'node:fs';
import { handleStopSignals } from './stop-signals.ts';
import type { Logger } from 'pino';
import { defaultLogger } from '../machines/terminal-log.ts';
import { ArgumentError } from '../core/errors.ts';
import { clusterMessage, WORKER_ENV, type ClusterMessage } from './cluster-messages.ts';

export interface RunningCluster {
  readonly role: 'primary';
  readonly port: number;
  readonly host: string;
  readonly url: string;
  /** The process ids of the workers running now. */
  workerPids(): number[];
  /**
   * Replaces every worker, one at a time, by one that loads the application afresh (a deploy's new code),
   * draining each old worker once its replacement listens. Resolves once all are replaced; rejects, with the
   * replacement's own reason, when one cannot start, leaving the workers running to serve. A reload asked
   * for during one runs once that one ends (all asked meanwhile share it). SIGHUP asks for it when
   * `handleSignals` is on.
   */
  reload(): Promise<void>;
  /** Drains every worker and resolves once all have exited (or were killed at the deadline). */
  close(): Promise<void>;
}

export interface ClusterSettings {
  readonly count: number;
  readonly host: string;
  readonly shutdownMs: number;
  readonly handleSignals: boolean;
}

/** A worker that lived less than this died "soon": the next is started after a back-off. */
const MIN_UPTIME_MS = 10_000;
const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 30_000;
/** How long an expiry waits for the other workers' acknowledgements. */
const RELAY_WAIT_MS = 2_000;
/** After the workers' own shutdown deadline, how long the primary still waits before killing them. */
const EXIT_GRACE_MS = 1_000;
/** How long a reload waits for a replacement to listen before it gives up on it (and the reload). */
export const RELOAD_START_MS = 60_000;

/**
 * `WEB_CONCURRENCY` (the convention of Puma and of hosting platforms): how many workers to run.
 * Unset or empty is 1; anything but a positive integer is an error.
 * @example serve(() => createApp(...), { workers: webConcurrency() })
 */
export function webConcurrency(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = env.WEB_CONCURRENCY;
  if (value === undefined || value.trim() === '') return 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1024) throw new ArgumentError(`WEB_CONCURRENCY must be a positive integer, not ${JSON.stringify(value)}`);
  return n;
}

/** The primary's own log: pino's base fields (pid, hostname) and `role: "primary"`; a worker it speaks of is `worker_pid`. */
function primaryLogger(): Logger {
  return defaultLogger(process.env.NODE_ENV ?? 'development').child({ role: 'primary' });
}

interface Slot {
  readonly index: number;
  worker: Worker | null;
  startedAt: number;
  /** Deaths soon after starting, in a row. */
  quickDeaths: number;
  restart: NodeJS.Timeout | null;
}

interface Relay {
  readonly from: Worker;
  readonly id: string;
  readonly waiting: Set<number>;
  readonly timer: NodeJS.Timeout;
}

export function servePrimary(settings: ClusterSettings, log: Logger = primaryLogger()): Promise<RunningCluster> {
  const slots: Slot[] = Array.from({ length: settings.count }, (_, index) => ({ index, worker: null, startedAt: 0, quickDeaths: 0, restart: null }));
  /** Workers a reload replaced, draining. */
  const retiring = new Set<Worker>();
  /** What a reload's replacement waits on: its listening, or its end before it listened. */
  const replacing = new Map<Worker, { listened(): void; failed(why: Error): void }>();
  let reloading: Promise<void> | null = null;
  /** The reload asked for while one ran, to run once it ends. */
  let followUp: Promise<void> | null = null;
  const listening = new Set<number>();
  /** Workers that have listened at some time (a death after that is no failure to start). */
  const heard = new Set<number>();
  const relays = new Map<string, Relay>();
  /** Why a worker's `serve()` failed, as it said before exiting, by worker id. */
  const failures = new Map<number, { readonly message: string; readonly code: string | null }>();
  let port = 0;
  let everListened = false;
  let closing: Promise<void> | null = null;
  let allExited: (() => void) | null = null;

  const live = (): Worker[] => slots.flatMap((s) => (s.worker !== null && !s.worker.isDead() ? [s.worker] : []));
  /** Every worker process there is: serving, starting in a reload, or draining after one. */
  const everyWorker = (): Worker[] => [...live(), ...replacing.keys(), ...retiring];

  const fork = (slot: Slot): Worker => {
    const worker = cluster.fork({ [WORKER_ENV]: '1', SIGNALBOX_WORKER_INDEX: String(slot.index) });
    worker.on('message', (message: unknown) => onMessage(worker, message));
    // The IPC channel may close under a message being sent; the exit that follows says what happened.
    worker.on('error', (error: Error) => log.warn({ err: error, worker_pid: worker.process.pid }, 'worker channel error'));
    if (closing !== null) send(worker, { signalbox: 'shutdown' });
    return worker;
  };

  const start = (slot: Slot): void => {
    slot.restart = null;
    slot.startedAt = performance.now();
    slot.worker = fork(slot);
  };

  /** Starts a worker to take `slot`'s place; once it listens, the one it replaces drains. Rejects if it cannot start. */
  const replace = (slot: Slot): Promise<void> => new Promise<void>((resolve, reject) => {
    const worker = fork(slot);
    const timer = setTimeout(() => {
      failed(new Error(`A worker did not listen within ${RELOAD_START_MS / 1000} s of starting`));
      worker.process.kill('SIGKILL');
    }, RELOAD_START_MS);
    const failed = (why: Error): void => {
      clearTimeout(timer);
      replacing.delete(worker);
      reject(why);
    };
    replacing.set(worker, {
      listened() {
        clearTimeout(timer);
        replacing.delete(worker);
        const old = slot.worker;
        slot.worker = worker;
        slot.startedAt = performance.now();
        slot.quickDeaths = 0;
        if (slot.restart !== null) clearTimeout(slot.restart);
        slot.restart = null;
        if (old !== null && !old.isDead()) {
          retiring.add(old);
          send(old, { signalbox: 'shutdown' });
        }
        log.info({ worker_pid: worker.process.pid, replaced_pid: old?.process.pid ?? null }, `worker ${worker.process.pid} replaced ${old === null ? 'a stopped worker' : `worker ${old.process.pid}`}`);
        resolve();
      },
      failed,
    });
  });

  const reload = (): Promise<void> => {
    const refuse = (why: string): Promise<never> => {
      log.warn(`reload refused: ${why}`);
      return Promise.reject(new Error(why));
    };
    if (closing !== null) return refuse('the cluster is shutting down');
    if (!everListened) return refuse('the cluster is still starting, and its workers load the code as it is now');
    if (reloading !== null) {
      // The code may have changed again since this reload began (its first workers have the code before that):
      // one more follows it, shared by everyone who asks meanwhile.
      followUp ??= reloading.catch(() => undefined).then(() => {
        followUp = null;
        return reload();
      });
      return followUp;
    }
    reloading = (async () => {
      const started = performance.now();
      log.info({ workers: settings.count }, `reloading ${settings.count} workers, one at a time`);
      try {
        for (const slot of slots) {
          if (closing !== null) throw new Error('The cluster began shutting down during the reload');
          await replace(slot);
        }
      } catch (error) {
        log.error({ err: error }, `reload failed: ${(error as Error).message}; the workers running keep serving`);
        throw error;
      } finally {
        reloading = null;
      }
      log.info({ ms: Math.round(performance.now() - started) }, 'reload complete');
    })();
    return reloading;
  };

  const send = (worker: Worker, message: ClusterMessage): void => {
    if (!worker.isConnected()) return;
    try {
      worker.send(message);
    } catch {
      // It is going away: its exit is handled where workers' exits are.
    }
  };

  const onMessage = (worker: Worker, raw: unknown): void => {
    const message = clusterMessage(raw);
    if (message === null) return;
    if (message.signalbox === 'failed') {
      // A failed start, the cluster's or a reload's, is answered with it; a worker restarted after a death that
      // fails is logged by its exit (kept, its reasons would pile up as it fails again and again).
      if (!everListened || replacing.has(worker)) failures.set(worker.id, { message: message.message, code: message.code });
    } else if (message.signalbox === 'expire') {
      const id = `${worker.id}:${message.id}`;
      const others = live().filter((w) => w !== worker && listening.has(w.id));
      if (others.length === 0) return send(worker, { signalbox: 'expire-done', id: message.id });
      const relay: Relay = {
        from: worker, id: message.id, waiting: new Set(others.map((w) => w.id)),
        timer: setTimeout(() => finishRelay(id, true), RELAY_WAIT_MS),
      };
      relays.set(id, relay);
      for (const other of others) send(other, { signalbox: 'expire', id, expiry: message.expiry });
    } else if (message.signalbox === 'expired') {
      const relay = relays.get(message.id);
      if (relay === undefined) return;
      relay.waiting.delete(worker.id);
      if (relay.waiting.size === 0) finishRelay(message.id, false);
    }
  };

  const finishRelay = (id: string, timedOut: boolean): void => {
    const relay = relays.get(id);
    if (relay === undefined) return;
    relays.delete(id);
    clearTimeout(relay.timer);
    if (timedOut) log.warn({ waiting_for: [...relay.waiting] }, 'a cache expiry was not acknowledged by every worker in time');
    send(relay.from, { signalbox: 'expire-done', id: relay.id });
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null): void => {
    listening.delete(worker.id);
    // Nobody waits for a worker that is gone.
    for (const [id, relay] of relays) if (relay.waiting.delete(worker.id) && relay.waiting.size === 0) finishRelay(id, false);
    const how = signal !== null ? `killed by ${signal}` : `exited with code ${code}`;
    const replacement = replacing.get(worker);
    if (replacement !== undefined) {
      // What it said of its failure comes over its channel, which may still hold it when the exit is seen.
      const fail = (): void => {
        const said = failures.get(worker.id);
        failures.delete(worker.id);
        replacement.failed(startFailure(said, `A worker ${how} before it listened`));
      };
      if (worker.isConnected()) worker.once('disconnect', fail);
      else fail();
      return;
    }
    if (retiring.delete(worker)) {
      log.info({ worker_pid: worker.process.pid, code, signal }, `worker ${worker.process.pid} ${how} after it was replaced`);
      if (closing !== null && everyWorker().length === 0) allExited?.();
      return;
    }
    const slot = slots.find((s) => s.worker === worker);
    if (slot === undefined) return;
    slot.worker = null;
    if (closing !== null) {
      log.info({ worker_pid: worker.process.pid, code, signal }, `worker ${worker.process.pid} ${how}`);
      if (everyWorker().length === 0) allExited?.();
      return;
    }
    const uptime = performance.now() - slot.startedAt;
    slot.quickDeaths = uptime < MIN_UPTIME_MS ? slot.quickDeaths + 1 : 0;
    const delay = slot.quickDeaths === 0 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (slot.quickDeaths - 1));
    log.warn({
      worker_pid: worker.process.pid, code, signal, uptime_ms: Math.round(uptime), quick_deaths: slot.quickDeaths, restart_in_ms: delay,
    }, `worker ${worker.process.pid} ${how}; starting another${delay > 0 ? ` in ${delay} ms (it died ${slot.quickDeaths} time${slot.quickDeaths === 1 ? '' : 's'} in a row within ${MIN_UPTIME_MS / 1000} s of starting)` : ''}`);
    slot.restart = setTimeout(() => start(slot), delay);
  };

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolveClose) => {
      signals.off();
      process.off('SIGHUP', onHangUp);
      for (const slot of slots) {
        if (slot.restart !== null) clearTimeout(slot.restart);
        slot.restart = null;
      }
      const started = performance.now();
      const done = (): void => {
        clearTimeout(deadline);
        cluster.off('exit', onExit);
        cluster.off('listening', onListening);
        log.info({ ms: Math.round(performance.now() - started) }, 'all workers exited');
        resolveClose();
      };
      const deadline = setTimeout(() => {
        const left = everyWorker();
        log.warn({ workers_killed: left.length, timeout_ms: settings.shutdownMs }, `shutdown timeout: killing ${left.length} workers`);
        for (const worker of left) worker.process.kill('SIGKILL');
        allExited = null;
        done();
      }, settings.shutdownMs + EXIT_GRACE_MS);
      allExited = done;
      const workers = live();
      log.info({ workers: workers.length }, 'shutting down the workers');
      // A reload's replacements starting now hear it once they listen; those it replaced are draining already.
      for (const worker of workers) send(worker, { signalbox: 'shutdown' });
      if (everyWorker().length === 0) done();
    });
    return closing;
  };

  const signals = handleStopSignals(settings.handleSignals, log, close, (signal) => {
    log.warn({ signal }, 'second signal: killing the workers and exiting now');
    for (const worker of everyWorker()) worker.process.kill('SIGKILL');
  });
  const onHangUp = (): void => {
    reload().catch(() => {
      // Logged by reload(); the workers running keep serving.
    });
  };
  if (settings.handleSignals) process.on('SIGHUP', onHangUp);

  let onListening: (worker: Worker, address: { port: number }) => void = () => {};
  if (process.env.NODE_CLUSTER_SCHED_POLICY === undefined) cluster.schedulingPolicy = cluster.SCHED_NONE;
  // Every worker, the first and a reload's, starts there (see workingDirectory).
  cluster.setupPrimary({ cwd: workingDirectory() });
  cluster.on('exit', onExit);
  return new Promise<RunningCluster>((resolve, reject) => {
    onListening = (worker, address) => {
      // A shutdown that began while this worker was starting could not reach it (a process takes no
      // message before it listens for them): it hears now, once it serves, and drains like the rest.
      if (closing !== null) {
        const replacement = replacing.get(worker);
        if (replacement !== undefined) {
          retiring.add(worker);
          replacement.failed(new Error('The cluster began shutting down during the reload'));
        }
        return send(worker, { signalbox: 'shutdown' });
      }
      listening.add(worker.id);
      heard.add(worker.id);
      port = address.port;
      log.info({ worker_pid: worker.process.pid, port }, `worker ${worker.process.pid} listening`);
      replacing.get(worker)?.listened();
      if (everListened || listening.size < settings.count) return;
      everListened = true;
      failures.clear();
      const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
      resolve({ role: 'primary', port, host: settings.host, url: `http://${host}:${port}`, workerPids: () => live().map((w) => w.process.pid!), reload, close });
    };
    cluster.on('listening', onListening);
    // Until the cluster is up, a worker that dies before it listened means the app cannot start: say why, stop the rest.
    const failedStart = (worker: Worker, code: number | null, signal: string | null): void => {
      if (everListened || closing !== null) return void cluster.off('exit', failedStart);
      if (heard.has(worker.id)) return;
      cluster.off('exit', failedStart);
      closing = Promise.resolve();
      for (const slot of slots) if (slot.restart !== null) clearTimeout(slot.restart);
      for (const other of live()) other.process.kill('SIGTERM');
      cluster.off('exit', onExit);
      cluster.off('listening', onListening);
      signals.off();
      process.off('SIGHUP', onHangUp);
      // What the worker said of its failure comes over its channel, which may still hold it when the exit is
      // seen: it has been read once the channel has closed.
      const fail = (): void => reject(startFailure(failures.get(worker.id), `A worker ${signal !== null ? `was killed by ${signal}` : `exited with code ${code}`} before the app listened`));
      if (worker.isConnected()) worker.once('disconnect', fail);
      else fail();
    };
    cluster.prependListener('exit', failedStart);
    log.info({ workers: settings.count }, `starting ${settings.count} workers`);
    for (const slot of slots) start(slot);
  });
}


/** Why a worker could not start: what it said of its `serve()`'s failure (with its `code`), else how it ended. */
function startFailure(said: { readonly message: string; readonly code: string | null } | undefined, ended: string): Error {
  if (said === undefined) return new Error(`${ended}; see its output above`);
  const error: Error & { code?: string } = new Error(`A worker could not start: ${said.message}`);
  if (said.code !== null) error.code = said.code;
  return error;
}

/**
 * Where workers start: the directory the primary was started in, by the name it was given (the shell's
 * `PWD`) when that name led there at the start. A deploy that points a `current` symbolic link at each
 * release starts the primary in `current`; the process stays in the release the link led to then, but a
 * worker started at a reload goes through the link again, to the new release, as the code it loads does.
 */
function workingDirectory(): string {
  const here = process.cwd();
  const named = process.env.PWD;
  if (named === undefined || named === here) return here;
  try {
    return realpathSync(named) === here ? named : here;
  } catch {
    return here;
  }
}
