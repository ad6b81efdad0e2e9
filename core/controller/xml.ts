/**
 * `render({ xml: value })` for values without their own `to_xml()`: Rails'
 * `to_xml` shape, with dasherized element names, `type` attributes for
 * non-strings, `nil="true"` for null, and `type="array"` collections.
 */
import { createInflector, underscore } from '../routing/inflector.ts';
import { escape } from '../views/html.ts';

const inflector = createInflector();

function modelRoot(value: unknown, fallback: string): string {
  if (value === null || typeof value !== 'object') return fallback;
  const ctor = (value as { constructor?: { model_name?: unknown; name?: string } }).constructor;
  const name = ctor?.model_name ?? ctor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? underscore(name).replace(/\//g, '_') : fallback;
}

/** Names as Rails writes them, most of them already XML names: `created_at` -> `created-at`. */
const PLAIN_NAME = /^[A-Za-z_][\w.-]*$/;

/**
 * An element name for a key, dasherized: one that could not be an XML name (a key from the request can
 * be `a><admin>` or `1st place`) has each character no name may hold replaced by `_`, and a `_` in front
 * when it would not start one, so the document stays well-formed and no key can write markup.
 */
function tagName(name: string): string {
  const dashed = name.replace(/_/g, '-');
  if (PLAIN_NAME.test(dashed)) return dashed;
  const safe = dashed.replace(/[^\p{L}\p{N}_.-]/gu, '_');
  return /^[\p{L}_]/u.test(safe) ? safe : `_${safe}`;
}

function attributesOf(value: object): Record<string, unknown> {
  const attrs = (value as { attributes?: unknown }).attributes;
  if (attrs && typeof attrs === 'object' && !Array.isArray(attrs)) return attrs as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'function') out[k] = v;
  return out;
}

/**
 * One element and what it holds. `within` is the objects being written around it, outermost first, with
 * their names: a value that contains itself is a clear error naming where, not a stack overflow.
 */
function element(name: string, value: unknown, indent: string, within: Within): string {
  const tag = tagName(name);
  if (value === null || value === undefined) return `${indent}<${tag} nil="true"></${tag}>\n`;
  if (typeof value === 'number') return `${indent}<${tag} type="${Number.isInteger(value) ? 'integer' : 'float'}">${value}</${tag}>\n`;
  if (typeof value === 'bigint') return `${indent}<${tag} type="integer">${value}</${tag}>\n`;
  if (typeof value === 'boolean') return `${indent}<${tag} type="boolean">${value}</${tag}>\n`;
  if (value instanceof Date) {
    // An invalid Date has no time to write (JSON writes it as null).
    if (Number.isNaN(value.getTime())) return `${indent}<${tag} type="datetime" nil="true"></${tag}>\n`;
    return `${indent}<${tag} type="datetime">${value.toISOString()}</${tag}>\n`;
  }
  if (typeof value === 'object') {
    const again = within.open.get(value);
    if (again !== undefined) {
      const path = [...within.names, name].join(' > ');
      throw new TypeError(`toXml cannot write a value that contains itself: ${path} is ${again} again`);
    }
    within.open.set(value, name);
    within.names.push(name);
    let out: string;
    if (Array.isArray(value)) {
      const child = inflector.singular(name);
      out = `${indent}<${tag} type="array">\n${value.map((v) => element(modelRoot(v, child), v, `${indent}  `, within)).join('')}${indent}</${tag}>\n`;
    } else {
      const inner = Object.entries(attributesOf(value)).map(([k, v]) => element(k, v, `${indent}  `, within)).join('');
      out = `${indent}<${tag}>\n${inner}${indent}</${tag}>\n`;
    }
    within.open.delete(value);
    within.names.pop();
    return out;
  }
  return `${indent}<${tag}>${xmlText(escape(value))}</${tag}>\n`;
}

/** Characters XML 1.0 cannot hold at all, escaped or not: most C0 controls, U+FFFE/U+FFFF, lone surrogates. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as an XML document may hold it: each character XML cannot carry becomes `*`, as Rails' Builder
 * writes it, so one stored value with a stray control character cannot make the document unreadable.
 */
function xmlText(text: string): string {
  NOT_XML.lastIndex = 0;
  return NOT_XML.test(text) ? text.replace(NOT_XML, '*') : text;
}

/** The objects an element is written inside, and their names: the path from the root. */
interface Within {
  /** Each object being written, with its element's name. */
  readonly open: Map<object, string>;
  /** Those names in order, outermost first: the path to the element being written. */
  readonly names: string[];
}

/**
 * An XML document for a record, a hash or an array of them.
 * @example toXml({ id: 1, title: 'Hi' }, 'post') // <post><id type="integer">1</id><title>Hi</title></post>
 */
export function toXml(value: unknown, root?: string): string {
  const custom = (value as { to_xml?: unknown } | null)?.to_xml;
  if (typeof custom === 'function') return String(custom.call(value));
  const name = root ?? (Array.isArray(value) ? inflector.plural(value.length > 0 ? modelRoot(value[0], 'record') : 'record') : modelRoot(value, 'hash'));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(name, value, '', { open: new Map(), names: [] })}`;
}
