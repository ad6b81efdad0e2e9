/** GET /notes/new, and a POST /notes that did not validate (with its errors). */
import { html } from 'signalbox';

/** @typedef {import('../../controllers/notes_controller.js').NotesController} NotesController */

/** @param {import('signalbox').View<NotesController>} v */
export default (v) => html`${v.content_for('title', 'New note')}
<h1>New note</h1>
${v.render({ partial: 'form', locals: { action: v.notes_path(), method: 'post', submit: 'Create note' } })}
<p>${v.link_to('Back to notes', v.notes_path())}</p>
`;
