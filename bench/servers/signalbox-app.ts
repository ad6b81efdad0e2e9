/**
 * The Signalbox app every HTTP bench runs: the ~670-route Rails table of
 * bench/fixtures/rails-table.ts (with its `posts` resource) and a
 * PostsController whose show action negotiates JSON or HTML for an in-memory post.
 */
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { Controller } from '../../core/index.ts';
import { createApp, type App, type Engine } from '../../machines/index.ts';
import { railsTable } from '../fixtures/rails-table.ts';
import { findPost, type BenchPost } from './bodies.ts';

/** The bench page's templates (a layout, the page, two partials); compiled beside this file in the bench build. */
const VIEWS = fileURLToPath(new URL('../fixtures/views', import.meta.url));

export class PostsController extends Controller<{ services: { posts: { get: typeof findPost } } }> {
  post?: BenchPost;

  show(): void {
    const post = (this.post = this.services.posts.get(Number(this.params.id)));
    this.respond_to({
      json: () => this.render({ json: post }),
      // posts/show.html in layouts/application.html (there is no layouts/posts.html).
      html: () => this.render(),
    });
  }
}

/** Production refuses to start without a session secret; the bench keeps the default session store with a fixed one. */
const BENCH_SECRET = 'signalbox-bench-secret-0123456789abcdef0123456789abcdef';

/** The app; `logger` false (the default) keeps pino in the pipeline at level silent, a logger writes its lines. */
export function benchApp(engine: Engine, logger: Logger | false = false): App {
  process.env.SIGNALBOX_SECRET ??= BENCH_SECRET;
  return createApp({
    routes: railsTable(),
    controllers: { posts: PostsController },
    engine,
    views: VIEWS,
    environment: 'production',
    // By default no log lines: the peers log nothing either. pino stays in the pipeline at level silent.
    logger,
    services: { posts: { get: findPost } },
  });
}
