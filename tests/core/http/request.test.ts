/**
 * The `Request` an action sees: method simulation, the request target,
 * content negotiation (accepts, format, template format), where the
 * request came from, parameters and their merge order, and ETag matching.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, BadRequest, ParamsParseError, Request, UnknownHttpMethod, createMimeRegistry, type RequestMessage, type RequestParams } from '../../../core/index.ts';

const test = suite('Request reads one message the way Rails 2.1 reads a request');

const mime = createMimeRegistry();
mime.register('text/x-mobile', 'mobile');

function request(partial: Partial<RequestMessage> = {}, settings: { relative_url_root?: string; limits?: object; trustProxy?: boolean } = {}): Request {
  return new Request({ method: 'GET', url: '/', headers: {}, ...partial }, { mime, ...settings });
}

/** A POST whose body parameters arrived (as the parse stage sets them). */
function post(url: string, body: RequestParams): Request {
  const r = request({ method: 'POST', url });
  r.request_parameters = body;
  r.parametersChanged();
  return r;
}

test('the method reads lower-case; the raw method keeps what was sent, upper-cased', () => {
  const r = request({ method: 'put' });
  assert.is(r.rawMethod, 'PUT');
  assert.is(r.method, 'put');
  assert.not.ok(r.head);
});

test('HEAD reads as get, and head says it was HEAD', () => {
  const r = request({ method: 'HEAD' });
  assert.is(r.method, 'get');
  assert.ok(r.head);
});

test('_method in the body or the query simulates a method, for POST only', () => {
  assert.is(post('/x', { _method: 'put' }).method, 'put');
  assert.is(post('/x', { _method: ' DELETE ' }).method, 'delete', 'trimmed and case-insensitive');
  assert.is(post('/x?_method=delete', {}).method, 'delete');
  assert.is(post('/x?_method=delete', { _method: 'put' }).method, 'put', 'the body names it first');
  assert.is(post('/x', { _method: 'head' }).method, 'get', 'a simulated HEAD reads get too');
  assert.is(post('/x', { _method: '' }).method, 'post');
  assert.is(post('/x', { _method: ['put'] }).method, 'post', 'only a string simulates');
  assert.is(request({ method: 'GET', url: '/x?_method=delete' }).method, 'get', 'GET is never simulated');
  assert.is(request({ method: 'PUT', url: '/x?_method=delete' }).method, 'put');
});

test("get, post, put and delete answer Rails' get?, post?, put? and delete?, _method applied", () => {
  const which = (r: Request) => ['get', 'post', 'put', 'delete'].filter((m) => r[m as 'get' | 'post' | 'put' | 'delete']);
  assert.equal(which(request({ method: 'GET' })), ['get']);
  assert.equal(which(request({ method: 'HEAD' })), ['get'], 'a HEAD is answered as a GET, so get? holds');
  assert.equal(which(post('/x', {})), ['post']);
  assert.equal(which(post('/x', { _method: 'put' })), ['put'], 'a simulated PUT is no longer a post');
  assert.equal(which(post('/x?_method=delete', {})), ['delete']);
  assert.equal(which(request({ method: 'PUT' })), ['put']);
  assert.equal(which(request({ method: 'OPTIONS' })), []);
});

test('request_method keeps HEAD, sent or simulated, where method reads it as get', () => {
  assert.is(request({ method: 'HEAD' }).request_method, 'head');
  assert.is(post('/x', { _method: 'head' }).request_method, 'head');
  assert.is(post('/x', { _method: 'head' }).method, 'get');
  assert.is(post('/x', { _method: 'put' }).request_method, 'put');
  assert.is(request({ method: 'GET' }).request_method, 'get');
});

test('an unknown method, sent or simulated, is UnknownHttpMethod (501)', () => {
  for (const method of ['BREW', 'PATCH', 'TRACE', 'CONNECT', '']) {
    assert.throws(() => request({ method }), (e: unknown) => e instanceof UnknownHttpMethod && e.status === 501, method);
  }
  const r = post('/x', { _method: 'brew' });
  assert.throws(() => r.method, (e: unknown) => e instanceof UnknownHttpMethod && (e as UnknownHttpMethod).method === 'brew');
});

test('the request target: request_uri, path and query string stay percent-encoded', () => {
  const r = request({ url: '/posts/a%20b%2Fc?q=x%26y&page=2' });
  assert.is(r.request_uri, '/posts/a%20b%2Fc?q=x%26y&page=2');
  assert.is(r.path, '/posts/a%20b%2Fc');
  assert.is(r.query_string, 'q=x%26y&page=2');
  assert.equal(r.query_parameters, { q: 'x&y', page: '2' });
  assert.is(request({ url: '/plain' }).query_string, '');
  assert.equal(request({ url: '/plain' }).query_parameters, {});
});

test('an absolute-form target is reduced to its path; the relative URL root is taken off the path', () => {
  assert.is(request({ url: 'http://example.com/posts?x=1' }).path, '/posts');
  const r = request({ url: '/app/posts/1?x=1' }, { relative_url_root: '/app' });
  assert.is(r.path, '/posts/1');
  assert.is(r.request_uri, '/app/posts/1?x=1');
  assert.is(request({ url: '/application' }, { relative_url_root: '/app' }).path, '/application', 'only on a segment boundary');
});

