/**
 * The example blog as an application: its routes, controllers, views and
 * public directory, with a fresh in-memory store unless one is given.
 *
 * @example
 *   const app = createBlogApp({ environment: 'test', engine: 'xstate' });
 *   const res = await app.handle({ method: 'GET', url: '/posts.json', headers: {} });
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { AppConfig, CacheStore, SessionStore } from '../../core/index.ts';
import type { AdminCredentials } from './controllers/admin/base.ts';
import type { BlogServices } from './controllers/application.ts';
import { createApp, type App, type Engine } from '../../machines/index.ts';
import { AccountsController } from './controllers/accounts.ts';
import { DashboardController } from './controllers/admin/dashboard.ts';
import { AdminPostsController } from './controllers/admin/posts.ts';
import { CommentsController } from './controllers/comments.ts';
import { PostsController } from './controllers/posts.ts';
import { SessionsController } from './controllers/sessions.ts';
import { Store } from './models.ts';
import { routes } from './routes.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Controller classes by the controller path the routes name. */
export const controllers = {
  posts: PostsController,
  comments: CommentsController,
  accounts: AccountsController,
  'admin/posts': AdminPostsController,
  'admin/dashboard': DashboardController,
  sessions: SessionsController,
};

export interface BlogAppOptions {
  /** Which engine runs the request machine (default: compiled). */
  readonly engine?: Engine;
  /** A pino logger, or false for none (default: pino on stdout, silent in test). */
  readonly logger?: Logger | false;
  /** Default: from NODE_ENV, else development. */
  readonly environment?: AppConfig['environment'];
  /** The data; a freshly seeded store by default. */
  readonly store?: Store;
  /** Signs the session cookie (30+ characters); default SIGNALBOX_SECRET, else in development tmp/development_secret (made on first start), in test a random one. */
  readonly secret?: string;
  /** Who may use /admin (HTTP Basic). Without it the admin area refuses everyone. */
  readonly admin?: AdminCredentials;
  /**
   * Where the post list's cached pages go. Default: none (the list is rendered every time), so that an
   * app made without saying keeps the source tree clean; `npm start` names a git-ignored directory.
   */
  readonly page_cache_directory?: string | false;
  /** Where post pages are cached (default: in memory). */
  readonly cache_store?: CacheStore;
  /** Where sessions are kept (default: the signed cookie, `_blog_session`). */
  readonly session_store?: SessionStore;
  /** False turns page and action caching off (default on). */
  readonly perform_caching?: boolean;
}

export function createBlogApp(options: BlogAppOptions = {}): App {
  return createApp({
    root: HERE,
    routes,
    controllers,
    views: join(HERE, 'views'),
    publicDir: join(HERE, 'public'),
    // What ApplicationController declares its services to be, checked here where they are given.
    services: { store: options.store ?? new Store(), admin: options.admin ?? null } satisfies BlogServices,
    // The default cookie store: sessions carry the flash across a redirect ("Post was successfully created.")
    // and the forms' authenticity token, signed so a visitor can read but never alter them.
    ...(options.session_store
      ? { session_store: options.session_store }
      : { session: { key: '_blog_session', ...(options.secret === undefined ? {} : { secret: options.secret }) } }),
    // As Rails 2.1: requests with a JSON or XML body are API calls, which no cross-site form can send,
    // so they need no authenticity token. Forms (url-encoded, multipart, or no body at all) do.
    config: { forgeryExemptTypes: ['application/json', 'application/xml'], perform_caching: options.perform_caching ?? true },
    // public/ is part of the source tree: cached pages go elsewhere, or nowhere.
    page_cache_directory: options.page_cache_directory ?? false,
    ...(options.cache_store ? { cache_store: options.cache_store } : {}),
    engine: options.engine,
    logger: options.logger,
    environment: options.environment,
  });
}
