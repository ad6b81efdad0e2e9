/** Comments, nested under posts: every action finds the post first, and only ever sees that post's comments. */
import { toXml } from '../../../core/index.ts';
import type { Comment, Post } from '../models.ts';
import { ApplicationController } from './application.ts';
import { expirePostPage } from './sweeper.ts';

export class CommentsController extends ApplicationController {
  static {
    this.before_filter('find_post');
    this.before_filter('find_comment', { only: ['show', 'edit', 'update', 'destroy'] });
    // The post's page lists its comments.
    this.after_filter('expire_post_page', { only: ['create', 'update', 'destroy'] });
  }

  post!: Post;
  comment!: Comment;
  comments: Comment[] = [];

  find_post(): void {
    this.post = this.store.posts.find(this.params.post_id);
  }

  find_comment(): void {
    this.comment = this.store.findComment(this.post, this.params.id);
  }

  expire_post_page(): unknown {
    return expirePostPage(this, this.post.id);
  }

  index(): void {
    this.comments = this.store.commentsOf(this.post);
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.comments }),
      xml: () => this.render({ xml: toXml(this.comments, 'comments') }),
    });
  }

  show(): void {
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.comment }),
      xml: () => this.render({ xml: this.comment }),
    });
  }

  new(): void {
    this.comment = this.store.buildComment(this.post);
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.comment }),
      xml: () => this.render({ xml: this.comment }),
    });
  }

  edit(): void {
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.comment }),
      xml: () => this.render({ xml: this.comment }),
    });
  }

  create(): void {
    const comment = (this.comment = this.store.buildComment(this.post, this.attributes_for('comment')));
    this.store.comments.save(comment);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Thanks for your comment.');
        this.redirect_to(this.routes.post_url(this.post, { anchor: `comment-${comment.id}` }));
      },
      json: () => this.render({ json: comment, status: 'created', location: [this.post, comment] }),
      xml: () => this.render({ xml: comment, status: 'created', location: [this.post, comment] }),
    });
  }

  update(): void {
    const comment = this.comment.assign(this.attributes_for('comment'));
    this.store.comments.save(comment);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Comment was successfully updated.');
        this.redirect_to(this.routes.post_url(this.post, { anchor: `comment-${comment.id}` }));
      },
      json: () => this.render({ json: comment }),
      xml: () => this.render({ xml: comment }),
    });
  }

  destroy(): void {
    this.store.comments.destroy(this.comment.id);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Comment was deleted.');
        this.redirect_to(this.post);
      },
      json: () => this.head('no_content'),
      xml: () => this.head('no_content'),
    });
  }
}
