/**
 * Facts of a request environment: host and port (forwarded, standard and
 * IPv6), domains, the client address behind proxies, URIs, cookies, headers
 * and the body's MIME type.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { IpSpoofing } from '../../../core/errors.ts';
import { createMimeRegistry } from '../../../core/mime/types.ts';
import * as env from '../../../core/request/env.ts';

const withHeaders = (headers: Record<string, string>, rest: Omit<env.RequestEnv, 'headers'> = {}): env.RequestEnv => ({ headers, ...rest });
/** An env behind a proxy the app trusts (`config.trustProxy`). */
const proxied = (headers: Record<string, string>, rest: Omit<env.RequestEnv, 'headers'> = {}): env.RequestEnv => ({ headers, trustProxy: true, ...rest });

const host = suite('host, port and protocol');

host('the host comes from X-Forwarded-Host (last entry) behind a trusted proxy, then Host, then the server name, then its address', () => {
  assert.is(env.rawHostWithPort(proxied({ 'x-forwarded-host': 'www.firsthost.org, www.secondhost.org', host: 'rubyonrails.org:8080' })), 'www.secondhost.org');
  assert.is(env.rawHostWithPort(withHeaders({ host: 'rubyonrails.org:8080' }, { server_name: 'glu.ttono.us:8007' })), 'rubyonrails.org:8080');
  assert.is(env.rawHostWithPort(withHeaders({}, { server_name: 'glu.ttono.us:8007', server_addr: '207.7.108.53' })), 'glu.ttono.us:8007');
  assert.is(env.rawHostWithPort(withHeaders({}, { server_addr: '207.7.108.53', server_port: 8007 })), '207.7.108.53:8007');
  assert.is(env.rawHostWithPort(withHeaders({})), '');
});

host('forwarding headers are the client\'s own words unless a proxy is trusted', () => {
  const forged = { 'x-forwarded-host': 'evil2.example, evil3.example', 'x-forwarded-proto': 'https', host: 'app.example' };
  assert.is(env.hostWithPort(withHeaders(forged)), 'app.example');
  assert.not.ok(env.ssl(withHeaders(forged)));
  assert.is(env.remoteIp(withHeaders({ 'x-forwarded-for': '3.4.5.6', 'client-ip': '3.4.5.6' }, { remote_addr: '127.0.0.1' })), '127.0.0.1');
  assert.is(env.hostWithPort(proxied(forged)), 'evil3.example');
});

host('host drops the port; port reads it or falls back to the standard one', () => {
  const e = withHeaders({ host: '[2001:1234::dead:beef]:8008' });
  assert.is(env.host(e), '[2001:1234::dead:beef]');
  assert.is(env.port(e), 8008);
  assert.is(env.port(withHeaders({ host: 'example.com' })), 80);
  assert.is(env.port(withHeaders({ host: 'example.com' }, { ssl: true })), 443);
});

host('the port string and host with port omit the standard port of the protocol', () => {
  assert.is(env.hostWithPort(withHeaders({ host: 'rubyonrails.org:80' })), 'rubyonrails.org');
  assert.is(env.hostWithPort(withHeaders({ host: 'rubyonrails.org:81' })), 'rubyonrails.org:81');
  assert.is(env.portString(withHeaders({ host: 'a.org:443' }, { ssl: true })), '');
  assert.is(env.portString(withHeaders({ host: 'a.org:80' }, { ssl: true })), ':80');
  assert.is(env.hostWithPort(proxied({ 'x-forwarded-host': 'glu.ttono.us:443', 'x-forwarded-proto': 'https', host: 'glu.ttono.us:8007' })), 'glu.ttono.us');
});

