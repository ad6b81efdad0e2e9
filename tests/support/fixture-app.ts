/**
 * The fixture application the request corpus runs against, built for one
 * case from that case's documented fields alone (tests/acceptance/data/README.md,
 * request section), so that a case nobody here has seen runs the same way:
 *
 * - The request path names the controller and the action (Rails' default
 *   routes; a trailing numeric segment is the id). The controller class is
 *   named as Rails names it (`module_test/module_redirect` is
 *   `ModuleTest::ModuleRedirectController`).
 * - `echo` is the corpus's echo controller: for any action name it reports the
 *   request as JSON, or, when the case lists `respond_to` entries, negotiates
 *   over exactly those.
 * - `action` describes what the action does (tests/support/fixture-actions.ts).
 *   Without one the action does not exist (UnknownAction), except where the
 *   case tests a filter in front of it (`protect_from_forgery`, `http_basic`,
 *   `verify`): the action behind a filter exists. A `verify` case describes the
 *   guard, not what the guarded action renders once the guard passes; that is
 *   Rails' VerificationTestController's, reproduced whole below.
 * - `setup` adds declarations (rescue_from, filters, hidden actions,
 *   method_missing, MIME types, a forced format) and app settings (charset,
 *   public pages, local requests, sessions).
 * - Routes for the records and named routes the case mentions are drawn
 *   beside the default routes; templates exist for what `action` renders.
 *
 * Nothing here knows a case id or a case's action name.
 */
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import {
  Controller, UploadedFile, createInflector, createMimeRegistry, draw, html, memoryViews, NULL_SESSION_STORE, TOKEN_KEY,
  type RouteSet, type SessionData, type SessionStore, type Template, type ControllerClass,
} from '../../core/index.ts';
import { createApp, type App, type Engine } from '../../machines/index.ts';
import { scratchDir } from './temp.ts';
import { CaseErrors, inOrderEntry, namedErrorClasses, type RaiseSpec } from './fixture-errors.ts';
import { handle, modelOf, perform, templateFormat, type ActionSpec } from './fixture-actions.ts';
import { fakedToken } from './session-facts.ts';

export interface RequestCase {
  id: string;
  kind: string;
  request: { method: string; path: string; headers?: Record<string, string>; body?: string; body_base64?: string; body_parts?: ({ text: string } | { repeat: string; count: number })[] };
  expect: Record<string, any>;
  action?: ActionSpec;
  setup?: Record<string, any>;
  verify?: Record<string, any> | null;
  respond_to?: string[];
  session?: Record<string, unknown>;
  note?: string;
}

/** The controller path and action a case's request names. */
export interface CaseTarget {
  readonly controller: string;
  readonly action: string;
}

/** Rails' default routes read the request path: the last word is the action, the words before it the controller. */
export function caseTarget(c: RequestCase): CaseTarget {
  const words = c.request.path.split('?')[0].split('/').filter(Boolean);
  // `/echo/params/1.xml`: a trailing numeric segment (with its format) is the id.
  if (words.length >= 3 && /^\d+(\.\w+)?$/.test(words[words.length - 1])) words.pop();
  if (words.length === 0) return { controller: '', action: 'index' };
  if (words.length === 1) return { controller: words[0], action: 'index' };
  return { controller: words.slice(0, -1).join('/'), action: words[words.length - 1] };
}

/** What the fixture puts in `public/<status>.html` when a case says the page exists. */
export function publicPage(status: number | string): string {
  return `<html><body>${status} public page</body></html>`;
}

/** Rails' class name for a controller path: `module_test/module_redirect` → `ModuleTest::ModuleRedirectController`. */
export function controllerClassName(path: string): string {
  return `${path.split('/').map(modelOf).join('::')}Controller`;
}

function named<T extends abstract new (...args: any[]) => unknown>(klass: T, name: string): T {
  Object.defineProperty(klass, 'name', { value: name });
  return klass;
}

