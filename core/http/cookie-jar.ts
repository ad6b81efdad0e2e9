/**
 * `this.cookies` in a controller: the request's cookies to read, and the
 * response's `Set-Cookie` headers to write (Rails' `CookieJar`). Values are
 * serialised by the `cookie` package, which refuses names and values that
 * could split a header.
 *
 * @example
 *   this.cookies.set('theme', 'dark');
 *   this.cookies.set('remember', { value: token, expires: inAYear, http_only: true });
 *   this.cookies.delete('theme');
 */
import { serialize, type SerializeOptions } from 'cookie';
import { ArgumentError } from '../errors.ts';
import { isUnsafeKey } from '../request/param-values.ts';
import type { Response } from './response.ts';

/** The options a cookie may carry, in Rails' spelling (`http_only`) or the short one (`httponly`). */
export interface CookieOptions {
  readonly value?: string;
  readonly path?: string;
  readonly domain?: string;
  readonly expires?: Date;
  /** Seconds until the cookie expires. */
  readonly max_age?: number;
  readonly secure?: boolean;
  readonly http_only?: boolean;
  readonly httponly?: boolean;
  readonly same_site?: 'lax' | 'strict' | 'none';
}

export type CookieValue = string | (CookieOptions & { readonly value: string });

// A date well in the past: browsers drop a cookie whose expiry has passed.
const EXPIRED = new Date(0);

export class CookieJar {
  readonly #read: () => Record<string, string>;
  readonly #response: Response;
  /** What this request set or deleted (undefined), so reads see the action's own writes. */
  // Made on the first write: most actions never write a cookie.
  #written: Map<string, string | undefined> | null = null;
  #request: Record<string, string> | null = null;

  constructor(readRequestCookies: () => Record<string, string>, response: Response) {
    this.#read = readRequestCookies;
    this.#response = response;
  }

  /** The cookie's value: as set earlier in this action, else as the request sent it. */
  get(name: string): string | undefined {
    if (this.#written?.has(name)) return this.#written.get(name);
    const cookies = (this.#request ??= this.#read());
    return Object.hasOwn(cookies, name) ? cookies[name] : undefined;
  }

  /** Whether the cookie is present (after this action's own writes). */
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Sends the cookie with the response; `path` defaults to `/`. */
  set(name: string, value: CookieValue): void {
    const options: CookieOptions = typeof value === 'string' ? { value } : value;
    if (typeof options.value !== 'string') throw new ArgumentError(`Cookie ${JSON.stringify(name)} needs a string value`);
    this.#write(name, options.value, options);
    (this.#written ??= new Map()).set(name, options.value);
  }

  /** Tells the browser to drop the cookie; give the `path`/`domain` it was set with. */
  delete(name: string, options: Omit<CookieOptions, 'value' | 'expires' | 'max_age'> = {}): void {
    this.#write(name, '', { ...options, expires: EXPIRED });
    (this.#written ??= new Map()).set(name, undefined);
  }

  /** The request's cookies merged with this action's writes. */
  toObject(): Record<string, string> {
    const all: Record<string, string> = { ...(this.#request ??= this.#read()) };
    for (const [name, value] of this.#written ?? []) {
      if (value === undefined) delete all[name];
      else all[name] = value;
    }
    return all;
  }

  #write(name: string, value: string, options: CookieOptions): void {
    if (isUnsafeKey(name)) throw new ArgumentError(`${JSON.stringify(name)} cannot name a cookie`);
    const attributes: SerializeOptions = {
      path: options.path ?? '/',
      ...(options.domain !== undefined ? { domain: options.domain } : {}),
      ...(options.expires !== undefined ? { expires: options.expires } : {}),
      ...(options.max_age !== undefined ? { maxAge: options.max_age } : {}),
      ...(options.secure ? { secure: true } : {}),
      ...(options.http_only ?? options.httponly ? { httpOnly: true } : {}),
      ...(options.same_site !== undefined ? { sameSite: options.same_site } : {}),
    };
    let header: string;
    try {
      header = serialize(name, value, attributes);
    } catch (error) {
      throw new ArgumentError(`Cookie ${JSON.stringify(name)} cannot be sent: ${(error as Error).message}`);
    }
    // A later write of the same cookie replaces the earlier one rather than sending both.
    const prefix = `${name}=`;
    const index = this.#response.cookies.findIndex((c) => c.startsWith(prefix));
    if (index >= 0) this.#response.cookies.splice(index, 1);
    this.#response.cookies.push(header);
  }
}
