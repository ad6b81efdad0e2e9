/**
 * XML request bodies as Rails 2.1's `Hash.from_xml` reads them: the root
 * element is the top key, attributes sit beside child elements as strings,
 * dashes in names become underscores, repeated elements become arrays, and a
 * `type` attribute casts the text (integer, float, boolean, date, datetime,
 * base64Binary, file, array). YAML and symbol types stay plain strings: they
 * are how Rails-era XML parsing was exploited (CVE-2013-0156).
 */
import { createRequire } from 'node:module';
import type * as FastXml from 'fast-xml-parser';
import { BodyParseError, ParamsParseError, PayloadTooLarge } from '../errors.ts';
import { prescanXml } from './prescan.ts';
import { resolveParamLimits, type ParamLimits, type ResolvedParamLimits } from './limits.ts';
import { UploadedFile, bytesToText, isUnsafeKey, originalFilename, ownParam, setParam, type ParamObject, type ParamValue, type Params } from './param-values.ts';

/** XmlSimple's intermediate shape: text under `__content__`, repeated names as arrays. */
type Simple = string | SimpleHash | Simple[];
type SimpleHash = Map<string, Simple>;
/** fast-xml-parser's ordered output: an element is `{ name: children, ':@': attributes }`, text is `{ '#text': s }`. */
type OrderedNode = Record<string, unknown>;

const CONTENT = '__content__';

// Loaded with the first XML body, not with the app: most apps never receive one, and the parser is
// some forty modules (about 10 MB of a process's memory).
const requireHere = createRequire(import.meta.url);
let fastXml: typeof FastXml | null = null;
const xml = (): typeof FastXml => (fastXml ??= requireHere('fast-xml-parser') as typeof FastXml);

/**
 * Parameters of an XML body; an empty body is `{}`. Malformed XML, DOCTYPE declarations
 * and bad typed values are a 400 `BodyParseError`.
 * @example parseXmlParams('<data><a type="integer">15</a></data>') // { data: { a: 15 } }
 */
export function parseXmlParams(body: string, limits?: ParamLimits): Params {
  const resolved = resolveParamLimits(limits);
  if (body.length * 3 > resolved.bodyBytes && Buffer.byteLength(body) > resolved.bodyBytes) {
    throw new PayloadTooLarge('bodyBytes', resolved.bodyBytes);
  }
  if (body.trim() === '') return {};
  // No DTDs, so no entity definitions to expand: only XML's five entities and character references.
  if (/<!DOCTYPE/i.test(body)) throw xmlError('DOCTYPE declarations are not accepted');
  // Over a count or depth limit: refused where the count is crossed, before validating or building a tree.
  prescanXml(body, resolved);
  const valid = xml().XMLValidator.validate(body);
  if (valid !== true) throw xmlError(`${valid.err.msg} (line ${valid.err.line})`);

  const roots = parseTree(body, resolved).filter((node) => !('#text' in node));
  if (roots.length !== 1) throw xmlError('an XML body needs exactly one root element');
  const reader = new SimpleReader(resolved);
  const [name, hash] = reader.element(roots[0], 0);
  const params: Params = {};
  if (!isUnsafeKey(name)) setParam(params, name, typecast(hash));
  return params;
}

function parseTree(body: string, limits: ResolvedParamLimits): OrderedNode[] {
  const parser = new (xml().XMLParser)({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // Character references (&#65;) decode only with this on; it also accepts HTML's named entities (&nbsp;).
    htmlEntities: true,
    // Names like toString are data here (setParam writes them safely); keep them rather than renamed.
    onDangerousProperty: (name: string) => name,
    // An early stop for absurd nesting, before the tree is built; the exact depth is checked when reading it.
    maxNestedTags: limits.depth + 2,
  });
  try {
    return parser.parse(body) as OrderedNode[];
  } catch (error) {
    const message = (error as Error).message;
    if (/nested tags/i.test(message)) throw tooDeep(limits);
    throw xmlError(message);
  }
}

/** Turns fast-xml-parser's ordered tree into XmlSimple's shape, counting keys and array lengths. */
class SimpleReader {
  readonly #limits: ResolvedParamLimits;
  #count = 0;

  constructor(limits: ResolvedParamLimits) {
    this.#limits = limits;
  }