host('SSL is a TLS connection or, behind a trusted proxy, X-Forwarded-Proto: https', () => {
  assert.not.ok(env.ssl(withHeaders({})));
  assert.ok(env.ssl(withHeaders({}, { ssl: true })));
  assert.ok(env.ssl(proxied({ 'x-forwarded-proto': 'https' })));
  assert.not.ok(env.ssl(proxied({ 'x-forwarded-proto': 'http' })));
  assert.is(env.protocol(withHeaders({}, { ssl: true })), 'https://');
  assert.is(env.protocol(withHeaders({})), 'http://');
  assert.is(env.standardPort(withHeaders({})), 80);
});

const names = suite('domains and subdomains');

const DOMAINS: [string, number, string | null, string[]][] = [
  ['www.rubyonrails.org', 1, 'rubyonrails.org', ['www']],
  ['www.rubyonrails.co.uk', 2, 'rubyonrails.co.uk', ['www']],
  ['dev.www.rubyonrails.co.uk', 2, 'rubyonrails.co.uk', ['dev', 'www']],
  ['foobar.foobar.com', 1, 'foobar.com', ['foobar']],
  ['localhost', 1, 'localhost', []],
  ['192.168.1.200', 1, null, []],
  ['foo.192.168.1.200', 1, null, []],
  ['192.168.1.200.com', 1, '200.com', ['192', '168', '1']],
  // No Host, no server name or address: no host, so no domain (Rails' nil host).
  ['', 1, null, []],
];

for (const [hostName, tld, domain, subdomains] of DOMAINS) {
  names(`${JSON.stringify(hostName)} with a ${tld}-label TLD`, () => {
    const e = withHeaders({ host: hostName });
    assert.is(env.domain(e, tld), domain);
    assert.equal(env.subdomains(e, tld), subdomains);
  });
}

names('the TLD length defaults to one label', () => {
  assert.is(env.domain(withHeaders({ host: 'a.b.example.com:3000' })), 'example.com');
  assert.equal(env.subdomains(withHeaders({ host: 'a.b.example.com:3000' })), ['a', 'b']);
});

const client = suite('client address');

const peer = (remoteAddress: string, headers: Record<string, string> = {}) => env.remoteIp(proxied(headers, { remote_addr: remoteAddress }));

client('without trustProxy the peer is the client, whatever the headers say', () => {
  const headers = { 'x-forwarded-for': '3.4.5.6', 'client-ip': '3.4.5.6' };
  assert.is(env.remoteIp(withHeaders(headers, { remote_addr: '1.2.3.4' })), '1.2.3.4');
  assert.is(env.remoteIp(withHeaders(headers, { remote_addr: '10.0.0.1' })), '10.0.0.1');
  assert.is(env.remoteIp(withHeaders({}, { remote_addr: '::ffff:1.2.3.4' })), '1.2.3.4');
  assert.is(env.remoteIp(withHeaders({})), '');
});

client('with trustProxy, a peer at a public address is the client itself, whatever the headers say', () => {
  assert.is(peer('1.2.3.4', { 'client-ip': '2.3.4.5' }), '1.2.3.4');
  assert.is(peer('1.2.3.4', { 'x-forwarded-for': '3.4.5.6' }), '1.2.3.4');
  assert.is(peer('::ffff:1.2.3.4', { 'x-forwarded-for': '3.4.5.6', 'client-ip': '3.4.5.6' }), '1.2.3.4');
  assert.is(peer('2001:db8::7', { 'x-forwarded-for': '198.51.100.2, 10.0.0.1' }), '2001:db8::7');
  assert.is(peer('::ffff:1.2.3.4'), '1.2.3.4', 'with no forwarding headers the peer is the client');
});

client('with trustProxy, a peer address listing several hops names the client by its first public entry', () => {
  assert.is(peer('1.2.3.4,3.4.5.6'), '1.2.3.4');
  assert.is(peer('1.2.3.4,3.4.5.6', { 'client-ip': '2.3.4.5' }), '1.2.3.4');
  assert.is(peer('10.0.0.1, 3.4.5.6', { 'x-forwarded-for': '9.9.9.9' }), '3.4.5.6');
  assert.is(peer('10.0.0.1, 127.0.0.1', { 'x-forwarded-for': '9.9.9.9' }), '9.9.9.9', 'a list of proxies only is a proxy');
});

