/**
 * The fixture application the request peer suite runs against: the echo
 * controller on Rails' default routes, and controllers that reproduce the
 * behaviour Rails' own test controllers had, driven by each case's
 * declarative `action` / `setup` / `verify` / `respond_to` fields. One app
 * is built per case, so a case's setup (charset, MIME registrations,
 * rescue handlers, hidden actions) never leaks into another.
 */
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { scratchDir } from './temp.ts';
import { join } from 'node:path';
import pino from 'pino';
import {
  ActionControllerError, Controller, MethodNotAllowed, NotImplemented, UploadedFile, draw, html, memoryViews,
  createMimeRegistry, type RouteSet, type Template,
} from '../../core/index.ts';
import { createHash } from 'node:crypto';
import { NULL_SESSION_STORE, TOKEN_KEY, type SessionData, type SessionStore } from '../../core/index.ts';
import { createApp, type App, type Engine } from '../../machines/index.ts';
import { makeRecord } from './acceptance.ts';

export interface RequestCase {
  id: string;
  kind: string;
  request: { method: string; path: string; headers?: Record<string, string>; body?: string; body_base64?: string; body_parts?: ({ text: string } | { repeat: string; count: number })[] };
  expect: Record<string, any>;
  action?: Record<string, any>;
  setup?: Record<string, any>;
  verify?: Record<string, any> | null;
  respond_to?: string[];
  session?: Record<string, unknown>;
  note?: string;
}

const CONTROLLERS = [
  'echo', 'content_type', 'test', 'new_render', 'redirect', 'module_test/module_redirect', 'verification', 'rescue',
  'rescue_inheritance', 'non_empty', 'method_missing', 'forgery', 'auth',
];

/** Rails' echo routes, plus the named route and resources that redirects and locations generate URLs for. */
function fixtureRoutes(): RouteSet {
  return draw((map) => {
    map.named('foo', 'foo', { controller: 'test', action: 'foo' });
    map.resources('workshops');
    map.resources('customers');
    map.connect(':controller/:action/:id.:format');
    map.connect(':controller/:action/:id');
    map.connect(':controller/:action');
  }, { controllers: [...CONTROLLERS].sort((a, b) => b.length - a.length) });
}

// The text each respond_to entry of Rails' MimeRespondsController rendered.
const BLOCK_TEXT: Record<string, string> = {
  html: 'HTML', js: 'JS', xml: 'XML', rss: 'RSS', atom: 'Atom', json: 'JSON', yaml: 'YAML', all: 'Nothing', mobile: 'Mobile', iphone: 'iPhone',
  'custom:application/crazy-xml': 'Crazy XML', 'any:js,xml': 'Either JS or XML', any: 'Either',
};

/** Parameters as the echo reports them: files, dates and binary values become comparable markers. */
function echoValue(value: unknown): unknown {
  if (value instanceof UploadedFile) return { $file: { original_filename: value.original_filename, content_type: value.content_type, size: value.size, content: value.content.toString('latin1') } };
  if (value instanceof Date) return { $dateValue: value.toISOString() };
  if (Array.isArray(value)) return value.map(echoValue);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, echoValue(v)]));
  return value;
}

