/**
 * What a template may read of the controller that renders it: the
 * controller's own properties and methods (Rails' assigns and helper
 * methods), `params`, `flash`, the route helpers, the authenticity token's
 * form field, and the layout the controller declared. The controller builds
 * one per render (core/controller/render.ts); views never see the
 * controller itself, so nothing here depends on how a controller keeps its
 * per-request state.
 */
import type { Helpers } from '../routing/index.ts';
import type { Flash } from '../session/flash.ts';

export interface ViewHost {
  /** The controller's name without its module (`admin/posts` -> `posts`): the layout looked for first. */
  readonly controller_name: string;
  /** The controller's path (`admin/posts`): where a partial named without a directory is looked for. */
  readonly controller_path: string;
  /** The layout the controller declared: a name under `layouts/`, false for none, null to look one up. */
  readonly layout: string | false | null;
  readonly params: Readonly<Record<string, unknown>>;
  readonly flash: Flash;
  /** Named route helpers, `url_for` and the polymorphic helpers, bound to this request. */
  readonly routes: Helpers;
  /** The parameter forms send the authenticity token in. */
  readonly tokenParam: string;
  /** The session's authenticity token (made on first use). */
  form_authenticity_token(): string;
  /**
   * The app's fragment cache, for the `cache` helper: reads and writes `views/<name>`. Absent when the
   * controller runs outside an app (the helper then renders its block every time).
   */
  readonly fragments?: FragmentCache;
  /** Whether the controller shares `name` with templates (a property or method of its own, never an internal). */
  has(name: string): boolean;
  /** The value of a shared name, methods bound to the controller; undefined for any other name. */
  read(name: string): unknown;
}

/** What the `cache` helper needs of the fragment cache; either answer may be a promise. */
export interface FragmentCache {
  read(name: string | Readonly<Record<string, unknown>>): unknown;
  write(name: string | Readonly<Record<string, unknown>>, content: string, options?: { readonly expires_in?: number }): unknown;
}
