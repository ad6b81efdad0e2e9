/**
 * The request an action sees: method (after `_method` simulation), path,
 * parameters, format, host and the rest, computed from one
 * `RequestMessage`. Cheap to build: anything not needed by every request
 * (query parsing, Accept parsing, host logic) is computed on first use.
 */
import { ArgumentError, BadRequest, UnknownHttpMethod } from '../errors.ts';
import type { MimeRegistry, MimeType } from '../mime/types.ts';
import { parseQuery } from '../request/query.ts';
import type { ParamLimits, Params } from '../request/params.ts';
import * as env from '../request/env.ts';
import { ifNoneMatchNames } from './etag.ts';
import { normaliseHeaders, type RequestMessage } from './message.ts';

/** Methods a request may use (after `_method`); anything else is an `UnknownHttpMethod`. */
export const ACCEPTED_METHODS: ReadonlySet<string> = new Set(['get', 'head', 'post', 'put', 'delete', 'options']);

/** What a 501 for any other method says the server implements (its `Allow`). */
const IMPLEMENTED: readonly string[] = Object.freeze([...ACCEPTED_METHODS].map((m) => m.toUpperCase()));

/** An accepted method by its upper-case name, lower-cased; undefined for any other name. A switch needs no lookup. */
function lowerMethodOf(upper: string): string | undefined {
  switch (upper) {
    case 'GET': return 'get';
    case 'HEAD': return 'head';
    case 'POST': return 'post';
    case 'PUT': return 'put';
    case 'DELETE': return 'delete';
    case 'OPTIONS': return 'options';
    default: return undefined;
  }
}

export interface RequestSettings {
  readonly mime: MimeRegistry;
  readonly limits?: ParamLimits;
  readonly relative_url_root?: string;
  /** Believe forwarding headers (X-Forwarded-Host/-Proto/-For); see `config.trustProxy`. */
  readonly trustProxy?: boolean;
}

function isEmpty(params: Params): boolean {
  for (const _ in params) return false;
  return true;
}

/** Path parameters before recognition: none, and one shared object for every request. */
const NO_PARAMS: Params = Object.freeze({});

export class Request {
  readonly headers: Readonly<Record<string, string>>;
  /** The method as received, upper-case. */
  readonly rawMethod: string;
  /** Path and query as received (an absolute-form target is reduced to its path). */
  readonly request_uri: string;
  /** The path, still percent-encoded (recognition decodes parameters itself). */
  readonly path: string;
  readonly query_string: string;
  readonly remoteAddress: string;
  readonly localAddress: string | undefined;
  readonly localPort: number | undefined;
  readonly encrypted: boolean;
  readonly transport: string;
  /** The body, when it came whole; empty when it is streamed (see `bodyStream`). */
  readonly body: Uint8Array | string;
  /** The body's chunks, when the transport streams it (a multipart upload), read once by the parse stage; else null. */
  readonly bodyStream: AsyncIterable<Uint8Array> | null;
  /** Parameters from the body (set by the parse stage). */
  request_parameters: Params = {};
  #path_parameters: Params = NO_PARAMS;
  #query: Params | null = null;
  #parameters: Params | null = null;
  #method: string | null = null;
  /** The method as received, lower-cased. */
  readonly #lowerMethod: string;
  #accepts: readonly MimeType[] | null = null;
  #format: MimeType | null | undefined = undefined;
  /** The format an action set (`request.format = 'xml'`): kept as the `format` parameter through any re-merge. */
  #forcedFormat: string | null = null;
  #env: env.RequestEnv | null = null;
  readonly #settings: RequestSettings;

