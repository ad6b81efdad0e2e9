/**
 * `respond_to`: picks the first declared representation the client accepts.
 * The client's preference list is its `format` parameter when that names a
 * registered extension, else its Accept list. `*\/*` in that list takes the
 * first declared type; a declared `all` catches anything; otherwise the
 * request fails with `NotAcceptable` (406).
 */
import { NotAcceptable } from '../errors.ts';
import type { MimeType } from '../mime/types.ts';
import type { Controller } from './base.ts';

export type RespondHandler = true | (() => unknown);
/** Object form: keys are format symbols (`html`, `json`, registered ones, `all`, `any`) in preference order. */
export type RespondHandlers = Readonly<Record<string, RespondHandler>>;

/** Block form: `format.html()`, `format.xml(() => ...)`, `format.any('js', 'xml', fn)`, `format.custom('application/x', fn)`. */
export type Format = {
  any(...args: (string | (() => unknown))[]): void;
  custom(mime: string, handler?: () => unknown): void;
} & { [symbol: string]: (handler?: () => unknown) => void };
export type RespondBlock = (format: Format) => void;

interface Declared {
  readonly type: MimeType;
  readonly handler: RespondHandler | undefined;
}

export function respondTo(c: Controller, handlers: RespondHandlers | RespondBlock): void {
  const registry = c.request.mime;
  const param = c.request.parameters.format;
  const byParam = typeof param === 'string' && param !== '' ? registry.lookup_by_extension(param) : undefined;
  const priority: MimeType[] = byParam ? [byParam] : c.request.accepts;
  const declared: Declared[] = [];

  const custom = (type: MimeType, handler?: RespondHandler) => {
    if (!declared.some((d) => d.type === type)) declared.push({ type, handler });
  };
  const named = (symbol: string, handler?: RespondHandler) => {
    const type = registry.get(symbol);
    if (!type) throw new TypeError(`respond_to: unknown format ${JSON.stringify(symbol)} (register it on the app's MIME registry)`);
    custom(type, handler);
  };
  const any = (symbols: string[], handler?: RespondHandler) => {
    if (symbols.length > 0) for (const s of symbols) named(s, handler);
    else if (priority[0]) custom(priority[0], handler);
  };

  if (typeof handlers === 'function') {
    const format = new Proxy({} as Format, {
      get(_t, prop) {
        if (prop === 'any') return (...args: (string | (() => unknown))[]) => {
          const fn = typeof args[args.length - 1] === 'function' ? (args.pop() as () => unknown) : undefined;
          any(args as string[], fn);
        };
        if (prop === 'custom') return (mime: string, fn?: () => unknown) => custom(registry.lookup(mime), fn);
        if (typeof prop !== 'string') return undefined;
        return (fn?: () => unknown) => named(prop, fn);
      },
    });
    handlers(format);
  } else {
    for (const [symbol, handler] of Object.entries(handlers)) {
      if (symbol === 'any') any([], handler);
      else named(symbol, handler);
    }
  }

  const chosen = choose(priority, declared);
  if (chosen === null) throw new NotAcceptable(priority.map((t) => t.toString()));
  c._format = chosen.type.symbol ?? chosen.type.string;
  c.response.content_type = chosen.type.string;
  if (chosen.handler === undefined || chosen.handler === true) c.render({ action: c.action_name });
  else chosen.handler();
}

function choose(priority: readonly MimeType[], declared: readonly Declared[]): Declared | null {
  if (declared.length === 0) return null;
  for (const wanted of priority) {
    if (wanted.symbol === 'all') return declared[0];
    // The very type first (an alias like `iphone` shares text/html with `html`), then an equal one.
    const hit = declared.find((d) => d.type === wanted) ?? declared.find((d) => d.type.equals(wanted));
    if (hit) return hit;
  }
  return declared.find((d) => d.type.symbol === 'all') ?? null;
}
