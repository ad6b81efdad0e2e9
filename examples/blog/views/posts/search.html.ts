import { html } from '../../../../core/index.ts';
import { formatLinks, type View } from '../../helpers.ts';
import type { PostsController } from '../../controllers/posts.ts';

export default (v: View<PostsController>) => html`${v.content_for('title', `Search: ${v.query}`)}
<h1>Search</h1>
${v.form_tag(v.search_posts_path(), { method: 'get', class: 'record' })}
  <p>${v.text_field_tag('q', v.query, { size: 40, autofocus: true })} ${v.submit_tag('Search', { name: null })}</p>
</form>
${v.query === ''
    ? html`<p class="empty">Type a word to find posts by title or body.</p>`
    : v.posts.length === 0
      ? html`<p class="empty">No posts match “${v.query}”.</p>`
      : html`<p>${v.pluralize(v.posts.length, 'post')} match “${v.query}”:</p><ol class="posts">
${v.render({ partial: 'post', collection: v.posts })}</ol>`}
${formatLinks(v, v.formatted_search_posts_path('json', { q: v.query }), v.formatted_search_posts_path('xml', { q: v.query }))}
`;
