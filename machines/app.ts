/**
 * `createApp`: an application is a route set, its controllers and views,
 * and the request machine that runs every request. `app.handle(message)` is
 * the whole contract every transport uses.
 *
 * @example
 *   const app = createApp({ routes, controllers: { posts: PostsController }, views: 'app/views' })
 *   const res = await app.handle({ method: 'GET', url: '/posts/1.json', headers: {} })
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import pino, { type Logger } from 'pino';
import { createRun, logCompleted, logMachineFailure, type AppConfig, type AppRuntime, type ControllerClass, type RequestRun } from '../core/pipeline/index.ts';
import { messageProblem, type RequestMessage, type ResponseMessage } from '../core/http/message.ts';
import { createMimeRegistry, type MimeRegistry } from '../core/mime/types.ts';
import type { RouteSet } from '../core/routing/index.ts';
import { recognizingControllers } from '../core/routing/route-set.ts';
import { directoryViews, type ViewResolver } from '../core/views/resolver.ts';
import { forgetTemplates } from '../core/views/render.ts';
import { ArgumentError } from '../core/errors.ts';
import { isThenable } from '../core/util.ts';
import { declarationsOf } from '../core/controller/declarations.ts';
import type { SessionStore } from '../core/session/store.ts';
import { Caching } from '../core/caching/caching.ts';
import { PublicFiles } from '../core/public/public-files.ts';
import { memoryStore } from '../core/caching/memory-store.ts';
import type { CacheStore } from '../core/caching/store.ts';
import { chooseSessionStore, type SessionOptions } from '../core/session/default-store.ts';
import { defaultErrorPage } from '../core/pipeline/default-pages.ts';
import { generatesCode } from '../core/generated-code.ts';
import { givenOptions, meantName, type Options } from '../core/options.ts';
import { mountPoint } from '../core/routing/params.ts';
import { ENVIRONMENTS, checkAppOptions } from './app-options.ts';
import { compileMachine } from './compile.ts';
import { type CompiledMachine } from './compiled-machine.ts';
import { runWithXState } from './engine-xstate.ts';
import { requestMachine } from './request.machine.ts';
import { defaultLogger } from './terminal-log.ts';
import { Tracer, type TraceListener } from './trace.ts';

export type Engine = 'compiled' | 'xstate';

export interface CreateAppOptions {
  readonly routes: RouteSet;
  /** The application's directory (Rails' `Rails.root`): development keeps its session secret in `tmp/development_secret` there. Default: the current directory. */
  readonly root?: string | undefined;
  /** Controller classes by controller path (`posts`, `admin/posts`). */
  readonly controllers: Readonly<Record<string, ControllerClass>> | ReadonlyMap<string, ControllerClass>;
  /** Directory of static error pages and assets (`public/500.html`). */
  readonly publicDir?: string | undefined;
  /** Directory of templates (reloaded when they change unless `config.cache_template_loading`), or a resolver. */
  readonly views?: string | ViewResolver | undefined;
  /** A pino logger; `false` for none. Defaults to pino on stdout (silent in test). */
  readonly logger?: Logger | false | undefined;
  /** Which engine runs the request machine: the compiled table (default) or real XState actors. */
  readonly engine?: Engine | undefined;
  readonly environment?: AppConfig['environment'] | undefined;
  /** The app's MIME registry (register custom types on it); a fresh one by default. */
  readonly mime?: MimeRegistry | undefined;
  readonly config?: Options<Omit<AppConfig, 'environment'>> | undefined;
  /** App-wide objects controllers reach as `this.services` (a data store, API clients). */
  readonly services?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Cookie session options (`key`, `secret`, `digest`, `secure`...): the default store.
   * The secret defaults to `SIGNALBOX_SECRET`; `false` turns sessions off.
   */
  readonly session?: SessionOptions | false | undefined;
  /** Another place to keep sessions (`memorySessionStore()`, your own); `false` for none. */
  readonly session_store?: SessionStore | false | undefined;
  /** Where `caches_action` keeps responses: `memoryStore()` (the default), `fileStore(dir)`, your own. */
  readonly cache_store?: CacheStore | undefined;
  /** Where `caches_page` writes pages: default `publicDir`; `false` for no page cache. */
  readonly page_cache_directory?: string | false | undefined;
}

