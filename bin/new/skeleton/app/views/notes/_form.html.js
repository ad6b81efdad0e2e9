/**
 * The note form, shared by new and edit. `v.action`, `v.method` and `v.submit` are the locals they
 * pass; `v.note` is the controller's note. form_tag adds the authenticity token, and `_method` for PUT.
 */
import { html } from 'signalbox';
import { errorMessagesFor } from '../../helpers/application_helper.js';

/**
 * @param {import('signalbox').View<{ note: import('../../models/note.js').Note, action: string, method: 'post' | 'put', submit: string }>} v
 */
export default (v) => html`${errorMessagesFor(v, v.note, 'note')}
${v.form_tag(v.action, { method: v.method })}
  <p>${v.label_tag('note[title]', 'Title')}<br>${v.text_field_tag('note[title]', v.note.title, { size: 60 })}</p>
  <p>${v.label_tag('note[body]', 'Body')}<br>${v.text_area_tag('note[body]', v.note.body, { rows: 8, cols: 60 })}</p>
  <p>${v.submit_tag(v.submit)}</p>
</form>`;
