/**
 * What every controller of the application shares. Put filters, rescue handlers and helper methods
 * every page needs here: a controller's methods and properties are what its templates read as `v.<name>`.
 */
import { Controller } from 'signalbox';

export class ApplicationController extends Controller {
  static {
    // A form that changes something must carry the session's authenticity token: form_tag and
    // button_to add it. Requests with a JSON or XML body need none (no other site's form can send one).
    this.protect_from_forgery();
  }
}
