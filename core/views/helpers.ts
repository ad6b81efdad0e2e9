/**
 * Helpers templates call: escaping, links, forms (with `_method` and the
 * authenticity token), and `content_for`/`yield` for layouts. Every helper
 * returns a `SafeString`, and escapes what it is given. Helpers are called on
 * the view (`v.link_to(...)`): they find their render through it.
 */
import pluralizeWord from 'pluralize';
import type { UrlOptions } from '../routing/index.ts';
import type { Flash } from '../session/flash.ts';
import type { Params } from '../request/param-values.ts';
import { SCOPE, type ContextSlots, type Scope } from './scope.ts';
import type { Attributes, PartialOptions, ViewHelpers } from './view.ts';
import { SafeString, escape, html, raw } from './html.ts';
import { isThenable } from '../util.ts';

export type { Attributes, PartialOptions, View, ViewHelpers } from './view.ts';

const ATTRIBUTE_NAME = /^[A-Za-z_:][\w:.-]*$/;
/** Attribute names seen to be well formed (bounded: names come from templates, nearly always literals). */
const GOOD_NAMES = new Set<string>();

/** The attributes of `attrs`, in their order; `skip` names one left out (link_to's `method`, which is not markup). */
function attributes(attrs: Attributes, skip?: string): string {
  let out = '';
  for (const name of Object.keys(attrs)) {
    if (name === skip) continue;
    const value = attrs[name];
    if (value === false || value === null || value === undefined) continue;
    if (!GOOD_NAMES.has(name)) {
      if (!ATTRIBUTE_NAME.test(name)) continue;
      if (GOOD_NAMES.size < 1000) GOOD_NAMES.add(name);
    }
    out += value === true ? ` ${name}` : ` ${name}="${escape(value)}"`;
  }
  return out;
}

function tag(name: string, attrs: Attributes, content?: unknown): SafeString {
  const open = `<${name}${attributes(attrs)}>`;
  return new SafeString(content === undefined ? open : `${open}${escape(content)}</${name}>`);
}

/**
 * What `tag('a', { href, ...attrs }, text)` writes, without the attribute objects: links are the commonest
 * helper of a page, and copying options into a fresh object per link costs more than the markup.
 */
function anchor(href: unknown, text: unknown, attrs: Attributes | null): SafeString {
  // Only a string href is certain to be written as ` href="…"` (tag drops false and null, writes true bare).
  if (typeof href !== 'string') return tag('a', attrs === null ? { href } : { href, ...withoutMethod(attrs) }, text);
  const open = attrs === null ? `<a href="${escape(href)}">` : `<a href="${escape(href)}"${attributes(attrs, 'method')}>`;
  return new SafeString(text === undefined ? open : `${open}${escape(text)}</a>`);
}

function withoutMethod(attrs: Attributes): Attributes {
  const { method: _, ...rest } = attrs;
  return rest;
}

type Ctx = ContextSlots;

/**
 * The render a helper was called for. Helpers are shared by every render and find theirs through the
 * view they are called on, so a detached call (`const { link_to } = v`) has none: say how to call it
 * rather than fail on `undefined`.
 */
function scopeOf(self: Ctx | undefined, helper: string): Scope {
  const scope = self?.[SCOPE];
  if (scope === undefined) throw new TypeError(`${helper}() was called without its view: call it on the view, as v.${helper}(…), since helpers find their render through it`);
  return scope;
}

function urlFor(self: Ctx, helper: string, target: unknown, options: UrlOptions = {}): string {
  const routes = scopeOf(self, helper).host.routes;
  if (typeof target === 'string') return target;
  if (target !== null && typeof target === 'object' && !Array.isArray(target) && Object.getPrototypeOf(target) === Object.prototype) {
    return routes.url_for({ only_path: true, ...(target as Record<string, unknown>) }, options);
  }
  return routes.polymorphic_path(target, options);
}

function tokenTag(self: Ctx, helper: string): SafeString {
  const { host, klass } = scopeOf(self, helper);
  return tag('input', { type: 'hidden', name: klass.tokenParam, value: host.form_authenticity_token() });
}

function methodTag(method: string): SafeString {
  return method === 'get' || method === 'post' ? EMPTY : tag('input', { type: 'hidden', name: '_method', value: method });
}

