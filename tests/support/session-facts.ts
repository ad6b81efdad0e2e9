/**
 * Handlers for the peer suite's session, authentication and rescue facts.
 *
 * Rails' cookie store kept Ruby Marshal data; Signalbox's keeps JSON, so a
 * Marshal cookie's *data* cannot be compared. For those facts the handler
 * checks everything that is format-independent (the digest verifies or not,
 * a cookie is or is not written, tampering is caught) and reports the data
 * comparison as skipped, with that reason, through `PartialFact`.
 * Rails signalled tampering by raising TamperedWithCookie; Signalbox never
 * raises (the request just gets an empty session) and deletes the cookie,
 * so "tampering detected and the cookie deleted" is what is compared.
 */
import { createHash } from 'node:crypto';
import {
  ArgumentError, Controller, CookieOverflow, TOKEN_KEY, MethodNotAllowed, MissingTemplate, NotImplemented, RecordInvalid, RecordNotFound,
  RecordNotSaved, Request, Response, RoutingError, SYMBOL_TO_STATUS_CODE, StaleObjectError, TemplateError, UnknownAction,
  MIN_SECRET_LENGTH, cookieSessionStore, createMimeRegistry, decodeCredentials, encodeCredentials, statusOf, type CookieStore,
  type SessionData, type SessionStore,
} from '../../core/index.ts';
import { rescueTemplate } from '../../core/pipeline/index.ts';
import { authorizationHeader } from '../../core/controller/http-basic.ts';
import { appWith, call, type Reply } from './harness.ts';

/** A result whose `actual` is compared with `expected`, the rest of the fact being skipped for `reason`. */
export class PartialFact {
  constructor(readonly actual: unknown, readonly expected: unknown, readonly reason: string) {}
}

/**
 * A response that a fact describes by the parts Rails asserted of it. The fact's output names them:
 * `status` (a status symbol, a code when given as a number, or a status line), `reason`, `body`, `headers`
 * (`{ name: value }`), or a header by its own name (`WWW-Authenticate`, or `www_authenticate`); an
 * object or list under another name groups such parts (`render: { status }`). A bare string or number
 * output is the status. `as(expected)` reads those parts from the response; a part the
 * handler does not know stays undefined, so the fact fails rather than passing unread.
 */
export class ObservedResponse {
  constructor(readonly res: Reply) {}

  as(expected: unknown): unknown {
    if (typeof expected === 'string' || typeof expected === 'number') return this.#status(expected);
    if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return this.res;
    return Object.fromEntries(Object.entries(expected as Record<string, unknown>).map(([key, value]) => [key, this.#part(key, value)]));
  }

  /** The status in the form `like` has: a code, a status line (`"401 Unauthorized"`), or a symbol. */
  #status(like: unknown): string | number | undefined {
    if (typeof like === 'number') return this.res.status;
    if (typeof like === 'string' && /^\d{3}\b/.test(like)) return `${this.res.status} ${this.res.reason ?? ''}`.trim();
    return statusSymbol(this.res.status);
  }

  #part(key: string, like: unknown): unknown {
    if (/^(?:render_|response_)?status$/.test(key)) return this.#status(like);
    if (key === 'reason' || key === 'message') return this.res.reason;
    if (key === 'body' || key === 'text') return this.res.body;
    if (key === 'headers' && like !== null && typeof like === 'object') {
      return Object.fromEntries(Object.keys(like).map((name) => [name, this.res.header(name)]));
    }
    const header = this.res.header(key) ?? this.res.header(key.replace(/_/g, '-'));
    if (header !== undefined) return header;
    // What the controller rendered, grouped (`render: { status }`, or the list of renders).
    if (Array.isArray(like)) return like.map((one) => this.as(one));
    if (like !== null && typeof like === 'object') return this.as(like);
    return undefined;
  }
}

/** A token a test faked with a stated function (`SHA1("secure") (test fake)`): that digest's hex, else null. */
export function fakedToken(description: unknown): string | null {
  const stated = /^(SHA1|MD5|SHA256)\("((?:[^"\\]|\\.)*)"\)/i.exec(String(description ?? ''));
  return stated ? createHash(stated[1].toLowerCase()).update(stated[2]).digest('hex') : null;
}

