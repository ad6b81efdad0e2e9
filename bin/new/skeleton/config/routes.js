/**
 * The routes: which controller and action answer each request. `npm run routes` prints them.
 *
 * `map.resources('notes')` gives the seven RESTful routes (index, new, create, show, edit, update,
 * destroy) and their helpers: notes_path(), note_path(note), new_note_path(), edit_note_path(note).
 */
import { draw } from 'signalbox';

/** The controllers the routes may name. */
export const controllers = ['notes'];

export const routes = draw((map) => {
  map.resources('notes');
  map.root({ controller: 'notes' });
}, { controllers });

export default routes;
