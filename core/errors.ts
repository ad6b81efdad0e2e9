/**
 * Every framework error: a class with a stable `code`, and one table mapping
 * codes to HTTP statuses. A thrown `SignalboxError` tells the request layer
 * what to answer; anything else thrown is an unrescued exception (500).
 *
 * @example
 *   try { routes.recognize('GET', '/nope') } catch (e) { if (e instanceof RoutingError) ... }
 */

/** The status each error code answers with. Kept in one place so a test can audit it. */
export const ERROR_STATUS = Object.freeze({
  SBX_ERR_ROUTING: 404,
  SBX_ERR_MALFORMED_PATH: 400,
  SBX_ERR_URL_GENERATION: 500,
  SBX_ERR_MISSING_HOST: 500,
  SBX_ERR_METHOD_NOT_ALLOWED: 405,
  SBX_ERR_NOT_IMPLEMENTED: 501,
  SBX_ERR_ARGUMENT: 500,
  SBX_ERR_UNKNOWN_HTTP_METHOD: 501,
  SBX_ERR_UNKNOWN_ACTION: 404,
  SBX_ERR_RECORD_NOT_FOUND: 404,
  SBX_ERR_RECORD_INVALID: 422,
  SBX_ERR_RECORD_NOT_SAVED: 422,
  SBX_ERR_STALE_OBJECT: 409,
  SBX_ERR_NOT_ACCEPTABLE: 406,
  SBX_ERR_INVALID_AUTHENTICITY_TOKEN: 422,
  SBX_ERR_DOUBLE_RENDER: 500,
  SBX_ERR_REDIRECT_BACK: 500,
  SBX_ERR_MISSING_TEMPLATE: 500,
  SBX_ERR_MISSING_FILE: 500,
  SBX_ERR_ACTION_CONTROLLER: 500,
  SBX_ERR_BAD_REQUEST: 400,
  SBX_ERR_PARAMS_ENCODING: 400,
  SBX_ERR_PARAMS_DEPTH: 400,
  SBX_ERR_PARAMS_COUNT: 400,
  SBX_ERR_PARAMS_CONFLICT: 400,
  SBX_ERR_JSON_PARSE: 400,
  SBX_ERR_XML_PARSE: 400,
  SBX_ERR_MULTIPART_PARSE: 400,
  SBX_ERR_IP_SPOOFING: 400,
  SBX_ERR_BLOCKED_HOST: 403,
  SBX_ERR_UNSAFE_URL_OPTIONS: 400,
  SBX_ERR_PAYLOAD_TOO_LARGE: 413,
  SBX_ERR_UNKNOWN_STATUS: 500,
  SBX_ERR_COOKIE_OVERFLOW: 500,
  SBX_ERR_SESSION_OVERFLOW: 500,
  SBX_ERR_TEMPLATE: 500,
  SBX_ERR_INVALID_RESPONSE_HEADER: 500,
  SBX_ERR_SESSION_STORE_UNAVAILABLE: 503,
} as const);

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Base of every framework error: `code` is stable, `status` comes from `ERROR_STATUS`. */
export class SignalboxError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** 4xx messages are safe to show to clients; 5xx messages are not. */
  readonly expose: boolean;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.expose = this.status < 500;
  }
}

/** No route matches the request (or a route was declared without a controller). */
export class RoutingError extends SignalboxError {
  constructor(message: string, code: ErrorCode = 'SBX_ERR_ROUTING') {
    super(code, message);
  }
}

/** The request path carries a percent-encoding that does not decode. */
export class MalformedPathError extends RoutingError {
  constructor(path: string) {
    super(`Malformed percent-encoding in path ${JSON.stringify(path)}`, 'SBX_ERR_MALFORMED_PATH');
  }
}

/** A named helper or `generate` could not build a path from the options given. */
export class UrlGenerationError extends RoutingError {
  constructor(message: string) {
    super(message, 'SBX_ERR_URL_GENERATION');
  }
}

