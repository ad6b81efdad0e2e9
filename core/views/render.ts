/**
 * Running a template and its layout, with the view context of
 * core/views/context.ts.
 *
 * Which template and which layout a render uses is looked up once per
 * resolver, controller class, controller path and name (including "there is
 * no layout") and kept until the templates reload: in development the app
 * calls `forgetTemplates` when a template file changed, and a resolver that
 * refreshes itself before a render is forgotten when its refresh says so.
 * A template that returns a string renders synchronously, with no promise
 * in between; only a template (or layout) that returns a promise, or a first
 * lookup while the directory loads, makes the render a promise.
 *
 * Partials (`v.render({ partial: 'form' })`) are templates too, found by
 * the same resolver under `_`-prefixed names, so they are reloaded with the
 * others in development. They render synchronously, in the middle of the
 * markup that asks for them: the resolver has every template of its
 * directory loaded by the time a template runs.
 */
import { MissingTemplate, SignalboxError, TemplateError } from '../errors.ts';
import { isThenable, thenOrNow } from '../util.ts';
import { contextOf, partialContexts, setLocal } from './context.ts';
import type { ViewClass, ViewHost } from './host.ts';
import { SafeString, escape, raw } from './html.ts';
import type { Template, ViewResolver } from './resolver.ts';
import type { FoundPartial, Scope } from './scope.ts';
import type { PartialOptions } from './view.ts';

/** A page as found: its template and its layout (null for none). */
interface Found {
  readonly template: Template<never>;
  readonly layout: Template<never> | null;
}

/** What one controller path of one class has found, by page key and, for partials, by format. */
interface PathFinds {
  readonly pages: Map<string, Found>;
  readonly partials: Map<string, Map<string, FoundPartial>>;
}

/** Resolver -> controller class -> controller path -> what was found. Forgotten per resolver when templates reload. */
const FOUND = new WeakMap<ViewResolver, WeakMap<ViewClass, Map<string, PathFinds>>>();

/** Forgets every template and layout found through `views`: the next render looks them up again. */
export function forgetTemplates(views: ViewResolver): void {
  FOUND.delete(views);
}

function foundFor(views: ViewResolver, klass: ViewClass, path: string): PathFinds {
  let classes = FOUND.get(views);
  if (classes === undefined) FOUND.set(views, (classes = new WeakMap()));
  let paths = classes.get(klass);
  if (paths === undefined) classes.set(klass, (paths = new Map()));
  let found = paths.get(path);
  if (found === undefined) paths.set(path, (found = { pages: new Map(), partials: new Map() }));
  return found;
}

type Rendered = string | null | Promise<string | null>;

/**
 * Renders `name` (`posts/show.html`) with its layout; null when the template does not exist. A string
 * when everything it ran was synchronous, else a promise of one.
 */
export function renderView(
  views: ViewResolver,
  klass: ViewClass,
  host: ViewHost,
  name: string,
  format: string,
  layoutOption: string | boolean | undefined,
  locals: Readonly<Record<string, unknown>> | null,
): Rendered {
  // Tested here, not in a helper taking a callback: a production render makes no closure for it.
  if (views.refresh === undefined) return renderFound(views, klass, host, name, format, layoutOption, locals);
  return refreshed(views, views.refresh).then(() => renderFound(views, klass, host, name, format, layoutOption, locals));
}

/** Brings a reloading resolver's templates up to date with their files, forgetting what was found when one changed. */
async function refreshed(views: ViewResolver, refresh: () => Promise<boolean>): Promise<void> {
  if (await refresh.call(views)) forgetTemplates(views);
}

/**
 * `markup` in a layout, as Rails' `render :text => ..., :layout => true` (or a layout's name) gives it:
 * the layout found as a template render would find it, `yield` giving the markup. Null when there is
 * no such layout (the markup then stands alone).
 */
