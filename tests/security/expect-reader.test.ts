/**
 * The reader of the bad-input corpus's `expect` prose (support/expect.ts):
 * corpora written by other hands state the same outcomes in other words, and
 * each must become the same check, or be reported as unread so the entry
 * fails rather than passing unchecked.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { absentFiles, closeBound, closeCodes, errorOrClose, heapBound, normaliseExpect, readExpect, type Observed } from './support/expect.ts';
import { expectationOf, variants } from './support/corpus.ts';

const test = suite('the bad-input expectation reader');
const HOST = '127.0.0.1:3000';

const observed = (o: Partial<Observed>): Observed => ({ status: 200, headers: {}, body: '', ms: 1, actions: [], echo: null, ...o });
/** The names of the checks that fail for `o`. */
const failing = (expect: string, o: Partial<Observed>) => readExpect(expect, HOST).checks.filter((c) => c.run(observed(o)) !== null).map((c) => c.name);

test('a status stated as "returns", "responds", "answers", "HTTP" or an error frame\'s list is the only one accepted', () => {
  for (const [expect, statuses] of [
    ['returns 200 or 400, never a 500', [200, 400]],
    ['responds 400 or 406; no 5xx', [400, 406]],
    ['must answer 400, 413 or 422 (or 200 depth-collapsed) within 1 second', [400, 413, 422, 200]],
    ['HTTP 422, never a RangeError 500', [422]],
    ['each answered with an error frame (400/405/501)', [400, 405, 501]],
    ['status 200 or 431; request treated as anonymous — never a crash or a 500', [200, 431]],
    ['404 (requirement tested against the raw segment or the decoded value)', [404]],
    ['should respond with 404; GET / afterwards returns 200', [404]],
    ['gets a 400; no crash', [400]],
  ] as const) {
    const reading = readExpect(expect, HOST);
    assert.equal([...reading.statuses].sort(), [...statuses].sort(), expect);
    assert.ok(reading.exclusive, expect);
  }
});

test('a status under a condition, or beside an outcome that is no status, is one way among others', () => {
  for (const expect of [
    'no 500 TypeError; CSRF (if JSON not exempt) returns 422',
    'either prefixed with http://{{host}} or rejected (400)',
    'status 400 (or the fold kept inside X-A)',
    'status 400 or params without __proto__ effect',
    '401 unless that is the configured password',
  ]) assert.not.ok(readExpect(expect, HOST).exclusive, expect);
});

test('the follow-up probe\'s 200 is not this request\'s status, however it is phrased', () => {
  for (const expect of ['status 404; follow-up GET / returns 200', 'status 404; the next GET / still answers 200', 'status 404; a fresh request gets 200']) {
    assert.equal([...readExpect(expect, HOST).statuses], [404], expect);
  }
});

test('time bounds read in milliseconds or seconds, however they are introduced', () => {
  for (const [expect, ms] of [
    ['status 200 in <50ms', 50], ['within 1s', 1000], ['within 1 second', 1000], ['answers 400 in under 2 seconds', 2000],
    ['responds 404 in under 100 ms', 100], ['in less than 250 milliseconds', 250], ['status 200 at most 1.5 s', 1500],
    ['takes <50ms', 50], ['answered no later than 2 s', 2000],
  ] as const) assert.is(readExpect(expect, HOST).within_ms, ms, expect);
});

test('a time it cannot place, or prose with no outcome it can check, is reported unread', () => {
  assert.equal(readExpect('status 400; takes about 3 seconds', HOST).unread, ['a time it cannot place: 3 seconds']);
  assert.equal(readExpect('whichever source is used, deterministically', HOST).unread.length, 1);
  assert.equal(readExpect('same as cookie-tamper-1', HOST).unread.length, 1);
  // Outcomes every entry is held to anyway are outcomes.
  assert.equal(readExpect('an empty source must not cause a 500', HOST).unread, []);
  assert.equal(readExpect('status 400 within 1s; process alive', HOST).unread, []);
});

test('what the prose says of Location becomes checks on the Location header', () => {
  const at = (location: string) => ({ status: 302, headers: { location: [location] } });
  const expect = 'status 302 or 400; Location never starts with // and never evil.example as its host';
  assert.equal(failing(expect, at('http://127.0.0.1:3000//evil.example/x')), []);
  assert.equal(failing(expect, at('//evil.example/x')), ['Location never starts with //']);
  assert.equal(failing(expect, at('http://evil.example/x')), ["Location's host is never evil.example"]);
  assert.equal(failing('Location never evil.example', at('http://a.example/?next=evil.example')), ['Location never names evil.example']);
  assert.equal(failing('Location host is the configured/allow-listed host (recommended)', at('http://evil3.example/posts')), [`Location's host is ${HOST}`]);
  assert.equal(failing('Location host is the configured/allow-listed host', at(`http://${HOST}/posts`)), []);
  assert.equal(failing('either prefixed with http://{{host}} or rejected', at('javascript:alert(1)')), [`Location starts with http://${HOST}`]);
  assert.equal(failing('either prefixed with http://{{host}} or rejected', { status: 400 }), [], 'no Location, nothing to prefix');
});

