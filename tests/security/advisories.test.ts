/**
 * What the request layer does with inputs from advisories against stacks
 * like this one, beyond the bad-input corpus: each behaviour is what the
 * fixed framework did (Rails, Rack, Node's libraries), checked over real
 * HTTP against the security fixture app, or through its WebSocket tunnel
 * where a header can be far larger than node:http allows.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serve, tunnel, type RunningServer, type Tunnel } from '../../transport/index.ts';
import { SESSION_KEY, securityApp, type SecurityApp } from './support/app.ts';
import { requestBytes, send, type WireResponse } from './support/wire.ts';

const test = suite('advisory inputs get the fixed frameworks\' answers');
let sec: SecurityApp;
let server: RunningServer;
let host: string;
let cookie: string;

test.before(async () => {
  sec = securityApp();
  server = await serve(sec.app, { port: 0 });
  host = `127.0.0.1:${server.port}`;
  cookie = `${SESSION_KEY}=${sec.valid_session}`;
});

test.after(async () => {
  await server.close();
});

function request(method: string, target: string, headers: [string, string][] = [], body?: string): Promise<WireResponse> {
  return send(server.port, requestBytes({ method, target, headers, body: body === undefined ? undefined : Buffer.from(body) }, host));
}

const echoOf = (res: WireResponse) => JSON.parse(res.body.toString('utf8')) as { action: string; params: Record<string, any>; session: Record<string, unknown> };

test('a Host that merely contains an allowed name is refused, never redirected to (CVE-2021-22942, CVE-2021-44528)', async () => {
  for (const named of ['evil.example#@127.0.0.1', '127.0.0.1@evil.example', '127.0.0.1.evil.example', 'evil.example/127.0.0.1', '127.0.0.1:1@evil.example', 'evil.example\\.127.0.0.1', '127.0.0.1 evil.example']) {
    const res = await request('GET', '/fixture/redirect_relative', [['Host', named]]);
    assert.ok(res.status === 400 || res.status === 403, `${named}: ${res.status}`);
    assert.is(res.headers.location, undefined, named);
  }
});

test('forwarding headers never choose a redirect\'s scheme or host unless a proxy is trusted (CVE-2018-16471)', async () => {
  const res = await request('GET', '/fixture/redirect_relative', [
    ['X-Forwarded-Proto', 'javascript'], ['X-Forwarded-Scheme', 'javascript'], ['X-Forwarded-Ssl', 'on'], ['Forwarded', 'proto=javascript;host=evil.example'], ['X-Forwarded-Host', 'evil.example'],
  ]);
  assert.is(res.status, 302);
  assert.equal(res.headers.location, [`http://${host}/posts`]);
});

test('thousands of overlapping byte ranges get one range or the whole file, never more bytes than the file (CVE-2024-26141, CVE-2026-34826)', async () => {
  const whole = await request('GET', '/stylesheets/site.css');
  for (const range of [`bytes=0-0${',0-0'.repeat(3000)}`, `bytes=0-${',0-'.repeat(3000)}`, `bytes=0-1,3-4${',6-7'.repeat(2000)}`]) {
    const res = await request('GET', '/stylesheets/site.css', [['Range', range]]);
    assert.ok([200, 206, 416].includes(res.status), `${range.slice(0, 20)}: ${res.status}`);
    assert.ok(res.body.length <= whole.body.length, `${range.slice(0, 20)}: ${res.body.length} bytes`);
    assert.not.ok((res.headers['content-type']?.[0] ?? '').startsWith('multipart/byteranges'), 'never a multipart answer');
  }
});

test('a form post needs the token whatever the Content-Type\'s casing, or with none (CVE-2024-43787, CVE-2024-48913)', async () => {
  for (const type of ['Application/X-WWW-Form-Urlencoded', 'MULTIPART/FORM-DATA; BOUNDARY=X', 'text/plain', undefined]) {
    const headers: [string, string][] = [['Cookie', cookie]];
    if (type !== undefined) headers.push(['Content-Type', type]);
    const body = type?.toLowerCase().startsWith('multipart') ? '--X\r\nContent-Disposition: form-data; name="post[title]"\r\n\r\nx\r\n--X--\r\n' : 'post[title]=x';
    const res = await request('POST', '/posts', headers, body);
    assert.is(res.status, 422, String(type));
  }
  assert.not.ok(sec.events.some((e) => e.action === 'posts#create'), 'posts#create never ran');
});

test('JSON in any casing is both parsed and exempt, so the parser and the forgery check never disagree (CVE-2025-32442)', async () => {
  const res = await request('POST', '/posts', [['Content-Type', 'APPLICATION/JSON ; charset=utf-8'], ['Cookie', cookie]], '{"post":{"title":"x"}}');
  assert.is(res.status, 201);
  assert.is(echoOf(res).params.post.title, 'x');
});

test('a percent-encoded cookie name never shadows the session cookie (CVE-2020-8184)', async () => {
  let res = await request('GET', '/posts', [['Cookie', `%5Fsecurity_session=forged--0000000000000000000000000000000000000000; ${cookie}`]]);
  assert.is(echoOf(res).session.user_id, 1, 'the real cookie is the session');
  res = await request('GET', '/posts', [['Cookie', '_security%5Fsession=forged--0000000000000000000000000000000000000000']]);
  assert.equal(echoOf(res).session, {}, 'an encoded name is another cookie');
});

test('XML bodies declare no entities and name no prototype, and any character reference is read without a crash (CVE-2013-1821, CVE-2013-1856, CVE-2023-26920, CVE-2026-25128)', async () => {
  const xml = (body: string) => request('POST', '/sessions', [['Content-Type', 'application/xml']], body);
  let res = await xml('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><user><name>&b;</name></user>');
  assert.is(res.status, 400, 'entity declarations');
  res = await xml('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><user><name>&e;</name></user>');
  assert.is(res.status, 400, 'external entities');
  assert.not.match(res.body.toString(), 'root:');
  for (const body of ['<user><__proto__><admin>1</admin></__proto__></user>', '<user __proto__="x"><name>x</name></user>', '<user><constructor><prototype><admin>1</admin></prototype></constructor></user>']) {
    res = await xml(body);
    assert.ok(res.status === 400 || (res.status === 200 && echoOf(res).params.user?.admin === undefined), `${body}: ${res.status}`);
  }
  assert.is(({} as Record<string, unknown>).admin, undefined);
  for (const reference of ['&#99999999;', '&#x110000;', '&#xD800;', '&#0;', '&#99999999999999999999999;']) {
    res = await xml(`<user><name>a${reference}b</name></user>`);
    assert.ok(res.status === 200 || res.status === 400, `${reference}: ${res.status}`);
  }
});

test('multipart names that are empty or absent, and a boundary given twice, are refused or ignored, never a crash (CVE-2025-48997, CVE-2026-26961)', async () => {
  const token = `--X\r\nContent-Disposition: form-data; name="authenticity_token"\r\n\r\n${sec.csrf_token}\r\n`;
  let res = await request('POST', '/posts', [['Content-Type', 'multipart/form-data; boundary=X'], ['Cookie', cookie]],
    `${token}--X\r\nContent-Disposition: form-data; name=""\r\n\r\nv\r\n--X\r\nContent-Disposition: form-data; filename="a.txt"\r\n\r\nfile\r\n--X\r\nContent-Disposition: form-data; name="post[title]"\r\n\r\nx\r\n--X--\r\n`);
  assert.ok(res.status === 400 || (res.status === 201 && echoOf(res).params.post.title === 'x'), `empty names: ${res.status}`);
  res = await request('POST', '/posts', [['Content-Type', 'multipart/form-data; boundary=Y; boundary=X'], ['Cookie', cookie]], `${token}--X--\r\n`);
  assert.ok(res.status === 400 || res.status === 422 || res.status === 201, `two boundaries: ${res.status}`);
});

test('headers far beyond what node:http takes, carried by the tunnel, are read in linear time (CVE-2023-22795, CVE-2024-26146, CVE-2024-25126, CVE-2022-44570, CVE-2023-22792)', async () => {
  const t: Tunnel = await tunnel(`ws://${host}${server.tunnel!.path}`, { cookies: false, reconnect: false, origin: `http://${host}` });
  try {
    const n = 400_000;
    const cases: [string, string, Record<string, string>, string?][] = [
      ['GET', '/posts', { accept: `text/html;q=1${' '.repeat(n)}x` }],
      ['GET', '/posts', { accept: `${'a/a;q=0.1,'.repeat(n / 10)}*/*` }],
      ['GET', '/posts', { 'if-none-match': `"a"${' '.repeat(n)}x` }],
      ['GET', '/posts', { 'if-none-match': `${', '.repeat(n / 2)}W/` }],
      ['GET', '/stylesheets/site.css', { range: `bytes=${' '.repeat(n)}0-` }],
      ['GET', '/stylesheets/site.css', { range: `bytes=0-0${',0-0'.repeat(n / 4)}` }],
      ['POST', '/posts', { 'content-type': `application/x-www-form-urlencoded${' ;'.repeat(n / 2)}a` }, 'a=1'],
      ['GET', '/posts', { cookie: `a=${' ;'.repeat(n / 2)}=` }],
      ['GET', '/posts', { cookie: `${SESSION_KEY}=${'--'.repeat(n / 2)}x` }],
    ];
    for (const [method, path, headers, body] of cases) {
      const started = performance.now();
      const res = await t.request({ method, path, headers, body });
      const ms = performance.now() - started;
      const name = Object.keys(headers)[0];
      assert.ok(res.status < 500, `${name}: ${res.status}`);
      // Linear work on 400 KB takes milliseconds; a quadratic reader takes minutes.
      assert.ok(ms < 3000, `${name}: ${ms.toFixed(0)} ms`);
    }
  } finally {
    await t.close();
  }
});

test.run();
