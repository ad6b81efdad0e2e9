/**
 * What a request says about where it came from and where it went: host,
 * port, protocol, domain, client address, cookies and body type, as pure
 * functions of a `RequestEnv` (Rails 2.1's `AbstractRequest` and `CgiRequest`).
 * Forwarding headers (X-Forwarded-Host, -Proto, -For, Client-IP) are believed only when
 * `trustProxy` is set: without a proxy in front they are whatever the client wrote.
 *
 * @example
 *   const env = { headers: { host: 'www.example.co.uk:8080' } };
 *   hostWithPort(env); // 'www.example.co.uk:8080'
 *   subdomains(env, 2); // ['www']
 */
import { parse as parseCookie } from 'cookie';
import { IpSpoofing } from '../errors.ts';
import type { MimeRegistry, MimeType } from '../mime/types.ts';
import { isUnsafeKey } from './param-values.ts';
import { withoutTrailing, withoutTrailingSlashes } from '../util.ts';

/** The request facts these functions read. Header names are lower-case. */
export interface RequestEnv {
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The peer address of the connection. */
  readonly remote_addr?: string;
  /** Whether the connection itself is TLS (CGI's HTTPS=on). */
  readonly ssl?: boolean;
  readonly server_name?: string;
  readonly server_addr?: string;
  readonly server_port?: string | number;
  readonly server_software?: string;
  /** Believe X-Forwarded-Host/-Proto/-For and Client-IP (set it when a proxy you control is in front). */
  readonly trustProxy?: boolean;
}

function header(env: RequestEnv, name: string): string | undefined {
  return Object.hasOwn(env.headers, name) ? env.headers[name] : undefined;
}

/** The host and port as the request named them: X-Forwarded-Host (its last entry), Host, server name, server address. */
export function rawHostWithPort(env: RequestEnv): string {
  const forwarded = env.trustProxy === true ? header(env, 'x-forwarded-host') : undefined;
  if (forwarded !== undefined) return forwarded.split(/,\s?/).at(-1)!.trim();
  const host = header(env, 'host') ?? env.server_name;
  if (host !== undefined) return host;
  if (env.server_addr === undefined && env.server_port === undefined) return '';
  return `${env.server_addr ?? ''}:${env.server_port ?? ''}`;
}

/**
 * The host name, without its port.
 * @example host({ headers: { host: '[2001:db8::1]:8008' } }) // '[2001:db8::1]'
 */
export function host(env: RequestEnv): string {
  const raw = rawHostWithPort(env);
  const colon = portColon(raw);
  return colon < 0 ? raw : raw.slice(0, colon);
}

/** The port the request named, or the protocol's standard port. */
export function port(env: RequestEnv): number {
  const raw = rawHostWithPort(env);
  const colon = portColon(raw);
  return colon < 0 ? standardPort(env) : Number(raw.slice(colon + 1));
}

/**
 * Where the port a host names begins: the index of the `:` before its trailing digits (what
 * `/:\d+$/` would find), or -1. A scan back from the end, where a pattern would try every position.
 */
function portColon(raw: string): number {
  let i = raw.length - 1;
  while (i >= 0) {
    const c = raw.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    i--;
  }
  return i >= 0 && i < raw.length - 1 && raw.charCodeAt(i) === 0x3a ? i : -1;
}

/** 443 for HTTPS, else 80. */
export function standardPort(env: RequestEnv): number {
  return ssl(env) ? 443 : 80;
}

/** `:port` when the port is not the protocol's standard one, else ''. */
export function portString(env: RequestEnv): string {
  const p = port(env);
  return p === standardPort(env) ? '' : `:${p}`;
}

/**
 * Host plus a non-standard port.
 * @example hostWithPort({ headers: { host: 'example.com:80' } }) // 'example.com'
 */
