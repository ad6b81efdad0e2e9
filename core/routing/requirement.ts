/**
 * Route requirements as plain data: `{ source, flags }`. Users hand in JS
 * RegExps (or the same descriptor, which can also carry Ruby's `x` flag);
 * the table stores the descriptor so it prints and serialises, and the
 * matchers compile it to a flag-free source so one route's pattern can embed
 * a case-insensitive piece next to case-sensitive ones (JS has no inline
 * `(?i:...)` on Node 20).
 */
import { ArgumentError } from '../errors.ts';

export interface Requirement {
  readonly source: string;
  /** Subset of `i` (ignore case), `x` (extended: whitespace and `#` comments ignored), `s`, `u`. */
  readonly flags: string;
}

export type RequirementInput = RegExp | { readonly source: string; readonly flags?: string };

export function isRequirementInput(value: unknown): value is RequirementInput {
  return value instanceof RegExp || (typeof value === 'object' && value !== null && typeof (value as { source?: unknown }).source === 'string' && !Array.isArray(value));
}

/**
 * Normalises a requirement to frozen data. JS `m` (and Ruby `m`) is refused
 * as Rails refuses multiline requirements; `g`/`y` are dropped because they
 * make a RegExp stateful.
 */
export function toRequirement(input: RequirementInput): Requirement {
  // A RegExp's source and flags cannot change, nor can a frozen descriptor's: normalise each such input once.
  const stable = input instanceof RegExp || Object.isFrozen(input);
  if (stable) {
    const known = requirementByInput.get(input);
    if (known !== undefined) return known;
  }
  const flags = input instanceof RegExp ? input.flags : (input.flags ?? '');
  if (flags.includes('m')) {
    throw new ArgumentError(`Regexp multiline option not allowed in routing requirements: /${input.source}/${flags}`);
  }
  const kept = flags === '' ? '' : [...new Set(flags.split(''))].filter((f) => 'ixsu'.includes(f)).sort().join('');
  // Equal requirements share one frozen object (every member route carries the same `:id` pattern).
  const req = remember(requirements, `${kept}/${input.source}`, () => {
    const made = Object.freeze({ source: input.source, flags: kept });
    try {
      wholeValueRegExp(made);
    } catch (error) {
      if (error instanceof ArgumentError) throw error;
      throw new ArgumentError(`Invalid routing requirement /${input.source}/${flags}: ${(error as Error).message}`);
    }
    return made;
  });
  if (stable) requirementByInput.set(input, req);
  return req;
}

const requirements = new Map<string, Requirement>();
const requirementByInput = new WeakMap<object, Requirement>();

/**
 * True when the source is anchored (`^`, `\A`, `$`, `\Z`, `\z`), which a path segment cannot be. Ruby's line
 * anchors `^` and `$` and its `\Z`, written for JavaScript as `(?<![^\n])`, `(?![^\n])` and `(?=\n?$)`, are
 * anchors too: Rails refused a routes file's `/^\d+$/` whichever way it is spelled here.
 */
export function isAnchored(req: Requirement): boolean {
  return /^(\\A|\^|\(\?<!\[\^\\n\]\))|(\\Z|\\z|\$|\(\?!\[\^\\n\]\)|\(\?=\\n\?\$\))$/.test(req.source);
}

// Route tables repeat the same few requirements (every member route's `:id`); compile each once.
const compiledSources = new Map<string, string>();
const wholeValueRegExps = new Map<string, RegExp>();
const CACHE_LIMIT = 10_000;

function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}

/** Flag-free JS source equivalent to the requirement (case folded, extended syntax stripped). */
export function compileRequirement(req: Requirement): string {
  return derived(req).source;
}

interface Derived {
  readonly source: string;
  search: RegExp | null;
  whole: RegExp | null;
  slash: boolean | null;
}

// Requirements are interned and frozen (`toRequirement`), so most lookups hit this identity cache and build no
// key text; an unfrozen descriptor could still change, so it is looked up by its text every time.
const derivedByRequirement = new WeakMap<Requirement, Derived>();

function derived(req: Requirement): Derived {
  let d = derivedByRequirement.get(req);
  if (d === undefined) {
    const source = remember(compiledSources, `${req.flags}/${req.source}`, () => compileSource(req));
    d = { source, search: null, whole: null, slash: null };
    if (Object.isFrozen(req)) derivedByRequirement.set(req, d);
  }
  return d;
}