test('a slow client\'s close bound is the one recommended, else the only one', () => {
  assert.is(closeBound('socket closed by server within headersTimeout (<= 60s, recommend <= 20s)'), 20);
  assert.is(closeBound('closed by server within requestTimeout (408 or close, <= 60s, recommend <= 30s)'), 30);
  assert.is(closeBound('closed by server within 15 seconds'), 15);
  assert.is(closeBound('closed by server eventually'), null);
});

test('"same as <id>" is read as the named entry\'s expectation too, when the corpus holds it', () => {
  const corpus = [{ id: 'cookie-tamper-1', expect: 'empty session; status 200' }, { id: 'cookie-tamper-2', expect: 'same as cookie-tamper-1; not a RangeError' }];
  const expect = expectationOf(corpus[1], corpus);
  assert.equal([...readExpect(expect, HOST).statuses], [200]);
  assert.equal(failing(expect, { echo: { action: 'posts#index', params: {}, session: { user_id: 1 } } }), ['the session is empty']);
  assert.is(expectationOf({ expect: 'same as elsewhere-9' }, corpus), 'same as elsewhere-9');
  assert.equal(readExpect('same as elsewhere-9', HOST).unread.length, 1, 'a reference it cannot follow is unread');
});

test('"before the body is invited" holds a refusal to no 100 Continue', () => {
  const expect = 'status 413 within 1s, before the body is invited';
  assert.equal(failing(expect, { status: 413, interim: [100] }), ['no 100 Continue before the answer']);
  assert.equal(failing(expect, { status: 413, interim: [] }), []);
});

test('a close without an answer counts only where the prose offers it', () => {
  assert.ok(readExpect('status 400/405/501 or connection closed', HOST).close_allowed);
  assert.ok(readExpect('status 400 (or connection closed); not routed to any action', HOST).close_allowed);
  assert.not.ok(readExpect('status 400; not routed to any action', HOST).close_allowed);
});

test('WebSocket close codes are read however the close is phrased, and an error answer counts where offered', () => {
  assert.equal(closeCodes('close 1009 (maxPayload) immediately; process alive'), [1009]);
  assert.equal(closeCodes('close 1007 (or 1002); follow-up GET / returns 200'), [1007, 1002]);
  assert.equal(closeCodes('the socket closes with code 1008/1009 within 2s'), [1008, 1009]);
  assert.equal(closeCodes('error frame (400); connection stays open'), []);
  assert.ok(errorOrClose('error frame or close 1007/1008/1009 within 1s'));
  assert.ok(errorOrClose('an error frame (frame_too_large) or close 1009'));
  assert.ok(errorOrClose('close 1009 or an error frame'));
  assert.not.ok(errorOrClose('close 1002 immediately'));
});

test('typographic quotes, thousands separators, spelled-out numbers and reason phrases read as their plain spelling', () => {
  assert.is(normaliseExpect('params.a is an object {\u201C999\u201D:\u201Cx\u201D}'), 'params.a is an object {"999":"x"}');
  assert.equal(failing('params.a is an object {\u201C999\u201D:\u201Cx\u201D}', { echo: { action: 'a#b', params: { a: { 999: 'y' } }, session: {} } }), ['params.a is {"999":"x"}']);
  assert.is(readExpect('must respond 200 or 400 in less than 1,000 ms', HOST).within_ms, 1000);
  assert.equal(readExpect('must respond 200 or 400 in less than 1,000 ms', HOST).unread, []);
  assert.is(readExpect('rejected with 413, 422 or 400 within one second', HOST).within_ms, 1000);
  assert.equal(failing('no Set-Cookie longer than 4,096 bytes', { headers: { 'set-cookie': ['a='.padEnd(5000, 'x')] } }), ['no Set-Cookie over 4096 bytes']);
  for (const [expect, statuses] of [
    ['a 406 Not Acceptable or 400 Bad Request; never 500', [400, 406]],
    ['Bad Request (400)', [400]],
    ['status 404 Not Found (400 also acceptable)', [400, 404]],
    ['status 200 OK', [200]],
  ] as const) {
    const reading = readExpect(expect, HOST);
    assert.equal([...reading.statuses].sort(), [...statuses].sort(), expect);
    assert.ok(reading.exclusive, expect);
  }
});

