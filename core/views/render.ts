/**
 * Running a template and its layout. The view context reads, in order: the
 * view helpers, the template's locals, what the controller shares with its
 * templates (its own properties, Rails' "assigns", and methods; see
 * host.ts) and the route helpers.
 *
 * Partials (`v.render({ partial: 'form' })`) are templates too, found by
 * the same resolver under `_`-prefixed names, so they are reloaded with the
 * others in development. They render synchronously, in the middle of the
 * markup that asks for them: the resolver has every template of its
 * directory loaded by the time a template runs.
 */
import { MissingTemplate, SignalboxError, TemplateError } from '../errors.ts';
import { isThenable } from '../util.ts';
import type { ViewHost } from './host.ts';
import { SafeString, escape, raw } from './html.ts';
import { viewHelpers, type PartialOptions } from './helpers.ts';
import type { Template, ViewResolver } from './resolver.ts';

/** What one render shares with the templates and partials it runs. */
interface Scope {
  readonly views: ViewResolver;
  readonly host: ViewHost;
  readonly format: string;
  readonly content: Record<string, SafeString>;
  helpers: Readonly<Record<string, unknown>>;
}

/** Renders `name` (`posts/show.html`) with its layout; null when the template does not exist. */
export async function renderView(
  views: ViewResolver,
  host: ViewHost,
  name: string,
  format: string,
  layoutOption: string | boolean | undefined,
  locals: Record<string, unknown>,
): Promise<string | null> {
  if (views.refresh !== undefined) await views.refresh();
  const template = await views.find([name]);
  if (template === null) return null;
  const content: Record<string, SafeString> = {};
  const scope: Scope = { views, host, format, content, helpers: {} };
  scope.helpers = viewHelpers(host, content, (options) => renderPartial(scope, options)) as unknown as Record<string, unknown>;
  const view = contextOf(scope, locals);
  const body = await run(template, view, name);
  const layout = await findLayout(views, host, format, layoutOption);
  if (layout === null) return body;
  content.layout = raw(body);
  return run(layout, view, `layout for ${name}`);
}

async function run(template: Template, view: unknown, name: string): Promise<string> {
  try {
    const out = await template(view);
    return out instanceof SafeString ? out.value : String(out);
  } catch (error) {
    // Framework errors (a helper's UrlGenerationError, a nested MissingTemplate) keep their own status.
    if (error instanceof SignalboxError) throw error;
    throw new TemplateError(name, error);
  }
}

async function findLayout(views: ViewResolver, host: ViewHost, format: string, option: string | boolean | undefined): Promise<Template | null> {
  if (option === false) return null;
  if (typeof option === 'string') return views.find([`layouts/${option}.${format}`]);
  const declared = host.layout;
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
  const { name, local } = partialPath(scope.host, options.partial);
  const template = partialTemplate(scope, name);
  const locals = options.locals ?? {};
  if (options.collection === undefined) {
    const own = 'object' in options ? { ...locals, [local]: options.object } : locals;
    return runPartial(template, contextOf(scope, own), name);
  }
  const spacer = options.spacer_template === undefined ? null : partialPath(scope.host, options.spacer_template).name;
  let out = '';
  let index = 0;
  for (const item of options.collection) {
    if (index > 0 && spacer !== null) out += runPartial(partialTemplate(scope, spacer), contextOf(scope, locals), spacer).value;
    out += runPartial(template, contextOf(scope, { ...locals, [local]: item, [`${local}_counter`]: index }), name).value;
    index++;
  }
  return raw(out);
}

function partialTemplate(scope: Scope, name: string): Template {
  const wanted = `${name}.${scope.format}`;
  const found = scope.views.find([wanted]);
  if (isThenable(found)) {
    // Only a resolver of one's own can get here: the directory resolver has loaded every template before one runs.
    throw new TemplateError(wanted, new Error('the view resolver had not loaded this partial when the template asked for it'));
  }
  if (found === null) throw new MissingTemplate([scope.views.describe(wanted)]);
  return found;
}

function runPartial(template: Template, view: unknown, name: string): SafeString {
  let out: ReturnType<Template>;
  try {
    out = template(view);
  } catch (error) {
    if (error instanceof SignalboxError) throw error;
    throw new TemplateError(name, error);
  }
  if (isThenable(out)) {
    // Swallow the promise's own outcome: the error below is what the request reports.
    out.then(undefined, () => {});
    throw new TemplateError(name, new TypeError('a partial renders synchronously; this one returned a promise (an async function?)'));
  }
  // As for a template: a plain string is the partial's markup as written.
  return out instanceof SafeString ? out : raw(String(out));
}

/** The object templates receive: helpers, then locals, then what the controller shares, then route helpers. */
function contextOf(scope: Pick<Scope, 'host' | 'helpers'>, locals: Record<string, unknown>): Record<string, unknown> {
  const { host, helpers } = scope;
  return new Proxy(Object.create(null) as Record<string, unknown>, {
    get(_t, prop) {
      if (typeof prop !== 'string') return undefined;
      if (prop in helpers) return helpers[prop];
      if (Object.prototype.hasOwnProperty.call(locals, prop)) return locals[prop];
      if (host.has(prop)) return host.read(prop);
      return (host.routes as unknown as Record<string, unknown>)[prop];
    },
    has: (_t, prop) => typeof prop === 'string' && (prop in helpers || prop in locals || host.has(prop) || prop in host.routes),
  });
}

export { escape };