function compileSource(req: Requirement): string {
  if (req.flags.includes('i') && /\\(?:k<|[1-9]|[pP]\{)/.test(req.source)) {
    // Node 20 has no inline `(?i:...)`, so `i` is applied by spelling out both cases; a backreference or a
    // property escape cannot be spelled out that way, and would silently turn case-sensitive.
    throw new ArgumentError(`Routing requirement /${req.source}/${req.flags}: backreferences and \\p{...} escapes cannot be combined with the i flag`);
  }
  let source = req.source.replace(/\\A/g, '^').replace(/\\[Zz]/g, '$');
  if (req.flags.includes('x')) source = stripExtended(source);
  if (req.flags.includes('i')) source = foldCase(source);
  return source;
}

const searchRegExps = new Map<string, RegExp>();

/** The requirement as an unanchored RegExp (Rails' `regexp =~ text`). */
export function searchRegExp(req: Requirement): RegExp {
  const d = derived(req);
  return (d.search ??= remember(searchRegExps, `${req.flags}/${req.source}`, () => new RegExp(d.source, req.flags.includes('u') ? 'u' : '')));
}

/** The requirement as a RegExp that must match a whole value. */
export function wholeValueRegExp(req: Requirement): RegExp {
  // Shared instances are safe: these RegExps have no `g`/`y` flag, so they keep no state between tests.
  const d = derived(req);
  return (d.whole ??= remember(wholeValueRegExps, `${req.flags}/${req.source}`, () => new RegExp(`^(?:${d.source})$`, req.flags.includes('u') ? 'u' : '')));
}

/** `mayMatchSlash` of the requirement's compiled source, worked out once per requirement. */
export function requirementMayMatchSlash(req: Requirement): boolean {
  const d = derived(req);
  return (d.slash ??= mayMatchSlash(d.source));
}

/** Counts the capturing groups a source opens, so callers can index their own groups after it. */
export function countCaptures(source: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') { inClass = true; continue; }
    if (c === '(') {
      if (source[i + 1] !== '?') count++;
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') count++;
    }
  }
  return count;
}

/**
 * Conservative test of whether a source could ever match a `/`: the fast
 * recognizer splits paths on `/`, so only requirements that cannot cross a
 * slash may use it; the rest fall back to whole-path matching.
 */
export function mayMatchSlash(source: string): boolean {
  for (let i = 0; i < source.length; ) {
    const ch = source[i];
    if (ch === '\\') {
      const esc = readEscape(source, i);
      if (esc.code === SLASH || esc.wide) return true;
      i = esc.end;
      continue;
    }
    if (ch === '.' || ch === '/') return true;
    if (ch === '[') {
      const cls = readClass(source, i);
      const admitsSlash = cls.items.some((it) => it.wide || covers(it, SLASH));
      if (cls.negated ? !cls.items.some((it) => !it.wide && covers(it, SLASH)) : admitsSlash) return true;
      i = cls.end;
      continue;
    }
    i++;
  }
  return false;
}

const SLASH = 0x2f;

interface Escape {
  readonly text: string;
  readonly end: number;
  /** The character it stands for, when it stands for one. */
  readonly code: number | null;
  /** A class escape that admits punctuation such as `/` (`\W`, `\D`, `\S`, `\p{...}`). */
  readonly wide: boolean;
}

/** Reads the escape starting at `i` (which is a backslash). */
function readEscape(src: string, i: number): Escape {
  const n = src[i + 1] ?? '';
  const hex = (from: number, len: number) => {
    const digits = src.slice(from, from + len);
    return /^[0-9a-fA-F]+$/.test(digits) && digits.length === len ? parseInt(digits, 16) : null;
  };
  const simple = (code: number | null, len = 2, wide = false): Escape => ({ text: src.slice(i, i + len), end: i + len, code, wide });
  switch (n) {
    case 'x': {
      const code = hex(i + 2, 2);
      return code === null ? simple(0x78) : simple(code, 4);
    }
    case 'u': {
      if (src[i + 2] === '{') {
        const close = src.indexOf('}', i + 3);
        const code = close > 0 ? parseInt(src.slice(i + 3, close), 16) : NaN;
        return Number.isNaN(code) ? simple(0x75) : { text: src.slice(i, close + 1), end: close + 1, code, wide: false };
      }
      const code = hex(i + 2, 4);
      return code === null ? simple(0x75) : simple(code, 6);
    }
    case 'c': {
      const letter = src[i + 2];
      return letter && /[A-Za-z]/.test(letter) ? simple(letter.charCodeAt(0) % 32, 3) : simple(null);
    }
    case 'k': {
      const close = src[i + 2] === '<' ? src.indexOf('>', i + 3) : -1;
      return close > 0 ? { text: src.slice(i, close + 1), end: close + 1, code: null, wide: false } : simple(0x6b);
    }
    case 'p': case 'P': {
      const close = src[i + 2] === '{' ? src.indexOf('}', i + 3) : -1;
      return close > 0 ? { text: src.slice(i, close + 1), end: close + 1, code: null, wide: true } : simple(n.charCodeAt(0));
    }
    case 'W': case 'D': case 'S': return simple(null, 2, true);
    case 'w': case 'd': case 's': case 'b': case 'B': return simple(null);
    case 't': return simple(9);
    case 'n': return simple(10);
    case 'v': return simple(11);
    case 'f': return simple(12);
    case 'r': return simple(13);
    case '0': return /[0-9]/.test(src[i + 2] ?? '') ? simple(null) : simple(0);
    default:
      if (/[1-9]/.test(n)) {
        let end = i + 2;
        while (/[0-9]/.test(src[end] ?? '')) end++;
        return { text: src.slice(i, end), end, code: null, wide: false };
      }
      return n === '' ? { text: '\\', end: i + 1, code: 0x5c, wide: false } : simple(n.codePointAt(0)!, 1 + n.length);
  }
}