export interface App {
  /** Runs one request through the request machine. Never rejects: failures become responses. */
  handle(message: RequestMessage): Promise<ResponseMessage>;
  readonly routes: RouteSet;
  readonly engine: Engine;
  readonly mime: MimeRegistry;
  readonly config: AppConfig;
  readonly log: Logger;
  /** The public directory (static files, error pages, cached pages), or null. */
  readonly publicDir: string | null;
  /** The page cache, the action cache's store, and expiry for code outside a request (`app.caching.expire_page('/posts')`). */
  readonly caching: Caching;
  /**
   * What the machine's first state answers from: the public directory's files (`index` lists them; add a
   * file written there behind the app's back) and the page cache. Null when the app has neither.
   */
  readonly publicFiles: PublicFiles | null;
  /** The compiled request machine (also used to list states for tools). */
  readonly compiled: CompiledMachine<{ run: RequestRun }, ResponseMessage>;
  /** Listens to trace events (states entered, transitions taken); returns an unsubscribe function. */
  trace(listener: TraceListener): () => void;
  /** Lets go of what the app holds open (a Redis store's connection, the public directory's watcher); the app answers no more requests after it. */
  close(): Promise<void>;
}

const COMPILED = compileMachine<{ run: RequestRun }, ResponseMessage>(requestMachine);

/** An IPv4 address or a bracketed IPv6 one, as a Host header names it. */
const IP_ADDRESS = /\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]/;

/**
 * Rails 6's default against DNS rebinding: in development only local names and IP addresses, in test any
 * host; `SIGNALBOX_HOSTS` (comma-separated) adds names in any environment, and is the way to name a
 * production app's hosts without code. Hosts given in `config.hosts` are kept, with `SIGNALBOX_HOSTS`'s.
 */
function defaultHosts(environment: AppConfig['environment'], configured: readonly (string | RegExp)[] | undefined): readonly (string | RegExp)[] {
  const fromEnv = (process.env.SIGNALBOX_HOSTS ?? '').split(',').map((h) => h.trim()).filter((h) => h !== '');
  if (configured !== undefined) return [...configured, ...fromEnv];
  if (environment === 'development') return ['localhost', '.localhost', IP_ADDRESS, ...fromEnv];
  return fromEnv;
}

const ENVIRONMENT_NAMES: ReadonlySet<string> = new Set(ENVIRONMENTS);

/**
 * The environment NODE_ENV names; development when it names none. A value that is not one of the three
 * (`Production`, `prod`, `staging`) is refused rather than read as development: a deployed app would
 * otherwise show development's error pages, with parameters and session, to every request a proxy on
 * the same machine forwards, and take a development secret.
 */
function defaultEnvironment(): AppConfig['environment'] {
  const env = process.env.NODE_ENV;
  if (env === undefined || env === '') return 'development';
  if (ENVIRONMENT_NAMES.has(env)) return env as AppConfig['environment'];
  const meant = meantName(env, ENVIRONMENT_NAMES);
  throw new ArgumentError(`NODE_ENV is ${JSON.stringify(env)}, which names no environment${meant === null ? '' : ` (did you mean ${meant}?)`}: ` +
    'Signalbox runs as development, test or production. A staging server runs as production; createApp({ environment }) chooses one whatever NODE_ENV says');
}