export function hostWithPort(env: RequestEnv): string {
  // host(env) + portString(env), with the host header read and scanned once.
  const raw = rawHostWithPort(env);
  const colon = portColon(raw);
  const name = colon < 0 ? raw : raw.slice(0, colon);
  const standard = standardPort(env);
  const named = colon < 0 ? standard : Number(raw.slice(colon + 1));
  return named === standard ? name : `${name}:${named}`;
}

/** 'https://' or 'http://'. */
export function protocol(env: RequestEnv): string {
  return ssl(env) ? 'https://' : 'http://';
}

/** Whether the request came over HTTPS: a TLS connection, or X-Forwarded-Proto: https. */
export function ssl(env: RequestEnv): boolean {
  return env.ssl === true || (env.trustProxy === true && header(env, 'x-forwarded-proto') === 'https');
}

/** A request that names no host, or names an IP address, has no domain or subdomains. */
function namedHost(name: string): boolean {
  return name !== '' && !/\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * The registered domain: the last `tldLength + 1` labels of the host; null for an IP address, or when
 * the request names no host at all.
 * @example domain({ headers: { host: 'www.rubyonrails.co.uk' } }, 2) // 'rubyonrails.co.uk'
 */
export function domain(env: RequestEnv, tldLength = 1): string | null {
  const name = host(env);
  return namedHost(name) ? name.split('.').slice(-(tldLength + 1)).join('.') : null;
}

/**
 * The labels before the domain; empty for an IP address.
 * @example subdomains({ headers: { host: 'dev.www.rubyonrails.co.uk' } }, 2) // ['dev', 'www']
 */
export function subdomains(env: RequestEnv, tldLength = 1): string[] {
  const name = host(env);
  return namedHost(name) ? name.split('.').slice(0, -(tldLength + 1)) : [];
}

/** Loopback and private-network addresses: proxies the app may sit behind (as its peer, or as hops of an X-Forwarded-For chain), never the client. */
const TRUSTED_PROXY = /^127\.0\.0\.1$|^::1$|^(10|172\.(1[6-9]|2[0-9]|30|31)|192\.168)\./i;
const LOCALHOST: ReadonlySet<string> = new Set(['127.0.0.1', '::1']);

/** Node reports IPv4 peers on dual-stack sockets as `::ffff:a.b.c.d`. */
function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/**
 * The client's address. Without `trustProxy` the peer is the client, whatever the headers say. With it,
 * as Rails 2.1 read REMOTE_ADDR: the first peer address (a CGI server may list several, comma-separated)
 * that is not a loopback or private-network proxy is the client itself, whatever the headers say, since
 * only a proxy on the loopback or a private network is one the app sits behind. Behind such a proxy:
 * Client-IP, else the last X-Forwarded-For entry that is not itself a loopback or private-network hop,
 * else the peer. Throws `IpSpoofing` (400) when Client-IP is not among the X-Forwarded-For entries.
 */
export function remoteIp(env: RequestEnv): string {
  const peer = plainAddress(env.remote_addr ?? '');
  if (env.trustProxy !== true) return peer;
  const untrusted = peer.split(',').map((a) => plainAddress(a.trim())).find((a) => a !== '' && !TRUSTED_PROXY.test(a));
  if (untrusted !== undefined) return untrusted;
  const forwardedFor = header(env, 'x-forwarded-for');
  const forwarded = forwardedFor?.split(',').map((a) => a.trim());
  const clientIp = header(env, 'client-ip');
  if (clientIp !== undefined) {
    // Two headers naming different clients: one of them was written by the client.
    if (forwarded && !forwarded.includes(clientIp.trim())) throw new IpSpoofing(clientIp, forwardedFor!);
    return clientIp.trim();
  }
  if (forwarded) {
    while (forwarded.length > 1 && TRUSTED_PROXY.test(forwarded.at(-1)!)) forwarded.pop();
    return forwarded.at(-1)!;
  }
  return peer;
}

/** Whether both the peer and the client address are this machine (Rails' `local_request?`). */
export function localRequest(env: RequestEnv): boolean {
  if (!LOCALHOST.has(plainAddress(env.remote_addr ?? ''))) return false;
  try {
    return LOCALHOST.has(remoteIp(env));
  } catch {
    // remoteIp only throws IpSpoofing: headers that disagree are no local request.
    return false;
  }
}

/** Whether X-Requested-With names XMLHttpRequest (Prototype and jQuery send it). */
export function xhr(env: RequestEnv): boolean {
  return /XMLHttpRequest/i.test(header(env, 'x-requested-with') ?? '');
}

/** The server software's leading name, lower-cased ('Apache/2.2' gives 'apache'), or null. */
export function serverSoftware(env: RequestEnv): string | null {
  const name = /^[a-zA-Z]+/.exec(env.server_software ?? '');
  return name ? name[0].toLowerCase() : null;
}

/**
 * The request URI (an absolute-form target reduced to its path and query) and the path:
 * the URI without its query and without `relativeUrlRoot` (matched on a segment boundary).
 * Both stay percent-encoded; an empty path reads as '/'.
 * @example requestUriAndPath('http://example.com/app/posts?page=2', '/app') // { request_uri: '/app/posts?page=2', path: '/posts' }
 */
export function requestUriAndPath(target: string, relativeUrlRoot = ''): { request_uri: string; path: string } {
  // Origin-form targets (`/path?query`) are nearly all of them; only the rare absolute form needs the pattern.
  const absolute = target.charCodeAt(0) === 47 ? null : /^\w+:\/\/[^/]+(\/.*)?$/s.exec(target);
  const requestUri = (absolute ? absolute[1] : target) || '/';
  const q = requestUri.indexOf('?');
  let path = q < 0 ? requestUri : requestUri.slice(0, q);
  if (relativeUrlRoot === '') return { request_uri: requestUri, path: path || '/' };
  const root = withoutTrailingSlashes(relativeUrlRoot);
  if (root !== '' && (path === root || path.startsWith(`${root}/`))) path = path.slice(root.length);
  return { request_uri: requestUri, path: path || '/' };
}

/**
 * Why a request path's escapes do not decode, for its 400: an escape that is not `%XX`, or escapes whose
 * bytes are not UTF-8 (`/files/caf%E9`, from a Latin-1 link), which a malformed-escape message would not explain.
 * @example undecodablePath('/files/caf%E9') // 'The path "/files/caf%E9" is not UTF-8: ...'
 */
export function undecodablePath(path: string): string {
  const shown = JSON.stringify(path.slice(0, 200));
  return hasMalformedEscape(path)
    ? `Malformed percent-encoding in path ${shown}: a % must be followed by two hex digits (%25 for a % itself)`
    : `The path ${shown} is not UTF-8: its %-escapes decode to bytes that are not UTF-8 text`;
}

/**
 * Whether text that failed to decode has an escape that is not `%XX` (else its escapes are well formed
 * and only their bytes are not UTF-8): the two mistakes a 400 for undecodable text tells apart.
 */
export function hasMalformedEscape(text: string): boolean {
  return /%(?![0-9A-Fa-f]{2})/.test(text);
}

/** The query string of a request target: what follows its first '?', or ''. */
export function queryString(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? '' : target.slice(q + 1);
}

/**
 * Cookies from a Cookie header (parsed by the `cookie` package: `;` with or without a space
 * separates pairs, commas stay inside values, the first of a repeated name wins, values are
 * percent-decoded). Names that address prototypes are dropped.
 * @example parseCookieHeader('_session_id=abc;is_admin=yes') // { _session_id: 'abc', is_admin: 'yes' }
 */
export function parseCookieHeader(cookieHeader: string | undefined): Record<string, string> {
  const parsed = parseCookie(cookieHeader ?? '');
  const cookies: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value !== undefined && !isUnsafeKey(name)) cookies[name] = value;
  }
  return cookies;
}

