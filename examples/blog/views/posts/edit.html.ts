import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import type { PostsController } from '../../controllers/posts.ts';

// On a failed update `v.post` holds what was typed, not what is stored.
export default (v: View<PostsController>) => html`${v.content_for('title', `Editing ${v.post.title}`)}
<h1>Editing post</h1>
${v.render({ partial: 'form', locals: { action: v.post_path(v.post), method: 'put', submit: 'Update post' } })}
<p>${v.link_to('Show', v.post_path(v.post))} · ${v.link_to('Back to posts', v.posts_path())}</p>
`;
