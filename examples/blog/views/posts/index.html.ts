import { html } from '../../../../core/index.ts';
import { formatLinks, type View } from '../../helpers.ts';
import type { PostsController } from '../../controllers/posts.ts';

export default (v: View<PostsController>) => html`${v.content_for('title', 'Posts')}
<h1>Posts</h1>
<div class="actions">${v.link_to('Write a new post', v.new_post_path(), { class: 'button' })}</div>
${v.posts.length === 0 ? html`<p class="empty">No posts yet.</p>` : html`<ol class="posts">
${v.render({ partial: 'post', collection: v.posts })}</ol>`}
${formatLinks(v, v.formatted_posts_path('json'), v.formatted_posts_path('xml'))}
`;
