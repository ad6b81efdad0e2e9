/**
 * HTML building for templates: an `html` tagged template that escapes every
 * interpolation unless it is already safe, so markup is safe by default.
 *
 * @example html`<p>${user.name}</p>` // name is escaped
 */

/** Markup that is already escaped (or trusted) and must not be escaped again. */
export class SafeString {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
  toJSON(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML; safe strings pass through. Arrays are joined, null and undefined are empty. */
export function escape(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeString) return value.value;
  if (Array.isArray(value)) return value.map(escape).join('');
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Marks trusted markup as safe. Only for markup the application itself produced. */
export function raw(markup: string | SafeString): SafeString {
  return markup instanceof SafeString ? markup : new SafeString(markup);
}

/** The tagged template: literal parts are kept, interpolations escaped. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeString {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += escape(values[i]) + strings[i + 1];
  return new SafeString(out);
}
