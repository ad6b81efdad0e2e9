/** Posts: the seven RESTful actions, a search (`GET /posts/search?q=`) and a publish member action (`PUT /posts/:id/publish`). */
import { toXml } from '../../../core/index.ts';
import type { Comment, Post } from '../models.ts';
import { ApplicationController } from './application.ts';
import { expirePost } from './sweeper.ts';

export class PostsController extends ApplicationController {
  static {
    this.before_filter('find_post', { only: ['show', 'edit', 'update', 'destroy', 'publish'] });
    // The list is the same for every visitor, so it is page-cached (served as a file before the app runs,
    // session unseen): nothing on it belongs to one visitor. Its only form is the GET search form, which
    // carries no authenticity token, and the flash it shows after a delete is never written into the page:
    // the framework caches nothing rendered while the flash held a message. A visitor arriving with a
    // message after someone else has cached the list meanwhile sees the message on their next page.
    this.caches_page('index');
    // And action-cached, in the app's cache store: what answers the list where there is no page cache
    // directory to serve it from (several machines, each with its own disk, sharing Redis), and in a
    // worker that has not written the page itself.
    this.caches_action('index', { if: (c: PostsController) => c.flash.empty });
    // A post's page is per visitor in two ways, both handled: its forms carry the session's token (the
    // action cache keeps the token's place and fills in each visitor's own), and a visitor with a message
    // waiting gets a fresh render that shows it (and sweeps it), not the cached page.
    this.caches_action('show', { if: (c: PostsController) => c.flash.empty });
    this.after_filter('expire_caches', { only: ['create', 'update', 'publish', 'destroy'] });
  }

  post!: Post;
  posts: Post[] = [];
  comments: Comment[] = [];
  /** The empty comment the show page's form starts from. */
  comment!: Comment;
  query = '';

  find_post(): void {
    this.post = this.store.posts.find(this.params.id);
  }

  expire_caches(): unknown {
    return expirePost(this, this.post?.id);
  }

  index(): void {
    this.posts = this.store.newestFirst(this.store.posts.all());
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.posts }),
      xml: () => this.render({ xml: toXml(this.posts, 'posts') }),
    });
  }

  search(): void {
    const q: unknown = this.params.q;
    this.query = typeof q === 'string' ? q : '';
    this.posts = this.store.search(this.query);
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.posts }),
      xml: () => this.render({ xml: toXml(this.posts, 'posts') }),
    });
  }

  show(): void {
    this.comments = this.store.commentsOf(this.post);
    this.comment = this.store.buildComment(this.post);
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.post }),
      xml: () => this.render({ xml: this.post }),
    });
  }

  new(): void {
    this.post = this.store.posts.build();
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.post }),
      xml: () => this.render({ xml: this.post }),
    });
  }

  edit(): void {
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.post }),
      xml: () => this.render({ xml: this.post }),
    });
  }

  create(): void {
    const post = (this.post = this.store.posts.build(this.attributes_for('post')));
    this.store.posts.save(post);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Post was successfully created.');
        this.redirect_to(post);
      },
      json: () => this.render({ json: post, status: 'created', location: post }),
      xml: () => this.render({ xml: post, status: 'created', location: post }),
    });
  }

  update(): void {
    const post = this.post.assign(this.attributes_for('post'));
    this.store.posts.save(post);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Post was successfully updated.');
        this.redirect_to(post);
      },
      json: () => this.render({ json: post }),
      xml: () => this.render({ xml: post }),
    });
  }

  publish(): void {
    const post = this.post;
    post.published = true;
    this.store.posts.save(post);
    this.respond_to({
      html: () => {
        this.flash.set('notice', `"${post.title}" is published.`);
        this.redirect_to(post);
      },
      json: () => this.render({ json: post }),
      xml: () => this.render({ xml: post }),
    });
  }

  destroy(): void {
    this.store.destroyPost(this.post.id);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Post was deleted.');
        this.redirect_to(this.routes.posts_url());
      },
      json: () => this.head('no_content'),
      xml: () => this.head('no_content'),
    });
  }
}