client('behind a trusted proxy, Client-IP or the last untrusted X-Forwarded-For entry is the client', () => {
  assert.is(peer('127.0.0.1', { 'x-forwarded-for': '3.4.5.6' }), '3.4.5.6');
  assert.is(peer('::1', { 'x-forwarded-for': '3.4.5.6' }), '3.4.5.6');
  assert.is(peer('::ffff:10.0.0.1', { 'x-forwarded-for': '3.4.5.6' }), '3.4.5.6');
  assert.is(peer('192.168.0.1', { 'client-ip': '2.3.4.5' }), '2.3.4.5');
  for (const [forwarded, expected] of [
    ['unknown,3.4.5.6', '3.4.5.6'],
    ['172.16.0.1,3.4.5.6', '3.4.5.6'],
    ['10.0.0.1, 10.0.0.1, 3.4.5.6', '3.4.5.6'],
    ['9.9.9.9, 3.4.5.6, 10.0.0.1, 172.31.4.4', '3.4.5.6'],
    ['unknown,192.168.0.1', 'unknown'],
    ['10.0.0.1', '10.0.0.1'],
  ]) {
    assert.is(peer('127.0.0.1', { 'x-forwarded-for': forwarded }), expected, forwarded);
  }
  assert.is(peer('10.1.1.1'), '10.1.1.1');
});

client('Client-IP missing from X-Forwarded-For is an IP spoofing attempt (400)', () => {
  assert.is(peer('127.0.0.1', { 'x-forwarded-for': '8.8.8.8, 9.9.9.9', 'client-ip': '8.8.8.8' }), '8.8.8.8');
  try {
    peer('127.0.0.1', { 'x-forwarded-for': '9.9.9.9, 3.4.5.6', 'client-ip': '8.8.8.8' });
    assert.unreachable('spoofing must throw');
  } catch (error) {
    assert.instance(error, IpSpoofing);
    assert.is((error as IpSpoofing).status, 400);
    assert.is((error as IpSpoofing).clientIp, '8.8.8.8');
    assert.not.match((error as IpSpoofing).message, '8.8.8.8');
  }
});

client('a local request comes from the loopback, both as peer and as client', () => {
  assert.ok(env.localRequest(withHeaders({}, { remote_addr: '127.0.0.1' })));
  assert.ok(env.localRequest(withHeaders({}, { remote_addr: '::ffff:127.0.0.1' })));
  assert.ok(env.localRequest(withHeaders({}, { remote_addr: '::1' })));
  assert.not.ok(env.localRequest(withHeaders({}, { remote_addr: '1.2.3.4' })));
  assert.not.ok(env.localRequest(proxied({ 'x-forwarded-for': '3.4.5.6' }, { remote_addr: '127.0.0.1' })));
  assert.not.ok(env.localRequest(proxied({ 'x-forwarded-for': '3.4.5.6', 'client-ip': '127.0.0.1' }, { remote_addr: '127.0.0.1' })));
  assert.not.ok(env.localRequest(withHeaders({})));
});

const misc = suite('URIs, cookies, headers and content types');

const URIS: [string, string, string, string][] = [
  ['http://www.rubyonrails.org/path/of/some/uri?mapped=1', '', '/path/of/some/uri?mapped=1', '/path/of/some/uri'],
  ['http://www.rubyonrails.org', '', '/', '/'],
  ['/?m=b', '', '/?m=b', '/'],
  ['/app/posts?page=2', '/app', '/app/posts?page=2', '/posts'],
  ['/app', '/app/', '/app', '/'],
  ['/application/x', '/app', '/application/x', '/application/x'],
  ['/posts/a%2Fb', '', '/posts/a%2Fb', '/posts/a%2Fb'],
];

