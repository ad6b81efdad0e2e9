import { html } from '../../../../../core/index.ts';
import { formatLinks, formatTime, type View } from '../../../helpers.ts';
import type { Post } from '../../../models.ts';
import type { AdminPostsController } from '../../../controllers/admin/posts.ts';

export default (v: View<AdminPostsController>) => {
  const posts: Post[] = v.posts;
  return html`${v.content_for('title', 'All posts')}
<h1>All posts</h1>
<table class="admin">
  <thead><tr><th>Title</th><th>Status</th><th>Comments</th><th>Created</th><th></th></tr></thead>
  <tbody>
${posts.map((post) => html`    <tr id="admin-post-${post.id}">
      <td>${v.link_to(post.title, ['admin', post])}</td>
      <td>${post.published ? 'published' : 'draft'}</td>
      <td>${v.comment_count(post)}</td>
      <td>${formatTime(post.created_at)}</td>
      <td>${v.link_to('Delete', ['admin', post], { method: 'delete', confirm: 'Delete this post and its comments?' })}</td>
    </tr>
`)}  </tbody>
</table>
${posts.length === 0 ? html`<p class="empty">No posts.</p>` : ''}
${formatLinks(v, v.formatted_admin_posts_path('json'), v.formatted_admin_posts_path('xml'))}
`;
};