export function renderInLayout(
  views: ViewResolver,
  klass: ViewClass,
  host: ViewHost,
  markup: string,
  format: string,
  layoutOption: string | true,
  locals: Readonly<Record<string, unknown>> | null,
): Rendered {
  const inLayout = (): Rendered => thenOrNow(findLayout(views, klass, host, format, layoutOption), (layout) => {
    if (layout === null) return null;
    const partials = partialsFor(foundFor(views, klass, host.controller_path), format);
    const scope: Scope = { views, host, klass, format, content: { layout: raw(markup) }, partials, renderPartial };
    return runTemplate(layout, contextOf(scope, locals), `layout for text in ${host.controller_path}`);
  });
  return views.refresh === undefined ? inLayout() : refreshed(views, views.refresh).then(inLayout);
}

/**
 * A partial on its own, as a controller's `render({ partial, object | collection, locals })` answers (the
 * fragment an Ajax request asks for): found and run as a template's `v.render` would, with no layout. The
 * partial is looked up first, so a directory still loading its templates is waited for.
 */
export function renderPartialAlone(views: ViewResolver, klass: ViewClass, host: ViewHost, format: string, options: PartialOptions): string | Promise<string> {
  const alone = (): string | Promise<string> => {
    const partials = partialsFor(foundFor(views, klass, host.controller_path), format);
    const run = (): string => renderPartial({ views, host, klass, format, content: null, partials, renderPartial }, options).value;
    // Found once, a partial is kept with the others of its path: only the first render looks it up.
    if (typeof options.partial !== 'string' || partials.has(options.partial)) return run();
    return thenOrNow(views.find([`${partialPath(host, options.partial).name}.${format}`]), run);
  };
  return views.refresh === undefined ? alone() : refreshed(views, views.refresh).then(alone);
}

function renderFound(views: ViewResolver, klass: ViewClass, host: ViewHost, name: string, format: string, layoutOption: string | boolean | undefined, locals: Readonly<Record<string, unknown>> | null): Rendered {
  const found = foundFor(views, klass, host.controller_path);
  const key = layoutOption === undefined ? name : `${name}\0${String(layoutOption)}`;
  const hit = found.pages.get(key);
  if (hit !== undefined) return run(hit, views, klass, host, name, format, found, locals);
  // Only pages that exist are kept: a name that finds nothing (an action without a template) costs a lookup each time.
  return thenOrNow(views.find([name]), (template) => {
    if (template === null) return null;
    return thenOrNow(findLayout(views, klass, host, format, layoutOption), (layout) => {
      const page: Found = { template, layout };
      found.pages.set(key, page);
      return run(page, views, klass, host, name, format, found, locals);
    });
  });
}

function run(page: Found, views: ViewResolver, klass: ViewClass, host: ViewHost, name: string, format: string, found: PathFinds, locals: Readonly<Record<string, unknown>> | null): string | Promise<string> {
  const scope: Scope = { views, host, klass, format, content: null, partials: partialsFor(found, format), renderPartial };
  const view = contextOf(scope, locals);
  const body = runTemplate(page.template, view, name);
  const layout = page.layout;
  if (layout === null) return body;
  return thenOrNow(body, (markup) => {
    (scope.content ??= {}).layout = raw(markup);
    return runTemplate(layout, view, `layout for ${name}`);
  });
}

/** The partials found for a controller path in one format, kept from render to render. */
function partialsFor(found: PathFinds, format: string): Map<string, FoundPartial> {
  let partials = found.partials.get(format);
  if (partials === undefined) found.partials.set(format, (partials = new Map()));
  return partials;
}

/** A template's markup; a promise only when the template returned one. */
function runTemplate(template: Template<never>, view: object, name: string): string | Promise<string> {
  let out: ReturnType<Template>;
  try {
    // The template says what its view holds; this context, made for its render, is that view.
    out = template(view as never);
  } catch (error) {
    throw templateError(name, error);
  }
  if (isThenable(out)) return Promise.resolve(out).then((markup) => markupOf(markup, name), (error: unknown) => { throw templateError(name, error); });
  return markupOf(out, name);
}

function markupOf(out: string | SafeString, name: string): string {
  if (out instanceof SafeString) return out.value;
  if (out === undefined || out === null) throw nothingReturned(name, out);
  return String(out);
}

/**
 * A template that gave back nothing: most often an arrow function with a block body and no `return`. Sent
 * as it was, the page would read "undefined".
 */