const MARSHAL = 'Ruby Marshal session data: Signalbox cookie sessions hold JSON, so only the digest and cookie behaviour are compared';

interface StoreOptions { session_key: string | null; secret: string | null; digest?: string; secret_is_callable?: boolean }

/**
 * The Rails suite signs its cookies with this 29-character secret and patches the
 * length check to accept exactly it; the harness does the same, for that string only.
 */
const RAILS_TEST_SECRET = 'Keep it secret; keep it safe.';
const acceptRailsTestSecret = (secret: string) => {
  if (secret !== RAILS_TEST_SECRET && secret.length < MIN_SECRET_LENGTH) {
    throw new ArgumentError(`The session secret must be at least ${MIN_SECRET_LENGTH} characters; this one has ${secret.length}`);
  }
};

function store(o: StoreOptions, digest = o.digest): CookieStore {
  const secret = o.secret_is_callable && o.secret !== null && o.secret !== '' ? () => o.secret as string : (o.secret as string);
  return cookieSessionStore({ key: o.session_key as string, secret, digest: (digest ?? 'SHA1') as 'SHA1', ensure_secret_secure: acceptRailsTestSecret });
}

function request(cookieHeader: string | null): Request {
  return new Request({ method: 'GET', url: '/', headers: cookieHeader === null ? {} : { cookie: cookieHeader } }, { mime: createMimeRegistry() });
}

/** What the cookie value's digest says, independent of the data format (Rails also tries it CGI-unescaped once). */
function digestVerifies(s: CookieStore, value: string, secret: string): boolean {
  const cut = value.indexOf('--');
  if (cut <= 0) return false;
  const data = value.slice(0, cut);
  const mac = value.slice(cut + 2);
  return s.generate_digest(data, secret) === mac || s.generate_digest(decodeURIComponent(data), secret) === mac;
}

function isMarshal(cookieValue: string | undefined): boolean {
  // Ruby Marshal output starts with \x04\x08, "BA" in base64.
  return cookieValue !== undefined && cookieValue.startsWith('BA');
}

function cookiesOf(res: Response): { name: string; value: string[]; expires: string | null }[] | null {
  if (res.cookies.length === 0) return null;
  return res.cookies.map((c) => {
    const [pair, ...attrs] = c.split(';').map((p) => p.trim());
    const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    const expires = attrs.find((a) => a.toLowerCase().startsWith('expires='));
    const past = expires !== undefined && new Date(expires.slice(8)).getTime() < Date.now() - 300 * 24 * 3600 * 1000;
    return { name, value: value === '' ? [] : [decodeURIComponent(value)], expires: past ? '1 year ago' : null };
  });
}

const RAILS_ERRORS: Record<string, () => unknown> = {
  'ActionController::RoutingError': () => new RoutingError('x'),
  'ActionController::UnknownAction': () => new UnknownAction('C', 'a'),
  'ActiveRecord::RecordNotFound': () => new RecordNotFound(),
  'ActiveRecord::StaleObjectError': () => new StaleObjectError(),
  'ActiveRecord::RecordInvalid': () => new RecordInvalid(['bad']),
  'ActiveRecord::RecordNotSaved': () => new RecordNotSaved(),
  'ActionController::MethodNotAllowed': () => new MethodNotAllowed(['get']),
  'ActionController::NotImplemented': () => new NotImplemented(['get']),
  'ActionView::MissingTemplate': () => new MissingTemplate(['x']),
  'ActionView::TemplateError': () => new TemplateError('x', new Error('boom')),
  '<any other exception>': () => new Error('any'),
};

const statusSymbol = (status: number) => Object.entries(SYMBOL_TO_STATUS_CODE).find(([, code]) => code === status)?.[0];

