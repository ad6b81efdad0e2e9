/**
 * What every controller of the application shares. Put filters, rescue handlers and helper methods
 * every page needs here: a controller's methods and properties are what its templates read as `v.<name>`.
 */
import { Controller } from 'signalbox';

/**
 * What config/application.js gives `createApp({ services })`, read as `this.services` by every controller.
 * @typedef {object} ApplicationServices
 * @property {import('../models/note.js').NoteStore} notes
 */

/**
 * `Controller`, told for the type checker what every controller below reads: its services (a `session`
 * entry beside them would type what the application keeps in the session). A typed constant rather than
 * an `@extends` tag, which TypeScript cannot yet combine with a static block that calls `this.…`.
 * @type {typeof Controller<{ services: ApplicationServices }>}
 */
const TypedController = Controller;

export class ApplicationController extends TypedController {
  static {
    // A form that changes something must carry the session's authenticity token: form_tag and
    // button_to add it. Requests with a JSON or XML body need none (no other site's form can send one).
    this.protect_from_forgery();
  }
}
