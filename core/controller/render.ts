/**
 * What `render` puts in the response for each kind of option. Text-like
 * renders finish at once; template renders return a promise that dispatch
 * awaits after the action (so actions need not `await this.render(...)`).
 * A template is given a `ViewHost` (core/views/host.ts) made here from the
 * controller: what it shares with templates, never its internals.
 */
import { BadRequest, MissingTemplate } from '../errors.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { Helpers } from '../routing/index.ts';
import type { Flash } from '../session/flash.ts';
import { DEFAULT_TOKEN_PARAM } from '../session/token.ts';
import type { ViewHost } from '../views/host.ts';
import { renderView } from '../views/render.ts';
import type { ViewResolver } from '../views/resolver.ts';
import { runOf } from './action-state.ts';
import { declarationsOf } from './declarations.ts';
import { toXml } from './xml.ts';

/** What rendering reads of the controller (a `Controller` is one). */
export interface Renderer {
  readonly request: Request;
  readonly response: Response;
  readonly views: ViewResolver | null;
  readonly controller_path: string;
  readonly controller_name: string;
  readonly action_name: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly flash: Flash;
  readonly routes: Helpers;
  form_authenticity_token(): string;
  read_fragment?(name: string | Readonly<Record<string, unknown>>): unknown;
  write_fragment?(name: string | Readonly<Record<string, unknown>>, content: string, options?: { readonly expires_in?: number }): unknown;
}

export interface RenderOptions {
  readonly text?: unknown;
  readonly json?: unknown;
  /**
   * JSONP: wraps the JSON in a call to this function name (letters, digits, `_`, `$`, dot-separated;
   * anything else is a 400). Blank means no wrapping.
   */
  readonly callback?: string | null;
  readonly xml?: unknown;
  readonly html?: unknown;
  readonly js?: unknown;
  readonly nothing?: boolean;
  readonly action?: string;
  readonly template?: string;
  readonly status?: number | string;
  readonly location?: unknown;
  readonly content_type?: string;
  readonly layout?: string | boolean;
  /** Extra values for the template (besides the controller's own properties). */
  readonly locals?: Record<string, unknown>;
  /** The template's format (`xml` renders `<name>.xml`), instead of the request's. */
  readonly format?: string;
}

const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK = 128;

/** Fills the response for `options`; a promise when a template has to be loaded and run. */
export function renderBody(c: Renderer, options: RenderOptions): void | Promise<void> {
  const res = c.response;
  // Rails fills a blank charset in at render time: null set before rendering means the default, and
  // only one set after rendering (or an app default of null) leaves the charset off.
  res.charset ??= res.default_charset;
  if (options.content_type !== undefined) res.content_type = options.content_type;
  if ('text' in options) {
    // Rails answers nil text with a single space, as it does `nothing`, so that every client sees a body.
    res.body = options.text === null || options.text === undefined ? ' ' : String(options.text);
    return;
  }
  if ('json' in options) {
    let body = typeof options.json === 'string' ? options.json : JSON.stringify(options.json) ?? 'null';
    const callback = options.callback;
    if (callback !== undefined && callback !== null && callback !== '') {
      // The name usually comes from a parameter: only a plain (dotted) name may reach the body, so it cannot inject script.
      if (typeof callback !== 'string' || callback.length > MAX_CALLBACK || !CALLBACK.test(callback)) {
        // The message never repeats the name: the client chose it.
        throw new BadRequest(`Invalid JSONP callback name: up to ${MAX_CALLBACK} letters, digits, _ and $, dot-separated, not starting with a digit`);
      }
      body = `${callback}(${body})`;
    }
    // JSONP keeps application/json, as Rails 2.1 does (README: "JSONP").
    res.content_type ??= 'application/json';
    res.body = body;
    return;
  }
  if ('xml' in options) {
    res.content_type ??= 'application/xml';
    res.body = typeof options.xml === 'string' ? options.xml : toXml(options.xml);
    return;
  }
  if ('html' in options) {
    res.content_type ??= 'text/html';
    res.body = String(options.html ?? '');
    return;
  }
  if ('js' in options) {
    res.content_type ??= 'text/javascript';
    res.body = String(options.js ?? '');
    return;
  }
  if (options.nothing) {
    // Rails answers a single space, so that every HTTP client sees a body.
    res.body = ' ';
    return;
  }
  const name = options.template ?? `${c.controller_path}/${options.action ?? c.action_name}`;
  return renderTemplate(c, name, options);
}

async function renderTemplate(c: Renderer, name: string, options: RenderOptions): Promise<void> {
  const format = options.format ?? runOf(c).format ?? c.request.template_format;
  const views = c.views;
  const wanted = `${name}.${format}`;
  if (views === null) throw new MissingTemplate([`(no views directory)/${wanted}`]);
  const rendered = await renderView(views, viewHost(c), wanted, format, options.layout, options.locals ?? {});
  if (rendered === null) throw new MissingTemplate([views.describe(wanted)]);
  c.response.content_type ??= c.request.mime.get(format)?.string ?? 'text/html';
  c.response.body = rendered;
}

/**
 * What templates may read of `c`. Its own properties and methods are shared, bound to it, except
 * names starting with `_`, which are internal (the framework's per-request state, and anything an
 * application keeps out of templates the same way, as it keeps such methods from being actions).
 */
export function viewHost(c: Renderer): ViewHost {
  const declarations = declarationsOf(c.constructor);
  const record = c as unknown as Record<string, unknown>;
  const has = (name: string): boolean => name.charCodeAt(0) !== UNDERSCORE && name in c;
  return {
    get controller_name() {
      return c.controller_name;
    },
    get controller_path() {
      return c.controller_path;
    },
    layout: declarations.layout,
    get params() {
      return c.params;
    },
    get flash() {
      return c.flash;
    },
    get routes() {
      return c.routes;
    },
    tokenParam: declarations.forgery?.param ?? DEFAULT_TOKEN_PARAM,
    form_authenticity_token: () => c.form_authenticity_token(),
    ...(c.read_fragment && c.write_fragment ? {
      fragments: { read: (name) => c.read_fragment!(name), write: (name, content, options) => c.write_fragment!(name, content, options) },
    } : {}),
    has,
    read(name) {
      if (!has(name)) return undefined;
      const value = record[name];
      return typeof value === 'function' ? value.bind(c) : value;
    },
  };
}

const UNDERSCORE = 0x5f;
