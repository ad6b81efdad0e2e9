/** `admin/posts`: every post, drafts included, with comment counts; the admin may delete. */
import { toXml } from '../../../../core/index.ts';
import type { Post } from '../../models.ts';
import { AdminController } from './base.ts';
import { expirePost } from '../sweeper.ts';

export class AdminPostsController extends AdminController {
  static {
    this.before_filter('find_post', { only: ['show', 'destroy'] });
    this.hide_action('comment_count');
    this.after_filter('expire_caches', { only: ['destroy'] });
  }

  post!: Post;
  posts: Post[] = [];

  find_post(): void {
    this.post = this.store.posts.find(this.params.id);
  }

  expire_caches(): unknown {
    return expirePost(this, this.post.id);
  }

  /** How many comments a post has (the templates call it as `v.comment_count(post)`). */
  comment_count(post: Post): number {
    return this.store.commentsOf(post).length;
  }

  index(): void {
    this.posts = this.store.newestFirst(this.store.posts.all());
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.posts }),
      xml: () => this.render({ xml: toXml(this.posts, 'posts') }),
    });
  }

  show(): void {
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.post }),
      xml: () => this.render({ xml: this.post }),
    });
  }

  destroy(): void {
    this.store.destroyPost(this.post.id);
    this.respond_to({
      html: () => {
        this.flash.set('notice', `Deleted "${this.post.title}".`);
        this.redirect_to(this.routes.admin_posts_url());
      },
      json: () => this.head('no_content'),
      xml: () => this.head('no_content'),
    });
  }
}
