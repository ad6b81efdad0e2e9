/** One note in the list: rendered once per item of `collection`, the item as `v.note`. */
import { html } from 'signalbox';

/** @param {import('signalbox').View<{ note: import('../../models/note.js').Note }>} v */
export default (v) => html`  <li>${v.link_to(v.note.title, v.note)} <span class="meta">${v.truncate(v.note.body, 60)}</span></li>
`;
