import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import type { CommentsController } from '../../controllers/comments.ts';

export default (v: View<CommentsController>) => html`${v.content_for('title', 'Editing comment')}
<h1>Editing a comment on ${v.link_to(v.post.title, v.post)}</h1>
${v.render({ partial: 'form', locals: { action: v.post_comment_path(v.post, v.comment), method: 'put', submit: 'Update comment' } })}
<p>${v.link_to('Show', [v.post, v.comment])} · ${v.link_to('Back to the post', v.post)}</p>
`;
