/** What the public-file suites share: a request through `app.handle`, and whether the machine's first state answered it. Not a test file itself. */
import type { ResponseMessage } from '../../../core/index.ts';
import type { App } from '../../../machines/index.ts';

export interface PublicRequest {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The app's answer to `url` when a public file or a cached page gave it (the request went from
 * `servingPublic` straight to `responding`), or null when anything else answered it.
 */
export async function publicAnswer(app: App, url: string, request: PublicRequest = {}): Promise<ResponseMessage | null> {
  const states: string[] = [];
  const stop = app.trace((e) => {
    if (e.kind === 'state') states.push(e.state);
  });
  try {
    const response = await app.handle({ method: request.method ?? 'GET', url, headers: { host: 'test.host', ...request.headers } });
    return states[1] === 'responding' ? response : null;
  } finally {
    stop();
  }
}