function buildControllers(c: RequestCase): Record<string, typeof Controller> {
  const action = c.action ?? {};
  const setup = c.setup ?? {};

  class EchoController extends Controller {
    /** Every echo action: `params` reports the request; the others negotiate with the case's respond_to. */
    method_missing(name: string): void {
      if (name === 'params') return this.#echo();
      const entries = c.respond_to ?? [];
      const defaults = name === 'using_defaults' || name.endsWith('_without_block');
      this.respond_to((format) => {
        for (const entry of entries) {
          const run = () => {
            this.response.set_header('X-Block', entry);
            if (defaults) this.render({ action: name });
            else this.render({ text: BLOCK_TEXT[entry] ?? entry });
          };
          if (entry.startsWith('custom:')) format.custom(entry.slice(7), run);
          else if (entry.startsWith('any:')) format.any(...entry.slice(4).split(','), run);
          else if (entry === 'any') format.any(run);
          else format[entry](run);
        }
      });
    }

    #echo(): void {
      const path = this.request.path_parameters;
      const params: Record<string, unknown> = { ...this.params };
      for (const key of ['controller', 'action', 'id', 'format']) if (key === 'controller' || key === 'action' || key in path) delete params[key];
      // Also in headers, for HEAD requests (which carry no body).
      this.response.set_header('X-Echo-Method', this.request.method);
      this.response.set_header('X-Echo-Format', String(this.request.format?.symbol ?? this.request.format?.string ?? ''));
      this.render({
        json: {
          params: echoValue(params),
          method: this.request.method,
          format: this.request.format?.symbol ?? this.request.format?.string ?? null,
          content_type: this.request.content_type?.symbol ?? this.request.content_type?.string ?? null,
        },
      });
    }
  }
  if (c.setup?.set_request_format_if_accept_equals) {
    const [accept, format] = Object.entries(c.setup.set_request_format_if_accept_equals as Record<string, string>)[0];
    EchoController.before_filter((ctl: Controller) => {
      if (ctl.request.headers.accept === accept) ctl.request.format = format;
    });
  }

  /** Runs the case's `action` script: render, head, redirect_to, respond_to, header and content-type changes. */
  class ScriptedController extends Controller {
    method_missing(name: string): void {
      if (action.set_response_content_type) this.response.content_type = action.set_response_content_type;
      if (action.set_response_charset) this.response.charset = action.set_response_charset;
      for (const [k, v] of Object.entries((action.set_response_header ?? {}) as Record<string, string>)) this.response.set_header(k, v);
      if (action.double_render) {
        if (String(action.double_render).includes('redirect')) {
          this.redirect_to({ action: 'one' });
          this.redirect_to({ action: 'two' });
        } else {
          this.render({ text: 'hello' });
          this.render({ text: 'world' });
        }
        return;
      }
      if (action.respond_to) return this.#respond(name, action.respond_to as string[]);
      if ('redirect_to' in action) return this.#redirect(action.redirect_to, action.response_status);
      if (action.head) return this.#head(action.head as Record<string, unknown>);
      this.#render(name);
    }

    #render(name: string): void {
      const status = action.status;
      const location = action.location && typeof action.location === 'object' ? makeRecord('Customer', String(action.location.id), false) : action.location;
      const common = { ...(status !== undefined ? { status } : {}), ...(location !== undefined ? { location } : {}), ...(action.content_type ? { content_type: action.content_type } : {}) };
      switch (action.render) {
        case 'json': return this.render({ json: action.json, ...common });
        case 'xml': return this.render({ xml: action.xml, ...common });
        case 'template': return this.render({ action: name, ...(String(action.template_type).startsWith('builder') ? { format: 'xml' } : {}), ...common });
        case 'update (RJS page)': return this.render({ js: 'alert("updated")', ...common });
        default: return this.render({ text: 'text' in action ? action.text : 'hello world!', ...common });
      }
    }

    #head(spec: Record<string, unknown>): void {
      const { status, ...headers } = spec;
      const given = this.params.status;
      const resolved = typeof status === 'string' && status.startsWith('params[:status]')
        ? (status.includes('integer') ? Number(given) : String(given))
        : status;
      this.head(resolved === undefined ? 'ok' : (resolved as number | string), headers);
    }

    #redirect(target: unknown, responseStatus?: { status?: number | string }): void {
      let resolved: unknown = target;
      if (target === ':back') resolved = 'back';
      else if (target && typeof target === 'object' && 'record' in target) {
        const t = target as { record: string; id: number; new_record: boolean };
        resolved = makeRecord(t.record, t.new_record ? null : String(t.id), t.new_record);
      }
      if (resolved === null) throw new ActionControllerError('Cannot redirect to nil!');
      this.redirect_to(resolved, responseStatus ?? {});
    }

    #respond(name: string, entries: string[]): void {
      this.respond_to((format) => {
        for (const entry of entries) {
          const [symbol, kind] = entry.split(':');
          format[symbol](() => {
            if (kind === 'template') return this.render({ action: name });
            const type = /with content_type (\S+)/.exec(kind)?.[1];
            this.render({ text: `${symbol} text`, ...(type ? { content_type: type } : {}) });
          });
        }
      });
    }
  }
  class ContentTypeController extends ScriptedController {}
  class TestController extends ScriptedController {}
  class NewRenderController extends ScriptedController {}
  class RedirectController extends ScriptedController {
    hello_world(): void {
      this.render({ text: 'hello world' });
    }
  }
  class ModuleRedirectController extends RedirectController {}

  class VerificationController extends Controller {
    static {
      if (c.verify?.before_filter) this.before_filter((ctl: Controller) => ctl.redirect_to({ action: 'unguarded' }));
      if (c.verify) {
        const spec = { ...c.verify };
        delete spec.before_filter;
        const target = spec.redirect_to;
        if (target === ':back') spec.redirect_to = 'back';
        else if (typeof target === 'string' && target.startsWith('named route ')) spec.redirect_to = target.split(' ')[2];
        this.verify({ ...spec, only: [actionOf(c)] });
      }
    }
    guarded_one(): void { this.render({ text: String(this.params.one ?? '') }); }
    guarded_one_for_named_route_test(): void { this.guarded_one(); }
    guarded_with_flash(): void { this.guarded_one(); }
    guarded_with_back(): void { this.guarded_one(); }
    guarded_two(): void { this.render({ text: `${this.params.one}:${this.params.two}` }); }
    guarded_in_session(): void { this.render({ text: String(this.session.one ?? '') }); }
    multi_one(): void { this.render({ text: `${this.session.one}:${this.session.two}` }); }
    multi_two(): void { this.render({ text: `${this.session.two}:${this.session.one}` }); }
    guarded_by_method(): void { this.render({ text: this.request.method }); }
    guarded_by_xhr(): void { this.render({ text: String(this.request.xhr) }); }
    guarded_by_not_xhr(): void { this.render({ text: String(this.request.xhr) }); }
    must_be_post(): void { this.render({ text: 'Was a post!' }); }
    two_redirects(): void { this.render({ nothing: true }); }
    unguarded(): void { this.render({ text: String(this.params.one ?? '') }); }
  }

  const rescueErrors = rescueFixtures();
  class RescueController extends Controller {
    static {
      const { NotAllowed, NotAllowedToRescueAsString, InvalidRequest, InvalidRequestToRescueAsString } = rescueErrors;
      this.rescue_from(NotAllowed, function (this: Controller) { this.head('forbidden'); });
      this.rescue_from('NotAllowedToRescueAsString', function (this: Controller) { this.head('forbidden'); });
      this.rescue_from(InvalidRequest, function (this: Controller, e: Error) { this.render({ text: e.message }); });
      this.rescue_from('InvalidRequestToRescueAsString', function (this: Controller, e: Error) { this.render({ text: e.message }); });
      void NotAllowedToRescueAsString;
      void InvalidRequestToRescueAsString;
    }
    raises(): void {
      this.render({ text: 'already rendered' });
      throw new Error("don't panic!");
    }
    not_implemented(): void { throw new NotImplemented(['get', 'put']); }
    method_not_allowed(): void { throw new MethodNotAllowed(['get', 'head', 'put']); }
    not_allowed(): void { throw new rescueErrors.NotAllowed(); }
    not_allowed_raise_as_string(): void { throw new rescueErrors.NotAllowedToRescueAsString(); }
    invalid_request(): void { throw new rescueErrors.InvalidRequest(); }
    invalid_request_raise_as_string(): void { throw new rescueErrors.InvalidRequestToRescueAsString(); }
    missing_template(): void {}
  }

  const inheritance = inheritanceFixtures(setup.rescue_from_in_order as [string, number][] | undefined);

  class NonEmptyController extends Controller {
    static {
      this.hide_action(...((setup.hidden_actions ?? []) as string[]));
    }
    public_action(): void { this.render({ nothing: true }); }
    hidden_action(): void { this.render({ nothing: true }); }
    another_hidden_action(): void { this.render({ nothing: true }); }
  }
  class MethodMissingController extends NonEmptyController {
    shouldnt_be_called(): void { throw new Error('NonEmptyController#shouldnt_be_called should not be called'); }
    method_missing(selector: string): void { this.render({ text: selector }); }
  }

  class ForgeryController extends Controller {
    static {
      const protection = setup.protect_from_forgery as { only?: string[]; except?: string[]; secret?: string } | undefined;
      if (protection) this.protect_from_forgery(protection);
    }
    index(): void { this.render({ text: 'index' }); }
    unsafe(): void { this.render({ text: 'unsafe' }); }
  }

  class AuthController extends Controller {
    static {
      const basic = setup.http_basic as { realm: string; login: string } | undefined;
      if (basic) {
        // The case states its check as Ruby: `user_name == "dhh" && password == "secret"`.
        const [, user, password] = /user_name == "([^"]*)" && password == "([^"]*)"/.exec(basic.login) ?? [];
        this.before_filter((c: Controller) => c.authenticate_or_request_with_http_basic(basic.realm, (u, p) => u === user && p === password));
      }
    }
    protected_action(): void { this.render({ text: 'Hello Secret' }); }
    method_missing(): void { this.render({ text: 'Hello Secret' }); }
  }

  return {
    forgery: ForgeryController,
    auth: AuthController,
    echo: EchoController,
    content_type: ContentTypeController,
    test: TestController,
    new_render: NewRenderController,
    redirect: RedirectController,
    'module_test/module_redirect': ModuleRedirectController,
    verification: VerificationController,
    rescue: RescueController,
    rescue_inheritance: inheritance,
    non_empty: NonEmptyController,
    method_missing: MethodMissingController,
  };
}

