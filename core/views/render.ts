/**
 * Running a template and its layout. The view context reads, in order: the
 * view helpers, the template's locals, what the controller shares with its
 * templates (its own properties, Rails' "assigns", and methods; see
 * host.ts) and the route helpers.
 */
import { SignalboxError, TemplateError } from '../errors.ts';
import type { ViewHost } from './host.ts';
import { SafeString, escape, raw } from './html.ts';
import { viewHelpers } from './helpers.ts';
import type { Template, ViewResolver } from './resolver.ts';

/** Renders `name` (`posts/show.html`) with its layout; null when the template does not exist. */
export async function renderView(
  views: ViewResolver,
  host: ViewHost,
  name: string,
  format: string,
  layoutOption: string | boolean | undefined,
  locals: Record<string, unknown>,
): Promise<string | null> {
  const template = await views.find([name]);
  if (template === null) return null;
  const content: Record<string, SafeString> = {};
  const view = createViewContext(host, locals, content);
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

/** The object templates receive. */
export function createViewContext(host: ViewHost, locals: Record<string, unknown>, content: Record<string, SafeString>): Record<string, unknown> {
  const helpers = viewHelpers(host, content) as unknown as Record<string, unknown>;
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
