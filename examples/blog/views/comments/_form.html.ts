/** The comment form: on the post's page (`partial: 'comments/form'`), and on new and edit. */
import { html } from '../../../../core/index.ts';
import { errorMessages, type View } from '../../helpers.ts';
import type { Comment } from '../../models.ts';

export default (v: View<{ comment: Comment; action: string; method: 'post' | 'put'; submit: string }>) => {
  const comment = v.comment;
  return html`${errorMessages(v, comment.errors, 'comment')}
${v.form_tag(v.action, { method: v.method, class: 'record' })}
  <p>${v.label_tag('comment[author]', 'Your name')}<br>${v.text_field_tag('comment[author]', comment.author, { size: 40 })}</p>
  <p>${v.label_tag('comment[body]', 'Comment')}<br>${v.text_area_tag('comment[body]', comment.body, { rows: 5, cols: 60 })}</p>
  <p>${v.submit_tag(v.submit)}</p>
</form>`;
};