function actionOf(c: RequestCase): string {
  const path = c.request.path.split('?')[0];
  return path.split('/')[2] ?? 'index';
}

/** Errors of Rails' RescueController; a message defaults to the Ruby class name, as Ruby's does. */
function rescueFixtures() {
  const named = (name: string) => class extends Error {
    constructor() {
      super(`RescueController::${name}`);
      this.name = name;
    }
  };
  const classes = {
    NotAllowed: named('NotAllowed'),
    NotAllowedToRescueAsString: named('NotAllowedToRescueAsString'),
    InvalidRequest: named('InvalidRequest'),
    InvalidRequestToRescueAsString: named('InvalidRequestToRescueAsString'),
  };
  // Class names are what string-named rescue_from declarations match.
  for (const [name, klass] of Object.entries(classes)) Object.defineProperty(klass, 'name', { value: name });
  return classes;
}

/** Rails' ControllerInheritanceRescueController: handlers declared in order, the child adding its own. */
function inheritanceFixtures(order: [string, number][] | undefined): typeof Controller {
  class ParentException extends Error {}
  class ChildException extends ParentException {}
  class GrandchildException extends ChildException {}
  class FirstExceptionInChildController extends Error {}
  class SecondExceptionInChildController extends Error {}
  const byName: Record<string, new () => Error> = { ParentException, ChildException, GrandchildException, FirstExceptionInChildController, SecondExceptionInChildController };
  class ControllerInheritanceRescueController extends Controller {
    static {
      for (const [names, status] of order ?? []) {
        if (names.includes('child controller only')) continue;
        for (const name of names.split('|')) this.rescue_from(byName[name.trim()], function (this: Controller) { this.head(status); });
      }
    }
    raise_parent_exception(): void { throw new ParentException(); }
  }
  class ControllerInheritanceRescueChildController extends ControllerInheritanceRescueController {
    static {
      for (const [names, status] of order ?? []) {
        if (!names.includes('child controller only')) continue;
        for (const name of names.replace(/\(.*\)/, '').split('|')) this.rescue_from(byName[name.trim()], function (this: Controller) { this.head(status); });
      }
    }
    raise_first_exception_in_child_controller(): void { throw new FirstExceptionInChildController(); }
    raise_second_exception_in_child_controller(): void { throw new SecondExceptionInChildController(); }
  }
  return ControllerInheritanceRescueChildController;
}

