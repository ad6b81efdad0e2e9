/**
 * What a template sees: the view context's type (`View`), the helpers on it (`ViewHelpers`) and what
 * `v.render` takes (`PartialOptions`). Types only, kept apart from the helpers' code so that what
 * names templates (the resolver) and what runs them (the render's scope) can say what a template
 * reads without importing the helpers.
 */
import type { SafeString, html } from './html.ts';
import type { Helpers, UrlOptions } from '../routing/index.ts';
import type { Flash } from '../session/flash.ts';
import type { Params } from '../request/param-values.ts';

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
  /** The request's parameters, as the controller's `params` holds them. */
  readonly params: Readonly<Params>;
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
  pluralize(count: number | string | null | undefined, singular: string, plural?: string): string;
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
