/**
 * The bad-input corpus (format in tests/security/data/README.md): loading it,
 * expanding `generate` fields, substituting the placeholders, and the
 * variants an entry's `expect` asks to "also try".
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type Headers = [name: string, value: string][];

export interface HttpInput {
  method: string;
  path: string;
  query?: string;
  headers?: Record<string, string | string[]>;
  body?: string;
  base64?: string;
}

export interface Generate {
  field: string;
  prefix?: string;
  repeat?: string;
  times?: number;
  suffix?: string;
  per_request_unique?: boolean;
  note?: string;
}

export interface Entry {
  id: string;
  source: string;
  surface: string;
  input: any;
  expect: string;
  generate?: Generate | Generate[];
  note?: string;
}

export const CORPUS_PATH = resolve(process.env.SIGNALBOX_BAD_INPUTS ?? resolve(import.meta.dirname, '../data/bad-inputs.json'));

export function loadCorpus(path = CORPUS_PATH): Entry[] {
  const entries = JSON.parse(readFileSync(path, 'utf8')) as Entry[];
  if (!Array.isArray(entries)) throw new Error(`${path}: expected a JSON array of entries`);
  return entries;
}

export interface Placeholders {
  session_key: string;
  valid_session: string;
  csrf_token: string;
  host: string;
  ws_path: string;
  base64_valid_credentials: string;
}

/** Replaces `{{name}}` everywhere in a JSON-shaped value; unknown names are left for the caller to notice (`unknownPlaceholders`). */
export function substitute<T>(value: T, names: Placeholders & { rand?: string }): T {
  if (typeof value === 'string') {
    return value.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (Object.hasOwn(names, name) ? names[name as keyof Placeholders] : whole)) as T;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, names)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[substitute(k, names)] = substitute(v, names);
    return out as T;
  }
  return value;
}

/** Placeholders left in a substituted value that the runner does not know (`{{rand}}` is filled per request). */
export function unknownPlaceholders(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      // `{{rand}}` is filled per request, `{{i}}` numbers generated header lines.
      for (const m of v.matchAll(/\{\{(\w+)\}\}/g)) if (m[1] !== 'rand' && m[1] !== 'i') found.add(m[0]);
    } else if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        walk(k);
        walk(x);
      }
    }
  };
  walk(value);
  return [...found];
}

/** The pieces of a `generate` list, as field → text (pieces naming one field are concatenated in order). */
function generatedText(generate: Generate[]): Map<string, Generate[]> {
  const byField = new Map<string, Generate[]>();
  for (const g of generate) {
    if (g.per_request_unique) continue;
    byField.set(g.field, [...(byField.get(g.field) ?? []), g]);
  }
  return byField;
}

function expand(g: Generate): string {
  return (g.prefix ?? '') + (g.repeat ?? '').repeat(g.times ?? 0) + (g.suffix ?? '');
}

/**
 * The input with generated fields written in. `headers` fields become header lines placed
 * before the entry's own headers (each `{{i}}` numbered); other fields are dotted paths.
 */
export function applyGenerate(entry: Entry): { input: any; repeat: { times: number; field: string } | null } {
  const list = entry.generate === undefined ? [] : Array.isArray(entry.generate) ? entry.generate : [entry.generate];
  const input = structuredClone(entry.input);
  for (const [field, pieces] of generatedText(list)) {
    if (field === 'headers' || field.endsWith('.headers')) {
      const target = field === 'headers' ? input : getPath(input, field.slice(0, -'.headers'.length));
      const lines: Headers = [];
      for (const g of pieces) {
        for (let i = 0; i < (g.times ?? 0); i++) lines.push(headerLine((g.repeat ?? '').replaceAll('{{i}}', String(i)), i));
      }
      target.headers = [...lines, ...Object.entries(target.headers ?? {})];
      continue;
    }
    setPath(input, field, pieces.map(expand).join(''));
  }
  const unique = list.find((g) => g.per_request_unique);
  return { input, repeat: unique ? { times: unique.times ?? 1, field: unique.field } : null };
}

// Header names a generator describes rather than spells (`<2-char token header>`): distinct tokens.
const TOKEN = "!#$%&'*+-.0123456789abcdefghijklmnopqrstuvwxyz^_`|~";

function headerLine(text: string, i: number): [string, string] {
  const colon = text.indexOf(':');
  let name = text.slice(0, colon).trim();
  if (name.startsWith('<')) name = TOKEN[Math.floor(i / TOKEN.length) % TOKEN.length] + TOKEN[i % TOKEN.length];
  return [name, text.slice(colon + 1).trim()];
}

function pathParts(path: string): (string | number)[] {
  return path.split('.').flatMap((part) => {
    const m = /^(\w+)\[(\d+)\]$/.exec(part);
    return m ? [m[1], Number(m[2])] : [part];
  });
}

function getPath(target: any, path: string): any {
  if (path === '') return target;
  return pathParts(path).reduce((node, key) => node[key], target);
}

function setPath(target: any, path: string, value: string): void {
  const parts = pathParts(path);
  const last = parts.pop()!;
  getPath(target, parts.map(String).join('.'))[last] = value;
}

/**
 * The expectation with "same as <id>" followed: the named entry's expectation is
 * added to this one's, when the corpus holds it (a partial copy of a corpus may not).
 * @example expectationOf({ expect: 'same as a-1; no 500' }, [{ id: 'a-1', expect: 'empty session' }]) // 'same as a-1 (empty session); no 500'
 */
export function expectationOf(entry: Pick<Entry, 'expect'>, corpus: readonly Pick<Entry, 'id' | 'expect'>[]): string {
  // "same as <id>", "as for <id>", "like <id>": only an id the corpus holds is followed.
  return entry.expect.replace(/\b(?:same as|as for|as with|like|identical to) ([\w-]+)/gi, (whole, id: string) => {
    const named = corpus.find((e) => e.id === id && e.expect !== entry.expect);
    return named ? `${whole} (${named.expect.replace(/\b(?:same as|as for|as with|like|identical to) [\w-]+/gi, '')})` : whole;
  });
}

/** A fresh random token for `{{rand}}`. */
export function randomToken(): string {
  return randomBytes(6).toString('hex');
}

/**
 * The alternative values an expectation asks to "also try" or "repeat with": quoted
 * strings, or `.name` suffixes.
 * @example variants('empty session; also try values "x", "x--"') // ['x', 'x--']
 */
export function variants(expect: string): string[] {
  // "also try", "try also", "repeat with", "same for", "likewise (for)", with or without "values" and a colon.
  const clause = /(?:also try|try also|repeat with|same for|likewise(?: for| with)?)(?: values)?:?\s+([^;)]*)/i.exec(expect);
  if (!clause) return [];
  const quoted = [...clause[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  if (quoted.length > 0) return quoted;
  return [...clause[1].matchAll(/(\.[\w$]+)/g)].map((m) => m[1]);
}