// Templates Rails' fixtures had, as memory templates.
const TEMPLATES: Record<string, Template> = {
  'echo/using_defaults.html': () => html`HTML`,
  'echo/using_defaults.js': () => html`JS`,
  'echo/using_defaults.xml': () => html`XML`,
  'echo/custom_constant_handling_without_block.mobile': () => html`Mobile`,
  'content_type/render_default_for_rxml.xml': () => html`<hello>world</hello>`,
  'content_type/render_change_for_rxml.xml': () => html`<hello>world</hello>`,
  'content_type/render_default_for_rjs.js': () => html`alert('hello')`,
  'content_type/render_default_content_types_for_respond_to.xml': () => html`<hello/>`,
};

export interface FixtureApp {
  readonly app: App;
  /** Error classes and codes the app logged, in order. */
  readonly errors: { type: string; code?: string; status: number }[];
  /** What the last request left in its session (null when it did not write one). */
  readonly saved: { data: SessionData | null };
}

/**
 * A session store that hands every request the case's session and records what gets written back.
 * The forgery cases describe their session instead: an id (`session_id`), a cookie-kept token faked by
 * Rails' test as SHA1("secure"), or no session at all.
 */
function caseSessionStore(c: RequestCase, saved: { data: SessionData | null }): SessionStore {
  const setup = c.setup ?? {};
  const initial: SessionData = { ...(c.session ?? {}) };
  if (String(setup.token_function ?? '').startsWith('SHA1("secure")')) initial[TOKEN_KEY] = createHash('sha1').update('secure').digest('hex');
  return {
    load: () => structuredClone(initial),
    commit: (_req, _res, data, state) => {
      if (state.changed || state.reset) saved.data = structuredClone(data);
    },
    ...(setup.session_id !== undefined ? { session_id: () => String(setup.session_id) } : {}),
  };
}

