/**
 * What `render` puts in the response for each kind of option. Text-like
 * renders finish at once; template renders return a promise that dispatch
 * awaits after the action (so actions need not `await this.render(...)`).
 * A template renders with the controller as its `ViewHost` and the
 * controller class's `ViewClass` (core/views/host.ts), made once per class;
 * the view context shares the controller's names, never its internals.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { ArgumentError, BadRequest, MissingTemplate } from '../errors.ts';
import { shownValue } from '../options.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import { DEFAULT_TOKEN_PARAM } from '../session/token.ts';
import type { ViewClass, ViewHost } from '../views/host.ts';
import { renderInLayout, renderPartialAlone, renderView } from '../views/render.ts';
import type { PartialOptions } from '../views/view.ts';
import type { ViewResolver } from '../views/resolver.ts';
import { runOf } from './action-state.ts';
import { actionHasLayout, declarationsOf, type LayoutConditions } from './declarations.ts';
import { toXml } from './xml.ts';
import { thenOrNow } from '../util.ts';

/** What rendering reads of the controller (a `Controller` is one): what a template's view reads, and the request and response around it. */
export interface Renderer extends ViewHost {
  readonly request: Request;
  readonly response: Response;
  readonly views: ViewResolver | null;
  readonly action_name: string;
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
  /** A layout's name, or false for none; `text` is laid out only when given one (or true, for the usual layout). */
  readonly layout?: string | boolean;
  /** Extra values for the template (besides the controller's own properties). */
  readonly locals?: Record<string, unknown>;
  /** The template's format (`xml` renders `<name>.xml`), instead of the request's. */
  readonly format?: string;
  /**
   * A partial alone, without a layout (an Ajax request's fragment): `comment` renders `<controller path>/_comment`,
   * `shared/menu` renders `shared/_menu`, and `true` the action's own (`_<action>`).
   */
  readonly partial?: string | true;
  /** With `partial`: the value of the local named after the partial. */
  readonly object?: unknown;
  /** With `partial`: renders it once per item, as a template's `v.render({ partial, collection })` does. */
  readonly collection?: Iterable<unknown>;
  /** With `partial` and `collection`: a partial rendered between the items. */
  readonly spacer_template?: string;
  /**
   * A file's content as the body (`public/404.html`, with `status: 404`), typed by its extension, with no
   * layout unless one is asked for. Read from the process's working directory when relative.
   */
  readonly file?: string;
}

/** Every option `render` takes: the keys of `RenderOptions`. */
export const RENDER_OPTIONS: ReadonlySet<string> = new Set([
  'text', 'json', 'callback', 'xml', 'html', 'js', 'nothing', 'action', 'template', 'status', 'location', 'content_type', 'layout', 'locals', 'format',
  'partial', 'object', 'collection', 'spacer_template', 'file',
]);

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
    // Rails 2.1 writes `text.to_s`: nil text is an empty body (only `nothing` answers a single space).
    const text = options.text === null || options.text === undefined ? '' : String(options.text);
    // As in Rails, text takes a layout only when asked for one (`layout: true`, or a layout's name).
    if (options.layout !== undefined && options.layout !== false && c.views !== null) return textInLayout(c, options, options.layout, text);
    res.body = text;
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
  if (options.partial !== undefined) return renderPartialBody(c, options, options.partial);
  if (options.file !== undefined) return renderFile(c, options, options.file);
  return renderTemplate(c, options);
}

/**
 * `render({ file })`: the file's text as the body, as Rails 2.1's `render :file => "#{RAILS_ROOT}/public/404.html"`
 * sent a static page (a page without ERB tags renders as it is written). Typed by its extension, the app's
 * MIME types asked first (text/html when none is known). A template module is not sent as text: it is
 * rendered with `template`. A file that cannot be read is a MissingTemplate naming it.
 */
