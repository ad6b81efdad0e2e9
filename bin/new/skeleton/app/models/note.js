/**
 * A note, and a store that keeps notes in memory: a starting point, to be replaced by your database.
 * The store hands out fresh Note objects, as a database would, so a form's input can be assigned to a
 * note and, when it is invalid, shown again with its errors while the stored note stays as it was.
 *
 * The class name matters: the route helpers name routes after it (`redirect_to(note)` goes to
 * note_path(note), `/notes/1`), using `to_param()` for the id and `new_record()` to tell a new note.
 */
import { RecordNotFound } from 'signalbox';

/** @typedef {{ title: string, body: string }} NoteRow */

export class Note {
  /** @type {number | null} */
  id = null;
  title = '';
  body = '';
  /** @type {string[]} */
  #errors = [];

  /** @param {Record<string, unknown>} [attributes] */
  constructor(attributes = {}) {
    this.assign(attributes);
  }

  /**
   * Sets the attributes a form may set; anything else it sent is ignored.
   * @param {Record<string, unknown>} attributes
   */
  assign(attributes) {
    if (typeof attributes.title === 'string') this.title = attributes.title;
    if (typeof attributes.body === 'string') this.body = attributes.body;
    return this;
  }

  /** Why the note cannot be saved ("Title can't be blank"); empty when it can. A getter, so JSON leaves it out. */
  get errors() {
    return this.#errors;
  }

  valid() {
    this.#errors = [];
    if (this.title.trim() === '') this.#errors.push("Title can't be blank");
    else if (this.title.length > 200) this.#errors.push('Title is too long (maximum is 200 characters)');
    return this.#errors.length === 0;
  }

  /** What URLs carry: `/notes/3`. */
  to_param() {
    return this.id === null ? null : String(this.id);
  }

  new_record() {
    return this.id === null;
  }
}

export class NoteStore {
  /** @type {Map<number, NoteRow>} */
  #rows = new Map();
  #nextId = 1;

  constructor() {
    this.save(new Note({ title: 'Welcome to {{app_name}}', body: 'This note lives in memory: edit app/models/note.js to keep notes somewhere lasting.' }));
  }

  /** Every note, oldest first. */
  all() {
    return [...this.#rows.keys()].map((id) => this.#load(id));
  }

  /**
   * The note with this id; RecordNotFound (a 404) when there is none.
   * @param {unknown} id
   */
  find(id) {
    const key = Number(id);
    if (!this.#rows.has(key)) throw new RecordNotFound(`Couldn't find Note with ID=${String(id)}`);
    return this.#load(key);
  }

  /**
   * Stores the note when it is valid, giving a new one its id; false (with `note.errors`) when it is not.
   * @param {Note} note
   */
  save(note) {
    if (!note.valid()) return false;
    note.id ??= this.#nextId++;
    this.#rows.set(note.id, { title: note.title, body: note.body });
    return true;
  }

  /** @param {Note} note */
  destroy(note) {
    if (note.id !== null) this.#rows.delete(note.id);
  }

  /** @param {number} id */
  #load(id) {
    const note = new Note(this.#rows.get(id));
    note.id = id;
    return note;
  }
}