/** A fresh app for one case, with that case's setup applied. */
export function fixtureApp(c: RequestCase, engine: Engine): FixtureApp {
  const setup = c.setup ?? {};
  const errors: FixtureApp['errors'] = [];
  const sink = new Writable({
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
  const mime = createMimeRegistry();
  for (const [type, symbol] of Object.entries((setup.register_mime ?? {}) as Record<string, string>)) mime.register(type, symbol);
  for (const [type, symbol] of Object.entries((setup.register_alias ?? {}) as Record<string, string>)) mime.register_alias(type, symbol);
  let publicDir: string | undefined;
  if (setup.public_404_html !== undefined) {
    publicDir = scratchDir('public');
    if (setup.public_404_html) writeFileSync(join(publicDir, '404.html'), '<html><body>404 public page</body></html>');
  }
  const saved: { data: SessionData | null } = { data: null };
  const app = createApp({
    routes: fixtureRoutes(),
    controllers: buildControllers(c),
    views: memoryViews(TEMPLATES),
    ...(publicDir ? { public_dir: publicDir } : {}),
    engine,
    environment: 'test',
    mime,
    session_store: setup.session === 'off' ? NULL_SESSION_STORE : caseSessionStore(c, saved),
    logger: pino({ level: 'info' }, sink),
    config: {
      // Rails' forgery tests switch protection on for themselves (test mode has it off).
      allow_forgery_protection: c.kind === 'forgery' ? setup.allow_forgery_protection !== false : false,
      ...(setup.default_charset ? { default_charset: setup.default_charset } : {}),
      consider_all_requests_local: setup.consider_all_requests_local ?? false,
    },
  });
  return { app, errors, saved };
}