/** Defines (or replaces) an action method on a controller class. */
function defineMethod(klass: ControllerClass, name: string, fn: (this: Controller, ...args: any[]) => unknown): void {
  Object.defineProperty(klass.prototype, name, { value: fn, writable: true, configurable: true });
}

// ---- the echo controller ---------------------------------------------------------------------

/**
 * What each `respond_to` entry of Rails' MimeRespondsController rendered. The entries are the
 * corpus's vocabulary (a format symbol, `custom:<mime>`, `any:<symbols>`, `any`), not case names.
 */
const BLOCK_TEXT: Record<string, string> = {
  html: 'HTML', js: 'JS', xml: 'XML', rss: 'RSS', atom: 'ATOM', json: 'JSON', yaml: 'YAML', all: 'Nothing', mobile: 'Mobile', iphone: 'iPhone',
  'custom:application/crazy-xml': 'Crazy XML', 'any:js,xml': 'Either JS or XML', any: 'Whatever you ask for, I got it',
};

/** Parameters as the echo reports them: files, dates and binary values become comparable markers. */
function echoValue(value: unknown): unknown {
  if (value instanceof UploadedFile) return { $file: { original_filename: value.original_filename, content_type: value.content_type, size: value.size, content: value.content.toString('latin1') } };
  if (value instanceof Date) return { $dateValue: value.toISOString() };
  if (Array.isArray(value)) return value.map(echoValue);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, echoValue(v)]));
  return value;
}

/** The request as the echo reports it (also in headers, for HEAD requests, which carry no body). */
function echo(c: Controller): void {
  const path = c.request.path_parameters;
  const params: Record<string, unknown> = { ...c.params };
  for (const key of ['controller', 'action', 'id', 'format']) if (key === 'controller' || key === 'action' || key in path) delete params[key];
  const format = c.request.format?.symbol ?? c.request.format?.string ?? null;
  c.response.set_header('X-Echo-Method', c.request.method);
  c.response.set_header('X-Echo-Format', String(format ?? ''));
  c.render({
    json: {
      params: echoValue(params),
      method: c.request.method,
      format,
      content_type: c.request.content_type?.symbol ?? c.request.content_type?.string ?? null,
    },
  });
}

/** `respond_to` with exactly the case's entries, in order; each reports itself in X-Block. */
function negotiate(c: Controller, entries: readonly string[]): void {
  c.respond_to((format) => {
    for (const entry of entries) {
      const run = () => {
        c.response.set_header('X-Block', entry);
        c.render({ text: BLOCK_TEXT[entry] ?? entry });
      };
      if (entry.startsWith('custom:')) format.custom(entry.slice('custom:'.length), run);
      else if (entry.startsWith('any:')) format.any(...entry.slice('any:'.length).split(','), run);
      else if (entry === 'any') format.any(run);
      else format[entry](run);
    }
  });
}

// ---- verification ------------------------------------------------------------------------------

/**
 * Rails' VerificationTestController: what each of its actions renders once its guard passes. The
 * `verify` fields describe the guard only, so this is that controller, whole (every action it has),
 * not a list of the corpus's cases.
 */
const VERIFICATION_ACTIONS: Record<string, (c: Controller) => void> = {
  guarded_one: (c) => c.render({ text: String(c.params.one ?? '') }),
  guarded_one_for_named_route_test: (c) => c.render({ text: String(c.params.one ?? '') }),
  guarded_with_flash: (c) => c.render({ text: String(c.params.one ?? '') }),
  guarded_with_back: (c) => c.render({ text: String(c.params.one ?? '') }),
  guarded_two: (c) => c.render({ text: `${c.params.one ?? ''}:${c.params.two ?? ''}` }),
  guarded_in_session: (c) => c.render({ text: String(c.session.one ?? '') }),
  multi_one: (c) => c.render({ text: `${c.session.one ?? ''}:${c.session.two ?? ''}` }),
  multi_two: (c) => c.render({ text: `${c.session.two ?? ''}:${c.session.one ?? ''}` }),
  guarded_by_method: (c) => c.render({ text: c.request.method }),
  guarded_by_xhr: (c) => c.render({ text: String(c.request.xhr) }),
  guarded_by_not_xhr: (c) => c.render({ text: String(c.request.xhr) }),
  unguarded: (c) => c.render({ text: String(c.params.one ?? '') }),
  two_redirects: (c) => c.render({ nothing: true }),
  must_be_post: (c) => c.render({ text: 'Was a post!' }),
  no_default_action: () => {},
};