  constructor(message: RequestMessage, settings: RequestSettings) {
    this.#settings = settings;
    this.headers = normaliseHeaders(message.headers);
    const method = typeof message.method === 'string' ? message.method : String(message.method);
    // One lookup for the usual upper-case spelling; another only for a method sent in another case.
    let lower = lowerMethodOf(method);
    this.rawMethod = method;
    if (lower === undefined) {
      this.rawMethod = method.toUpperCase();
      lower = lowerMethodOf(this.rawMethod);
      if (lower === undefined) throw new UnknownHttpMethod(this.rawMethod, IMPLEMENTED);
    }
    this.#lowerMethod = lower;
    const { request_uri, path } = env.requestUriAndPath(message.url, settings.relative_url_root ?? '');
    this.request_uri = request_uri;
    // Recognition decodes path parameters; a path whose escapes cannot decode is refused here, once.
    if (path.includes('%')) {
      try {
        decodeURIComponent(path);
      } catch {
        throw new BadRequest(env.undecodablePath(path));
      }
    }
    this.path = path;
    const q = request_uri.indexOf('?');
    this.query_string = q < 0 ? '' : request_uri.slice(q + 1);
    this.remoteAddress = message.remoteAddress ?? '';
    this.localAddress = message.localAddress;
    this.localPort = message.localPort;
    this.encrypted = message.encrypted === true;
    this.transport = message.transport ?? 'http';
    const body = message.body ?? '';
    const streamed = typeof body !== 'string' && !(body instanceof Uint8Array);
    this.body = streamed ? '' : body;
    this.bodyStream = streamed ? body : null;
  }

  get mime(): MimeRegistry {
    return this.#settings.mime;
  }

  get limits(): ParamLimits | undefined {
    return this.#settings.limits;
  }

  /** Query-string parameters (parsed on first use). */
  get query_parameters(): Params {
    return (this.#query ??= this.query_string === '' ? {} : parseQuery(this.query_string, this.#settings.limits));
  }

  /** Path parameters from recognition; they win over query and body parameters of the same name. */
  get path_parameters(): Params {
    return this.#path_parameters;
  }

  set path_parameters(params: Params) {
    this.#path_parameters = params;
    this.#parameters = null;
    this.#format = undefined;
  }

  /** Body, then query, then path parameters merged (later wins), as Rails merges them. */
  get parameters(): Params {
    if (this.#parameters === null) {
      const body = this.request_parameters;
      const query = this.query_parameters;
      // Most requests carry path parameters alone; one spread of them costs half of three.
      this.#parameters = isEmpty(body) && isEmpty(query) ? { ...this.#path_parameters } : { ...body, ...query, ...this.#path_parameters };
      if (this.#forcedFormat !== null) this.#parameters.format = this.#forcedFormat;
    }
    return this.#parameters;
  }

  /** Drops cached derived values after body parameters arrive. */
  parametersChanged(): void {
    this.#parameters = null;
    this.#method = null;
    this.#format = undefined;
  }

  /** The method as actions see it: lower-case, `_method` applied to POSTs, HEAD read as GET. */
  get method(): string {
    const m = this.request_method;
    return m === 'head' ? 'get' : m;
  }

  /** True when the client sent HEAD (the method still reads `get`). */
  get head(): boolean {
    return this.rawMethod === 'HEAD';
  }

  /**
   * Rails' `request_method`: the method with `_method` applied, but HEAD (sent, or simulated with
   * `_method=head`) kept as `head`, where `method` reads it as `get`.
   */
  get request_method(): string {
    return this.#method ??= this.#computeMethod();
  }

  /** Rails' `get?`: a GET, or a HEAD, which Rails answers as a GET. */
  get get(): boolean {
    return this.method === 'get';
  }

  /** Rails' `post?`: a POST that no `_method` turned into another method. */
  get post(): boolean {
    return this.method === 'post';
  }

  /** Rails' `put?`: a PUT, or a POST carrying `_method=put`. */
  get put(): boolean {
    return this.method === 'put';
  }

  /** Rails' `delete?`: a DELETE, or a POST carrying `_method=delete`. */
  get delete(): boolean {
    return this.method === 'delete';
  }

  // `_method` may name any accepted method, as in Rails; only a string counts (an array or hash is ignored).
  #computeMethod(): string {
    const raw = this.#lowerMethod;
    if (raw === 'post') {
      const simulated = this.request_parameters._method ?? this.query_parameters._method;
      if (typeof simulated === 'string' && simulated.trim() !== '') {
        const m = simulated.trim().toLowerCase();
        if (!ACCEPTED_METHODS.has(m)) throw new UnknownHttpMethod(simulated, IMPLEMENTED);
        return m;
      }
    }
    return raw;
  }

  /** The request body's MIME type (from Content-Type), or null. */
  get content_type(): MimeType | null {
    return env.contentTypeOf(this.headers, this.mime);
  }

  /** Accepted types in preference order; with no Accept header, the Content-Type then `*\/*`. */
  get accepts(): readonly MimeType[] {
    if (this.#accepts === null) {
      const accept = this.headers.accept;
      // The Content-Type only matters without an Accept header, so it is read only then.
      this.#accepts = this.mime.acceptList(accept, accept === undefined || accept.trim() === '' ? this.content_type : null);
    }
    return this.#accepts;
  }

  /** The negotiated format: a `format` parameter naming a registered extension, else the first accepted type. */
  get format(): MimeType | null {
    if (this.#format === undefined) {
      const param = this.parameters.format;
      this.#format = typeof param === 'string' && param !== '' ? (this.mime.lookup_by_extension(param) ?? null) : (this.accepts[0] ?? null);
    }
    return this.#format;
  }

  /**
   * Forces the format, as Rails' `request.format = :xml` does: it becomes the `format` parameter, so
   * `respond_to` and the template format follow it over both a `?format=` given and the Accept header.
   * Takes a format symbol or extension (`'xml'`, a registered alias such as `'iphone'`) or a registered
   * MimeType; null returns to negotiation (and drops the `format` parameter).
   * @example static { this.before_filter((c) => { if (c.request.headers['user-agent']?.includes('iPhone')) c.request.format = 'iphone' }) }
   */
  set format(value: MimeType | string | null) {
    if (value === null) {
      this.#forcedFormat = null;
      delete this.parameters.format;
      this.#format = undefined;
      return;
    }
    let type: MimeType | undefined;
    let ext: string | null;
    if (typeof value === 'string') {
      type = this.mime.lookup_by_extension(value) ?? this.mime.get(value);
      ext = value;
    } else {
      type = value;
      ext = value.symbol;
    }
    if (!type || ext === null || this.mime.lookup_by_extension(ext) === undefined) {
      throw new ArgumentError(`Unknown format ${JSON.stringify(typeof value === 'string' ? value : value.string)}: register it on the app's MIME registry first`);
    }
    this.#forcedFormat = ext;
    this.parameters.format = ext;
    this.#format = type;
  }

  /**
   * Which template renders without `respond_to`: the `format` parameter if any,
   * else `js` when the client's first accepted type is JavaScript, else `html`.
   */
  get template_format(): string {
    const param = this.parameters.format;
    if (typeof param === 'string' && param !== '') {
      const type = this.mime.lookup_by_extension(param);
      return type?.symbol ?? param;
    }
    return this.accepts[0]?.symbol === 'js' ? 'js' : 'html';
  }

  get env(): env.RequestEnv {
    return (this.#env ??= {
      headers: this.headers,
      remote_addr: this.remoteAddress,
      ssl: this.encrypted,
      server_addr: this.localAddress === undefined ? undefined : bracketIpv6(this.localAddress),
      server_port: this.localPort,
      trustProxy: this.#settings.trustProxy === true,
    });
  }