for (const [target, root, uri, path] of URIS) {
  misc(`request URI and path of ${JSON.stringify(target)} under ${JSON.stringify(root)}`, () => {
    assert.equal(env.requestUriAndPath(target, root), { request_uri: uri, path });
  });
}

misc('the query string is what follows the first ?', () => {
  assert.is(env.queryString('/a?b=1?c'), 'b=1?c');
  assert.is(env.queryString('foo'), '');
});

misc('cookies: Nokia\'s missing space and commas in values are tolerated; prototype names are dropped', () => {
  assert.equal(env.parseCookieHeader('_session_id=c84ace847,96670c052c6ceb2451fb0f2;is_admin=yes'), { _session_id: 'c84ace847,96670c052c6ceb2451fb0f2', is_admin: 'yes' });
  assert.equal(env.parseCookieHeader('a=1; a=2; b=%20x; __proto__=p; constructor=c; toString=t'), { a: '1', b: ' x', toString: 't' });
  assert.equal(env.parseCookieHeader(undefined), {});
  assert.equal(env.parseCookieHeader(''), {});
});

misc('headers by HTTP name or CGI variable name', () => {
  const headers = { 'content-type': 'text/plain', 'x-forwarded-for': '1.2.3.4' };
  assert.is(env.requestHeader(headers, 'Content-Type'), 'text/plain');
  assert.is(env.requestHeader(headers, 'CONTENT_TYPE'), 'text/plain');
  assert.is(env.requestHeader(headers, 'HTTP_X_FORWARDED_FOR'), '1.2.3.4');
  assert.is(env.requestHeader(headers, 'toString'), undefined);
});

misc('xhr and server software', () => {
  assert.ok(env.xhr(withHeaders({ 'x-requested-with': 'XMLHttpRequest' })));
  assert.not.ok(env.xhr(withHeaders({ 'x-requested-with': 'DefinitelyNotAjax1.0' })));
  assert.not.ok(env.xhr(withHeaders({})));
  assert.is(env.serverSoftware(withHeaders({}, { server_software: 'Apache3.422' })), 'apache');
  assert.is(env.serverSoftware(withHeaders({}, { server_software: 'lighttpd(1.1.4)' })), 'lighttpd');
  assert.is(env.serverSoftware(withHeaders({})), null);
});

misc('the content type is the lower-cased essence of Content-Type, or the legacy X-Post-Data-Format', () => {
  const mime = createMimeRegistry();
  const of = (headers: Record<string, string>) => env.contentTypeOf(headers, mime)?.name ?? null;
  assert.is(of({ 'content-type': 'Application/JSON; charset=utf-8' }), 'json');
  assert.is(of({ 'content-type': 'multipart/form-data; boundary=x' }), 'multipart_form');
  assert.is(of({ 'content-type': 'text/xml, text/plain' }), 'xml');
  assert.is(of({ 'content-type': 'application/json\ta' }), 'application/json\ta');
  assert.is(of({ 'content-type': 'text/plain; content-type="application/json"' }), 'text');
  assert.is(of({ 'content-type': ' ; x' }), null);
  assert.is(of({}), null);
  assert.is(of({ 'x-post-data-format': 'XML' }), 'xml');
  assert.is(of({ 'x-post-data-format': 'yaml', 'content-type': 'application/json' }), 'yaml');
  assert.is(of({ 'x-post-data-format': 'csv', 'content-type': 'application/json' }), 'json');
});

host('hostAllowed matches exact names, name:port, and .domain with its subdomains', () => {
  assert.ok(env.hostAllowed(['a.com'], 'a.com:81'));
  assert.not.ok(env.hostAllowed(['a.com:80'], 'a.com:81'));
  assert.ok(env.hostAllowed(['.a.com'], 'x.y.a.com'));
  assert.not.ok(env.hostAllowed(['.a.com'], 'xa.com'));
  assert.not.ok(env.hostAllowed([], 'a.com'));
});

host.run();
names.run();
client.run();
misc.run();
