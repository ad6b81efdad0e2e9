/**
 * MIME types and the registry an application negotiates with: Rails 2.1's
 * `Mime::Type`, `Mime::Type.register`/`register_alias`/`lookup` and its
 * Accept-header parser, without the global tables. Each registry is its own
 * object, so an application registers custom types without touching another's.
 *
 * @example
 *   const mime = createMimeRegistry();
 *   mime.register('text/x-mobile', 'mobile');
 *   mime.parse('text/javascript, text/html').map(String); // ['text/javascript', 'text/html']
 */

/** Request bodies of these types skip forgery protection (Rails 2.1's `unverifiable_types`). */
const UNVERIFIABLE: ReadonlySet<string> = new Set(['text', 'json', 'csv', 'xml', 'rss', 'atom', 'yaml']);
/** Types that count as HTML besides any whose string mentions html. */
const HTML_SYMBOLS: ReadonlySet<string> = new Set(['html', 'all']);

/** One MIME type: its canonical string, its symbol (null when unregistered) and its synonym strings. */
export class MimeType {
  readonly string: string;
  readonly symbol: string | null;
  readonly synonyms: readonly string[];

  constructor(string: string, symbol: string | null = null, synonyms: readonly string[] = []) {
    this.string = string;
    this.symbol = symbol;
    this.synonyms = Object.freeze([...synonyms]);
    Object.freeze(this);
  }

  /** The symbol, or the type string for unregistered types (Rails' `to_sym`). */
  get name(): string {
    return this.symbol ?? this.string;
  }

  /**
   * Rails 2.1's `==`: true when `other` (a type, type string, synonym or symbol name) names this type.
   * @example html.equals('application/xhtml+xml') // true
   */
  equals(other: MimeType | string | null | undefined): boolean {
    if (other === null || other === undefined) return false;
    const otherString = typeof other === 'string' ? other : other.string;
    const otherName = typeof other === 'string' ? other : other.name;
    if (otherString.trim() === '') return false;
    if (this.string === otherString || this.name === otherName) return true;
    return this.synonyms.some((s) => s === otherString || s === otherName);
  }

  /** The symbol predicate (`mime.is('xml')` is Rails' `xml?`). */
  is(symbol: string): boolean {
    return this.name === symbol;
  }

  /** Rails' `html?`: html and `*\/*`, and any type whose string mentions html. */
  get html(): boolean {
    return HTML_SYMBOLS.has(this.name) || this.string.includes('html');
  }

  /** Whether request bodies of this type need a forgery-protection token (false for text, json, csv, xml, rss, atom, yaml). */
  get verify_request(): boolean {
    return !UNVERIFIABLE.has(this.name);
  }

  toString(): string {
    return this.string;
  }
}

/** An application's MIME types: lookups by symbol, type string and extension, registration, and Accept parsing. */
export interface MimeRegistry {
  /** The type registered under `symbol` (including aliases). */
  get(symbol: string): MimeType | undefined;
  /** The type for a type string or synonym; an unregistered string gives a type with a null symbol. */
  lookup(typeString: string): MimeType;
  /** The type for a format extension (`xml`, `xhtml`, `txt`), or undefined for an unknown one. */
  lookup_by_extension(ext: string): MimeType | undefined;
  /** Registers a type; its symbol and `extensionSynonyms` become extensions, its string and `mimeTypeSynonyms` lookups. */
  register(string: string, symbol: string, mimeTypeSynonyms?: readonly string[], extensionSynonyms?: readonly string[]): MimeType;
  /** Registers a second symbol for an existing type string; `lookup(string)` keeps returning the original type. */
  register_alias(string: string, symbol: string, extensionSynonyms?: readonly string[]): MimeType;
  /** Rails 2.1's Accept parsing: types in preference order, unregistered ones kept as null-symbol types. */
  parse(acceptHeader: string): MimeType[];
  /**
   * What a request accepts, frozen and remembered per header: `parse(accept)`, or with no (or a blank) Accept
   * header the request's Content-Type type then `*\/*`.
   * @example mime.acceptList('text/html,*\/*;q=0.8', null).map(String) // ['text/html', '*\/*']
   */
  acceptList(accept: string | undefined, contentType: MimeType | null): readonly MimeType[];
  /** Every registered type, in registration order. */
  all(): MimeType[];
}

