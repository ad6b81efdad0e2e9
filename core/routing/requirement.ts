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
  const flags = input instanceof RegExp ? input.flags : (input.flags ?? '');
  if (flags.includes('m')) {
    throw new ArgumentError(`Regexp multiline option not allowed in routing requirements: /${input.source}/${flags}`);
  }
  const kept = flags === '' ? '' : [...new Set(flags.split(''))].filter((f) => 'ixsu'.includes(f)).sort().join('');
  // Equal requirements share one frozen object (every member route carries the same `:id` pattern).
  return remember(requirements, `${kept}/${input.source}`, () => Object.freeze({ source: input.source, flags: kept }));
}

const requirements = new Map<string, Requirement>();

/** True when the source is anchored (`^`, `\A`, `$`, `\Z`, `\z`), which a path segment cannot be. */
export function isAnchored(req: Requirement): boolean {
  return /^(\\A|\^)|(\\Z|\\z|\$)$/.test(req.source);
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
  return remember(compiledSources, `${req.flags}/${req.source}`, () => compileSource(req));
}

function compileSource(req: Requirement): string {
  let source = req.source.replace(/\\A/g, '^').replace(/\\[Zz]/g, '$');
  if (req.flags.includes('x')) source = stripExtended(source);
  if (req.flags.includes('i')) source = foldCase(source);
  return source;
}

const searchRegExps = new Map<string, RegExp>();

/** The requirement as an unanchored RegExp (Rails' `regexp =~ text`). */
export function searchRegExp(req: Requirement): RegExp {
  return remember(searchRegExps, `${req.flags}/${req.source}`, () => new RegExp(compileRequirement(req), req.flags.includes('u') ? 'u' : ''));
}

/** The requirement as a RegExp that must match a whole value. */
export function wholeValueRegExp(req: Requirement): RegExp {
  // Shared instances are safe: these RegExps have no `g`/`y` flag, so they keep no state between tests.
  return remember(wholeValueRegExps, `${req.flags}/${req.source}`, () => new RegExp(`^(?:${compileRequirement(req)})$`, req.flags.includes('u') ? 'u' : ''));
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
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      // \W \D \S \B-free classes and an escaped slash all admit '/'.
      if (n === 'W' || n === 'D' || n === 'S' || n === '/' || n === 'p' || n === 'P' || n === 'u' || n === 'x' || n === 'c' || n === '0') return true;
      i++;
      continue;
    }
    if (c === '.' || c === '/') return true;
    if (c === '[') {
      const end = classEnd(source, i);
      const body = source.slice(i + 1, end);
      if (body.startsWith('^') ? !classBodyHasSlash(body.slice(1)) : classBodyHasSlash(body)) return true;
      i = end;
    }
  }
  return false;
}

function classEnd(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') { i++; continue; }
    if (source[i] === ']' && i > open + 1) return i;
  }
  return source.length;
}

function classBodyHasSlash(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      const n = body[i + 1];
      if (n === '/' || n === 'W' || n === 'D' || n === 'S') return true;
      i++;
      continue;
    }
    if (body[i] === '/') return true;
    // A range spanning '/' (0x2F), e.g. `!-~`.
    if (body[i + 1] === '-' && i + 2 < body.length) {
      const lo = body.charCodeAt(i);
      const hi = body.charCodeAt(i + 2);
      if (lo <= 0x2f && hi >= 0x2f) return true;
      i += 2;
    }
  }
  return false;
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

// Case folding by rewriting letters: `a` -> `[aA]`, and letters inside classes gain their other case.
function foldCase(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '[') {
      const end = classEnd(source, i);
      out += foldClass(source.slice(i, end + 1));
      i = end;
      continue;
    }
    if (c === '(' && source[i + 1] === '?' && source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
      // Keep group names as written.
      const close = source.indexOf('>', i);
      out += source.slice(i, close + 1);
      i = close;
      continue;
    }
    const lower = c.toLowerCase();
    const upper = c.toUpperCase();
    out += lower !== upper ? `[${lower}${upper}]` : c;
  }
  return out;
}

function foldClass(cls: string): string {
  const negated = cls[1] === '^';
  const body = cls.slice(negated ? 2 : 1, -1);
  let extra = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') { i++; continue; }
    if (body[i + 1] === '-' && i + 2 < body.length && body[i + 2] !== '\\') {
      const lo = body[i];
      const hi = body[i + 2];
      if (/[a-z]/.test(lo) && /[a-z]/.test(hi)) extra += `${lo.toUpperCase()}-${hi.toUpperCase()}`;
      else if (/[A-Z]/.test(lo) && /[A-Z]/.test(hi)) extra += `${lo.toLowerCase()}-${hi.toLowerCase()}`;
      i += 2;
      continue;
    }
    const lower = c.toLowerCase();
    const upper = c.toUpperCase();
    if (lower !== upper) extra += c === lower ? upper : lower;
  }
  return `[${negated ? '^' : ''}${body}${extra}]`;
}
