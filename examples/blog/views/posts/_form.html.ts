/** The post form, shared by new and edit: `v.render({ partial: 'form', locals: { action, method, submit } })`. */
import { html } from '../../../../core/index.ts';
import { errorMessages, type View } from '../../helpers.ts';
import type { Post } from '../../models.ts';

export default (v: View<{ post: Post; action: string; method: 'post' | 'put'; submit: string }>) => {
  const post = v.post;
  return html`${errorMessages(v, post.errors, 'post')}
${v.form_tag(v.action, { method: v.method, class: 'record' })}
  <p>${v.label_tag('post[title]', 'Title')}<br>${v.text_field_tag('post[title]', post.title, { size: 60 })}</p>
  <p>${v.label_tag('post[body]', 'Body')}<br>${v.text_area_tag('post[body]', post.body, { rows: 10, cols: 60 })}</p>
  <p>${v.check_box_tag('post[published]', '1', post.published)}${v.hidden_field_tag('post[published]', '0')} ${v.label_tag('post[published]', 'Published')}</p>
  <p>${v.submit_tag(v.submit)}</p>
</form>`;
};