/**
 * A header by HTTP name (`Content-Type`, any case) or by CGI variable name (`CONTENT_TYPE`,
 * `HTTP_X_FORWARDED_FOR`), as Rails' `request.headers[...]` allows.
 */
export function requestHeader(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const cgi = /^[A-Z0-9_]+$/.test(name) && name.includes('_');
  const key = (cgi ? name.replace(/^HTTP_/, '').replaceAll('_', '-') : name).toLowerCase();
  return Object.hasOwn(headers, key) ? headers[key] : undefined;
}

/**
 * The body's MIME type from Content-Type (parameters dropped, lower-cased), or null without one;
 * `headers` has lower-case names.
 * The legacy X-Post-Data-Format header (`xml`, `yaml`) takes precedence, as in Rails 2.1.
 * @example contentTypeOf({ 'content-type': 'application/json; charset=utf-8' }, mime)?.symbol // 'json'
 */
export function contentTypeOf(headers: Readonly<Record<string, string | undefined>>, registry: MimeRegistry): MimeType | null {
  // Names are lower-case here (as `Request#headers` holds them), so no CGI-name handling is needed.
  const legacy = headers['x-post-data-format'];
  if (legacy !== undefined) {
    const format = legacy.toLowerCase();
    if (format === 'xml') return registry.lookup('application/xml');
    if (format === 'yaml') return registry.lookup('application/x-yaml');
  }
  const raw = headers['content-type'];
  if (raw === undefined) return null;
  // Only the ends are trimmed: `application/json\ta` is not JSON. (Each end on its own: one alternation
  // over both ends retries a long inner run of blanks from every position in it; the end by a loop.)
  const essence = withoutTrailing(raw.split(/[,;]/, 1)[0].replace(/^[ \t]+/, ''), BLANKS).toLowerCase();
  return essence === '' ? null : registry.lookup(essence);
}

