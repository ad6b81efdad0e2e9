import { html } from '../../../../core/index.ts';
import { formatLinks, formatTime, paragraphs, type View } from '../../helpers.ts';
import type { Comment, Post } from '../../models.ts';
import type { PostsController } from '../../controllers/posts.ts';

export default (v: View<PostsController>) => {
  const post: Post = v.post;
  const comments: Comment[] = v.comments;
  return html`${v.content_for('title', post.title)}
<article class="post" id="post-${post.id}">
  <h1>${post.title}${post.published ? '' : html` <span class="badge">draft</span>`}</h1>
  <p class="meta">Written ${formatTime(post.created_at)}</p>
  ${paragraphs(post.body)}
</article>
<div class="actions">
  ${v.link_to('Edit', v.edit_post_path(post), { class: 'button' })}
  ${post.published ? '' : v.button_to('Publish', v.publish_post_path(post), { method: 'put' })}
  ${v.link_to('Delete', post, { method: 'delete', confirm: 'Delete this post and its comments?' })}
  ${v.link_to('Back to posts', v.posts_path())}
</div>
${formatLinks(v, v.formatted_post_path(post, 'json'), v.formatted_post_path(post, 'xml'))}

<section class="comments" id="comments">
  <h2>${v.pluralize(comments.length, 'comment')}</h2>
  ${comments.map((c) => html`<div class="comment" id="comment-${c.id}">
    <p class="meta"><strong>${c.author}</strong> wrote:</p>
    ${paragraphs(c.body)}
    <div class="actions small">${v.link_to('Permalink', [post, c])} ${v.link_to('Edit', v.edit_post_comment_path(post, c))} ${v.link_to('Delete', [post, c], { method: 'delete', confirm: 'Delete this comment?' })}</div>
  </div>`)}
  <h3>Add a comment</h3>
  ${v.render({ partial: 'comments/form', locals: { action: v.post_comments_path(post), method: 'post', submit: 'Add comment' } })}
</section>
`;
};
