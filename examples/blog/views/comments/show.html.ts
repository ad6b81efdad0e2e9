import { html } from '../../../../core/index.ts';
import { formatLinks, paragraphs, type View } from '../../helpers.ts';
import type { Comment, Post } from '../../models.ts';
import type { CommentsController } from '../../controllers/comments.ts';

export default (v: View<CommentsController>) => {
  const post: Post = v.post;
  const comment: Comment = v.comment;
  return html`${v.content_for('title', `Comment by ${comment.author}`)}
<h1>Comment by ${comment.author}</h1>
<p class="meta">On ${v.link_to(post.title, post)}</p>
<div class="comment" id="comment-${comment.id}">${paragraphs(comment.body)}</div>
<div class="actions">
  ${v.link_to('Edit', v.edit_post_comment_path(post, comment), { class: 'button' })}
  ${v.link_to('Delete', [post, comment], { method: 'delete', confirm: 'Delete this comment?' })}
  ${v.link_to('All comments', v.post_comments_path(post))}
</div>
${formatLinks(v, v.formatted_post_comment_path(post, comment, 'json'), v.formatted_post_comment_path(post, comment, 'xml'))}
`;
};
