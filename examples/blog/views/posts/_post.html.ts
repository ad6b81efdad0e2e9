/** One post in a list (the index and the search results render the list with `collection`). */
import { html } from '../../../../core/index.ts';
import { formatTime, type View } from '../../helpers.ts';
import type { Post } from '../../models.ts';

export default (v: View<{ post: Post }>) => {
  const post = v.post;
  return html`  <li id="post-${post.id}">
    <h2>${v.link_to(post.title, post)}${post.published ? '' : html` <span class="badge">draft</span>`}</h2>
    <p class="meta">${formatTime(post.created_at)} · ${v.link_to('comments', v.post_comments_path(post))}</p>
    <p>${v.truncate(post.body, 160)}</p>
  </li>
`;
};