/** A verify redirect target as the core takes it: `:back`, a named route helper, or a route hash. */
function verifyTarget(target: unknown): unknown {
  if (target === ':back') return 'back';
  // "named route foo_url (/foo)": the helper's name.
  const helper = typeof target === 'string' ? /^named route (\w+)/.exec(target) : null;
  return helper ? helper[1] : target;
}

// ---- routes --------------------------------------------------------------------------------------

/** Every value of a case's fields, depth first. */
function* values(value: unknown): Generator<unknown> {
  yield value;
  if (Array.isArray(value)) for (const v of value) yield* values(v);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) yield* values(v);
}

/** Rails' default routes, plus resources for the records and the named routes the case mentions. */
function caseRoutes(c: RequestCase, target: CaseTarget): RouteSet {
  const inflector = createInflector();
  const resources = new Set<string>();
  const namedRoutes = new Map<string, string>();
  for (const v of values([c.action, c.setup, c.verify])) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.record === 'string') resources.add(inflector.plural(o.record.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase()));
      if (typeof o.url_for_record === 'string') resources.add(inflector.plural(o.url_for_record));
    }
    const route = typeof v === 'string' ? /^named route (\w+)_(?:url|path) \((\/[^)]*)\)$/.exec(v) : null;
    if (route) namedRoutes.set(route[1], route[2]);
  }
  const controllers = target.controller === '' ? [] : [target.controller];
  return draw((map) => {
    for (const [name, path] of namedRoutes) map.named(name, path, { controller: target.controller, action: name });
    for (const plural of resources) map.resources(plural);
    map.connect(':controller/:action/:id.:format');
    map.connect(':controller/:action/:id');
    map.connect(':controller/:action');
  }, { controllers });
}

// ---- the case's controller -----------------------------------------------------------------------

/** Whether the case tests a filter in front of the action, so that the action behind it exists. */
function testsAFilter(c: RequestCase): boolean {
  const setup = c.setup ?? {};
  return 'verify' in c || setup.protect_from_forgery !== undefined || setup.http_basic !== undefined;
}

/** `request.format = ...` before respond_to, as `setup.set_request_format(_if_accept_equals)` says. */
function forceFormat(ctl: Controller, setup: Record<string, any>): void {
  if (setup.set_request_format !== undefined) ctl.request.format = String(setup.set_request_format);
  const conditional = setup.set_request_format_if_accept_equals as Record<string, string> | undefined;
  for (const [accept, format] of Object.entries(conditional ?? {})) {
    if (ctl.request.headers.accept === accept) ctl.request.format = format;
  }
}

