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
  SBX_ERR_METHOD_NOT_ALLOWED: 405,
  SBX_ERR_NOT_IMPLEMENTED: 501,
  SBX_ERR_ARGUMENT: 500,
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