test('"either", "one of" and "HTTP/1.1" state a status as much as "status" does', () => {
  for (const [expect, statuses] of [
    ['either 200 or 400 (in < 1 s)', [200, 400]],
    ['one of 400/405/422/501; destroy never runs', [400, 405, 422, 501]],
    ['HTTP/1.1 400', [400]],
    ['status 4XX; never 500', [...Array(100).keys()].map((n) => 400 + n)],
  ] as const) {
    const reading = readExpect(expect, HOST);
    assert.equal([...reading.statuses].sort(), [...statuses].sort(), expect);
    assert.ok(reading.exclusive, expect);
  }
});

test('a number in an identifier, or a status said to be avoided, is no status allowed', () => {
  for (const [expect, statuses] of [
    ['status 422; see CVE-2011-0447', [422]],
    ['status 200 (CWE-400: uncontrolled resource consumption)', [200]],
    ['status 400 per RFC 9112 section 6.1', [400]],
    ['answers 400 without a 500', [400]],
    ['status 404, nor 500', [404]],
    ['status 400 rather than 500', [400]],
  ] as const) assert.equal([...readExpect(expect, HOST).statuses].sort(), [...statuses].sort(), expect);
});

test('a remark on what Rails or an advisory did is neither a status allowed nor a time to place', () => {
  for (const [expect, statuses] of [
    ['status 404 (Rails 2.1 returned 500 here)', [404]],
    ['status 422 (as Rails 2.1 did for non-XHR forms)', [422]],
    ['status 400; Rails 2.1 raised TypeError -> 500', [400]],
    ['status 400 — as in Rails 2.1, which answered 500', [400]],
    ['status 405/501 (or 500 public/500.html as in 2.1)', [405, 501, 500]],
    ['status 404; note: Rails 2.1 accepted this with 200', [404]],
    ['status 404 (2.1 returned 500 here)', [404]],
    ['status 403, as Rails 2.1 would have answered 200 here', [403]],
  ] as const) {
    const reading = readExpect(expect, HOST);
    assert.equal([...reading.statuses].sort(), [...statuses].sort(), expect);
    assert.ok(reading.exclusive, expect);
    assert.equal(reading.unread, [], expect);
  }
  assert.equal(readExpect('status 200 within 50ms (Rails 2.1 took 3 s on this input)', HOST).unread, []);
  assert.is(readExpect('status 200 within 50ms (Rails 2.1 took 3 s on this input)', HOST).within_ms, 50);
  assert.equal(readExpect('(as Rails 2.1 did)', HOST).unread.length, 1, 'a remark alone is no outcome');
});

test('outcomes named in other words become the same checks', () => {
  const echo = (params: unknown, session: unknown = {}) => ({ echo: { action: 'posts#create', params, session } });
  const ran = (...actions: string[]) => ({ actions: actions.map((action) => ({ action, path: '/posts' })) });
  assert.equal(failing("params['a.b'] === 'c'", echo({ 'a.b': 'd' })), ["params['a.b'] is 'c'"]);
  assert.equal(failing("params['a.b'] === 'c'", echo({ 'a.b': 'c' })), []);
  assert.equal(failing('posts#create receives params.post.title = "x"; params.post.admin absent', echo({ post: { title: 'x', admin: '1' } })), ['params.post.admin is undefined']);
  for (const expect of ['status 4xx; destroy and update never run', 'status 4xx; never routed to destroy or update', 'update/destroy are not executed']) {
    assert.equal(failing(expect, ran('posts#update')), ['update never runs'], expect);
    assert.equal(failing(expect, ran('posts#show')), [], expect);
  }
  for (const expect of ['status 422; the post is never created', 'HTTP 422 — no post created', 'status code 422; posts#create must not run', 'posts#create does not run']) {
    assert.equal(failing(expect, ran('posts#create')), ['posts#create never runs'], expect);
  }
  assert.equal(failing('-> posts#show; destroy is never executed', { status: 200, ...ran('posts#destroy') }), ['destroy never runs', 'answered by posts#show']);
  assert.equal(failing('handled as GET by posts#show', { status: 200, ...ran('posts#index') }), ['answered by posts#show']);
  for (const expect of ['405/501; no action runs', 'status 405; never reaches any action']) assert.equal(failing(expect, ran('posts#index')), ['no action runs'], expect);
  for (const expect of ['the session is empty (not taken from params)', 'session must be empty']) assert.equal(failing(expect, echo({}, { user_id: 1 })), ['the session is empty'], expect);
  assert.equal(failing('status 400; /admin/smuggled is never reached', { actions: [{ action: 'admin#smuggled', path: '/admin/smuggled' }] }), ['/admin/smuggled never routed']);
  for (const expect of ['302; Location: "http://{{host}}/next"', 'status 302 with Location == "http://{{host}}/next"']) {
    assert.equal(failing(expect, { status: 302, headers: { location: ['http://evil.example/next'] } }), [`Location is http://${HOST}/next`], expect);
  }
  assert.equal(readExpect('closes with code 1009 (maxPayload)', HOST).unread, [], 'a close is an outcome the runner checks');
});

