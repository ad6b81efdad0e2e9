/**
 * Helpers templates call: escaping, links, forms (with `_method` and the
 * authenticity token), and `content_for`/`yield` for layouts. Every helper
 * returns a `SafeString`, and escapes what it is given.
 */
import pluralizeWord from 'pluralize';
import type { Helpers, UrlOptions } from '../routing/index.ts';
import type { Flash } from '../session/flash.ts';
import type { ViewHost } from './host.ts';
import { SafeString, escape, html, raw } from './html.ts';
import { isThenable } from '../util.ts';

/** HTML attributes: `false`, null and undefined leave one out, `true` writes it bare. */
export type Attributes = Record<string, unknown>;

/** What `v.render` takes in a template: Rails' `render :partial`. */
export interface PartialOptions {
  /** `form` is `<controller path>/_form.<format>`; `shared/menu` is `shared/_menu.<format>`. */
  readonly partial: string;
  /** Values the partial reads as `v.<name>`, besides what every template reads. */
  readonly locals?: Readonly<Record<string, unknown>>;
  /** The value of the local named after the partial (`v.form` for `form`). */
  readonly object?: unknown;
  /** Renders the partial once per item: the item as the local named after the partial, its index (from 0) as `<name>_counter`. */
  readonly collection?: Iterable<unknown>;
  /** A partial rendered between the items of a collection. */
  readonly spacer_template?: string;
}

/** The helpers every template's view context has. */
export interface ViewHelpers {
  /** Renders a partial (Rails' `render :partial`), once or once per item of a collection, in the page's format. */
  render(options: PartialOptions): SafeString;
  /** Escapes text for HTML (Rails' `h`). */
  h(value: unknown): string;
  escape(value: unknown): string;
  html: typeof html;
  raw(markup: string | SafeString): SafeString;
  /** A path for a route hash, record or string (a path, unlike a controller's `url_for`). */
  url_for(target: unknown, options?: UrlOptions): string;
  readonly flash: Flash;
  readonly params: Readonly<Record<string, unknown>>;
  /** A link; with `method` other than GET, a one-button form, so it works without JavaScript. */
  link_to(text: unknown, target: unknown, options?: Attributes): SafeString;
  button_to(text: unknown, target: unknown, options?: Attributes): SafeString;
  /** Opens a form: POST for anything but GET, with `_method` and the authenticity token. Close it with `</form>`. */
  form_tag(target: unknown, options?: Attributes): SafeString;
  token_tag(): SafeString;
  form_authenticity_token(): string;
  hidden_field_tag(name: string, value?: unknown, attrs?: Attributes): SafeString;
  text_field_tag(name: string, value?: unknown, attrs?: Attributes): SafeString;
  password_field_tag(name: string, attrs?: Attributes): SafeString;
  text_area_tag(name: string, value?: unknown, attrs?: Attributes): SafeString;
  check_box_tag(name: string, value?: unknown, checked?: boolean, attrs?: Attributes): SafeString;
  label_tag(name: string, text?: unknown, attrs?: Attributes): SafeString;
  submit_tag(value?: unknown, attrs?: Attributes): SafeString;
  /** Stores markup for the layout: `content_for('title', 'Posts')`, read with `yield('title')`. */
  content_for(name: string, markup: unknown): SafeString;
  /** The page body in a layout, or a `content_for` block by name. */
  yield(name?: string): SafeString;
  pluralize(count: number, singular: string, plural?: string): string;
  truncate(text: unknown, length?: number, omission?: string): string;
  /**
   * Fragment caching (Rails' `cache`): the markup cached under `name`, or what `block` renders, cached
   * for next time; a promise when the block or the store is asynchronous, so templates `await` it.
   */
  cache(name: string | Readonly<Record<string, unknown>>, block: () => unknown, options?: { readonly expires_in?: number }): SafeString | Promise<SafeString>;
}

/**
 * A template's view context: the view helpers, the route helpers (`v.post_path(post)`, typed by the
 * application's `RouteHelpers`), and what the rendering controller shares with its templates, its
 * properties and methods (`Assigns`: the controller's class, or the locals a partial is given).
 * @example export default (v: View<PostsController>) => html`<h1>${v.post.title}</h1>${v.link_to('All posts', v.posts_path())}`
 */
export type View<Assigns extends object = object> = ViewHelpers & Helpers & Assigns;

function attributes(attrs: Attributes): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (!/^[A-Za-z_:][\w:.-]*$/.test(name)) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escape(value)}"`;
  }
  return out;
}

function tag(name: string, attrs: Attributes, content?: unknown): SafeString {
  const open = `<${name}${attributes(attrs)}>`;
  return new SafeString(content === undefined ? open : `${open}${escape(content)}</${name}>`);
}

/**
 * The helpers for one controller's view. `content` collects `content_for` blocks (and the layout body);
 * `render` renders partials (core/views/render.ts, which finds them).
 */
