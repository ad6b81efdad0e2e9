/**
 * `respond_to`: picks the first declared representation the client accepts.
 * The client's preference list is its `format` parameter when that names a
 * registered extension, else its Accept list. `*\/*` in that list takes the
 * first declared type; a declared `all` catches anything; otherwise the
 * request fails with `NotAcceptable` (406).
 */
import { ArgumentError, NotAcceptable } from '../errors.ts';
import { shownValue } from '../options.ts';
import type { Request } from '../http/request.ts';
import type { Response } from '../http/response.ts';
import type { MimeRegistry, MimeType } from '../mime/types.ts';
import { addPending, runOf } from './action-state.ts';
import { isThenable, untraced } from '../util.ts';

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

/** The representations an action declares, in order, each type once. */
class Declaration {
  readonly declared: Declared[] = [];

  constructor(readonly registry: MimeRegistry, readonly priority: readonly MimeType[]) {}

  custom(type: MimeType, handler?: RespondHandler): void {
    if (handler !== undefined && handler !== true && typeof handler !== 'function') {
      throw new ArgumentError(`respond_to: the handler for ${type.symbol ?? type.string} is true (its template) or a function, not ${shownValue(handler)}`);
    }
    for (const d of this.declared) if (d.type === type) return;
    this.declared.push({ type, handler });
  }

  named(symbol: string, handler?: RespondHandler): void {
    const type = this.registry.get(symbol);
    if (!type) throw new TypeError(`respond_to: unknown format ${JSON.stringify(symbol)} (register it on the app's MIME registry)`);
    this.custom(type, handler);
  }

  any(symbols: readonly string[], handler?: RespondHandler): void {
    if (symbols.length > 0) for (const s of symbols) this.named(s, handler);
    else if (this.priority[0]) this.custom(this.priority[0], handler);
  }
}

/** The `format` object of the block form: any property is a format name. */
function formatBuilder(d: Declaration): Format {
  return new Proxy({} as Format, {
    get(_t, prop) {
      if (prop === 'any') {
        return (...args: (string | (() => unknown))[]) => {
          const fn = typeof args[args.length - 1] === 'function' ? (args.pop() as () => unknown) : undefined;
          d.any(args as string[], fn);
        };
      }
      if (prop === 'custom') return (mime: string, fn?: () => unknown) => d.custom(d.registry.lookup(mime), fn);
      if (typeof prop !== 'string') return undefined;
      return (fn?: () => unknown) => d.named(prop, fn);
    },
  });
}

/** What `respond_to` reads and sets of the controller (a `Controller` is one). */
export interface Responder {
  readonly request: Request;
  readonly response: Response;
  readonly action_name: string;
  render(options: { readonly action: string }): void;
}

export function respondTo(c: Responder, handlers: RespondHandlers | RespondBlock): void {
  const registry = c.request.mime;
  const param = c.request.parameters.format;
  const byParam = typeof param === 'string' && param !== '' ? registry.lookup_by_extension(param) : undefined;
  const d = new Declaration(registry, byParam ? [byParam] : c.request.accepts);
  if (typeof handlers !== 'function' && (handlers === null || typeof handlers !== 'object' || Array.isArray(handlers))) {
    throw new ArgumentError(`respond_to takes a block ((format) => ...) or an object of handlers by format, not ${shownValue(handlers)}`);
  }

  if (typeof handlers === 'function') {
    const returned: unknown = handlers(formatBuilder(d));
    if (isThenable(returned)) {
      // Formats declared after an await would come too late to be chosen, and a failure after it would be no one's.
      Promise.resolve(returned).catch(() => undefined);
      throw new ArgumentError("respond_to's block declares its formats at once: it returned a promise (give an asynchronous handler to the format instead: format.html(async () => ...))");
    }
  } else {
    // Own keys in order, as `for...in` with an own-property check gives them, without a check per key.
    for (const symbol of Object.keys(handlers)) {
      if (symbol === 'any') d.any([], handlers[symbol]);
      else d.named(symbol, handlers[symbol]);
    }
  }

  const chosen = choose(d.priority, d.declared);
  // Answered as Rails' `head :not_acceptable`: no page or log line shows a trace, so none is captured (a 406 flood).
  if (chosen === null) throw untraced(() => new NotAcceptable(d.priority.map((t) => t.toString())));
  // The chosen format names the template's format.
  runOf(c).format = chosen.type.symbol ?? chosen.type.string;
  c.response.content_type = chosen.type.string;
  if (chosen.handler === undefined || chosen.handler === true) c.render({ action: c.action_name });
  else {
    const answered: unknown = chosen.handler();
    // An asynchronous handler (one that loads what it renders) is waited for, as an asynchronous action is.
    if (isThenable(answered)) addPending(c, Promise.resolve(answered).then(() => undefined));
  }
}

function choose(priority: readonly MimeType[], declared: readonly Declared[]): Declared | null {
  if (declared.length === 0) return null;
  for (const wanted of priority) {
    if (wanted.symbol === 'all') return declared[0];
    // The very type first (an alias like `iphone` shares text/html with `html`), then an equal one.
    for (const d of declared) if (d.type === wanted) return d;
    for (const d of declared) if (d.type.equals(wanted)) return d;
  }
  for (const d of declared) if (d.type.symbol === 'all') return d;
  return null;
}