test('a path whose escapes do not decode is refused at once with BadRequest (400)', () => {
  for (const url of ['/posts/%E0%A4%A', '/%zz', '/a%']) {
    assert.throws(() => request({ url }), (e: unknown) => e instanceof BadRequest && e.status === 400, url);
  }
  assert.not.throws(() => request({ url: '/posts/%E2%9C%93?q=%zz' }), 'only the path is checked when the request is built');
});

test('a malformed query is a ParamsParseError (400) when read', () => {
  const r = request({ url: '/x?a=%zz' });
  assert.throws(() => r.query_parameters, (e: unknown) => e instanceof ParamsParseError && e.status === 400);
});

test('parameters merge body, then query, then path: the path wins, then the query', () => {
  const r = post('/x?id=query&q=query&only_query=1', { id: 'body', q: 'body', only_body: '1' });
  assert.equal(r.parameters, { id: 'query', q: 'query', only_body: '1', only_query: '1' });
  r.path_parameters = { id: 'path', controller: 'posts', action: 'show' };
  assert.equal(r.parameters, { id: 'path', q: 'query', only_body: '1', only_query: '1', controller: 'posts', action: 'show' });
  assert.equal(r.path_parameters, { id: 'path', controller: 'posts', action: 'show' });
});

test('accepts: the Accept list in preference order', () => {
  const r = request({ headers: { accept: 'text/html;q=0.5, application/json, */*;q=0.1' } });
  assert.equal(r.accepts.map(String), ['application/json', 'text/html', '*/*']);
});

test('accepts without an Accept header: the request Content-Type, then */*', () => {
  assert.equal(request({ headers: { 'content-type': 'application/xml; charset=utf-8' } }).accepts.map(String), ['application/xml', '*/*']);
  assert.equal(request().accepts.map(String), ['*/*']);
  assert.equal(request({ headers: { accept: '  ' } }).accepts.map(String), ['*/*'], 'a blank Accept is none');
});

test('content_type is the body MIME type, or null', () => {
  assert.is(request({ headers: { 'content-type': 'application/json' } }).content_type?.symbol, 'json');
  assert.is(request().content_type, null);
});

test('format: a format parameter naming a registered extension, else the first accepted type', () => {
  const byParam = request({ url: '/x?format=xml', headers: { accept: 'text/html' } });
  assert.is(byParam.format?.symbol, 'xml');
  assert.is(request({ url: '/x?format=mobile' }).format?.symbol, 'mobile', 'registered on the app registry');
  assert.is(request({ url: '/x?format=nope' }).format, null, 'an unknown extension names no format');
  assert.is(request({ headers: { accept: 'application/json' } }).format?.symbol, 'json');
  const byPath = request({ headers: { accept: 'text/html' } });
  assert.is(byPath.format?.symbol, 'html');
  byPath.path_parameters = { format: 'json' };
  assert.is(byPath.format?.symbol, 'json', 'path parameters arriving later change it');
});

test('format can be set by symbol, extension, type or null; an unknown name is an ArgumentError', () => {
  const r = request({ headers: { accept: 'application/json' } });
  r.format = 'xml';
  assert.is(r.format?.symbol, 'xml');
  r.format = 'txt';
  assert.is(r.format?.symbol, 'text');
  r.format = mime.get('json')!;
  assert.is(r.format?.symbol, 'json');
  r.format = null;
  assert.is(r.parameters.format, undefined, 'null drops the forced format');
  assert.is((r as { format: { symbol: string | null } | null }).format?.symbol, 'json', 'and negotiation decides again');
  assert.throws(() => { r.format = 'nope'; }, (e: unknown) => e instanceof ArgumentError && e.message.startsWith('Unknown format "nope"'));
});

test('setting the format sets the format parameter, over a format given and the Accept header, through re-merges', () => {
  const r = request({ url: '/x?format=html', headers: { accept: 'text/html' } });
  r.format = 'xml';
  assert.is(r.parameters.format, 'xml');
  assert.is(r.template_format, 'xml');
  r.path_parameters = { controller: 'posts', action: 'index', format: 'html' };
  assert.is(r.parameters.format, 'xml', 'path parameters arriving later do not undo it');
  assert.is(r.format?.symbol, 'xml');
});

test('template_format: the format parameter, else js when JavaScript comes first, else html', () => {
  assert.is(request({ url: '/x?format=xml' }).template_format, 'xml');
  assert.is(request({ url: '/x?format=xhtml' }).template_format, 'html', 'an extension synonym names its type');
  assert.is(request({ url: '/x?format=weird' }).template_format, 'weird', 'an unknown extension is used as given');
  assert.is(request({ headers: { accept: 'text/javascript, text/html' } }).template_format, 'js');
  assert.is(request({ headers: { accept: 'text/html, text/javascript' } }).template_format, 'html');
  assert.is(request({ headers: { accept: 'application/json' } }).template_format, 'html');
  assert.is(request().template_format, 'html');
});

