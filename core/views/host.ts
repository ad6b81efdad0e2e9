/**
 * What a template may read of the controller that renders it: the
 * controller's own properties and methods (Rails' assigns and helper
 * methods), `params`, `flash`, the route helpers, the authenticity token's
 * form field, and the layout the controller declared.
 *
 * The rendering controller is the `ViewHost` of a render, and its class's
 * `ViewClass` says what is the same for every render of that class; both are
 * given as they are, with nothing built per render (core/controller/render.ts).
 * Templates never hold the host: they read it through the view context
 * (core/views/context.ts), which shares every name of the host except those
 * starting with `_` (the framework's per-request state, and anything an
 * application keeps from its templates the same way).
 */
import type { Params } from '../request/param-values.ts';
import type { Helpers } from '../routing/index.ts';
import type { Flash } from '../session/flash.ts';

export interface ViewHost {
  /** The controller's name without its module (`admin/posts` -> `posts`): the layout looked for first. */
  readonly controller_name: string;
  /** The controller's path (`admin/posts`): where a partial named without a directory is looked for. */
  readonly controller_path: string;
  /** Read only when a template reads `v.params`. */
  readonly params: Readonly<Params>;
  /** Read only when a template reads `v.flash`, so a page that shows no flash never loads the session. */
  readonly flash: Flash;
  /** Named route helpers, `url_for` and the polymorphic helpers, bound to this request. */
  readonly routes: Helpers;
  /** The session's authenticity token (made on first use). */
  form_authenticity_token(): string;
  /**
   * The app's fragment cache, for the `cache` helper: reads and writes `views/<name>`; either answer may be a
   * promise. Absent when the controller runs outside an app (the helper then renders its block every time).
   */
  read_fragment?(name: string | Readonly<Record<string, unknown>>): unknown;
  write_fragment?(name: string | Readonly<Record<string, unknown>>, content: string, options?: { readonly expires_in?: number }): unknown;
}

/** What every render of one controller class shares; made once per class. */
export interface ViewClass {
  /** The layout the controller declared: a name under `layouts/`, false for none, null to look one up. */
  readonly layout: string | false | null;
  /** The parameter forms send the authenticity token in. */
  readonly tokenParam: string;
}
