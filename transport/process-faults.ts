/**
 * What a serving process does with a fault no code caught, so that one request's slip does not end every
 * other request in flight, as Node's default (print it, exit at once) would.
 *
 * - A rejected promise nothing awaited or caught (an action's `void mailer.deliver(...)` that fails) is
 *   logged at error, and the process goes on: no code was cut short by it, since what made the promise
 *   has long returned.
 * - An exception thrown where no code catches it (in a timer's callback or an event listener) may have
 *   left whatever it unwound half done, so the process does not carry on as if nothing happened: it is
 *   logged at fatal, every server in the process drains as at a shutdown (the requests it has received
 *   are answered, within `shutdownTimeoutMs`), and the process exits 1 for its supervisor, or the
 *   cluster's primary, to start another. A second one during the drain exits at once.
 *
 * An application that listens for either event itself keeps that event: these step aside. Node's
 * `--unhandled-rejections=strict` makes a rejection an uncaught exception, and it is treated as one.
 */
import type { Logger } from 'pino';

interface GuardedServer {
  readonly log: Logger;
  close(): Promise<void>;
}

const servers = new Set<GuardedServer>();
let exiting = false;

/** Whoever else listens for `event` answers for it. */
const othersListen = (event: 'unhandledRejection' | 'uncaughtException'): boolean => process.listenerCount(event) > 1;

/** Logs the fault; a logger that is silent at that level (the test environment's) leaves it to standard error, as Node would print it. */
function report(server: GuardedServer, level: 'error' | 'fatal', error: unknown, message: string): void {
  if (server.log.isLevelEnabled(level)) server.log[level]({ err: error }, message);
  else process.stderr.write(`${message}\n${error instanceof Error ? (error.stack ?? String(error)) : String(error)}\n`);
}

function onRejection(reason: unknown): void {
  const [server] = servers;
  if (server === undefined || othersListen('unhandledRejection')) return;
  report(server, 'error', reason, 'unhandled promise rejection: a promise no code awaited or caught was rejected; the process goes on');
}

function onException(error: Error): void {
  const [server] = servers;
  if (server === undefined || othersListen('uncaughtException')) return;
  if (exiting) {
    report(server, 'fatal', error, 'a second uncaught exception while draining: exiting now');
    process.exit(1);
  }
  exiting = true;
  report(server, 'fatal', error, 'uncaught exception: draining, then exiting with code 1');
  void Promise.allSettled([...servers].map((s) => s.close())).finally(() => process.exit(1));
}

/** Puts a running server under the process's fault handling until the returned function is called (once it has closed). */
export function guardProcess(server: GuardedServer): () => void {
  if (servers.size === 0) {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
  }
  servers.add(server);
  return () => {
    if (!servers.delete(server) || servers.size > 0) return;
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
