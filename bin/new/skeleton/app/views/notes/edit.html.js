/** GET /notes/:id/edit, and a PUT /notes/:id that did not validate (with its errors). */
import { html } from 'signalbox';

/** @typedef {import('../../controllers/notes_controller.js').NotesController} NotesController */

/** @param {import('signalbox').View<NotesController>} v */
export default (v) => html`${v.content_for('title', `Editing ${v.note.title}`)}
<h1>Editing note</h1>
${v.render({ partial: 'form', locals: { action: v.note_path(v.note), method: 'put', submit: 'Update note' } })}
<p>${v.link_to('Show', v.note)} · ${v.link_to('Back to notes', v.notes_path())}</p>
`;