test('bounds written with <=, ≤, "or less" or "max" are time bounds', () => {
  for (const [expect, ms] of [['status 200 or 400 in ≤ 1 s', 1000], ['in <= 1s', 1000], ['status 200 or 400, 1 s or less', 1000], ['status 200 (max 1s)', 1000], ['404 in 100ms or less', 100]] as const) {
    const reading = readExpect(expect, HOST);
    assert.is(reading.within_ms, ms, expect);
    assert.equal(reading.unread, [], expect);
  }
});

test('a status negated after it, or by "anything but", is not allowed', () => {
  for (const expect of ['status 200/400. A 500 is never acceptable.', 'status 406 or 400; a 500 must not occur', 'status 200 or 400; anything but 500', 'status 200 or 400; a 500 page would be wrong']) {
    assert.not.ok(readExpect(expect, HOST).statuses.has(500), expect);
  }
  assert.ok(readExpect('status 400 never 500', HOST).statuses.has(400));
});

test('a heap bound is read however it is phrased, and one it cannot read is reported', () => {
  for (const [expect, mb] of [
    ['each 406; heap growth < 10MB', 10], ['heap grows less than 10 MB', 10], ['heap must not grow by more than 10MB', 10], ['memory growth < 10MB', 10],
    ['heap growth ≤ 10 MB', 10], ['heap growth below 10 MB', 10], ['memory does not grow by 20MB per request', 20], ['heap growth under 512 KB', 0.5],
  ] as const) assert.is(heapBound(expect), mb, expect);
  assert.equal(readExpect('each 406; heap stays flat, within 10MB of where it started', HOST).unread.length, 1);
});

test('outcomes every entry is held to anyway, in other words, are outcomes', () => {
  for (const expect of ['Object.prototype is not polluted; ({}).polluted === undefined', 'no prototype pollution', 'process stays alive and Object.prototype untouched', 'the server does not crash', 'process must survive']) {
    assert.equal(readExpect(expect, HOST).unread, [], expect);
  }
});

test('"no X-Injected header" and "no Set-Cookie: pwned" check the response headers', () => {
  const expect = 'status 302; no Set-Cookie: pwned; no X-Injected header';
  assert.equal(failing(expect, { status: 302, headers: { 'x-injected': ['1'], 'set-cookie': ['pwned=1'] } }), ['no X-Injected header', 'no Set-Cookie: pwned']);
  assert.equal(failing(expect, { status: 302, headers: { 'set-cookie': ['_session=abc'] } }), []);
});

test('a prefix that ends its clause does not take the clause\'s punctuation with it', () => {
  const location = { status: 302, headers: { location: [`http://${HOST}/posts?a=1`] } };
  assert.equal(failing('status 302; prefixed with http://{{host}}/posts; body link escaped', location), []);
  assert.equal(failing('status 302, prefixed with http://{{host}}/posts: no other host', location), []);
  assert.equal(failing('Location never starts with //; status 302', { status: 302, headers: { location: ['/ok'] } }), []);
  assert.equal(failing('status 302; prefixed with http://{{host}}/posts; body link escaped', { status: 302, headers: { location: ['http://evil.example/posts'] } }), [`Location starts with http://${HOST}/posts`]);
});

test('"body never contains" a quoted text checks the response body for it', () => {
  const expect = 'status 302; body never contains "<script>"; the body must not include \'root:\'';
  assert.equal(failing(expect, { status: 302, body: '<a href="/a?&lt;script&gt;">' }), []);
  assert.equal(failing(expect, { status: 302, body: '<a href="/a?<script>">root:x:0:0' }), ['the body never contains "<script>"', 'the body never contains "root:"']);
  assert.equal(failing('body does not contain "http://{{host}}/x"', { body: `http://${HOST}/x` }), [`the body never contains "http://${HOST}/x"`]);
  assert.equal(readExpect('body never contains "root:"', HOST).unread, [], 'an outcome in itself');
});