/** Rails 2.1's default types, in its registration order: [string, symbol, type synonyms, extension synonyms]. */
const DEFAULT_TYPES: readonly (readonly [string, string, readonly string[], readonly string[]])[] = [
  ['*/*', 'all', [], []],
  ['text/plain', 'text', [], ['txt']],
  ['text/html', 'html', ['application/xhtml+xml'], ['xhtml']],
  ['text/javascript', 'js', ['application/javascript', 'application/x-javascript'], []],
  ['text/css', 'css', [], []],
  ['text/calendar', 'ics', [], []],
  ['text/csv', 'csv', [], []],
  ['application/xml', 'xml', ['text/xml', 'application/x-xml'], []],
  ['application/rss+xml', 'rss', [], []],
  ['application/atom+xml', 'atom', [], []],
  ['application/x-yaml', 'yaml', ['text/yaml'], []],
  ['multipart/form-data', 'multipart_form', [], []],
  ['application/x-www-form-urlencoded', 'url_encoded_form', [], []],
  ['application/json', 'json', ['text/x-json'], []],
];

/**
 * A new registry holding Rails 2.1's default types (all, text, html, js, css, ics, csv,
 * xml, rss, atom, yaml, multipart_form, url_encoded_form, json).
 * @example createMimeRegistry().lookup('text/xml').symbol // 'xml'
 */
export function createMimeRegistry(): MimeRegistry {
  const registry = new Registry();
  for (const [string, symbol, synonyms, extensions] of DEFAULT_TYPES) registry.register(string, symbol, synonyms, extensions);
  return registry;
}

class Registry implements MimeRegistry {
  // Maps, not objects: type strings and extensions come from requests and must never hit a prototype.
  readonly #bySymbol = new Map<string, MimeType>();
  readonly #byString = new Map<string, MimeType>();
  readonly #byExtension = new Map<string, MimeType>();
  /**
   * Parsed Accept headers. Clients send the same few again and again (each browser one header per kind of
   * request), and parsing one costs more than the rest of negotiation; the odd ones flush it when it fills.
   */
  readonly #acceptLists = new Map<string, readonly MimeType[]>();
  /** With no Accept header, by Content-Type type: `[type, *\/*]`, or `[*\/*]` under the key null. */
  readonly #fallbackLists = new Map<MimeType | null, readonly MimeType[]>();

  get(symbol: string): MimeType | undefined {
    return this.#bySymbol.get(symbol);
  }

  lookup(typeString: string): MimeType {
    // Unregistered lookups are not cached: Rails' caching LOOKUP hash grew with every odd Accept header.
    return this.#byString.get(typeString) ?? new MimeType(typeString);
  }

  lookup_by_extension(ext: string): MimeType | undefined {
    return this.#byExtension.get(ext);
  }

  register(string: string, symbol: string, mimeTypeSynonyms: readonly string[] = [], extensionSynonyms: readonly string[] = []): MimeType {
    return this.#add(new MimeType(string, symbol, mimeTypeSynonyms), extensionSynonyms, true);
  }

  register_alias(string: string, symbol: string, extensionSynonyms: readonly string[] = []): MimeType {
    return this.#add(new MimeType(string, symbol), extensionSynonyms, false);
  }