async function renderFile(c: Renderer, options: RenderOptions, path: unknown): Promise<void> {
  if (typeof path !== 'string' || path === '') throw new ArgumentError(`render's file is the path of a file, not ${shownValue(path)}`);
  const extension = extname(path).slice(1).toLowerCase();
  if (SCRIPTS.has(extension)) throw new ArgumentError(`render({ file: ${JSON.stringify(path)} }) sends a file's text; a template module is rendered with render({ template: 'controller/action' })`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const missing = new MissingTemplate([path]);
    missing.cause = error;
    throw missing;
  }
  const res = c.response;
  res.content_type ??= (extension === '' ? undefined : c.request.mime.lookup_by_extension(extension)?.string) ?? 'text/html';
  if (options.layout !== undefined && options.layout !== false && c.views !== null) return textInLayout(c, options, options.layout, text);
  res.body = text;
}

const SCRIPTS: ReadonlySet<string> = new Set(['js', 'mjs', 'cjs', 'ts', 'mts', 'cts']);

/** `render({ partial })`: the partial alone, with no layout, in the template format, typed as that format. */
function renderPartialBody(c: Renderer, options: RenderOptions, given: string | true): void | Promise<void> {
  const format = options.format ?? templateFormat(c);
  // `true` is Rails' default template name, the action's own, as a partial: `<controller path>/_<action>`.
  const partial = given === true ? c.action_name : given;
  const views = c.views;
  if (views === null) return Promise.reject(new MissingTemplate([`(no views directory)/${c.controller_path}/_${partial}.${format}`]));
  const wanted: PartialOptions = {
    partial,
    ...(options.locals !== undefined ? { locals: options.locals } : {}),
    ...('object' in options ? { object: options.object } : {}),
    ...(options.collection !== undefined ? { collection: options.collection } : {}),
    ...(options.spacer_template !== undefined ? { spacer_template: options.spacer_template } : {}),
  };
  let rendered: string | Promise<string>;
  try {
    rendered = renderPartialAlone(views, viewClass(c.constructor), c, format, wanted);
  } catch (error) {
    return Promise.reject(error);
  }
  return thenOrNow(rendered, (markup) => {
    c.response.content_type ??= c.request.mime.get(format)?.string ?? 'text/html';
    c.response.body = markup;
  });
}

function textInLayout(c: Renderer, options: RenderOptions, asked: string | true, text: string): void | Promise<void> {
  const format = options.format ?? templateFormat(c);
  let rendered: string | null | Promise<string | null>;
  try {
    const klass = viewClass(c.constructor);
    const layout = asked === true ? declaredLayout(c, klass, true) : asked;
    if (layout === false) {
      c.response.body = text;
      return;
    }
    rendered = renderInLayout(c.views!, klass, c, text, format, layout, options.locals ?? null);
  } catch (error) {
    return Promise.reject(error);
  }
  return thenOrNow(rendered, (markup) => {
    c.response.body = markup ?? text;
  });
}

function renderTemplate(c: Renderer, options: RenderOptions): void | Promise<void> {
  const format = options.format ?? templateFormat(c);
  const views = c.views;
  const wanted = options.template !== undefined ? `${options.template}.${format}` : templateName(c.controller_path, options.action ?? c.action_name, format);
  if (views === null) return Promise.reject(new MissingTemplate([`(no views directory)/${wanted}`]));
  let rendered: string | null | Promise<string | null>;
  try {
    const klass = viewClass(c.constructor);
    const layout = typeof options.layout === 'string' || options.layout === false ? options.layout : declaredLayout(c, klass, options.layout);
    rendered = renderView(views, klass, c, wanted, format, layout, options.locals ?? null);
  } catch (error) {
    // As when the template is asynchronous: the error reaches the request after the action returns.
    return Promise.reject(error);
  }
  return thenOrNow(rendered, (markup) => {
    if (markup === null) throw new MissingTemplate([views.describe(wanted)]);
    c.response.content_type ??= c.request.mime.get(format)?.string ?? 'text/html';
    c.response.body = markup;
  });
}

/**
 * Rails' `template_exists? && template_public?` for an action with no method: whether the template a
 * default render would use (`<controller path>/<action>.<format>`, in the format that render would
 * use) exists, and is not a partial (its last name does not start with `_`). The name comes from the
 * URL, so it is built here rather than kept (templateName keeps only what renders), and it reaches
 * the resolver, which refuses a name that could leave the views directory and keeps nothing for a
 * name that finds nothing. A promise only while the resolver first loads its templates.
 */
