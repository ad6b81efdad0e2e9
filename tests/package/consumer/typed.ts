// What the package's types tell an application, under a consumer's strictest settings
// (tests/package/declarations.test.ts checks it against the declarations the build emits, and
// tests/package/packed.test.ts against the installed package): parameters read as the parsers give
// them, services and session declared once on ApplicationController, templates typed by what they
// read, cache conditions by their controller. Each `@ts-expect-error` is a misuse that must not compile.
import {
  Controller, RecordNotFound, UploadedFile, createApp, draw, html, memoryViews,
  type ControllerClass, type ControllerShape, type ParamValue, type SessionValue, type Template, type View,
} from 'signalbox';

interface Post {
  readonly id: string;
  title: string;
}

class Store {
  readonly #posts = new Map<string, Post>([['1', { id: '1', title: 'Hello' }]]);
  find(id: string): Post {
    const post = this.#posts.get(id);
    if (post === undefined) throw new RecordNotFound(`No post ${id}`);
    return post;
  }
}

/** What every controller of the application shares: its services and what it keeps in the session. */
interface AppShape {
  readonly services: { readonly store: Store };
  readonly session: { user_id?: number; recent?: string[] };
}

// Generic, so that a controller below adds the parameters its routes give to the application's shape.
class ApplicationController<Shape extends ControllerShape = {}> extends Controller<Shape & AppShape> {
  static {
    this.rescue_from(RecordNotFound, 'not_found');
  }

  not_found(error: RecordNotFound): void {
    this.render({ text: error.message, status: 404 });
  }
}

class PostsController extends ApplicationController<{ params: { id: string } }> {
  static {
    this.before_filter('find_post', { only: ['show', 'update'] });
    this.caches_action('show', { if: (c) => c.post?.title !== 'draft', cache_path: (c) => `/posts/${c.params.id}` });
    // @ts-expect-error: a filter names one of the controller's methods, and this one has none of that name
    this.before_filter('find_psot');
  }

  post?: Post;

  find_post(): void {
    // Declared by this controller: its member routes always give `:id`, a string.
    this.post = this.services.store.find(this.params.id);
  }

  show(): void {
    const page: ParamValue | undefined = this.params.page;
    const upload = this.params.attachment;
    const attachment = upload instanceof UploadedFile ? upload.original_filename : null;
    this.session.recent = [...(this.session.recent ?? []), this.params.id];
    const userId: number | undefined = this.session.user_id;
    this.render({ json: { post: this.post ?? null, page: typeof page === 'string' ? page : null, attachment, userId } });
  }

  update(): void {
    const attributes = this.params.post;
    // Nested hashes are ParamValues too: narrowed before use, never assumed.
    if (attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) && !(attributes instanceof Date) && !(attributes instanceof UploadedFile)) {
      const title = attributes.title;
      if (typeof title === 'string' && this.post !== undefined) this.post.title = title;
    }
    // @ts-expect-error: a parameter the controller did not declare may be absent, a hash, an upload...
    const title: string = this.params.title;
    void title;
    // @ts-expect-error: the session holds what JSON holds; a Date would come back a string
    this.session.seen_at = new Date();
    // @ts-expect-error: the application declared its services; there is no mailer among them
    void this.services.mailer.deliver();
    this.redirect_to(`/posts/${this.params.id}`);
  }
}

class PagesController extends Controller {
  show(): void {
    // No declaration: every parameter is a ParamValue, to be narrowed.
    const id = this.params.id;
    const shown: string = typeof id === 'string' ? id : 'home';
    const remembered: SessionValue | undefined = this.session.last_page;
    this.session.last_page = shown;
    // Services nobody declared read as unknown, not as anything at all.
    const db: unknown = this.services.db;
    this.render({ text: `${shown} ${String(remembered)} ${typeof db}` });
  }
}

const show: Template<View<PostsController>> = (v) => html`<h1>${v.post?.title ?? ''}</h1>${v.link_to('All', '/posts')}`;
// @ts-expect-error: the posts' view has no comments
const broken: Template<View<PostsController>> = (v) => html`${v.comments}`;
void broken;

const views = memoryViews({
  'posts/show.html': show,
  'posts/_row.html': (v: View<{ row: Post; row_counter: number }>) => html`<li>${v.row_counter}: ${v.row.title}</li>`,
  'layouts/application.html': (v) => html`<main>${v.yield()}</main>`,
});

// A template may instead say only what it reads of its view.
export const bundled = memoryViews({ 'pages/show.html': (view: { readonly id: string }) => html`<h1>Page ${view.id}</h1>` });

const controllers: Record<string, ControllerClass> = { posts: PostsController, pages: PagesController };
export const app = createApp({
  routes: draw((map) => {
    map.resources('posts', { only: ['show', 'update'] });
    map.connect('pages/:id', { controller: 'pages', action: 'show' });
  }),
  controllers,
  views,
  services: { store: new Store() },
  logger: false,
});
