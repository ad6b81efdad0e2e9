import { html } from '../../../../../core/index.ts';
import { formatLinks, formatTime, paragraphs, type View } from '../../../helpers.ts';
import type { Post } from '../../../models.ts';
import type { AdminPostsController } from '../../../controllers/admin/posts.ts';

export default (v: View<AdminPostsController>) => {
  const post: Post = v.post;
  return html`${v.content_for('title', post.title)}
<h1>${post.title}</h1>
<dl class="record">
  <dt>Status</dt><dd>${post.published ? 'published' : 'draft'}</dd>
  <dt>Created</dt><dd>${formatTime(post.created_at)}</dd>
  <dt>Comments</dt><dd>${v.comment_count(post)}</dd>
</dl>
${paragraphs(post.body)}
<div class="actions">
  ${v.link_to('View on the blog', post)}
  ${v.link_to('Delete', ['admin', post], { method: 'delete', confirm: 'Delete this post and its comments?' })}
  ${v.link_to('All posts', v.admin_posts_path())}
</div>
${formatLinks(v, v.formatted_admin_post_path(post, 'json'), v.formatted_admin_post_path(post, 'xml'))}
`;
};