function buildController(c: RequestCase, target: CaseTarget, errors: CaseErrors): ControllerClass {
  const setup = c.setup ?? {};
  const action = c.action;
  const inOrder = ((setup.rescue_from_in_order ?? []) as [string, number][]).map(([joined, status]) => ({ ...inOrderEntry(joined), status }));

  // A parent declares the handlers the child (the requested controller) inherits.
  class CaseParent extends Controller {
    static {
      for (const entry of inOrder) {
        if (entry.childOnly) continue;
        for (const name of entry.names) this.rescue_from(errors.get(name), function (this: Controller) { this.head(entry.status); });
      }
    }
  }

  class CaseController extends CaseParent {
    static {
      // The corpus names methods as data, defined below at run time: the compiler cannot check those names.
      const declare = this as unknown as { rescue_from(...args: unknown[]): void; hide_action(...names: string[]): void };
      for (const entry of inOrder) {
        if (!entry.childOnly) continue;
        for (const name of entry.names) this.rescue_from(errors.get(name), function (this: Controller) { this.head(entry.status); });
      }
      for (const rescue of (setup.rescue_from ?? []) as { class: string; by_name?: boolean; handler_method?: string; handler: ActionSpec }[]) {
        const matcher = rescue.by_name ? rescue.class.replace(/^.*::/, '') : errors.get(rescue.class);
        if (rescue.handler_method) {
          // A controller method, which rescue_from keeps from being an action.
          defineMethod(this, rescue.handler_method, function (this: Controller, error: unknown) { handle(this, rescue.handler, error, errors); });
          declare.rescue_from(matcher, rescue.handler_method);
        } else {
          this.rescue_from(matcher, function (this: Controller, error: unknown) { handle(this, rescue.handler, error, errors); });
        }
      }
      const protection = setup.protect_from_forgery as { only?: string[]; except?: string[]; secret?: string } | undefined;
      if (protection) this.protect_from_forgery(protection);
      const basic = setup.http_basic as { realm: string; login: string } | undefined;
      if (basic) {
        // The check is stated as Ruby: `user_name == "dhh" && password == "secret"`.
        const [, user, password] = /user_name == "([^"]*)" && password == "([^"]*)"/.exec(basic.login) ?? [];
        this.before_filter((ctl: Controller) => ctl.authenticate_or_request_with_http_basic(basic.realm, (u, p) => u === user && p === password));
      }
      if (c.verify) {
        const { before_filter: before, ...spec } = c.verify;
        // "unconditional redirect to unguarded": a filter ahead of the verification that redirects.
        const redirectTo = typeof before === 'string' ? /redirect to (\w+)/.exec(before)?.[1] : undefined;
        if (redirectTo) this.before_filter((ctl: Controller) => ctl.redirect_to({ action: redirectTo }));
        this.verify({ ...spec, redirect_to: verifyTarget(spec.redirect_to), only: [target.action] });
      }
      // Hidden actions exist as methods (which must never run), and are hidden.
      const hidden = (setup.hidden_actions ?? []) as string[];
      for (const name of hidden) {
        defineMethod(this, name, function (this: Controller) { throw new Error(`the hidden action ${name} ran`); });
      }
      if (hidden.length > 0) declare.hide_action(...hidden);
      if (setup.method_missing !== undefined) {
        // "render text of the selector".
        defineMethod(this, 'method_missing', function (this: Controller, selector: string) { this.render({ text: selector }); });
      }
    }
  }

  const name = target.action;
  if (target.controller === 'echo') {
    // The echo answers any action name (`params` included, which no controller may have as an action).
    defineMethod(CaseController, 'method_missing', function (this: Controller) {
      if (c.respond_to === undefined) return echo(this);
      forceFormat(this, setup);
      negotiate(this, c.respond_to);
    });
  } else if (c.respond_to !== undefined) {
    defineMethod(CaseController, name, function (this: Controller) {
      forceFormat(this, setup);
      negotiate(this, c.respond_to!);
    });
  } else if (action !== undefined) {
    defineMethod(CaseController, name, function (this: Controller) {
      forceFormat(this, setup);
      perform(this, name, action, errors);
    });
  } else if ('verify' in c) {
    const guarded = VERIFICATION_ACTIONS[name];
    if (guarded) defineMethod(CaseController, name, function (this: Controller) { guarded(this); });
  } else if (testsAFilter(c)) {
    defineMethod(CaseController, name, function (this: Controller) { this.render({ text: `${name} ran` }); });
  }
  return named(CaseController, controllerClassName(target.controller));
}

/** Templates for what the action renders from a template, in the format its type names. */
function caseTemplates(c: RequestCase, target: CaseTarget): Record<string, Template> {
  const templates: Record<string, Template> = {};
  const action = c.action ?? {};
  const base = `${target.controller}/${target.action}`;
  if (action.render === 'template') {
    const format = templateFormat(action.template_type);
    if (format !== null) templates[`${base}.${format}`] = () => html`${format} template of ${base}`;
  }
  for (const entry of (action.respond_to ?? []) as string[]) {
    const [symbol, kind] = entry.split(':');
    if (kind === 'template') templates[`${base}.${symbol}`] = () => html`${symbol} template of ${base}`;
  }
  return templates;
}

