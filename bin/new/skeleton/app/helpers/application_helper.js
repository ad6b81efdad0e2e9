/**
 * Helpers of your own for templates: plain functions they import. The framework's own helpers
 * (link_to, form_tag, text_field_tag, pluralize...) are on the view context `v`, and so are the
 * controller's methods and properties.
 */
import { html } from 'signalbox';

/**
 * Rails' error_messages_for: what is wrong with a record, or nothing.
 * @param {import('signalbox').View} v
 * @param {{ errors: readonly string[] }} record
 * @param {string} noun
 */
export function errorMessagesFor(v, record, noun) {
  if (record.errors.length === 0) return html``;
  return html`<div class="errors" id="errorExplanation">
  <h2>${v.pluralize(record.errors.length, 'error')} prohibited this ${noun} from being saved</h2>
  <ul>${record.errors.map((message) => html`<li>${message}</li>`)}</ul>
</div>`;
}