export const SESSION_FACT_HANDLERS: Record<string, (input: any) => unknown> = {
  'cookie_store.generate_digest': (input: { secret: string; digest: string; data: string }) =>
    store({ session_key: 'k', secret: input.secret }, input.digest).generate_digest(input.data, input.secret),

  'cookie_store.new': (input: { options: StoreOptions }) => {
    try {
      const s = store(input.options);
      // A secret given as a function is checked when a request first asks it for the secret.
      s.load(request(`${s.key}=x--y`));
      // A cookie store keeps no session id: nothing for a session-id cookie or a hidden id field to carry.
      return { options_after: { no_hidden: s.session_id === undefined, no_cookies: s.session_id === undefined } };
    } catch (error) {
      return { raises: error instanceof ArgumentError ? 'ArgumentError' : String(error) };
    }
  },

  'cookie_store.restore': (input: { options: StoreOptions; cookie_header: string | null }) => {
    const s = store(input.options);
    const req = request(input.cookie_header);
    const value = req.cookies[s.key];
    const data = s.load(req);
    const res = new Response();
    s.commit(req, res, data, { changed: false, reset: false });
    if (value !== undefined && !digestVerifies(s, value, input.options.secret!)) {
      return { raises: 'CGI::Session::CookieStore::TamperedWithCookie', output_cookies: cookiesOf(res) };
    }
    if (isMarshal(value)) return new PartialFact(digestVerifies(s, value!, input.options.secret!), true, MARSHAL);
    return { data };
  },

  'cookie_store.close': (input: { options: StoreOptions; cookie_header: string | null; writes: [string, unknown][] }) => {
    const s = store(input.options);
    const req = request(input.cookie_header);
    const value = req.cookies[s.key];
    const data = s.load(req);
    const before = JSON.stringify(data);
    for (const [k, v] of input.writes) data[k] = v && typeof v === 'object' && '$repeat' in v ? String((v as { $repeat: string }).$repeat).repeat((v as unknown as { count: number }).count) : v;
    const res = new Response();
    try {
      s.commit(req, res, data, { changed: JSON.stringify(data) !== before, reset: false });
    } catch (error) {
      return { raises: error instanceof CookieOverflow ? 'CGI::Session::CookieStore::CookieOverflow' : String(error), output_cookies: cookiesOf(res) };
    }
    if (isMarshal(value)) {
      // Whether a cookie was written and that it verifies; its Marshal value cannot match a JSON one.
      const written = cookiesOf(res);
      return new PartialFact(written === null ? null : written.map((c) => ({ name: c.name, verifies: digestVerifies(s, c.value[0] ?? '', input.options.secret!) })), undefined, MARSHAL);
    }
    return { output_cookies: cookiesOf(res) };
  },

  'cookie_store.delete': (input: { options: StoreOptions; cookie_header: string | null; then_close?: boolean; then_new_session_on_same_request?: boolean }) => {
    const s = store(input.options);
    const req = request(input.cookie_header);
    s.load(req);
    const res = new Response();
    // reset_session: the data is gone, and the client's cookie is expired.
    const data = {};
    s.commit(req, res, data, { changed: true, reset: true });
    if (input.then_new_session_on_same_request) return { new_session_data_user_id: (data as { user_id?: unknown }).user_id ?? null };
    return { output_cookies: cookiesOf(res) };
  },

  http_basic_encode_credentials: ([user, password]: [string, string]) => `${encodeCredentials(user, password)}\n`,

  http_basic_authenticate: (input: { env: Record<string, string | null>; login: string }) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(input.env)) {
      if (v === null) continue;
      const name = k.startsWith('HTTP_') ? k.slice(5).toLowerCase().replace(/_/g, '-') : k.toLowerCase().replace(/_/g, '-');
      headers[name] = v;
    }
    const [, user, password] = /user_name == "([^"]*)" && password == "([^"]*)"/.exec(input.login) ?? [];
    const credentials = decodeCredentials(authorizationHeader(headers));
    return credentials !== null && credentials[0] === user && credentials[1] === password;
  },

  /** `authentication_request(realm)`: what a controller answers when it asks for Basic credentials. */
  http_basic_authentication_request: async (input: string | { realm: string }) => {
    const realm = typeof input === 'string' ? input : input.realm;
    class ProtectedController extends Controller {
      challenge(): void {
        this.request_http_basic_authentication(realm);
      }
    }
    return new ObservedResponse(await call(appWith({ protected: ProtectedController }), 'GET /protected/challenge'));
  },

  /**
   * The token a controller's forms carry: `secret` (protect_from_forgery's), `session_id` (the session's
   * id, when its store keeps one), `session` (its data), and a `token_function` the test faked the
   * session's token with.
   */
  form_authenticity_token: async (input: { secret?: string | null; session_id?: string | number | null; session?: SessionData; token_function?: string }) => {
    const data: SessionData = { ...(input.session ?? {}) };
    // The fact states the faked token under `token_function`, or under a name of its own.
    const faked = [input.token_function, ...Object.values(input)].map(fakedToken).find((token) => token !== null);
    if (faked !== undefined) data[TOKEN_KEY] = faked;
    const sessionId = input.session_id;
    const sessions: SessionStore = {
      load: () => structuredClone(data),
      commit: () => {},
      ...(sessionId !== null && sessionId !== undefined ? { session_id: () => String(sessionId) } : {}),
    };
    class FormsController extends Controller {
      static {
        this.protect_from_forgery(input.secret ? { secret: input.secret } : {});
      }

      token(): void {
        this.render({ text: this.form_authenticity_token() });
      }
    }
    return (await call(appWith({ forms: FormsController }, { session_store: sessions }), 'GET /forms/token')).body;
  },

  rescue_response: (name: string) => {
    const make = RAILS_ERRORS[name];
    return make ? statusSymbol(statusOf(make())) : `unmapped ${name}`;
  },

  rescue_template: (name: string) => {
    const make = RAILS_ERRORS[name];
    return make ? rescueTemplate(make()) : `unmapped ${name}`;
  },

  request_method: (input: { REQUEST_METHOD: string }) => {
    const req = new Request({ method: input.REQUEST_METHOD, url: '/', headers: {} }, { mime: createMimeRegistry() });
    return { method: req.method, 'get?': req.method === 'get', 'head?': req.head };
  },
};

