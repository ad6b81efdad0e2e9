/**
 * The first stage: a GET or HEAD that a cached page or a file under the
 * app's public directory answers is answered from there, before the
 * request is even parsed (as the web server in front of a Rails app would
 * answer it), and goes straight to `responding`. Everything else goes on
 * to `parsing`; a path whose escapes do not decode is refused (400) here,
 * its first reader. Transports may turn this off per message
 * (`serve({ staticFiles: false })`). Files are read without blocking, so
 * the stage finishes later when there is one to look for, and at once
 * when there is not (most requests).
 */
import type { PublicAnswer } from '../public/public-files.ts';
import { isThenable } from '../util.ts';
import type { RequestRun } from './run.ts';

export function lookUpPublic(run: RequestRun): void | Promise<void> {
  const files = run.app.publicFiles;
  if (files === null) return;
  const message = run.message;
  if (message.staticFiles === false || (message.method !== 'GET' && message.method !== 'HEAD')) return;
  const found = files.answer(message.url, message);
  if (found === null) return;
  if (isThenable(found)) return found.then((answer) => take(run, answer));
  take(run, found);
}

function take(run: RequestRun, found: PublicAnswer | null): void {
  if (found === null) return;
  run.response = found.response;
  if (found.page !== null) {
    run.cache = 'hit';
    run.served = found.page;
  } else {
    run.asset = true;
  }
}

/** Only this stage fills the response before parsing, which makes one. */
export const publicAnswerFound = (run: RequestRun): boolean => run.response !== null;
