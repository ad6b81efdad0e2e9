/** GET /notes: every note, each rendered by the partial _note.html.js. */
import { html } from 'signalbox';

/** @typedef {import('../../controllers/notes_controller.js').NotesController} NotesController */

/** @param {import('signalbox').View<NotesController>} v */
export default (v) => html`${v.content_for('title', 'Notes')}
<h1>Notes</h1>
${v.notes.length === 0
    ? html`<p>No notes yet.</p>`
    : html`<ul class="notes">
${v.render({ partial: 'note', collection: v.notes })}</ul>`}
<p>${v.link_to('New note', v.new_note_path())} · ${v.link_to('As JSON', v.formatted_notes_path('json'))}</p>
`;
