/**
 * The request corpus's `action` vocabulary, run inside a controller action:
 * what a Rails test controller's action did, stated as facts (render, head,
 * redirect_to, respond_to, response header and content-type changes, a second
 * render, a raise). Rescue handlers (`setup.rescue_from[].handler`) use the same
 * vocabulary, with `{"$exception": property}` standing for the rescued
 * exception's property. Not a test file itself.
 */
import { ActionControllerError, type Controller } from '../../core/index.ts';
import { makeRecord } from './acceptance.ts';
import { CaseErrors, type RaiseSpec } from './fixture-errors.ts';

export type ActionSpec = Record<string, any>;

/** A template's format from a `template_type`: null when no template exists. */
export function templateFormat(templateType: unknown): string | null {
  const text = String(templateType ?? '');
  if (/^none\b/.test(text)) return null;
  if (/builder|rxml/.test(text)) return 'xml';
  if (/rjs/.test(text)) return 'js';
  return 'html';
}

/** `Customer`, `LineItem`: a model name from a record's underscored name. */
export function modelOf(name: string): string {
  return name.split(/[_/]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** Records in a case's values: `{record, id, new_record}` and `{url_for_record, id}` become records of that model. */
export function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  if (typeof o.record === 'string') return makeRecord(o.record, o.new_record ? null : String(o.id), Boolean(o.new_record));
  if (typeof o.url_for_record === 'string') return makeRecord(modelOf(o.url_for_record), String(o.id), false);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, revive(v)]));
}

/** Replaces `{"$exception": property}` markers with that property of the rescued exception. */
function withException(value: unknown, error: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => withException(v, error));
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  if (typeof o.$exception === 'string') return (error as Record<string, unknown>)[o.$exception];
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, withException(v, error)]));
}

/** The status a `head` spec gives: as written, or read from `params[:status]` as the description says. */
function headStatus(c: Controller, status: unknown): number | string {
  if (status === undefined) return 'ok';
  if (typeof status === 'string' && status.startsWith('params[:status]')) {
    const given = String(c.params.status ?? '');
    return /integer/.test(status) ? Number(given) : given;
  }
  return status as number | string;
}

/** What a `respond_to` entry of an action does: `"xml:template"`, `"html:text"`, `"rss:text with content_type application/xml"`. */
function respondEntry(c: Controller, name: string, entry: string): [symbol: string, run: () => void] {
  const colon = entry.indexOf(':');
  const symbol = colon < 0 ? entry : entry.slice(0, colon);
  const kind = colon < 0 ? 'text' : entry.slice(colon + 1);
  return [symbol, () => {
    if (kind === 'template') return c.render({ action: name });
    const type = /with content_type (\S+)/.exec(kind)?.[1];
    c.render({ text: `${symbol} text`, ...(type ? { content_type: type } : {}) });
  }];
}

function redirect(c: Controller, target: unknown, responseStatus: Record<string, unknown> | undefined): void {
  if (target === null || target === undefined) throw new ActionControllerError('Cannot redirect to nil!');
  c.redirect_to(target === ':back' ? 'back' : revive(target), (responseStatus ?? {}) as { status?: number | string });
}

const RENDERED_VALUE = ['text', 'json', 'xml', 'js', 'html'] as const;

function render(c: Controller, name: string, spec: ActionSpec): void {
  const options: Record<string, unknown> = {};
  if (spec.status !== undefined) options.status = spec.status;
  if (spec.location !== undefined) options.location = revive(spec.location);
  if (spec.content_type !== undefined) options.content_type = spec.content_type;
  if (spec.callback !== undefined) options.callback = spec.callback;
  if (spec.layout !== undefined) options.layout = spec.layout;
  const kind = String(spec.render);
  if ((RENDERED_VALUE as readonly string[]).includes(kind)) return c.render({ [kind]: spec[kind], ...options });
  switch (kind) {
    case 'nothing': return c.render({ nothing: true, ...options });
    case 'template': {
      // The default template: its own format when its type has one (a builder is XML whatever was asked).
      const format = templateFormat(spec.template_type);
      return c.render({ action: name, ...(format !== null && format !== 'html' ? { format } : {}), ...options });
    }
    case 'update (RJS page)': return c.render({ js: 'Element.update("body", "updated");', ...options });
    default: throw new Error(`the fixture does not know render ${JSON.stringify(kind)}`);
  }
}

/**
 * Runs an action description. It raises last, after everything else it describes (a render first, say).
 * `errors` makes the exception `raise` names.
 */
export function perform(c: Controller, name: string, spec: ActionSpec, errors: CaseErrors): void {
  if (spec.set_response_content_type !== undefined) c.response.content_type = spec.set_response_content_type;
  if ('set_response_charset' in spec) c.response.charset = spec.set_response_charset;
  for (const [header, value] of Object.entries((spec.set_response_header ?? {}) as Record<string, string>)) c.response.set_header(header, value);
  if (spec.double_render !== undefined) {
    // "render text twice", "redirect twice", "render text, then redirect": each render or redirect the
    // description names, in its order ("twice" repeats the one named); the second must fail.
    const named = String(spec.double_render).match(/render|redirect/g) ?? [];
    const steps = named.length === 1 && /\btwice\b/.test(String(spec.double_render)) ? [named[0], named[0]] : named;
    for (const step of steps) {
      if (step === 'redirect') c.redirect_to({ action: name });
      else c.render({ text: step });
    }
  } else if (spec.respond_to !== undefined) {
    const entries = (spec.respond_to as string[]).map((e) => respondEntry(c, name, e));
    c.respond_to((format) => {
      for (const [symbol, run] of entries) format[symbol](run);
    });
  } else if ('redirect_to' in spec) {
    redirect(c, spec.redirect_to, spec.response_status);
  } else if (spec.head !== undefined) {
    const { status, ...headers } = spec.head as Record<string, unknown>;
    c.head(headStatus(c, status), revive(headers) as Record<string, unknown>);
  } else if (spec.render !== undefined) {
    render(c, name, spec);
  }
  if (spec.raise !== undefined) throw errors.instance(spec.raise as RaiseSpec);
}

/** Runs a rescue handler's description for the rescued exception. */
export function handle(c: Controller, handler: ActionSpec, error: unknown, errors: CaseErrors): void {
  perform(c, c.action_name, withException(handler, error) as ActionSpec, errors);
}