/**
 * A full URL was asked for with no host to put in it (no `host` option, no `default_url_options.host`,
 * no request). A programming error rather than a routing one, so not a `RoutingError`; answers 500.
 */
export class MissingHost extends SignalboxError {
  constructor() {
    super('SBX_ERR_MISSING_HOST', 'Missing host to link to! Please provide the :host parameter or set default_url_options[:host]');
  }
}

/** The path matches a route, but not with this method; `allowed` lists those that would. */
export class MethodNotAllowed extends SignalboxError {
  readonly allowed: readonly string[];
  constructor(allowed: readonly string[], message?: string) {
    super('SBX_ERR_METHOD_NOT_ALLOWED', message ?? `Only ${allowed.map((m) => m.toUpperCase()).join(', ')} requests are allowed.`);
    this.allowed = Object.freeze([...allowed]);
  }
}

/** The request used a method outside HTTP's known set; `allowed` lists those that would match. */
export class NotImplemented extends SignalboxError {
  readonly allowed: readonly string[];
  constructor(allowed: readonly string[], message?: string) {
    super('SBX_ERR_NOT_IMPLEMENTED', message ?? `Unknown HTTP method; only ${allowed.map((m) => m.toUpperCase()).join(', ')} requests are allowed.`);
    this.allowed = Object.freeze([...allowed]);
  }
}

/** A declaration was given arguments it cannot accept (bad requirement, unknown method, ...). */
export class ArgumentError extends SignalboxError {
  constructor(message: string) {
    super('SBX_ERR_ARGUMENT', message);
  }
}

/** The request used a method HTTP does not define here (not GET, HEAD, POST, PUT, DELETE or OPTIONS); `allowed` lists those it does. */
export class UnknownHttpMethod extends SignalboxError {
  readonly method: string;
  readonly allowed: readonly string[];
  constructor(method: string, allowed: readonly string[]) {
    super('SBX_ERR_UNKNOWN_HTTP_METHOD', `Unknown HTTP method ${JSON.stringify(method)}`);
    this.method = method;
    this.allowed = Object.freeze([...allowed]);
  }
}

/** The route named an action the controller does not have (or hides), and no template of that name answers it either. */
export class UnknownAction extends SignalboxError {
  constructor(controller: string, action: string) {
    super('SBX_ERR_UNKNOWN_ACTION', `No action responded to ${action} in ${controller}`);
  }
}

/** Thrown by model code when a record does not exist; answers 404 unless rescued. */
export class RecordNotFound extends SignalboxError {
  constructor(message = 'Record not found') {
    super('SBX_ERR_RECORD_NOT_FOUND', message);
  }
}

/** Thrown by model code when a record fails validation; answers 422 unless rescued. */
export class RecordInvalid extends SignalboxError {
  readonly errors: readonly string[];
  constructor(errors: readonly string[] = [], message?: string) {
    super('SBX_ERR_RECORD_INVALID', message ?? `Validation failed: ${errors.join(', ')}`);
    this.errors = Object.freeze([...errors]);
  }
}

/** Thrown by model code when a save is refused; answers 422 unless rescued. */
export class RecordNotSaved extends SignalboxError {
  constructor(message = 'Record not saved') {
    super('SBX_ERR_RECORD_NOT_SAVED', message);
  }
}

/** Thrown by model code on a lost update (optimistic locking); answers 409 unless rescued. */
export class StaleObjectError extends SignalboxError {
  constructor(message = 'Attempted to update a stale object') {
    super('SBX_ERR_STALE_OBJECT', message);
  }
}

/** `respond_to` found no representation the client accepts. */
export class NotAcceptable extends SignalboxError {
  constructor(accepted: readonly string[] = [], message?: string) {
    super('SBX_ERR_NOT_ACCEPTABLE', message ?? (accepted.length ? `None of ${accepted.join(', ')} is available` : 'Not acceptable'));
  }
}