test('"the destroy action", "must never be routed" and "Location must not name" are read as their short forms', () => {
  assert.equal(failing('status 422; the destroy action is never executed', { actions: [{ action: 'posts#destroy', path: '/posts/1' }] }), ['destroy never runs']);
  assert.equal(failing('status 400 — /admin/smuggled must never be routed', { actions: [{ action: 'admin#smuggled', path: '/admin/smuggled' }] }), ['/admin/smuggled never routed']);
  assert.equal(failing('Location must not name evil3.example', { status: 302, headers: { location: ['http://evil3.example/'] } }), ['Location never names evil3.example']);
  assert.ok(readExpect('4xx (404 or 400); never file contents', HOST).exclusive);
  assert.ok(readExpect('response frame 401; connection stays open', HOST).exclusive);
});

test('"must be", "gives", "refuses", "any of" state a status; "under a second" is a bound', () => {
  for (const expect of ['must be 422', 'should be 422 (InvalidAuthenticityToken)', 'gives 422', 'rejected as 400', 'the server refuses it with 400 Bad Request', 'any of 400, 413 and 422 within 1s']) {
    assert.ok(readExpect(expect, HOST).exclusive, expect);
  }
  assert.is(readExpect('400 | 413 | 422 in under a second', HOST).within_ms, 1000);
});

test('params in Rails\' own spelling, and "must be"/"should equal", are the same checks', () => {
  const echo = (params: unknown) => ({ echo: { action: 'posts#create', params, session: {} } });
  const expect = 'params[:post][:title] == "x"; params[:post][:admin] is nil';
  assert.equal(failing(expect, echo({ post: { title: 'x' } })), []);
  assert.equal(failing(expect, echo({ post: { title: 'x', admin: null } })), [], 'nil is JSON null too');
  assert.equal(failing(expect, echo({ post: { title: 'y', admin: '1' } })), ['params[:post][:title] is "x"', 'params[:post][:admin] is nil']);
  assert.equal(failing('params has key "a.b" with value "c"', echo({ 'a.b': 'd' })), ['params["a.b"] is "c"']);
  assert.equal(failing('params has key "a.b" with value "c"', echo({ 'a.b': 'c' })), []);
  assert.equal(failing('params.post.title should equal "x"', echo({ post: { title: 'y' } })), ['params.post.title is "x"']);
  assert.equal(failing('params.post.title must be "x" and params.post.admin must be undefined', echo({ post: { title: 'x', admin: true } })), ['params.post.admin is undefined']);
});

test('an exact Location however stated, a dropped connection, a close however worded, a file that must not exist', () => {
  for (const expect of ['the Location header is exactly "http://{{host}}/next"', 'Location equals "http://{{host}}/next"', "Location = 'http://{{host}}/next'"]) {
    assert.equal(failing(expect, { status: 302, headers: { location: ['http://evil.example/'] } }), [`Location is http://${HOST}/next`], expect);
  }
  assert.ok(readExpect('400, or the connection is dropped', HOST).close_allowed);
  for (const expect of ['closes the socket with 1009', 'close frame 1009 immediately']) assert.equal(readExpect(expect, HOST).unread, [], expect);
  assert.equal(absentFiles('original_filename is a basename; no file at /tmp/pwned.txt'), ['/tmp/pwned.txt']);
  assert.equal(absentFiles('/tmp/pwned.txt must not exist afterwards'), ['/tmp/pwned.txt']);
  assert.equal(absentFiles('no file written outside the upload temp dir (/tmp/pwned.txt absent)'), ['/tmp/pwned.txt']);
});

test('variants and references are followed however they are introduced', () => {
  for (const expect of ['empty session; try also "x", "x--"', 'empty session. Also try: "x", "x--"', 'status 406; same for "x", "x--"']) assert.equal(variants(expect), ['x', 'x--'], expect);
  assert.equal(variants('status 406; likewise .toString and .valueOf'), ['.toString', '.valueOf']);
  const corpus = [{ id: 'a-1', expect: 'status 422' }, { id: 'a-2', expect: 'like a-1; CSRF by Content-Type' }, { id: 'a-3', expect: 'as for a-1' }];
  assert.equal([...readExpect(expectationOf(corpus[1], corpus), HOST).statuses], [422]);
  assert.equal([...readExpect(expectationOf(corpus[2], corpus), HOST).statuses], [422]);
  assert.is(expectationOf({ expect: 'like Rails 2.1; no crash' }, corpus), 'like Rails 2.1; no crash', 'a word that names no entry is prose');
});

test.run();