test('host, port, protocol and SSL come from the headers and the connection', () => {
  const r = request({ headers: { host: 'www.example.co.uk:8080' } });
  assert.is(r.host, 'www.example.co.uk');
  assert.is(r.port, 8080);
  assert.is(r.port_string, ':8080');
  assert.is(r.host_with_port, 'www.example.co.uk:8080');
  assert.is(r.protocol, 'http://');
  assert.not.ok(r.ssl);
  const tls = request({ headers: { host: 'example.com' }, encrypted: true });
  assert.ok(tls.ssl);
  assert.ok(tls.encrypted);
  assert.is(tls.protocol, 'https://');
  assert.is(tls.port, 443);
  assert.is(tls.port_string, '');
});

test('forwarding headers (X-Forwarded-Proto/-Host) are believed only with trustProxy', () => {
  const headers = { host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'www.example.com' };
  const direct = request({ headers });
  assert.not.ok(direct.ssl, 'a client can write these headers itself');
  assert.is(direct.host_with_port, 'internal:8080');
  const proxied = request({ headers }, { trustProxy: true });
  assert.ok(proxied.ssl);
  assert.is(proxied.protocol, 'https://');
  assert.is(proxied.host_with_port, 'www.example.com');
});

test('domain and subdomains, with a TLD length', () => {
  const r = request({ headers: { host: 'dev.www.rubyonrails.co.uk' } });
  assert.is(r.domain(2), 'rubyonrails.co.uk');
  assert.equal(r.subdomains(2), ['dev', 'www']);
  assert.is(r.domain(), 'co.uk');
  assert.equal(r.subdomains(), ['dev', 'www', 'rubyonrails']);
  assert.is(request({ headers: { host: '192.168.1.200' } }).domain(), null);
});

test('a request that names no host has no domain and no subdomains', () => {
  assert.is(request().domain(), null);
  assert.equal(request().subdomains(), []);
});

test('remote_ip is the peer; with trustProxy, the client a loopback or private-network proxy forwarded', () => {
  const forwarded = { 'x-forwarded-for': '198.51.100.2, 10.0.0.1' };
  assert.is(request({ remoteAddress: '203.0.113.9', headers: forwarded }).remote_ip, '203.0.113.9');
  assert.is(request({ remoteAddress: '127.0.0.1', headers: forwarded }).remote_ip, '127.0.0.1', 'not believed by default');
  assert.is(request({ remoteAddress: '127.0.0.1', headers: forwarded }, { trustProxy: true }).remote_ip, '198.51.100.2');
  assert.is(request({ remoteAddress: '203.0.113.9', headers: forwarded }, { trustProxy: true }).remote_ip, '203.0.113.9', 'a public peer is no proxy');
  assert.is(request().remoteAddress, '');
});

test('xhr, referer, user agent, cookies, transport and body', () => {
  const r = request({ headers: { 'X-Requested-With': 'XMLHttpRequest', Referer: 'http://a/b', 'User-Agent': 'UA/1', Cookie: 'a=1; b=hello%20world' } });
  assert.ok(r.xhr);
  assert.is(r.referer, 'http://a/b');
  assert.is(r.user_agent, 'UA/1');
  assert.equal(r.cookies, { a: '1', b: 'hello world' });
  assert.not.ok(request().xhr);
  assert.equal(request().cookies, {});
  assert.is(request().transport, 'http');
  assert.is(request({ transport: 'ws' }).transport, 'ws');
  assert.is(request().body, '');
  assert.is(request({ body: 'x=1' }).body, 'x=1');
});

test('header names are read in lower case whatever case they were sent in', () => {
  const r = request({ headers: { 'Content-Type': 'text/plain', ACCEPT: 'text/html' } });
  assert.is(r.headers['content-type'], 'text/plain');
  assert.is(r.accepts[0].symbol, 'html');
});

test('etag_matches: an If-None-Match list, *, and weak validators', () => {
  const etag = '"abc"';
  const matchesTag = (header: string | undefined, tag: string | undefined) =>
    request({ headers: header === undefined ? {} : { 'if-none-match': header } }).etag_matches(tag);
  const matches = (header: string | undefined) => matchesTag(header, etag);
  assert.ok(matches('"abc"'));
  assert.ok(matches('"x", "abc" , "y"'));
  assert.ok(matches('*'));
  assert.ok(matches('W/"abc"'));
  assert.not.ok(matches('"abcd"'));
  assert.not.ok(matches(undefined));
  assert.not.ok(matches(''));
  assert.not.ok(matchesTag('"abc"', undefined), 'a response without an ETag never matches');
  assert.not.ok(matchesTag('*', ''), 'nor one with an empty ETag');
});

test('the app registry and limits are reachable from the request', () => {
  const r = request({}, { limits: { keys: 5 } });
  assert.is(r.mime, mime);
  assert.equal(r.limits, { keys: 5 });
  assert.is(Object.keys(r.env.headers).length, 0);
});

test.run();
