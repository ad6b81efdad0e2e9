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

function dasherize(name: string): string {
  return name.replace(/_/g, '-');
}

function attributesOf(value: object): Record<string, unknown> {
  const attrs = (value as { attributes?: unknown }).attributes;
  if (attrs && typeof attrs === 'object' && !Array.isArray(attrs)) return attrs as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'function') out[k] = v;
  return out;
}

function element(name: string, value: unknown, indent: string): string {
  const tag = dasherize(name);
  if (value === null || value === undefined) return `${indent}<${tag} nil="true"></${tag}>\n`;
  if (typeof value === 'number') return `${indent}<${tag} type="${Number.isInteger(value) ? 'integer' : 'float'}">${value}</${tag}>\n`;
  if (typeof value === 'boolean') return `${indent}<${tag} type="boolean">${value}</${tag}>\n`;
  if (value instanceof Date) return `${indent}<${tag} type="datetime">${value.toISOString()}</${tag}>\n`;
  if (Array.isArray(value)) {
    const child = inflector.singular(name);
    return `${indent}<${tag} type="array">\n${value.map((v) => element(modelRoot(v, child), v, `${indent}  `)).join('')}${indent}</${tag}>\n`;
  }
  if (typeof value === 'object') {
    const inner = Object.entries(attributesOf(value)).map(([k, v]) => element(k, v, `${indent}  `)).join('');
    return `${indent}<${tag}>\n${inner}${indent}</${tag}>\n`;
  }
  return `${indent}<${tag}>${escape(value)}</${tag}>\n`;
}

/**
 * An XML document for a record, a hash or an array of them.
 * @example toXml({ id: 1, title: 'Hi' }, 'post') // <post><id type="integer">1</id><title>Hi</title></post>
 */
export function toXml(value: unknown, root?: string): string {
  const custom = (value as { to_xml?: unknown } | null)?.to_xml;
  if (typeof custom === 'function') return String(custom.call(value));
  const name = root ?? (Array.isArray(value) ? inflector.plural(value.length > 0 ? modelRoot(value[0], 'record') : 'record') : modelRoot(value, 'hash'));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(name, value, '')}`;
}
