/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

/**
 * core/controller/base.ts `_setStatus`: a status code with no
 * standard reason phrase gets its own number as a custom reason. For
 * `render({ status: 299 })` `interpretStatus` answers `'299'` (no space), so
 * `line.slice(line.indexOf(' ') + 1)` is the whole line and `reason` becomes
 * `'299'`; over HTTP the status line reads `HTTP/1.1 299 299`. Expected: no
 * custom reason (`reason` absent, as `Response.reason` documents: null for
 * the standard one). Was: `reason: '299'`.
 */
test('a status without a standard reason phrase gets no made-up reason', async () => {
  class PagesController extends Controller {
    go(): void {
      this.render({ text: 'x', status: 299 });
    }
  }
  const res = await call(appWith({ pages: PagesController }), 'GET /pages/go');
  assert.is(res.status, 299);
  assert.is(res.reason, undefined);
});

test.run();