/** Makes a partial fact's expected side from the fact itself (for close: a written cookie must verify). */
export function partialExpected(fn: string, output: unknown): unknown {
  if (fn === 'cookie_store.close') {
    const cookies = (output as { output_cookies: { name: string }[] | null }).output_cookies;
    return cookies === null ? null : cookies.map((c) => ({ name: c.name, verifies: true }));
  }
  return true;
}

/** A fact as the skip rules read it. */
interface FactShape {
  readonly fn: string;
  readonly input: unknown;
  readonly output: unknown;
}

/**
 * Facts that only make sense for Ruby Marshal data, as rules over the fact's content (never its id),
 * each with the reason it is not run.
 */
export const SKIP_RULES: readonly { readonly reason: string; applies(fact: FactShape): boolean }[] = [
  {
    reason: 'the data counts as unchanged only when the Ruby Marshal cookie is read back, which a JSON store does not do',
    // Closing after writes to a session read from a Marshal cookie ("BAh" is base64 of Marshal's 4.8 header), expecting nothing written.
    applies: (fact) => {
      if (fact.fn !== 'cookie_store.close') return false;
      const input = fact.input as { cookie_header?: string; writes?: unknown[] };
      const value = /=(.*)$/.exec(input.cookie_header ?? '')?.[1] ?? '';
      return value.startsWith('BAh') && (input.writes?.length ?? 0) > 0 && (fact.output as { output_cookies?: unknown }).output_cookies === null;
    },
  },
];
