import { html } from '../../../../core/index.ts';
import { formatLinks, type View } from '../../helpers.ts';
import type { Comment, Post } from '../../models.ts';
import type { CommentsController } from '../../controllers/comments.ts';

export default (v: View<CommentsController>) => {
  const post: Post = v.post;
  const comments: Comment[] = v.comments;
  return html`${v.content_for('title', `Comments on ${post.title}`)}
<h1>Comments on ${v.link_to(post.title, post)}</h1>
${comments.length === 0 ? html`<p class="empty">No comments yet.</p>` : html`<ul class="comment-list">
${comments.map((c) => html`  <li id="comment-${c.id}"><strong>${c.author}</strong>: ${v.truncate(c.body, 80)} ${v.link_to('Show', [post, c])} ${v.link_to('Edit', v.edit_post_comment_path(post, c))} ${v.link_to('Delete', [post, c], { method: 'delete', confirm: 'Delete this comment?' })}</li>
`)}</ul>`}
<div class="actions">${v.link_to('Add a comment', v.new_post_comment_path(post), { class: 'button' })} ${v.link_to('Back to the post', post)}</div>
${formatLinks(v, v.formatted_post_comments_path(post, 'json'), v.formatted_post_comments_path(post, 'xml'))}
`;
};
