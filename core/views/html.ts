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

/** Escapes text for HTML; safe strings pass through. Arrays are joined, null and undefined are empty; a function or a promise is a TypeError. */
export function escape(value: unknown): string {
  if (typeof value === 'string') return escapeText(value);
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeString) return value.value;
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value) out += escape(item);
    return out;
  }
  if (typeof value === 'function' || (typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function')) throw notText(value);
  return escapeText(String(value));
}

/**
 * A function or a promise in the markup is a template's slip (`${v.posts_path}` for `${v.posts_path()}`,
 * an async helper not awaited). As text it would be the function's source or "[object Promise]" on a
 * page answered 200, so it is an error naming what to write instead.
 */
function notText(value: object): TypeError {
  if (typeof value === 'function') {
    // Route helpers are bound functions without a name of their own (naming each would slow its binding per request).
    const name = value.name.replace(/^bound /, '');
    return new TypeError(`a function${name ? ` (${name})` : ''} was interpolated into markup: call it${name ? `, as ${name}(…)` : ' (a helper written without its parentheses, as v.posts_path for v.posts_path()?)'}`);
  }
  return new TypeError('a promise was interpolated into markup: await it (an async helper, or cache() with an asynchronous store), or make the template async');
}

// A scan by character code: most text has nothing to escape and comes back as it is, with no regular
// expression, callback or new string; text that has something is built in one pass from there.
function escapeText(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === AMP || c === LT || c === GT || c === QUOT || c === APOS) return escapeFrom(text, i);
  }
  return text;
}

const AMP = 0x26;
const LT = 0x3c;
const GT = 0x3e;
const QUOT = 0x22;
const APOS = 0x27;

function escapeFrom(text: string, first: number): string {
  let out = text.slice(0, first);
  let last = first;
  for (let i = first; i < text.length; i++) {
    let entity: string;
    switch (text.charCodeAt(i)) {
      case AMP: entity = '&amp;'; break;
      case LT: entity = '&lt;'; break;
      case GT: entity = '&gt;'; break;
      case QUOT: entity = '&quot;'; break;
      case APOS: entity = '&#39;'; break;
      default: continue;
    }
    if (i > last) out += text.slice(last, i);
    out += entity;
    last = i + 1;
  }
  return last < text.length ? out + text.slice(last) : out;
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