  get xhr(): boolean {
    return env.xhr(this.env);
  }

  get ssl(): boolean {
    return env.ssl(this.env);
  }

  get protocol(): string {
    return env.protocol(this.env);
  }

  get host(): string {
    return env.host(this.env);
  }

  get port(): number {
    return env.port(this.env);
  }

  get port_string(): string {
    return env.portString(this.env);
  }

  get host_with_port(): string {
    return env.hostWithPort(this.env);
  }

  domain(tld_length = 1): string | null {
    return env.domain(this.env, tld_length);
  }

  subdomains(tld_length = 1): string[] {
    return env.subdomains(this.env, tld_length);
  }

  get remote_ip(): string {
    return env.remoteIp(this.env);
  }

  get referer(): string | undefined {
    return this.headers.referer;
  }

  /**
   * The body as text, decoded as UTF-8 (Rails' `raw_post`): what a webhook's JSON or a form arrived as.
   * Empty for a body streamed to the parser (a multipart upload). A signature over the bytes is checked
   * against `body`, which keeps them as they came.
   */
  get raw_post(): string {
    const body = this.body;
    return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  }

  get user_agent(): string | undefined {
    return this.headers['user-agent'];
  }

  get cookies(): Record<string, string> {
    return env.parseCookieHeader(this.headers.cookie ?? '');
  }

  /** Whether `If-None-Match` names this ETag (or `*`). */
  etag_matches(etag: string | undefined): boolean {
    return ifNoneMatchNames(this.headers['if-none-match'], etag);
  }
}

/** An IPv6 literal is bracketed in a URL's authority. */
function bracketIpv6(address: string): string {
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return address.slice(7);
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}
