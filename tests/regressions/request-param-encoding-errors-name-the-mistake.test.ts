/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, call, form } from '../support/harness.ts';

class SearchController extends Controller {
  index(): void { this.render({ text: String(this.params.q) }); }
  create(): void { this.render({ text: String(this.params.q) }); }
}

/**
 * the form and query decoder (core/request/query.ts): a form posted from a
 * Latin-1 page (`q=caf%E9`) was refused with `Invalid %-encoding in parameter
 * "caf%E9"`, though `%E9` is a well-formed escape: the trouble is that its
 * byte is not UTF-8, which the message never said. Both mistakes are still a
 * 400, each now named for what it is.
 */
test('a 400 for a parameter says whether its escape is malformed or its bytes are not UTF-8', async () => {
  const app = appWith({ search: SearchController }, { draw: (map) => map.resources('search') });
  const latin1 = await call(app, 'POST /search', { headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' }, body: 'q=caf%E9' });
  assert.is(latin1.status, 400);
  assert.match(latin1.body, 'Parameter "caf%E9" is not UTF-8');
  const inQuery = await call(app, 'GET /search?q=%ED%A0%80');
  assert.is(inQuery.status, 400);
  assert.match(inQuery.body, 'is not UTF-8');
  const malformed = await call(app, 'GET /search?q=100%');
  assert.is(malformed.status, 400);
  assert.match(malformed.body, 'Malformed %-escape in parameter "100%": a % must be followed by two hex digits');
  // UTF-8 escapes decode as ever.
  assert.is((await call(app, 'POST /search', form({ q: 'café' }))).body, 'café');
});

/**
 * the same for the path (core/http/request.ts, and the public directory's
 * reader): `/search/caf%E9` was refused as `Malformed percent-encoding`.
 */
test('a 400 for a path says whether its escape is malformed or its bytes are not UTF-8', async () => {
  const app = appWith({ search: SearchController }, { draw: (map) => map.resources('search') });
  const latin1 = await call(app, 'GET /search/caf%E9');
  assert.is(latin1.status, 400);
  assert.match(latin1.body, 'The path "/search/caf%E9" is not UTF-8');
  const malformed = await call(app, 'GET /search/100%');
  assert.is(malformed.status, 400);
  assert.match(malformed.body, 'Malformed percent-encoding in path "/search/100%": a % must be followed by two hex digits');
});

test.run();