/**
 * RFC 3986's `host [ ":" port ]`: a bracketed IP literal, or a name of unreserved characters, escapes
 * and sub-delimiters (IPv4 addresses and names alike), then an optional port of digits.
 */
const HOST_WITH_PORT = /^(?:\[[0-9A-Za-z:._~%-]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::([0-9]*))?$/;
/** The largest TCP port: a Host naming a larger one names no server, and URLs made with it do not parse (WHATWG). */
const MAX_PORT = 65_535;

/**
 * Whether the host (and port) the request names could be a URL's authority. A Host that is not
 * (`a b`, `evil.example/x?`, `user@host`, `a:1:2`) is invalid (RFC 9112 §3.2: a 400), and would
 * otherwise be copied whole into every URL the app makes with a host (redirects, `_url` helpers).
 * @example validHost('www.example.com:8080') // true
 */
export function validHost(hostWithPort: string): boolean {
  // Nearly every request names the host the one before it named: one comparison instead of the pattern.
  if (hostWithPort === lastValidHost) return true;
  const match = HOST_WITH_PORT.exec(hostWithPort);
  const valid = match !== null && (match[1] === undefined || match[1] === '' || Number(match[1]) <= MAX_PORT);
  if (valid) lastValidHost = hostWithPort;
  return valid;
}
/** The last host `validHost` accepted (one string: what any request holds in its Host header anyway). */
let lastValidHost: string | null = null;

/**
 * Whether `hostWithPort` is one of `hosts`: an exact name, `name:port`, a `.domain` and its subdomains,
 * or a pattern the name (without its port) matches whole.
 */
export function hostAllowed(hosts: readonly (string | RegExp)[], hostWithPort: string): boolean {
  const name = hostWithPort.toLowerCase().replace(/\.$/, '');
  const colon = portColon(name);
  const bare = colon < 0 ? name : name.slice(0, colon);
  return hosts.some((entry) => {
    if (entry instanceof RegExp) {
      const match = entry.exec(bare);
      return match !== null && match.index === 0 && match[0].length === bare.length;
    }
    const allowed = entry.toLowerCase();
    if (allowed.startsWith('.')) return bare === allowed.slice(1) || bare.endsWith(allowed);
    return allowed === name || allowed === bare;
  });
}

/** Space and tab, the blanks around a header value's parts. */
const BLANKS = [0x20, 0x09];
