/**
 * The blog's own view helpers, and the type its templates give their view
 * context `v` (the framework's helpers, the controller's properties and the
 * route helpers, all reached through one object).
 */
import { html, type SafeString, type View } from '../../core/index.ts';

/**
 * The view context the blog's templates get (Signalbox's `View`): the view helpers, the route helpers
 * of routes.ts (declared by the generated routes.helpers.d.ts, so a misspelt helper does not compile),
 * and what the rendering controller shares, `View<PostsController>` in the posts templates.
 */
export type { View };

/** Rails' `error_messages_for`: the list of what is wrong with a record, or nothing. */
export function errorMessages(v: View, errors: readonly string[], noun: string): SafeString {
  if (errors.length === 0) return html``;
  return html`<div class="errors" id="errorExplanation">
  <h2>${v.pluralize(errors.length, 'error')} prohibited this ${noun} from being saved</h2>
  <ul>${errors.map((e) => html`<li>${e}</li>`)}</ul>
</div>`;
}

/** A date as people read it: "3 March 2025, 14:05" (UTC, so pages do not depend on the server's zone). */
export function formatTime(date: Date | string | null): string {
  if (date === null) return 'not yet';
  const d = date instanceof Date ? date : new Date(date);
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** Plain text as paragraphs (each blank-line-separated block), escaped. */
export function paragraphs(text: string): SafeString {
  const blocks = text.split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return html`${blocks.map((b) => html`<p>${b}</p>`)}`;
}

/** Links to the other representations of the current resource: "Also as JSON · XML". */
export function formatLinks(v: View, json: string, xml: string): SafeString {
  return html`<p class="formats">Also as ${v.link_to('JSON', json)} · ${v.link_to('XML', xml)}</p>`;
}
