/**
 * Notes: the seven RESTful actions, each answering HTML and JSON (`/notes.json`, `/notes/1.json`).
 * An action with nothing to render itself renders its template, app/views/notes/<action>.html.js.
 */
import { isParamObject } from 'signalbox';
import { Note } from '../models/note.js';
import { ApplicationController } from './application_controller.js';

export class NotesController extends ApplicationController {
  static {
    // A filter's method is not an action: no URL reaches find_note.
    this.before_filter('find_note', { only: ['show', 'edit', 'update', 'destroy'] });
  }

  /** @type {Note[]} */
  notes = [];
  /** The note the page shows or edits. */
  note = new Note();

  find_note() {
    this.note = this.#store.find(this.params.id);
  }

  index() {
    this.notes = this.#store.all();
    this.respond_to({ html: true, json: () => this.render({ json: this.notes }) });
  }

  show() {
    this.respond_to({ html: true, json: () => this.render({ json: this.note }) });
  }

  new() {}

  edit() {}

  create() {
    this.note = new Note(this.#attributes());
    const saved = this.#store.save(this.note);
    this.respond_to({
      html: () => {
        if (!saved) return this.render({ action: 'new', status: 'unprocessable_entity' });
        this.flash.set('notice', 'Note was created.');
        this.redirect_to(this.note);
      },
      json: () => saved
        ? this.render({ json: this.note, status: 'created', location: this.note })
        : this.render({ json: { errors: this.note.errors }, status: 'unprocessable_entity' }),
    });
  }

  update() {
    const saved = this.#store.save(this.note.assign(this.#attributes()));
    this.respond_to({
      html: () => {
        if (!saved) return this.render({ action: 'edit', status: 'unprocessable_entity' });
        this.flash.set('notice', 'Note was updated.');
        this.redirect_to(this.note);
      },
      json: () => saved
        ? this.render({ json: this.note })
        : this.render({ json: { errors: this.note.errors }, status: 'unprocessable_entity' }),
    });
  }

  destroy() {
    this.#store.destroy(this.note);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Note was deleted.');
        this.redirect_to(this.routes.notes_path());
      },
      json: () => this.head('no_content'),
    });
  }

  // Private (#) members are neither actions nor visible to templates.

  /** @returns {import('../models/note.js').NoteStore} */
  get #store() {
    return this.services.notes;
  }

  /** What a form (`note[title]`) or a JSON body (`{"note": {...}}`) sent for the note. */
  #attributes() {
    return isParamObject(this.params.note) ? this.params.note : {};
  }
}
