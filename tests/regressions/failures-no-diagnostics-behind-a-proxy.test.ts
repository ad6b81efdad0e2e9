/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultErrorPage } from '../../core/pipeline/default-pages.ts';
import { Controller } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

/**
 * core/pipeline/failures.ts `isLocal`: diagnostics (error message
 * and backtrace) are shown to remote clients behind a trusted proxy. With
 * `consider_all_requests_local` (the development default) and
 * `trustProxy: true`, a request arriving through a proxy on 127.0.0.1 with
 * `X-Forwarded-For: 203.0.113.9` is a remote client (its `request.remote_ip`
 * is 203.0.113.9), yet `isLocal` looks only at the socket peer and shows it
 * the diagnostics page. Rails' `local_request?` requires both the peer and
 * `remote_ip` to be local, as core/request/env.ts `localRequest` already does.
 * Expected: the public 500 page. Was: `<h1>Error in ...` with the message and stack.
 */
test('a remote client behind a trusted local proxy never sees diagnostics', async () => {
  class PagesController extends Controller {
    go(): void {
      throw new Error('database password is hunter2');
    }
  }
  const app = appWith({ pages: PagesController }, { config: { consider_all_requests_local: true, trustProxy: true } });
  const res = await call(app, 'GET /pages/go', { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.is(res.status, 500);
  assert.not.match(res.body, 'hunter2');
  assert.is(res.body, defaultErrorPage(500));
});

test.run();