  acceptList(accept: string | undefined, contentType: MimeType | null): readonly MimeType[] {
    if (accept !== undefined && accept.trim() !== '') {
      let list = this.#acceptLists.get(accept);
      if (list === undefined) {
        list = Object.freeze(this.parse(accept));
        if (this.#acceptLists.size >= ACCEPT_LISTS_KEPT) this.#acceptLists.clear();
        this.#acceptLists.set(accept, list);
      }
      return list;
    }
    // Only registered types are remembered: an unregistered Content-Type is a new object per lookup.
    const key = contentType !== null && contentType.symbol !== null ? contentType : null;
    let list = key === contentType ? this.#fallbackLists.get(key) : undefined;
    if (list === undefined) {
      list = Object.freeze(contentType === null ? [this.#bySymbol.get('all')!] : [contentType, this.#bySymbol.get('all')!]);
      if (key === contentType) this.#fallbackLists.set(key, list);
    }
    return list;
  }

  #add(type: MimeType, extensions: readonly string[], lookups: boolean): MimeType {
    // A new type changes what a header parses to.
    this.#acceptLists.clear();
    this.#fallbackLists.clear();
    this.#bySymbol.set(type.name, type);
    if (lookups) for (const s of [type.string, ...type.synonyms]) this.#byString.set(s, type);
    for (const ext of [type.name, ...extensions]) this.#byExtension.set(ext, type);
    return type;
  }

  parse(acceptHeader: string): MimeType[] {
    const header = acceptHeader.trim();
    if (header === '') return [];
    // Rails looks a comma-free header up whole, q-value and all.
    if (!header.includes(',')) return [this.lookup(header)];
    const seen = new Set<MimeType | string>();
    const types: MimeType[] = [];
    for (const name of orderAcceptItems(header)) {
      const type = this.lookup(name);
      // Registered types dedupe by identity (synonyms collapse); unregistered ones by string.
      const key = type.symbol === null ? type.string : type;
      if (!seen.has(key)) {
        seen.add(key);
        types.push(type);
      }
    }
    return types;
  }

  all(): MimeType[] {
    return [...new Set(this.#bySymbol.values())];
  }
}

/** How many distinct Accept headers a registry remembers before starting afresh. */
const ACCEPT_LISTS_KEPT = 256;

interface AcceptItem {
  name: string;
  q: number;
  order: number;
}

/** The media-range names of a multi-item Accept header, ordered as Rails 2.1 orders them (before lookup). */
function orderAcceptItems(header: string): string[] {
  const list: AcceptItem[] = [];
  header.split(',').forEach((item, order) => {
    const [params, q] = item.split(/;\s*q=/);
    const name = params.trim();
    if (name !== '') list.push({ name, order, q: qPercent(name, q) });
  });
  list.sort((a, b) => b.q - a.q || a.order - b.order);

  // Browsers of the day sent text/xml for XML; Rails folds it into application/xml.
  let appXml = list.findIndex((i) => i.name === 'application/xml');
  const textXml = list.findIndex((i) => i.name === 'text/xml');
  if (textXml !== -1 && appXml !== -1) {
    list[appXml].q = Math.max(list[textXml].q, list[appXml].q);
    if (appXml > textXml) {
      [list[appXml], list[textXml]] = [list[textXml], list[appXml]];
      list.splice(appXml, 1);
      appXml = textXml;
    } else {
      list.splice(textXml, 1);
    }
  } else if (textXml !== -1) {
    list[textXml].name = 'application/xml';
  }

  // More specific XML types (xhtml+xml, rss+xml...) go ahead of plain application/xml at the same q.
  if (appXml !== -1) {
    const appQ = list[appXml].q;
    for (let idx = appXml; idx < list.length && list[idx].q >= appQ; idx++) {
      if (list[idx].name.endsWith('+xml')) {
        [list[appXml], list[idx]] = [list[idx], list[appXml]];
        appXml = idx;
      }
    }
  }
  return list.map((i) => i.name);
}

/** Ruby's `(q.to_f * 100).to_i`: leading-number parse, truncated; `*\/*` without a q sorts last. */
function qPercent(name: string, q: string | undefined): number {
  // An empty q (`text/html;q=`) counts as absent: Ruby's split drops the trailing empty field.
  if (q === undefined || q === '') return name === '*/*' ? 0 : 100;
  const value = Number.parseFloat(q.trim());
  return Number.isFinite(value) ? Math.trunc(value * 100) : 0;
}