  /** An element node at `depth` (the root is 0) as `[underscored name, hash of attributes, children and text]`. */
  element(node: OrderedNode, depth: number): [string, SimpleHash] {
    if (depth > this.#limits.depth) throw tooDeep(this.#limits);
    const tag = Object.keys(node).find((k) => k !== ':@') as string;
    const hash: SimpleHash = new Map();
    const attributes = (node[':@'] ?? {}) as Record<string, string>;
    for (const [name, value] of Object.entries(attributes)) this.#add(hash, name, value);
    let text = '';
    for (const child of node[tag] as OrderedNode[]) {
      if ('#text' in child) text += String(child['#text']);
      else this.#add(hash, ...this.element(child, depth + 1));
    }
    // XmlSimple ignores whitespace-only text, so indentation between elements is not content.
    if (/\S/.test(text)) this.#add(hash, CONTENT, text);
    return [tag.replaceAll('-', '_'), hash];
  }

  #add(hash: SimpleHash, rawName: string, value: Simple): void {
    const name = rawName.replaceAll('-', '_');
    if (isUnsafeKey(name)) return;
    // An element and its text are one parameter, so only names count.
    if (name !== CONTENT && ++this.#count > this.#limits.keys) {
      throw new ParamsParseError('SBX_ERR_PARAMS_COUNT', `Too many elements in an XML body: the limit is ${this.#limits.keys}`);
    }
    const existing = hash.get(name);
    if (existing === undefined) {
      hash.set(name, value);
    } else if (Array.isArray(existing)) {
      if (existing.length >= this.#limits.arrayLength) {
        throw new ParamsParseError('SBX_ERR_PARAMS_COUNT', `Too many repeated XML elements: the limit is ${this.#limits.arrayLength}`);
      }
      existing.push(value);
    } else {
      hash.set(name, [existing, value]);
    }
  }
}

/** Rails 2.1's `typecast_xml_value`. */
function typecast(value: Simple): ParamValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const values = value.map(typecast);
    return values.length === 0 ? null : values.length === 1 ? values[0] : values;
  }
  const type = value.get('type');
  if (type === 'array') return typecastArray(value);
  const content = value.get(CONTENT);
  if (content !== undefined) return castContent(typeof type === 'string' ? type : undefined, textOf(content), value);
  if (type === 'string' && value.get('nil') !== 'true') return '';
  if (value.size === 0 || value.get('nil') === 'true') return null;
  // A lone type attribute (but not a <type> element) is no value either.
  if (type !== undefined && !(type instanceof Map) && value.size === 1) return null;
  const hash: ParamObject = {};
  for (const [key, child] of value) setParam(hash, key, typecast(child));
  // `{ file: <upload> }` collapses to the upload, the shape multipart gives.
  const file = ownParam(hash, 'file');
  return file instanceof UploadedFile ? file : hash;
}

/** `type="array"`: the values of the first child element name; any text makes it empty (as in Rails). */
function typecastArray(value: SimpleHash): ParamValue {
  if (value.has(CONTENT)) return [];
  for (const [key, entries] of value) {
    if (key === 'type') continue;
    if (Array.isArray(entries)) return entries.map(typecast);
    if (entries instanceof Map) return [typecast(entries)];
    throw xmlError(`cannot read an array from the ${JSON.stringify(key)} attribute`);
  }
  return [];
}

function textOf(content: Simple): string {
  return typeof content === 'string' ? content : Array.isArray(content) ? content.filter((c) => typeof c === 'string').join('') : '';
}

/** Rails' XML_PARSING table, minus YAML loading and symbols. */
function castContent(type: string | undefined, content: string, element: SimpleHash): ParamValue {
  switch (type) {
    case 'integer': {
      const digits = /^\s*([+-]?\d[\d_]*)/.exec(content);
      return digits ? Number(digits[1].replaceAll('_', '')) : 0;
    }
    case 'float':
    case 'double':
    case 'decimal': {
      const number = Number.parseFloat(content);
      return Number.isFinite(number) ? number : 0;
    }
    case 'boolean':
      return ['1', 'true'].includes(content.trim());
    case 'date':
      return castDate(content);
    case 'datetime':
    case 'dateTime':
      return castTime(content);
    case 'base64Binary':
      return bytesToText(Buffer.from(content, 'base64'));
    case 'file': {
      const name = element.get('name');
      const contentType = element.get('content_type');
      return new UploadedFile(
        Buffer.from(content, 'base64'),
        typeof name === 'string' ? originalFilename(name) : '',
        typeof contentType === 'string' ? contentType : null,
      );
    }
    default:
      return content;
  }
}

/** A `date` value: midnight UTC of an ISO `YYYY-MM-DD` day. */
function castDate(content: string): Date {
  const match = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(content);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return date;
  }
  throw xmlError(`invalid date ${JSON.stringify(content.slice(0, 40))}`);
}

/** A `datetime` value: ISO 8601, read as UTC when it names no zone (Rails used the server's zone). */
function castTime(content: string): Date {
  const text = content.trim();
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (iso) {
    const time = Date.parse(iso[1] === undefined ? `${text}Z` : text);
    if (!Number.isNaN(time)) return new Date(time);
  }
  throw xmlError(`invalid datetime ${JSON.stringify(text.slice(0, 40))}`);
}

function tooDeep(limits: ResolvedParamLimits): ParamsParseError {
  return new ParamsParseError('SBX_ERR_PARAMS_DEPTH', `XML body nested too deeply: the limit is ${limits.depth} levels`);
}

function xmlError(detail: string): BodyParseError {
  return new BodyParseError('SBX_ERR_XML_PARSE', `Invalid XML body: ${detail}`);
}
