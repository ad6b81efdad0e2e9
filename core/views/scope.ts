/**
 * One render's state, as the view context and its helpers reach it: the
 * context object holds it under a symbol no template can name, so a
 * template reads the controller only through the names the context shares.
 */
import type { SafeString } from './html.ts';
import type { ViewClass, ViewHost } from './host.ts';
import type { PartialOptions } from './view.ts';
import type { Template, ViewResolver } from './resolver.ts';

/** Where a view context keeps its render's scope. */
export const SCOPE: unique symbol = Symbol('signalbox view scope');

/** A partial as found for one name, format and controller path. */
export interface FoundPartial {
  readonly template: Template<never>;
  /** The partial's name (`posts/_form`), for errors. */
  readonly name: string;
  /** The local named after the partial (`form`), and its counter in a collection (`form_counter`). */
  readonly local: string;
  readonly counter: string;
  /** Its contexts when its only locals are its object or item (core/views/context.ts). */
  readonly contexts: PartialContexts;
}

export interface Scope {
  readonly views: ViewResolver;
  readonly host: ViewHost;
  readonly klass: ViewClass;
  readonly format: string;
  /** `content_for` blocks and the page body (`layout`), made on first use. */
  content: Record<string, SafeString> | null;
  /** The partials found so far for this controller path and format (kept across renders until templates reload). */
  readonly partials: Map<string, FoundPartial>;
  /** Renders a partial (core/views/render.ts). */
  readonly renderPartial: (scope: Scope, options: PartialOptions) => SafeString;
}

/** What every view context holds. */
export interface ContextSlots {
  readonly [SCOPE]: Scope;
}

/** Makes the contexts of one partial rendered for an object or over a collection, with no locals besides. */
export interface PartialContexts {
  /** `render({ partial, object })`: the object as the local named after the partial. */
  one(scope: Scope, value: unknown): ContextSlots;
  /** One item of `render({ partial, collection })`: the item, and its index as `<name>_counter`. */
  item(scope: Scope, value: unknown, index: number): ContextSlots;
}

