/**
 * `verify`: prerequisites checked before an action. When one fails, the
 * declared flash and headers are added and the declared render or redirect
 * happens; with neither, the chain halts with 400 Bad Request.
 */
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { Flash } from '../session/flash.ts';
import type { VerifyOptions } from './declarations.ts';

/** What `verify` reads of the controller and the answers it may give (a `Controller` is one). */
export interface Verified {
  readonly params: Readonly<Record<string, unknown>>;
  readonly session: Readonly<Record<string, unknown>>;
  readonly flash: Flash;
  readonly request: Request;
  readonly response: Response;
  readonly performed: boolean;
  render(options: Record<string, unknown>): void;
  redirect_to(target: unknown): void;
  head(status: string): void;
  /** The route helpers, for a `redirect_to` that names one (`'posts_url'`). */
  readonly routes: object;
}

const list = (v: string | readonly string[] | undefined): readonly string[] => (v === undefined ? [] : typeof v === 'string' ? [v] : v);

/** Whether any prerequisite of `options` fails for this request. */
export function prerequisitesFail(c: Verified, options: VerifyOptions): boolean {
  if (list(options.params).some((k) => c.params[k] === undefined || c.params[k] === null)) return true;
  if (list(options.session).some((k) => c.session[k] === undefined || c.session[k] === null)) return true;
  if (list(options.flash).some((k) => c.flash.get(k) === undefined || c.flash.get(k) === null)) return true;
  if (options.method !== undefined && list(options.method).every((m) => c.request.method !== m.toLowerCase())) return true;
  if (options.xhr !== undefined && c.request.xhr !== options.xhr) return true;
  return false;
}

/** The verify filter itself. */
export function verifyAction(c: Verified, options: VerifyOptions): void {
  if (!prerequisitesFail(c, options)) return;
  if (options.add_flash) c.flash.update(options.add_flash);
  if (options.add_headers) for (const [name, value] of Object.entries(options.add_headers)) c.response.set_header(name, value);
  if (c.performed) return;
  if (options.render) c.render(options.render);
  else if (options.redirect_to !== undefined) {
    c.redirect_to(redirectTarget(c, options.redirect_to));
  } else c.head('bad_request');
}

/**
 * `verify`'s `redirect_to`: a name (other than 'back') is called for the target, as Rails sends a symbol
 * to the controller: a method of the controller, else a route helper (`'posts_url'`); anything else is
 * the target itself.
 */
function redirectTarget(c: Verified, target: unknown): unknown {
  if (typeof target !== 'string' || target === 'back') return target;
  const own = (c as unknown as Record<string, unknown>)[target];
  if (typeof own === 'function') return (own as () => unknown).call(c);
  const helper = (c.routes as Record<string, unknown>)[target];
  return typeof helper === 'function' ? (helper as () => unknown)() : target;
}