function nothingReturned(name: string, out: null | undefined): TemplateError {
  return new TemplateError(name, new TypeError(`the template returned ${String(out)}, not its markup (does a block body lack its return?)`));
}

function templateError(name: string, error: unknown): SignalboxError {
  // Framework errors (a helper's UrlGenerationError, a nested MissingTemplate) keep their own status.
  return error instanceof SignalboxError ? error : new TemplateError(name, error);
}

function findLayout(views: ViewResolver, klass: ViewClass, host: ViewHost, format: string, option: string | boolean | undefined): Promise<Template<never> | null> | Template<never> | null {
  if (option === false) return null;
  if (typeof option === 'string') return views.find([`layouts/${option}.${format}`]);
  const declared = klass.layout;
  if (declared === false) return null;
  if (typeof declared === 'string') return views.find([`layouts/${declared}.${format}`]);
  return views.find([`layouts/${host.controller_name}.${format}`, `layouts/application.${format}`]);
}

/** `form` -> `<controller_path>/_form`, `shared/menu` -> `shared/_menu`, with the local it is named after. */
function partialPath(host: ViewHost, partial: string): { name: string; local: string } {
  const slash = partial.lastIndexOf('/');
  const local = partial.slice(slash + 1);
  const dir = slash < 0 ? host.controller_path : partial.slice(0, slash);
  return { name: `${dir}/_${local}`, local };
}

function renderPartial(scope: Scope, options: PartialOptions): SafeString {
  if (options === null || typeof options !== 'object' || typeof options.partial !== 'string' || options.partial === '') {
    throw new TypeError('render in a template takes { partial: name, locals?, object?, collection?, spacer_template? }');
  }
  const partial = partialTemplate(scope, options.partial);
  const locals = options.locals ?? null;
  if (options.collection === undefined) {
    if (!('object' in options)) return runPartial(partial, contextOf(scope, locals));
    if (locals === null) return runPartial(partial, partial.contexts.one(scope, options.object));
    const view = contextOf(scope, locals);
    setLocal(view, partial.local, options.object);
    return runPartial(partial, view);
  }
  const spacer = options.spacer_template === undefined ? null : partialTemplate(scope, options.spacer_template);
  let out = '';
  let index = 0;
  for (const item of options.collection) {
    if (index > 0 && spacer !== null) out += runPartial(spacer, contextOf(scope, locals)).value;
    let view;
    if (locals === null) view = partial.contexts.item(scope, item, index);
    else {
      view = contextOf(scope, locals);
      setLocal(view, partial.local, item);
      setLocal(view, partial.counter, index);
    }
    out += runPartial(partial, view).value;
    index++;
  }
  return raw(out);
}

function partialTemplate(scope: Scope, partial: string): FoundPartial {
  const hit = scope.partials.get(partial);
  if (hit !== undefined) return hit;
  const { name, local } = partialPath(scope.host, partial);
  const wanted = `${name}.${scope.format}`;
  const found = scope.views.find([wanted]);
  if (isThenable(found)) {
    // Only a resolver of one's own can get here: the directory resolver has loaded every template before one runs.
    throw new TemplateError(wanted, new Error('the view resolver had not loaded this partial when the template asked for it'));
  }
  if (found === null) throw new MissingTemplate([scope.views.describe(wanted)]);
  const counter = `${local}_counter`;
  const entry: FoundPartial = { template: found, name, local, counter, contexts: partialContexts(local, counter) };
  scope.partials.set(partial, entry);
  return entry;
}

function runPartial(partial: FoundPartial, view: object): SafeString {
  let out: ReturnType<Template>;
  try {
    out = partial.template(view as never);
  } catch (error) {
    throw templateError(partial.name, error);
  }
  if (isThenable(out)) {
    // Swallow the promise's own outcome: the error below is what the request reports.
    out.then(undefined, () => {});
    throw new TemplateError(partial.name, new TypeError('a partial renders synchronously; this one returned a promise (an async function?)'));
  }
  // As for a template: a plain string is the partial's markup as written.
  if (out instanceof SafeString) return out;
  if (out === undefined || out === null) throw nothingReturned(partial.name, out);
  return raw(String(out));
}

export { escape };
