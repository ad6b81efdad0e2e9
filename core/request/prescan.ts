/**
 * Counting pre-passes over JSON and XML bodies: one scan, in linear time,
 * that refuses a body as soon as it crosses a count or depth limit, before
 * any parser builds a tree of it. So a 1 MB body of 130,000 elements is
 * refused after reading its first thousand, at the cost of a body at the
 * limit. The parsers still check the limits exactly on what they build;
 * these scans only count what the text holds (duplicate JSON keys, for one,
 * count each time they appear), and leave malformed text to the parsers.
 * Internal to `core/request/`.
 */
import { ParamsParseError } from '../errors.ts';
import type { ResolvedParamLimits } from './limits.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * Throws the parser's own limit errors for JSON text whose nesting, member and element count, or array
 * length is over `limits`. Depth counts as the parameters will nest: a top-level array sits under `_json`.
 */
export function prescanJson(text: string, limits: ResolvedParamLimits): void {
  // One entry per open container: its element count (arrays) or -1 (objects).
  const open: number[] = [];
  let base = 0;
  let keys = 0;
  let expectingElement = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // Skip the string whole: nothing inside it is structure.
      if (expectingElement) keys = countElement(open, keys, limits);
      expectingElement = false;
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) break;
      }
      continue;
    }
    if (isBlank(code)) continue;
    if (code === COMMA) {
      expectingElement = open.length > 0 && open[open.length - 1] >= 0;
      continue;
    }
    if (code === COLON) {
      if (++keys > limits.keys) throw tooMany('Too many parameters in a JSON body', limits.keys);
      continue;
    }
    if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      open.pop();
      expectingElement = false;
      continue;
    }
    if (expectingElement) keys = countElement(open, keys, limits);
    expectingElement = false;
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (open.length === 0) base = code === OPEN_BRACKET ? 1 : 0;
      if (open.length + base > limits.depth) {
        throw new ParamsParseError('SBX_ERR_PARAMS_DEPTH', `JSON body nested too deeply: the limit is ${limits.depth} levels`);
      }
      open.push(code === OPEN_BRACKET ? 0 : -1);
      expectingElement = code === OPEN_BRACKET;
    }
  }
}

/** One more element in the innermost (array) container. */
function countElement(open: number[], keys: number, limits: ResolvedParamLimits): number {
  const last = open.length - 1;
  if (++open[last] > limits.arrayLength) throw tooMany('Too many elements in a JSON array', limits.arrayLength);
  if (keys + 1 > limits.keys) throw tooMany('Too many parameters in a JSON body', limits.keys);
  return keys + 1;
}

/**
 * Throws the XML reader's own limit errors for a document whose nesting, element and attribute count, or
 * run of same-named siblings is over `limits`. The root sits at depth 0 and is not itself a parameter.
 */
export function prescanXml(text: string, limits: ResolvedParamLimits): void {
  // Per open element, how many children of each name it has had so far (made at its first child).
  const open: (Map<string, number> | null)[] = [];
  let keys = 0;
  let at = 0;
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    if (lt < 0) return;
    const next = text.charCodeAt(lt + 1);
    if (text.startsWith('<!--', lt)) at = after(text, '-->', lt + 4);
    else if (text.startsWith('<![CDATA[', lt)) at = after(text, ']]>', lt + 9);
    else if (next === 0x21 /* ! */ || next === 0x3f /* ? */) at = after(text, '>', lt + 2);
    else if (next === 0x2f /* / */) {
      open.pop();
      at = after(text, '>', lt + 2);
    } else {
      let end = lt + 1;
      while (end < text.length && !isBlank(text.charCodeAt(end)) && text[end] !== '>' && text[end] !== '/') end++;
      const name = text.slice(lt + 1, end);
      let attributes = 0;
      let selfClosing = false;
      for (; end < text.length; end++) {
        const c = text[end];
        if (c === '"' || c === "'") {
          const close = text.indexOf(c, end + 1);
          end = close < 0 ? text.length : close;
        } else if (c === '=') attributes++;
        else if (c === '>') {
          selfClosing = text[end - 1] === '/';
          break;
        }
      }
      at = end + 1;
      const depth = open.length;
      if (depth > limits.depth) throw new ParamsParseError('SBX_ERR_PARAMS_DEPTH', `XML body nested too deeply: the limit is ${limits.depth} levels`);
      if (depth > 0) {
        keys++;
        sibling(open, name, limits);
      }
      keys += attributes;
      if (keys > limits.keys) throw tooMany('Too many elements in an XML body', limits.keys);
      if (!selfClosing) open.push(null);
    }
  }
}

/** Counts a child named `name` of the innermost open element. */
function sibling(open: (Map<string, number> | null)[], name: string, limits: ResolvedParamLimits): void {
  const last = open.length - 1;
  const seen = (open[last] ??= new Map());
  const count = (seen.get(name) ?? 0) + 1;
  if (count > limits.arrayLength) throw tooMany('Too many repeated XML elements', limits.arrayLength);
  seen.set(name, count);
}

/** The index just past the next `token` from `from`, or the end of the text. */
function after(text: string, token: string, from: number): number {
  const found = text.indexOf(token, from);
  return found < 0 ? text.length : found + token.length;
}

function tooMany(what: string, limit: number): ParamsParseError {
  return new ParamsParseError('SBX_ERR_PARAMS_COUNT', `${what}: the limit is ${limit}`);
}