function formOpen(self: Ctx, helper: string, url: string, method: string, attrs: Attributes = {}): SafeString {
  const verb = method.toLowerCase();
  const open = tag('form', { action: url, method: verb === 'get' ? 'get' : 'post', ...attrs }).value;
  return raw(open + methodTag(verb).value + (verb === 'get' ? '' : tokenTag(self, helper).value));
}

function buttonTo(self: Ctx, helper: string, text: unknown, target: unknown, options: Attributes = {}): SafeString {
  const { method = 'post', confirm, ...rest } = options;
  const onsubmit = confirm ? `return confirm(${JSON.stringify(String(confirm))});` : undefined;
  return raw(`${formOpen(self, helper, urlFor(self, helper, target), String(method), { class: 'button_to', onsubmit }).value}${tag('button', { type: 'submit', ...rest }, text ?? '').value}</form>`);
}

const EMPTY = new SafeString('');

/**
 * The helpers every view context has, defined once for all renders (core/views/context.ts puts them on
 * the contexts' shared prototype): each reads its render through `this`, so nothing is made per render.
 */
export const HELPERS: ViewHelpers & ThisType<Ctx> = {
  render(this: Ctx, options: PartialOptions): SafeString {
    const scope = scopeOf(this, 'render');
    return scope.renderPartial(scope, options);
  },
  h: escape,
  escape,
  html,
  raw,
  url_for(this: Ctx, target: unknown, options?: UrlOptions): string {
    return urlFor(this, 'url_for', target, options);
  },
  // Read when a template reads them: a page that shows no flash never loads the session.
  get flash(): Flash {
    return scopeOf(this as unknown as Ctx, 'flash').host.flash;
  },
  get params(): Readonly<Params> {
    return scopeOf(this as unknown as Ctx, 'params').host.params;
  },
  /** A link; with `method` other than GET it becomes a one-button form, so it works without JavaScript. */
  link_to(this: Ctx, text: unknown, target: unknown, options?: Attributes): SafeString {
    const method = options?.method;
    if (method !== undefined && String(method).toLowerCase() !== 'get') {
      return buttonTo(this, 'link_to', text ?? urlFor(this, 'link_to', target), target, { method, ...withoutMethod(options!) });
    }
    const href = urlFor(this, 'link_to', target);
    // Rails' `name || url`: a link given no text shows its URL (an undefined text would leave the <a> open).
    const shown = text === undefined || text === null ? href : text;
    if (options === undefined) return anchor(href, shown, null);
    // An `href` among the options takes the link's place, as in `{ href, ...options }`: the general tag writes that.
    if (Object.hasOwn(options, 'href')) return tag('a', { href, ...withoutMethod(options) }, shown);
    return anchor(href, shown, options);
  },
  button_to(this: Ctx, text: unknown, target: unknown, options?: Attributes): SafeString {
    return buttonTo(this, 'button_to', text, target, options);
  },
  /** Opens a form: POST for anything but GET, with `_method` and the authenticity token. Close it with `</form>`. */
  form_tag(this: Ctx, target: unknown, options: Attributes = {}): SafeString {
    const { method = 'post', multipart, ...rest } = options;
    return formOpen(this, 'form_tag', urlFor(this, 'form_tag', target), String(method), { ...rest, enctype: multipart ? 'multipart/form-data' : undefined });
  },
  token_tag(this: Ctx): SafeString {
    return tokenTag(this, 'token_tag');
  },
  form_authenticity_token(this: Ctx): string {
    return scopeOf(this, 'form_authenticity_token').host.form_authenticity_token();
  },
  hidden_field_tag: (name: string, value: unknown = '', attrs: Attributes = {}) => tag('input', { type: 'hidden', name, value, ...attrs }),
  text_field_tag: (name: string, value: unknown = '', attrs: Attributes = {}) => tag('input', { type: 'text', name, id: fieldId(name), value, ...attrs }),
  password_field_tag: (name: string, attrs: Attributes = {}) => tag('input', { type: 'password', name, id: fieldId(name), ...attrs }),
  text_area_tag: (name: string, value: unknown = '', attrs: Attributes = {}) => tag('textarea', { name, id: fieldId(name), ...attrs }, value ?? ''),
  check_box_tag: (name: string, value: unknown = '1', checked = false, attrs: Attributes = {}) => tag('input', { type: 'checkbox', name, id: fieldId(name), value, checked, ...attrs }),
  label_tag: (name: string, text?: unknown, attrs: Attributes = {}) => tag('label', { for: fieldId(name), ...attrs }, text ?? humanize(name)),
  submit_tag: (value: unknown = 'Save changes', attrs: Attributes = {}) => tag('input', { type: 'submit', name: 'commit', value, ...attrs }),
  /** Stores markup for the layout: `content_for('title', 'Posts')`, read with `yield('title')`. */
  content_for(this: Ctx, name: string, markup: unknown): SafeString {
    const scope = scopeOf(this, 'content_for');
    const content = (scope.content ??= {});
    content[name] = raw((content[name]?.value ?? '') + escape(markup));
    return EMPTY;
  },
  /** The page body in a layout, or a `content_for` block by name. */
  yield(this: Ctx, name = 'layout'): SafeString {
    return scopeOf(this, 'yield').content?.[name] ?? EMPTY;
  },
  /**
   * Fragment caching (Rails' `cache`): the markup cached under `name`, or what `block` renders,
   * cached for next time. A promise when the block or the store is asynchronous, so templates
   * `await` it: `${await v.cache('sidebar', () => sidebar(v))}`.
   */
  cache(this: Ctx, name: string | Readonly<Record<string, unknown>>, block: () => unknown, options: { readonly expires_in?: number } = {}): SafeString | Promise<SafeString> {
    if (typeof block !== 'function') throw new TypeError('cache(name, block) renders its block on a miss: pass a function');
    const host = scopeOf(this, 'cache').host;
    const stored = host.read_fragment !== undefined && host.write_fragment !== undefined;
    const render = (): SafeString | Promise<SafeString> => {
      const out = block();
      const keep = (markup: unknown): SafeString | Promise<SafeString> => {
        const safe = raw(escape(markup));
        if (!stored) return safe;
        const written = host.write_fragment!(name, safe.value, options);
        return isThenable(written) ? Promise.resolve(written).then(() => safe) : safe;
      };
      return isThenable(out) ? Promise.resolve(out).then(keep) : keep(out);
    };
    if (!stored) return render();
    const found = host.read_fragment!(name);
    const use = (value: unknown) => (typeof value === 'string' ? raw(value) : render());
    return isThenable(found) ? Promise.resolve(found).then(use) : use(found);
  },
  // Rails' `"#{count || 0} "`, singular for 1 or '1': a count read from params is text.
  pluralize: (count: number | string | null | undefined, singular: string, plural?: string) =>
    `${count ?? 0} ${count === 1 || count === '1' ? singular : (plural ?? pluralizeWord.plural(singular))}`,
  // Lengths count characters, as Rails' `chars` does, so a cut never falls inside a surrogate pair.
  truncate: (text: unknown, length = 30, omission = '...') => {
    const s = String(text ?? '');
    if (s.length <= length) return s;
    const chars = Array.from(s);
    return chars.length > length ? chars.slice(0, Math.max(0, length - Array.from(omission).length)).join('') + omission : s;
  },
};

function fieldId(name: string): string {
  const id = name.replace(/\]\[|[[\]]/g, '_');
  // Trailing underscores go by a scan from the end: a `_+$` pattern retries every run of underscores that does not end the name.
  let end = id.length;
  while (end > 0 && id.charCodeAt(end - 1) === 95) end--;
  return id.slice(0, end);
}

/**
 * A label's text from its field's name: the attribute a nested name ends with (`post[first_name]` →
 * `first_name`), humanized as Rails does it (a trailing `_id` dropped, underscores as spaces, the first
 * letter capitalised and the rest lower-cased): `First name`, `user_name` → `User name`, `author_id` → `Author`.
 */
function humanize(name: string): string {
  const base = (name.split(/[[\]]+/).filter(Boolean).pop() ?? name).replace(/_id$/, '').replace(/_/g, ' ').trim();
  return base.charAt(0).toUpperCase() + base.slice(1).toLowerCase();
}
