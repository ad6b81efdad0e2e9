/** The comment form: on the post's page, and on new and edit (a partial: templates import it). */
import { html } from '../../../../core/index.ts';
import { errorMessages, type View } from '../../helpers.ts';
import type { Comment } from '../../models.ts';

export default function commentForm(v: View, comment: Comment, options: { action: string; method: 'post' | 'put'; submit: string }) {
  return html`${errorMessages(v, comment.errors, 'comment')}
${v.form_tag(options.action, { method: options.method, class: 'record' })}
  <p>${v.label_tag('comment[author]', 'Your name')}<br>${v.text_field_tag('comment[author]', comment.author, { size: 40 })}</p>
  <p>${v.label_tag('comment[body]', 'Comment')}<br>${v.text_area_tag('comment[body]', comment.body, { rows: 5, cols: 60 })}</p>
  <p>${v.submit_tag(options.submit)}</p>
</form>`;
}
