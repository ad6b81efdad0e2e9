/**
 * What every controller of the blog shares: forgery protection (every form
 * carries the session's token, which `form_tag` adds; off in the test
 * environment), the store, and two rescue handlers that answer in the
 * format the client asked for. Without the handlers a missing record is
 * still a 404 and an invalid one a 422 (the framework's defaults), but with
 * an HTML page even for API clients, and without the form to correct the
 * input.
 */
import { Controller, RecordInvalid, RecordNotFound, toXml } from '../../../core/index.ts';
import type { Attributes, Store } from '../models.ts';
import type { AdminCredentials } from './admin/base.ts';

/** What the blog gives `createApp({ services })` (app.ts), as every controller reads it. */
export interface BlogServices {
  readonly store: Store;
  /** The admin's sign-in, or null when the admin pages are closed. */
  readonly admin: AdminCredentials | null;
}

/** The form an invalid submission goes back to. */
const FORM_FOR: Readonly<Record<string, string>> = { create: 'new', update: 'edit' };

export class ApplicationController extends Controller<{ services: BlogServices }> {
  static {
    this.protect_from_forgery();
    this.rescue_from(RecordNotFound, 'record_not_found');
    this.rescue_from(RecordInvalid, 'record_invalid');
    this.hide_action('attributes_for');
  }

  get store(): Store {
    return this.services.store;
  }

  /** The hash a form (or an API client) sent under `key` (`post[title]`, `{"post": {...}}`), or `{}`. */
  attributes_for(key: string): Attributes {
    const value: unknown = this.params[key];
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Attributes) : {};
  }

  /** JSON and XML clients get the message in their format; browsers get public/404.html. */
  record_not_found(error: RecordNotFound): void {
    this.respond_to({
      html: () => {
        throw error;
      },
      json: () => this.render({ json: { error: error.message }, status: 'not_found' }),
      xml: () => this.render({ xml: toXml([error.message], 'errors'), status: 'not_found' }),
    });
  }

  /** Browsers get the form again with the messages; JSON and XML clients get the messages. */
  record_invalid(error: RecordInvalid): void {
    this.respond_to({
      html: () => this.render({ action: FORM_FOR[this.action_name] ?? this.action_name, status: 'unprocessable_entity' }),
      json: () => this.render({ json: { errors: error.errors }, status: 'unprocessable_entity' }),
      xml: () => this.render({ xml: toXml(error.errors, 'errors'), status: 'unprocessable_entity' }),
    });
  }
}