export function publicTemplateExists(c: Renderer): boolean | Promise<boolean> {
  const views = c.views;
  const action = c.action_name;
  if (views === null || action.charCodeAt(action.lastIndexOf('/') + 1) === UNDERSCORE) return false;
  const format = templateFormat(c);
  return thenOrNow(views.find([`${c.controller_path}/${action}.${format}`]), (template) => template !== null);
}

const UNDERSCORE = 0x5f;

/** The format a template is rendered in unless `render` names one: what `respond_to` chose, else the request's. */
function templateFormat(c: Renderer): string {
  return runOf(c).format ?? c.request.template_format;
}

/**
 * `<controller path>/<action>.<format>` by its three parts, each name spelt once: a name built for each
 * render is a new string, which the lookup of its template then hashes and compares in full, where a
 * kept one is known by its hash and found by identity. Bounded, since the default route takes action
 * names from the URL (and `render({ action: params.page })` takes them from anywhere): past the bound,
 * and for names longer than an action's, names are built per render as before, so URLs of 16 KB cannot
 * hold 4096 times their length.
 */
const TEMPLATE_NAMES = new Map<string, Map<string, Map<string, string>>>();
let templateNamesKept = 0;
const MAX_TEMPLATE_NAMES = 4096;
const MAX_KEPT_ACTION = 100;

function templateName(path: string, action: string, format: string): string {
  let actions = TEMPLATE_NAMES.get(path);
  let formats = actions?.get(action);
  let name = formats?.get(format);
  if (name !== undefined) return name;
  name = `${path}/${action}.${format}`;
  if (templateNamesKept < MAX_TEMPLATE_NAMES && action.length <= MAX_KEPT_ACTION) {
    if (actions === undefined) TEMPLATE_NAMES.set(path, (actions = new Map()));
    if (formats === undefined) actions.set(action, (formats = new Map()));
    formats.set(format, name);
    templateNamesKept++;
  }
  return name;
}

/**
 * The layout a render that names none (or asks for `true`, the usual one) takes from the controller's
 * declaration, as Rails 2.1's `pick_layout`: none for an action its `only` or `except` leaves out, else
 * what a function declared chooses for this request (a name, or false or null for none). Given back
 * unchanged when the declaration is a plain name, which the view layer looks up and keeps.
 */
function declaredLayout<O extends true | undefined>(c: Renderer, klass: ControllerViewClass, option: O): string | false | O {
  if (!actionHasLayout(klass.layoutConditions, c.action_name)) return false;
  const chooser = klass.chooseLayout;
  if (chooser === null) return option;
  const chosen: unknown = chooser(c as never);
  if (chosen === null || chosen === undefined || chosen === false) return false;
  if (typeof chosen !== 'string' || chosen === '') {
    throw new ArgumentError(`the layout function of ${c.constructor.name} answered ${shownValue(chosen)}: it answers a layout's name, or false or null for none`);
  }
  return chosen;
}

/** A controller class's `ViewClass`, with what its renders read of its layout declaration besides. */
interface ControllerViewClass extends ViewClass {
  /** `layout`'s `only` and `except`, null for none. */
  readonly layoutConditions: LayoutConditions | null;
  /** A layout declared as a function, which chooses one per request; null for a name or none. */
  readonly chooseLayout: ((controller: never) => unknown) | null;
}

const VIEW_CLASSES = new WeakMap<object, ControllerViewClass>();

/** What every render of a controller class shares with its templates, and its layout rules: read once. */
export function viewClass(klass: object): ControllerViewClass {
  let found = VIEW_CLASSES.get(klass);
  if (found === undefined) {
    const declarations = declarationsOf(klass as never);
    const declared = declarations.layout;
    // A layout chosen per request is chosen by declaredLayout and given to the view as the render's own.
    found = Object.freeze({
      layout: typeof declared === 'function' ? null : declared,
      tokenParam: declarations.forgery?.param ?? DEFAULT_TOKEN_PARAM,
      layoutConditions: declarations.layoutConditions,
      chooseLayout: typeof declared === 'function' ? declared : null,
    });
    VIEW_CLASSES.set(klass, found);
  }
  return found;
}