export function viewHelpers(c: ViewHost, content: Record<string, SafeString>, render: (options: PartialOptions) => SafeString): ViewHelpers {
  const urlFor = (target: unknown, options: UrlOptions = {}): string => {
    if (typeof target === 'string') return target;
    if (target !== null && typeof target === 'object' && !Array.isArray(target) && Object.getPrototypeOf(target) === Object.prototype) {
      return c.routes.url_for({ only_path: true, ...(target as Record<string, unknown>) }, options);
    }
    return c.routes.polymorphic_path(target, options);
  };
  const tokenTag = (): SafeString => tag('input', { type: 'hidden', name: c.tokenParam, value: c.form_authenticity_token() });
  const methodTag = (method: string): SafeString => (method === 'get' || method === 'post' ? raw('') : tag('input', { type: 'hidden', name: '_method', value: method }));
  const formOpen = (url: string, method: string, attrs: Attributes = {}): SafeString => {
    const verb = method.toLowerCase();
    const open = tag('form', { action: url, method: verb === 'get' ? 'get' : 'post', ...attrs }).value;
    return raw(open + methodTag(verb).value + (verb === 'get' ? '' : tokenTag().value));
  };
  const buttonTo = (text: unknown, target: unknown, options: Attributes = {}): SafeString => {
    const { method = 'post', confirm, ...rest } = options;
    const onsubmit = confirm ? `return confirm(${JSON.stringify(String(confirm))});` : undefined;
    return raw(`${formOpen(urlFor(target), String(method), { class: 'button_to', onsubmit }).value}${tag('button', { type: 'submit', ...rest }, text).value}</form>`);
  };
  return {
    render,
    h: escape,
    escape,
    html,
    raw,
    url_for: urlFor,
    flash: c.flash,
    params: c.params,
    /** A link; with `method` other than GET it becomes a one-button form, so it works without JavaScript. */
    link_to(text: unknown, target: unknown, options: Attributes = {}): SafeString {
      const { method, ...rest } = options;
      if (method !== undefined && String(method).toLowerCase() !== 'get') return buttonTo(text, target, { method, ...rest });
      return tag('a', { href: urlFor(target), ...rest }, text);
    },
    button_to: buttonTo,
    /** Opens a form: POST for anything but GET, with `_method` and the authenticity token. Close it with `</form>`. */
    form_tag(target: unknown, options: Attributes = {}): SafeString {
      const { method = 'post', multipart, ...rest } = options;
      return formOpen(urlFor(target), String(method), { ...rest, enctype: multipart ? 'multipart/form-data' : undefined });
    },
    token_tag: tokenTag,
    form_authenticity_token: () => c.form_authenticity_token(),
    hidden_field_tag: (name: string, value: unknown = '', attrs: Attributes = {}) => tag('input', { type: 'hidden', name, value, ...attrs }),
    text_field_tag: (name: string, value: unknown = '', attrs: Attributes = {}) => tag('input', { type: 'text', name, id: fieldId(name), value, ...attrs }),
    password_field_tag: (name: string, attrs: Attributes = {}) => tag('input', { type: 'password', name, id: fieldId(name), ...attrs }),
    text_area_tag: (name: string, value: unknown = '', attrs: Attributes = {}) => tag('textarea', { name, id: fieldId(name), ...attrs }, value ?? ''),
    check_box_tag: (name: string, value: unknown = '1', checked = false, attrs: Attributes = {}) => tag('input', { type: 'checkbox', name, id: fieldId(name), value, checked, ...attrs }),
    label_tag: (name: string, text?: unknown, attrs: Attributes = {}) => tag('label', { for: fieldId(name), ...attrs }, text ?? humanize(name)),
    submit_tag: (value: unknown = 'Save changes', attrs: Attributes = {}) => tag('input', { type: 'submit', name: 'commit', value, ...attrs }),
    /** Stores markup for the layout: `content_for('title', 'Posts')`, read with `yield('title')`. */
    content_for(name: string, markup: unknown): SafeString {
      content[name] = raw((content[name]?.value ?? '') + escape(markup));
      return raw('');
    },
    /** The page body in a layout, or a `content_for` block by name. */
    yield: (name = 'layout'): SafeString => content[name] ?? raw(''),
    /**
     * Fragment caching (Rails' `cache`): the markup cached under `name`, or what `block` renders,
     * cached for next time. A promise when the block or the store is asynchronous, so templates
     * `await` it: `${await v.cache('sidebar', () => sidebar(v))}`.
     */
    cache(name: string | Readonly<Record<string, unknown>>, block: () => unknown, options: { readonly expires_in?: number } = {}): SafeString | Promise<SafeString> {
      if (typeof block !== 'function') throw new TypeError('cache(name, block) renders its block on a miss: pass a function');
      const store = c.fragments;
      const render = (): SafeString | Promise<SafeString> => {
        const out = block();
        const keep = (markup: unknown): SafeString | Promise<SafeString> => {
          const safe = raw(escape(markup));
          if (store === undefined) return safe;
          const written = store.write(name, safe.value, options);
          return isThenable(written) ? Promise.resolve(written).then(() => safe) : safe;
        };
        return isThenable(out) ? Promise.resolve(out).then(keep) : keep(out);
      };
      if (store === undefined) return render();
      const found = store.read(name);
      const use = (value: unknown) => (typeof value === 'string' ? raw(value) : render());
      return isThenable(found) ? Promise.resolve(found).then(use) : use(found);
    },
    pluralize: (count: number, singular: string, plural?: string) => `${count} ${count === 1 ? singular : (plural ?? pluralizeWord.plural(singular))}`,
    truncate: (text: unknown, length = 30, omission = '...') => {
      const s = String(text ?? '');
      return s.length > length ? s.slice(0, Math.max(0, length - omission.length)) + omission : s;
    },
  };
}

function fieldId(name: string): string {
  return name.replace(/\]\[|[[\]]/g, '_').replace(/(?<!_)_+$/, '');
}

function humanize(name: string): string {
  const base = fieldId(name).split('_').filter(Boolean).pop() ?? name;
  return base.charAt(0).toUpperCase() + base.slice(1);
}