// ---- the app ---------------------------------------------------------------------------------

export interface FixtureApp {
  readonly app: App;
  /** Error classes and codes the app logged, in order. */
  readonly errors: { type: string; code?: string; status: number }[];
  /** What the last request left in its session (null when it did not write one). */
  readonly saved: { data: SessionData | null };
}

/**
 * A session store that hands every request the case's session and records what gets written back.
 * The forgery cases describe their session instead: an id (`session_id`), a cookie-kept token the test
 * faked with a stated function (`token_function`, e.g. SHA1 of a word), or no session at all.
 */
function caseSessionStore(c: RequestCase, saved: { data: SessionData | null }): SessionStore {
  const setup = c.setup ?? {};
  const initial: SessionData = { ...(c.session ?? {}) };
  const faked = fakedToken(setup.token_function);
  if (faked !== null) initial[TOKEN_KEY] = faked;
  return {
    load: () => structuredClone(initial),
    commit: (_req, _res, data, state) => {
      if (state.changed || state.reset) saved.data = structuredClone(data);
    },
    ...(setup.session_id !== undefined ? { session_id: () => String(setup.session_id) } : {}),
  };
}

/** Collects the errors the app logs (class for 5xx, code for refusals). */
function errorSink(errors: FixtureApp['errors']): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        const entry = JSON.parse(line) as { msg: string; status: number; err?: { type: string }; code?: string };
        if (entry.msg === 'request errored') errors.push({ type: entry.err?.type ?? 'Error', status: entry.status });
        else if (entry.msg === 'request refused') errors.push({ type: '', code: entry.code, status: entry.status });
      }
      done();
    },
  });
}

/** The app's public directory when the case says which error pages it holds. */
function publicDir(setup: Record<string, any>): string | undefined {
  const pages = [404, 500].filter((status) => setup[`public_${status}_html`] !== undefined);
  if (pages.length === 0) return undefined;
  const dir = scratchDir('public');
  for (const status of pages) if (setup[`public_${status}_html`] === true) writeFileSync(join(dir, `${status}.html`), publicPage(status));
  return dir;
}

/** A fresh app for one case, with that case's setup applied. */
export function fixtureApp(c: RequestCase, engine: Engine): FixtureApp {
  const setup = c.setup ?? {};
  const target = caseTarget(c);
  const errors: FixtureApp['errors'] = [];
  const caseErrors = new CaseErrors(c.action?.raise as RaiseSpec | undefined, namedErrorClasses(setup));
  const mime = createMimeRegistry();
  for (const [type, symbol] of Object.entries((setup.register_mime ?? {}) as Record<string, string>)) mime.register(type, symbol);
  for (const [type, symbol] of Object.entries((setup.register_alias ?? {}) as Record<string, string>)) mime.register_alias(type, symbol);
  const pages = publicDir(setup);
  const saved: { data: SessionData | null } = { data: null };
  const app = createApp({
    routes: caseRoutes(c, target),
    controllers: target.controller === '' ? {} : { [target.controller]: buildController(c, target, caseErrors) },
    views: memoryViews(caseTemplates(c, target)),
    ...(pages ? { publicDir: pages } : {}),
    engine,
    environment: 'test',
    mime,
    session_store: setup.session === 'off' ? NULL_SESSION_STORE : caseSessionStore(c, saved),
    logger: pino({ level: 'info' }, errorSink(errors)),
    config: {
      // Rails' forgery tests switch protection on for themselves (test mode has it off).
      allow_forgery_protection: setup.protect_from_forgery !== undefined && setup.allow_forgery_protection !== false,
      ...('default_charset' in setup ? { default_charset: setup.default_charset } : {}),
      consider_all_requests_local: setup.consider_all_requests_local ?? false,
      // The corpus is Rails 2.1's: an error with no public page for it answered `head`, a single space.
      defaultErrorPages: false,
    },
  });
  return { app, errors, saved };
}
