/**
 * SIGTERM and SIGINT for a server process, one server or a cluster's primary alike: the first signal
 * drains (`drain`, then exit 0); a second means now: `atOnce` says what is cut (and kills what must
 * die with the process), then the process exits with the status a process killed by that signal has
 * (143, 130).
 */
import { constants as osConstants } from 'node:os';
import type { Logger } from 'pino';

export interface StopSignals {
  /** Stops listening for the signals, unless one came: then they stay for the drain, where a second still means now. */
  off(): void;
}

export function handleStopSignals(on: boolean, log: Logger, drain: () => Promise<void>, atOnce: (signal: NodeJS.Signals) => void): StopSignals {
  if (!on) return { off() {} };
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      atOnce(signal);
      process.exit(128 + (osConstants.signals[signal] ?? 0));
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    void drain().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return {
    off() {
      if (stopping) return;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    },
  };
}
