/**
 * Type tests, checked by `tsc` (npm test's first step), never run: a filter, a
 * rescue handler or a cache condition names a method of the controller that
 * declares it, so a misspelt or renamed one is a compile error. Each
 * `@ts-expect-error` line must fail to compile, or tsc reports the directive
 * as unused; the lines without one must compile.
 */
import { Controller, RecordNotFound } from '../../../core/index.ts';

export class PostsController extends Controller {
  static {
    this.before_filter('find_post', { only: ['show'] });
    this.before_filter('find_post', (c) => c.audit('before'), { except: 'index' });
    this.prepend_before_filter('audit');
    this.after_filter('audit');
    this.around_filter('timed', (c, action) => c.timed(action));
    this.skip_before_filter('find_post');
    this.rescue_from(RecordNotFound, 'not_found');
    this.rescue_from(RecordNotFound, { with: 'not_found' });
    // The handler's error is the matched class, without saying so.
    this.rescue_from(RecordNotFound, function (error) { this.render({ text: error.message, status: 404 }); });
    this.rescue_from(TypeError, 'RangeError', 'not_found');
    this.hide_action('audit');
    this.caches_page('index', { if: 'cacheable' });
    this.caches_action('show', { if: (c) => c.cacheable(), cache_path: (c) => `posts/${c.params.id}` });

    // @ts-expect-error -- no method find_posts
    this.before_filter('find_posts');
    // @ts-expect-error -- a misspelt name among good ones, before the options
    this.after_filter('audit', 'adit', { only: 'show' });
    // @ts-expect-error -- around filters name methods too
    this.around_filter('time');
    // @ts-expect-error -- a property is not a method
    this.before_filter('title');
    // @ts-expect-error -- TypeScript's private methods are not nameable from outside the class body's types
    this.before_filter('secret');
    // @ts-expect-error -- a function filter is given this controller
    this.before_filter((c) => c.no_such_method());
    // @ts-expect-error -- skipping names a method as well
    this.skip_filter('find_post_');
    // @ts-expect-error -- no method not_fond
    this.rescue_from(RecordNotFound, 'not_fond');
    // @ts-expect-error -- nor under { with }
    this.rescue_from(RecordNotFound, { with: 'not_fond' });
    // @ts-expect-error -- a handler given the matched class cannot read what it lacks
    this.rescue_from(RecordNotFound, function (error) { return error.no_such_field; });
    // @ts-expect-error -- hide_action names methods
    this.hide_action('audits');
    // @ts-expect-error -- a cache condition names a method
    this.caches_action('show', { if: 'cachable' });
    // @ts-expect-error -- nor on a page cache
    this.caches_page('index', { if: 'cachable' });
  }

  title = 'Posts';
  find_post(): void {}
  audit(_when?: string): void {}
  async timed(action: () => Promise<void>): Promise<void> {
    await action();
  }
  not_found(): void {
    this.head('not_found');
  }
  cacheable(): boolean {
    return this.flash.empty;
  }
  private secret(): void {}
  show(): void {
    this.secret();
  }
}

export class AdminPostsController extends PostsController {
  static {
    // Inherited methods may be named from a subclass.
    this.before_filter('find_post', 'authenticate');
    // @ts-expect-error -- but a subclass's name is not its parent's
    PostsController.before_filter('authenticate');
  }
  authenticate(): void {}
}