/** A state-changing request without the session's authenticity token. */
export class InvalidAuthenticityToken extends SignalboxError {
  constructor() {
    super('SBX_ERR_INVALID_AUTHENTICITY_TOKEN', 'Invalid authenticity token');
  }
}

/** An action rendered or redirected twice. */
export class DoubleRenderError extends SignalboxError {
  constructor() {
    super('SBX_ERR_DOUBLE_RENDER', 'Render and/or redirect were called multiple times in this action. You may only call render OR redirect, and at most once per action.');
  }
}

/** `send_file` of a path that is no file the process can read (Rails' `MissingFile`). */
export class MissingFile extends SignalboxError {
  readonly path: string;
  constructor(path: string, cause?: unknown) {
    super('SBX_ERR_MISSING_FILE', `Cannot read file ${path}`);
    this.path = path;
    if (cause !== undefined) this.cause = cause;
  }
}

/** `redirect_to('back')` with no Referer to go back to. */
export class RedirectBackError extends SignalboxError {
  constructor() {
    super('SBX_ERR_REDIRECT_BACK', 'No HTTP_REFERER was set in the request to this action, so redirect_to :back could not be called successfully.');
  }
}

/** No template for the action and format; `searched` lists every path tried. */
export class MissingTemplate extends SignalboxError {
  readonly searched: readonly string[];
  constructor(searched: readonly string[]) {
    // The paths after the first only when there are others: one path named twice reads as two searches.
    super('SBX_ERR_MISSING_TEMPLATE', `Missing template ${searched[0] ?? ''}${searched.length > 1 ? ` (searched: ${searched.join(', ')})` : ''}`);
    this.searched = Object.freeze([...searched]);
  }
}

/** A misuse of the controller API (e.g. `redirect_to(null)`). */
export class ActionControllerError extends SignalboxError {
  constructor(message: string) {
    super('SBX_ERR_ACTION_CONTROLLER', message);
  }
}

/** The status an error answers with: its table status, or 500 for anything else. */
export function statusOf(error: unknown): number {
  return error instanceof SignalboxError ? error.status : 500;
}

/** The request cannot be read as sent: malformed parameters, body or headers. Answers 400. */
export class BadRequest extends SignalboxError {
  constructor(message: string, code: ErrorCode = 'SBX_ERR_BAD_REQUEST') {
    super(code, message);
  }
}

/** Why parameters were refused: bad percent-encoding, nesting too deep, too many, or clashing containers. */
export type ParamsErrorCode = 'SBX_ERR_PARAMS_ENCODING' | 'SBX_ERR_PARAMS_DEPTH' | 'SBX_ERR_PARAMS_COUNT' | 'SBX_ERR_PARAMS_CONFLICT';

/** Query or form parameters that cannot be parsed (each reason has its own code); answers 400. */
export class ParamsParseError extends BadRequest {
  constructor(code: ParamsErrorCode, message: string) {
    super(message, code);
  }
}

/** The body format that failed to parse. */
export type BodyErrorCode = 'SBX_ERR_JSON_PARSE' | 'SBX_ERR_XML_PARSE' | 'SBX_ERR_MULTIPART_PARSE';

/** A JSON, XML or multipart body that is not well-formed; answers 400. */
export class BodyParseError extends BadRequest {
  constructor(code: BodyErrorCode, message: string) {
    super(message, code);
  }
}

/** Client-IP and X-Forwarded-For disagree, so the client address cannot be trusted; answers 400. */
export class IpSpoofing extends BadRequest {
  readonly clientIp: string;
  readonly forwardedFor: string;
  constructor(clientIp: string, forwardedFor: string) {
    // The header values stay out of the message: clients see it, and they chose those values.
    super('IP spoofing attack?! Client-IP and X-Forwarded-For name different clients', 'SBX_ERR_IP_SPOOFING');
    this.clientIp = clientIp;
    this.forwardedFor = forwardedFor;
  }
}

