/**
 * The request corpus's `unit` facts, as calls into the request layer: one
 * handler per fact `fn`, each turning the fact's input (Rails CGI env keys,
 * `$upload` markers...) into arguments and its result into the fact's output
 * shape (MIME types as symbols, or raw strings when unregistered).
 * `sameFact` compares results with outputs, reading the `$file`, `$date`,
 * `$time`, `$repeat` and `$binary_string` markers.
 */
import { createMimeRegistry, type MimeRegistry, type MimeType } from '../../core/mime/types.ts';
import { headOptionHeaderName, interpretStatus } from '../../core/http/status.ts';
import * as env from '../../core/request/env.ts';
import { UploadPart, UploadedFile, mergeParameters, originalFilename, parseQuery, parseRequestParameters, type Params } from '../../core/request/params.ts';
import { SignalboxError } from '../../core/errors.ts';
import { expectedRaise } from './request-runner.ts';

type CgiEnv = Record<string, string | null | undefined>;

/** A `RequestEnv` from Rails CGI variables (HTTP_HOST, SERVER_PORT, REMOTE_ADDR, HTTPS...). */
export function envFromCgi(cgi: CgiEnv): env.RequestEnv {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(cgi)) {
    if (value === null || value === undefined) continue;
    if (key.startsWith('HTTP_')) headers[key.slice(5).toLowerCase().replaceAll('_', '-')] = value;
    else if (key === 'CONTENT_TYPE' || key === 'CONTENT_LENGTH') headers[key.toLowerCase().replace('_', '-')] = value;
  }
  const text = (key: string): string | undefined => cgi[key] ?? undefined;
  return {
    headers,
    remote_addr: text('REMOTE_ADDR'),
    ssl: cgi.HTTPS === 'on',
    server_name: text('SERVER_NAME'),
    server_addr: text('SERVER_ADDR'),
    server_port: text('SERVER_PORT'),
    server_software: text('SERVER_SOFTWARE'),
    // Rails 2.1 always believed forwarding headers; its facts describe an app behind a proxy.
    trustProxy: true,
  };
}

/** Facts give the env either under `env` or as the input itself, the peer address also as `remote_addr` (TestRequest's). */
function cgiOf(input: { env?: CgiEnv; remote_addr?: string | null }): env.RequestEnv {
  const cgi = input.env ?? (input as CgiEnv);
  return envFromCgi(input.remote_addr === undefined || input.remote_addr === null ? cgi : { REMOTE_ADDR: input.remote_addr, ...cgi });
}

/** An env whose Host header names `host` (and `port`, when given). */
function envWithHost(host: string | null, port?: number, ssl = false): env.RequestEnv {
  if (host === null) return { headers: {}, ssl };
  return { headers: { host: port === undefined ? host : `${host}:${port}` }, ssl };
}

/** mime_type_test.rb registers png and pdf in its setup. */
function mimeTestRegistry(): MimeRegistry {
  const mime = createMimeRegistry();
  mime.register('image/png', 'png');
  mime.register('application/pdf', 'pdf');
  return mime;
}

/** How the corpus writes a MIME type: its symbol, or its string when unregistered. */
function mimeName(type: MimeType | null): string | null {
  return type === null ? null : (type.symbol ?? type.string);
}

/** A type named by symbol, else by type string. */
function mimeNamed(mime: MimeRegistry, name: string): MimeType {
  return mime.get(name) ?? mime.lookup(name);
}

/** Replaces `$upload` markers with the upload parts multipart parsing produces. */
function reviveUploads(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reviveUploads);
  if (value !== null && typeof value === 'object' && '$upload' in value) {
    const u = (value as { $upload: { content: string; content_type: string | null; original_path: string | null } }).$upload;
    return new UploadPart(Buffer.from(u.content), u.content_type, u.original_path);
  }
  return value;
}

