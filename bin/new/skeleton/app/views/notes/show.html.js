/** GET /notes/:id */
import { html } from 'signalbox';

/** @typedef {import('../../controllers/notes_controller.js').NotesController} NotesController */

/** @param {import('signalbox').View<NotesController>} v */
export default (v) => html`${v.content_for('title', v.note.title)}
<h1>${v.note.title}</h1>
<p class="body">${v.note.body}</p>
<p>
  ${v.link_to('Edit', v.edit_note_path(v.note))} ·
  ${v.link_to('Back to notes', v.notes_path())}
</p>
${v.button_to('Delete this note', v.note, { method: 'delete', confirm: 'Delete this note?' })}
`;