/** The request names a host the app does not serve (`config.hosts`): a Host-header or DNS-rebinding attack. Answers 403. */
export class BlockedHost extends SignalboxError {
  readonly host: string;
  constructor(host: string) {
    super('SBX_ERR_BLOCKED_HOST', `Blocked host: ${JSON.stringify(host.slice(0, 200))}; add it to config.hosts to serve it`);
    this.host = host;
  }
}

/**
 * `url_for` or `redirect_to` was handed a hash straight from the request's parameters:
 * its `host`, `protocol` and `port` are the client's to choose (an open redirect). Answers 400.
 */
export class UnsafeUrlOptions extends SignalboxError {
  constructor() {
    super('SBX_ERR_UNSAFE_URL_OPTIONS', 'url_for was given request parameters as its options; they can name any host. Build the options from the keys you mean');
  }
}

/** A body, part or field over its configured size or count limit; `limit` names it. Answers 413. */
export class PayloadTooLarge extends SignalboxError {
  readonly limit: string;
  readonly max: number;
  constructor(limit: string, max: number, message?: string) {
    super('SBX_ERR_PAYLOAD_TOO_LARGE', message ?? `Request entity too large: over the ${limit} limit of ${max}`);
    this.limit = limit;
    this.max = max;
  }
}

/** A status given by a name that is not in the status table (a programming error, so 500). */
export class UnknownStatus extends SignalboxError {
  constructor(status: unknown) {
    super('SBX_ERR_UNKNOWN_STATUS', `Unknown HTTP status ${JSON.stringify(status) ?? String(status)}`);
  }
}

/** A session too large for its cookie (more than 4 KB once signed); nothing is written. */
export class CookieOverflow extends SignalboxError {
  readonly size: number;
  constructor(size: number, limit: number) {
    super('SBX_ERR_COOKIE_OVERFLOW', `Session cookie of ${size} bytes exceeds the ${limit}-byte limit; keep less in the session`);
    this.size = size;
  }
}

/**
 * A session larger than its store keeps (`redisSessionStore`'s `maxBytes` of JSON); nothing is written,
 * and the session stored before the request stays as it was.
 */
export class SessionOverflow extends SignalboxError {
  readonly size: number;
  constructor(size: number, limit: number) {
    super('SBX_ERR_SESSION_OVERFLOW', `Session of ${size} bytes exceeds the store's ${limit}-byte limit; keep less in the session`);
    this.size = size;
  }
}

/** A template threw while rendering; `cause` is what it threw. */
export class TemplateError extends SignalboxError {
  readonly template: string;
  constructor(template: string, cause: unknown) {
    super('SBX_ERR_TEMPLATE', `${cause instanceof Error ? cause.message : String(cause)} (in template ${template})`);
    this.template = template;
    this.cause = cause;
  }
}

/** An action set a header name or value HTTP cannot carry (a control character, say); nothing of that response is sent. */
export class InvalidResponseHeader extends SignalboxError {
  readonly header: string;
  constructor(header: string) {
    super('SBX_ERR_INVALID_RESPONSE_HEADER', `Response header ${JSON.stringify(header.slice(0, 80))} has a name or value HTTP cannot carry (a value is text, a number or a list of them, without control characters)`);
    this.header = header;
  }
}

/**
 * The session store could not be used (Redis down, a command timed out, a write Redis refused): the request is answered
 * 503 with `Retry-After` rather than run with an empty session, which would lose the visitor's data
 * or let a write overwrite it. `retryAfter` is in seconds.
 */
export class SessionStoreUnavailable extends SignalboxError {
  readonly retryAfter: number;
  constructor(store: string, retryAfter: number, cause?: unknown) {
    super('SBX_ERR_SESSION_STORE_UNAVAILABLE', `The session store (${store}) is unavailable${cause instanceof Error ? `: ${cause.message}` : ''}`);
    this.retryAfter = retryAfter;
    if (cause !== undefined) this.cause = cause;
  }
}
