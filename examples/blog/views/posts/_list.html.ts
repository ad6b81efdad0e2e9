/** A list of posts, as the index and the search results show them. */
import { html } from '../../../../core/index.ts';
import { formatTime, type View } from '../../helpers.ts';
import type { Post } from '../../models.ts';

export default function postList(v: View, posts: readonly Post[]) {
  return html`<ol class="posts">
${posts.map((post) => html`  <li id="post-${post.id}">
    <h2>${v.link_to(post.title, post)}${post.published ? '' : html` <span class="badge">draft</span>`}</h2>
    <p class="meta">${formatTime(post.created_at)} · ${v.link_to('comments', v.post_comments_path(post))}</p>
    <p>${v.truncate(post.body, 160)}</p>
  </li>
`)}</ol>`;
}
