import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import type { CommentsController } from '../../controllers/comments.ts';

export default (v: View<CommentsController>) => html`${v.content_for('title', 'New comment')}
<h1>New comment on ${v.link_to(v.post.title, v.post)}</h1>
${v.render({ partial: 'form', locals: { action: v.post_comments_path(v.post), method: 'post', submit: 'Add comment' } })}
<p>${v.link_to('Back to the post', v.post)}</p>
`;
