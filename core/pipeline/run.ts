/**
 * One request's journey through the pipeline, as one mutable record the
 * stages fill in turn, and the app-level runtime every stage reads.
 *
 * The request machine holds a `RequestRun` in its context; each named
 * action, guard and actor is a plain function of it (core/pipeline), so
 * both engines drive exactly the same code.
 */
import type { Logger } from 'pino';
import type { Controller } from '../controller/base.ts';
import type { Caching } from '../caching/caching.ts';
import type { CacheStatus } from '../caching/host.ts';
import type { ForgeryVerdict } from '../controller/declarations.ts';
import type { Request, RequestSettings } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import { withoutFragment, type RequestMessage, type ResponseMessage } from '../http/message.ts';
import type { MimeRegistry } from '../mime/types.ts';
import type { PublicFiles } from '../public/public-files.ts';
import type { ParamLimits, UploadFiles } from '../request/params.ts';
import type { Match, RouteSet } from '../routing/index.ts';
import type { ViewResolver } from '../views/resolver.ts';
import type { SessionStore } from '../session/store.ts';
import type { SessionHandle } from '../session/session.ts';

import type { ControllerClass } from '../controller/base.ts';
export type { ControllerClass };

export interface AppConfig {
  readonly environment: 'development' | 'test' | 'production';
  /** The charset of every text response (`utf-8`); null sends none. */
  readonly default_charset: string | null;
  /** Show the development error pages (routing error, an exception's trace, params, session) to local requests instead of the public page. */
  readonly consider_all_requests_local: boolean;
  /**
   * Answer an error the app has no `public/<status>.html` for with a short page naming the status (default),
   * or, false, with Rails 2.1's single space.
   */
  readonly defaultErrorPages: boolean;
  /** Off turns forgery protection off for the whole app (default: off in test, on otherwise). */
  readonly allow_forgery_protection: boolean;
  readonly limits: ParamLimits;
  readonly relative_url_root: string;
  /** Content types exempt from forgery protection, by exact essence (default `application/json` and `application/xml`). */
  readonly forgeryExemptTypes: readonly string[];
  /** Believe X-Forwarded-Host/-Proto/-For and Client-IP; turn on only behind a proxy you control (default off). */
  readonly trustProxy: boolean;
  /**
   * Host names this app answers to (with or without a port; a leading `.` admits subdomains; a RegExp
   * matches the whole name). Empty admits any host; otherwise any other Host gets 403, so links and
   * redirects never name a forged host, and a rebound domain name (DNS rebinding) reaches nothing.
   * Default: `localhost`, `*.localhost` and IP addresses in development, none (any host) in test, and in
   * every environment the names in `SIGNALBOX_HOSTS` (comma-separated).
   */
  readonly hosts: readonly (string | RegExp)[];
  /** Rails' `perform_caching`: false turns page and action caching off (default on, but off in development). */
  readonly perform_caching: boolean;
  /** Whether responses of cached actions carry `X-Cache: hit` or `miss` (default on). */
  readonly cacheHeader: boolean;
  /**
   * Rails' `cache_template_loading`: false looks at the views directory before each render and imports
   * changed templates again, so an edit shows on the next request. Default: false in development only.
   */
  readonly cache_template_loading: boolean;
}

/** Everything the stages need from the app, built once by `createApp`. */
export interface AppRuntime {
  /** The application's directory (`createApp({ root })`): development's session secret lives under it, and error pages show paths from it. */
  readonly root: string;
  readonly routes: RouteSet;
  readonly controllers: ReadonlyMap<string, ControllerClass>;
  readonly mime: MimeRegistry;
  readonly config: AppConfig;
  readonly views: ViewResolver | null;
  readonly publicDir: string | null;
  readonly log: Logger;
  readonly services: Readonly<Record<string, unknown>>;
  readonly sessions: SessionStore;
  /** Whether any controller declares `protect_from_forgery` (and the app allows it): then no route is a way around it. */
  readonly forgeryProtected: boolean;
  /** Reads a file of `publicDir` (cached); null when absent. */
  publicFile(name: string): string | null;
  /** The page cache, the action cache's store, and expiry. */
  readonly caching: Caching;
  /** The public directory and the page cache as the first stage answers from them; null when the app has neither. */
  readonly publicFiles: PublicFiles | null;
  /** What every `Request` of this app is built with (from `mime` and `config`), made once. */
  readonly requestSettings: RequestSettings;
}

export interface RequestRun {
  readonly app: AppRuntime;
  readonly message: RequestMessage;
  readonly id: string;
  /** `performance.now()` when the request arrived, for X-Runtime and logs. */
  readonly started: number;
  request: Request | null;
  match: Match | null;
  /** Methods the path would accept, when recognition failed on the method alone. */
  allowed: readonly string[];
  forgery: ForgeryVerdict;
  response: Response | null;
  controller: Controller | null;
  /** The session the action was given, once one was (development's error pages show what it read). */
  session: SessionHandle | null;
  error: unknown;
  output: ResponseMessage | null;
  /** What the caches did, when the action declares one (or a cached page answered): the X-Cache header and the log line say it. */
  cache: CacheStatus | null;
  /** For a cached page, the action that rendered it (the log line names it; no action runs). */
  served: { readonly controller: string | null; readonly action: string | null } | null;
  /** Answered by a plain file of the public directory (an asset): such requests are not logged. */
  asset: boolean;
  /** The temporary files this request's uploads were streamed to, removed when it ends; null when none could be. */
  uploads: UploadFiles | null;
}

let sequence = 0;

/**
 * One run. Its id is numbered when the run is made but spelled out only when read (a log line, a
 * trace): with a silent logger and nobody tracing, no request pays for the string.
 */
class Run implements RequestRun {
  readonly app: AppRuntime;
  readonly message: RequestMessage;
  readonly started: number;
  request: Request | null = null;
  match: Match | null = null;
  allowed: readonly string[] = NONE;
  forgery: ForgeryVerdict = NOT_REQUIRED;
  response: Response | null = null;
  controller: Controller | null = null;
  session: SessionHandle | null = null;
  error: unknown = null;
  output: ResponseMessage | null = null;
  cache: CacheStatus | null = null;
  served: { readonly controller: string | null; readonly action: string | null } | null = null;
  asset = false;
  uploads: UploadFiles | null = null;
  readonly #sequence: number;
  #id: string | null;

  constructor(app: AppRuntime, message: RequestMessage, id: string | null) {
    this.app = app;
    this.message = withoutFragment(message);
    this.#sequence = ++sequence;
    this.#id = id;
    this.started = performance.now();
  }

  get id(): string {
    return (this.#id ??= `req-${this.#sequence.toString(36)}`);
  }
}

/** A fresh run for one message. */
export function createRun(app: AppRuntime, message: RequestMessage, id?: string): RequestRun {
  return new Run(app, message, id ?? null);
}

const NONE: readonly string[] = Object.freeze([]);
const NOT_REQUIRED: ForgeryVerdict = Object.freeze({ required: false });
