import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import type { PostsController } from '../../controllers/posts.ts';

export default (v: View<PostsController>) => html`${v.content_for('title', 'New post')}
<h1>New post</h1>
${v.render({ partial: 'form', locals: { action: v.posts_path(), method: 'post', submit: 'Create post' } })}
<p>${v.link_to('Back to posts', v.posts_path())}</p>
`;