export function createApp(options: CreateAppOptions): App {
  if (!options || typeof options.routes?.match !== 'function') throw new ArgumentError('createApp needs { routes } drawn with draw()');
  checkAppOptions(options);
  const environment = options.environment ?? defaultEnvironment();
  const earlyWarnings: string[] = [];
  const config: AppConfig = Object.freeze({
    environment,
    default_charset: 'utf-8',
    consider_all_requests_local: environment === 'development',
    defaultErrorPages: true,
    allow_forgery_protection: environment !== 'test',
    limits: {},
    // API bodies a cross-site form cannot send (browsers preflight them): exact essences only.
    forgeryExemptTypes: ['application/json', 'application/xml'],
    trustProxy: false,
    // Rails' default: off in development, where a cached page would hide the edit just made.
    perform_caching: environment !== 'development',
    cacheHeader: true,
    cache_template_loading: environment !== 'development',
    // A key given as undefined keeps its default, as every other option does.
    ...givenOptions(options.config),
    // As the route set keeps its own: '/blog/' is '/blog', so paths are read and links made under one root.
    relative_url_root: mountPoint(options.config?.relative_url_root ?? options.routes.config.relative_url_root),
    hosts: defaultHosts(environment, options.config?.hosts),
  });
  if (environment === 'production' && config.hosts.length === 0) {
    earlyWarnings.push('config.hosts is empty, so any Host header is answered: name the hosts in SIGNALBOX_HOSTS or config.hosts');
  }
  const log = options.logger === false
    ? pino({ level: 'silent' })
    // pino's own base fields, pid and hostname, tell the lines of several workers and machines apart.
    : (options.logger ?? defaultLogger(environment));
  for (const warning of earlyWarnings) log.warn(warning);
  if (!generatesCode()) log.info('code generation from strings is refused in this process: routing and the request walk run their interpreted forms, with the same answers, more slowly');
  const controllers = options.controllers instanceof Map
    ? new Map(options.controllers)
    : new Map(Object.entries(options.controllers as Record<string, ControllerClass>));
  // Rails matched a `:controller` segment against the application's controllers only, so a path whose first
  // word names none fell through to later routes; a route set drawn without its own list learns the app's here.
  const routes = recognizingControllers(options.routes, [...controllers.keys()]);
  const views = typeof options.views === 'string' ? directoryViews(options.views, { reload: !config.cache_template_loading }) : (options.views ?? null);
  const publicDir = options.publicDir ? resolve(options.publicDir) : null;
  const publicCache = new Map<string, string | null>();
  const mime = options.mime ?? createMimeRegistry();
  const pageCacheDir = options.page_cache_directory === false ? null : options.page_cache_directory ? resolve(options.page_cache_directory) : publicDir;
  const cacheStore: CacheStore = options.cache_store ?? memoryStore();
  cacheStore.useLogger?.(log);
  const caching = new Caching({
    enabled: config.perform_caching, store: cacheStore, page_cache_directory: pageCacheDir,
    mime, routes, log, relative_url_root: config.relative_url_root,
  });
  const publicFiles = publicDir === null && caching.pages === null ? null : new PublicFiles({ root: publicDir, pages: caching.pages, mime, development: environment === 'development' });
  const root = resolve(options.root ?? '.');
  const sessions = chooseSessionStore({ session: options.session, session_store: options.session_store, environment, log, root });
  sessions.useLogger?.(log);
  const runtime: AppRuntime = {
    root,
    routes,
    controllers,
    mime,
    config,
    views,
    publicDir: publicDir,
    log,
    services: Object.freeze({ ...(options.services ?? {}) }),
    sessions,
    forgeryProtected: config.allow_forgery_protection && [...controllers.values()].some((k) => declarationsOf(k).forgery !== null),
    publicFile(name) {
      if (publicDir === null) return null;
      let body = publicCache.get(name);
      if (body === undefined) {
        const file = resolve(publicDir, name);
        body = file.startsWith(publicDir + sep) && existsSync(file) ? readFileSync(file, 'utf8') : null;
        publicCache.set(name, body);
      }
      return body;
    },
    caching,
    publicFiles,
    requestSettings: Object.freeze({ mime, limits: config.limits, relative_url_root: config.relative_url_root, trustProxy: config.trustProxy }),
  };
  const engine = options.engine ?? 'compiled';
  const reloading = views?.refresh !== undefined ? reloadTemplates(views as ViewResolver & { refresh(): Promise<boolean> }) : null;
  const tracer = new Tracer();

  const finish = (run: RequestRun, output: ResponseMessage): ResponseMessage => {
    // Upload files go once the answer is made (whether the request succeeded or not); nothing reads them after.
    if (run.uploads !== null) void run.uploads.removeAll();
    // Timed and built only when someone will read it: with a silent logger and no tracer this is free.
    logCompleted(run, output);
    if (tracer.active) {
      const now = performance.now();
      tracer.emit({ kind: 'done', id: run.id, status: output.status, ms: now - run.started, t: now });
    }
    return output;
  };
  const crash = (run: RequestRun, error: unknown): ResponseMessage => {
    // Only a bug in the framework itself gets here; answer like an unrescued exception.
    logMachineFailure(run, error);
    return finish(run, { status: 500, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: runtime.publicFile('500.html') ?? (config.defaultErrorPages ? defaultErrorPage(500) : ' ') });
  };

  // A message made by hand that is not a RequestMessage: a 400 like any request that cannot be read, logged with what is
  // wrong; development also says it in the body. app.handle still never rejects.
  const notAMessage = (problem: string): ResponseMessage => {
    const what = `app.handle needs a RequestMessage ({ method, url, headers }): ${problem}`;
    log.warn({ status: 400 }, what);
    const body = config.environment === 'development' ? `400 Bad Request: ${what}\n` : defaultErrorPage(400);
    return { status: 400, headers: { 'Content-Type': config.environment === 'development' ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8' }, body };
  };

  return Object.freeze({
    routes,
    engine,
    mime: runtime.mime,
    config,
    log,
    publicDir: publicDir,
    caching,
    publicFiles,
    compiled: COMPILED,
    trace: (listener: TraceListener) => tracer.listen(listener),
    async close(): Promise<void> {
      publicFiles?.close();
      await Promise.all([cacheStore.close?.(), sessions.close?.()]);
    },
    handle: reloading === null ? handleMessage : (message: RequestMessage) => reloading().then(() => handleMessage(message)),
  });

  /**
   * In development, before each request: templates are brought up to date with their files, and when
   * one changed the caches forget what they hold (it was rendered with the old template), so an edit
   * shows on the next request even where that page was cached. Production never pays for it.
   */
  function reloadTemplates(resolver: ViewResolver & { refresh(): Promise<boolean> }): () => Promise<void> {
    return () => resolver.refresh().then(async (changed) => {
      if (!changed) return;
      // Renders keep the templates and layouts they found until now.
      forgetTemplates(resolver);
      await caching.expireAll();
    }, (error: unknown) => {
      log.error({ err: error }, 'templates could not be reloaded');
    });
  }

  function handleMessage(message: RequestMessage): Promise<ResponseMessage> {
    const problem = messageProblem(message);
    if (problem !== null) return Promise.resolve(notAMessage(problem));
    const run = createRun(runtime, message);
    if (tracer.active) {
      // The run's message: its target is read without a fragment, as everywhere else.
      const { url } = run.message;
      const q = url.indexOf('?');
      tracer.emit({ kind: 'request', id: run.id, machine: COMPILED.id, method: message.method, path: q < 0 ? url : url.slice(0, q), transport: message.transport ?? 'http', t: performance.now() });
    }
    try {
      const out = engine === 'xstate'
        ? runWithXState<ResponseMessage>(requestMachine, { run }, tracer, tracer.active ? run.id : '')
        : COMPILED.run({ run }, tracer, tracer.active ? run.id : '');
      if (isThenable(out)) return Promise.resolve(out).then((o) => finish(run, o), (e) => crash(run, e));
      return Promise.resolve(finish(run, out));
    } catch (error) {
      return Promise.resolve(crash(run, error));
    }
  }
}