/** One handler per fact `fn` this layer answers for. */
export const UNIT_FACT_HANDLERS: Record<string, (input: any) => unknown> = {
  parse_query: (input: string) => parseQuery(input),
  parse_request_parameters: (input: [string | null, unknown[] | null][]) =>
    parseRequestParameters(input.map(([name, values]) => [name, values === null ? null : (reviveUploads(values) as unknown[])])),
  original_filename: (input: string) => originalFilename(input),
  parse_accept: (input: string) => mimeTestRegistry().parse(input).map(mimeName),
  mime_equal: (input: { type: string; other: string | { symbol: string } | { string: string } }) => {
    const mime = mimeTestRegistry();
    // The other side is a type string or a symbol (`:html`), written plain or as `{ symbol }` / `{ string }`.
    const other = typeof input.other === 'string' ? input.other : 'symbol' in input.other ? input.other.symbol : input.other.string;
    return mimeNamed(mime, input.type).equals(other.replace(/^:/, ''));
  },
  mime_predicates: (input: string) => {
    const type = mimeNamed(createMimeRegistry(), input);
    return { 'all?': type.is('all'), 'html?': type.html };
  },
  verify_request: (input: string) => mimeNamed(createMimeRegistry(), input).verify_request,
  request_content_type: (input: string | null) =>
    mimeName(env.contentTypeOf(input === null ? {} : { 'content-type': input }, createMimeRegistry())),
  merge_parameters: (input: { request_parameters: Params; query_parameters: Params; path_parameters?: Params }) =>
    mergeParameters(input.request_parameters, input.query_parameters, input.path_parameters),
  remote_ip: (input: { env?: CgiEnv; remote_addr?: string }) => env.remoteIp(cgiOf(input)),
  domain: (input: { host: string | null; tld_length?: number }) => env.domain(envWithHost(input.host), input.tld_length),
  subdomains: (input: { host: string | null; tld_length?: number }) => env.subdomains(envWithHost(input.host), input.tld_length),
  port_string: (input: { port: number; ssl?: boolean }) => env.portString(envWithHost('example.org', input.port, input.ssl)),
  host_with_port: (input: { env?: CgiEnv; host?: string; port?: number }) =>
    env.hostWithPort(input.env ? cgiOf(input) : envWithHost(input.host ?? null, input.port)),
  host: (input: { env?: CgiEnv; host?: string }) => env.host(input.env ? cgiOf(input) : envWithHost(input.host ?? null)),
  request_uri_and_path: (input: { REQUEST_URI: string; relative_url_root?: string }) => env.requestUriAndPath(input.REQUEST_URI, input.relative_url_root ?? ''),
  server_software: (input: string | null) => env.serverSoftware({ headers: {}, server_software: input ?? undefined }),
  xhr: (input: Record<string, string | null>) => env.xhr({ headers: headersFrom(input) }),
  ssl: (input: CgiEnv) => env.ssl(envFromCgi(input)),
  parse_cookie_header: (input: string) => Object.fromEntries(Object.entries(env.parseCookieHeader(input)).map(([k, v]) => [k, [v]])),
  query_parameters: (input: { REQUEST_URI: string }) => parseQuery(env.queryString(input.REQUEST_URI)),
  request_headers_lookup: (input: { env?: CgiEnv; headers?: Record<string, string | null>; name: string }) =>
    env.requestHeader(input.headers ? headersFrom(input.headers) : envFromCgi(input.env ?? {}).headers, input.name) ?? null,
  local_request: (input: { env?: CgiEnv; remote_addr?: string }) => env.localRequest(cgiOf(input)),
  interpret_status: (input: number | { symbol: string } | { string: string }) =>
    interpretStatus(typeof input === 'number' ? input : 'symbol' in input ? input.symbol : input.string),
  head_option_header_name: (input: string) => headOptionHeaderName(input),
};

/**
 * Header names, HTTP (any case) or CGI (`HTTP_CONTENT_TYPE`, `CONTENT_TYPE`, as Rails' `Http::Headers`
 * is built from the env), to the lower-case headers a `RequestEnv` holds.
 */
function headersFrom(input: Record<string, string | null>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    if (value === null) continue;
    const cgi = /^[A-Z0-9_]+$/.test(name) && name.includes('_');
    headers[(cgi ? name.replace(/^HTTP_/, '').replaceAll('_', '-') : name).toLowerCase()] = value;
  }
  return headers;
}

/**
 * Whether a thrown error is the exception a fact's `{ "raises": class }` names: the framework error of that
 * name, or, where Rails raised its generic `ActionController::ActionControllerError` (the root of its
 * controller errors), any framework error, since Signalbox gives such failures classes of their own
 * (the IP spoofing check's is `IpSpoofing`). Any other class is compared by name.
 */
export function raisedAs(error: unknown, railsClass: string): boolean {
  const want = expectedRaise(railsClass);
  if (error instanceof SignalboxError) return error.code === want.code || railsClass === 'ActionController::ActionControllerError';
  return error instanceof Error && error.name === want.type;
}

function marker(expected: object): string | undefined {
  const keys = Object.keys(expected);
  return keys.length >= 1 && keys[0].startsWith('$') ? keys[0] : undefined;
}

/** Deep equality of a result with a corpus value, reading the corpus's markers. Key order is ignored. */
export function sameFact(actual: unknown, expected: unknown): boolean {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    const e = expected as Record<string, any>;
    switch (marker(e)) {
      case '$file':
        return actual instanceof UploadedFile && Object.entries(e.$file as Record<string, unknown>).every(([k, v]) => {
          if (k === 'content') return sameFact(actual.read(), v);
          return sameFact((actual as unknown as Record<string, unknown>)[k], v);
        });
      case '$date':
        return actual instanceof Date && actual.toISOString() === `${e.$date}T00:00:00.000Z`;
      case '$time':
        return actual instanceof Date && actual.getTime() === Date.parse(e.$time);
      case '$repeat':
        return actual === String(e.$repeat).repeat(e.count);
      case '$binary_string':
        return typeof actual === 'string' && Buffer.byteLength(actual, 'latin1') === e.$binary_string.size;
      default:
        break;
    }
  }
  if (actual === expected) return true;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.length === expected.length && actual.every((a, i) => sameFact(a, expected[i]));
  }
  if (actual !== null && expected !== null && typeof actual === 'object' && typeof expected === 'object' && !Array.isArray(actual) && !Array.isArray(expected)) {
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const keys = Object.keys(e);
    return Object.keys(a).length === keys.length && keys.every((k) => Object.hasOwn(a, k) && sameFact(a[k], e[k]));
  }
  return false;
}