interface ClassItem {
  readonly lo: number | null;
  readonly hi: number | null;
  readonly wide: boolean;
}

function covers(item: ClassItem, code: number): boolean {
  return item.lo !== null && item.hi !== null && item.lo <= code && code <= item.hi;
}

/** Reads the character class starting at `open` (a `[`). */
function readClass(src: string, open: number): { negated: boolean; body: string; items: ClassItem[]; end: number } {
  let i = open + 1;
  const negated = src[i] === '^';
  if (negated) i++;
  const start = i;
  const items: ClassItem[] = [];
  const atom = (): { code: number | null; wide: boolean } => {
    if (src[i] === '\\') {
      const esc = readEscape(src, i);
      i = esc.end;
      return { code: esc.code, wide: esc.wide };
    }
    const code = src.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    return { code, wide: false };
  };
  // In JS a `]` closes the class even right after `[` (`[]` is the empty class).
  while (i < src.length && src[i] !== ']') {
    const first = atom();
    if (src[i] === '-' && src[i + 1] !== undefined && src[i + 1] !== ']') {
      i++;
      const second = atom();
      items.push({ lo: first.code, hi: second.code, wide: first.wide || second.wide || first.code === null || second.code === null });
    } else {
      items.push({ lo: first.code, hi: first.code, wide: first.wide });
    }
  }
  return { negated, body: src.slice(start, i), items, end: i + 1 };
}

// Ruby's /x: unescaped whitespace and `#...` comments outside classes are not part of the pattern.
function stripExtended(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') { out += c + (source[i + 1] ?? ''); i++; continue; }
    if (inClass) { if (c === ']') inClass = false; out += c; continue; }
    if (c === '[') { inClass = true; out += c; continue; }
    if (/\s/.test(c)) continue;
    if (c === '#') { while (i < source.length && source[i] !== '\n') i++; continue; }
    out += c;
  }
  return out;
}

// Case folding by rewriting letters: `a` -> `[aA]`, an escaped letter likewise, and classes gain the other case
// of every letter (and letter range) they hold. Escapes that stand for no single character are kept as written.
function foldCase(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; ) {
    const ch = source[i];
    if (ch === '\\') {
      const esc = readEscape(source, i);
      out += esc.code !== null && isAsciiLetter(esc.code) ? bothCases(esc.code) : esc.text;
      i = esc.end;
      continue;
    }
    if (ch === '[') {
      const cls = readClass(source, i);
      out += `[${cls.negated ? '^' : ''}${cls.body}${otherCases(cls.items)}]`;
      i = cls.end;
      continue;
    }
    if (ch === '(' && source.startsWith('(?<', i) && source[i + 3] !== '=' && source[i + 3] !== '!') {
      // Keep group names as written.
      const close = source.indexOf('>', i);
      out += source.slice(i, close + 1);
      i = close + 1;
      continue;
    }
    const code = source.charCodeAt(i);
    out += isAsciiLetter(code) ? bothCases(code) : ch;
    i++;
  }
  return out;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function bothCases(code: number): string {
  const c = String.fromCharCode(code);
  return `[${c.toLowerCase()}${c.toUpperCase()}]`;
}

const hex4 = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;

/** Class members adding the other case of every ASCII letter the items cover. */
function otherCases(items: readonly ClassItem[]): string {
  let extra = '';
  for (const it of items) {
    if (it.lo === null || it.hi === null) continue;
    for (const [from, to, shift] of [[65, 90, 32], [97, 122, -32]] as const) {
      const lo = Math.max(it.lo, from);
      const hi = Math.min(it.hi, to);
      if (lo <= hi) extra += lo === hi ? hex4(lo + shift) : `${hex4(lo + shift)}-${hex4(hi + shift)}`;
    }
  }
  return extra;
}
