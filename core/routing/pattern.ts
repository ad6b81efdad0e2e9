/**
 * A route's whole-path regular expression, built the way Rails 2.1 builds
 * it: from the last segment backwards, each optional piece wrapping
 * everything after it. The optional structure is tracked as data rather than
 * by re-parsing the pattern text, so nested optionals stay exact.
 *
 * Internal module: used by the reference recognizer and by the tree
 * recognizer for routes too irregular for its segment trie.
 */
import { MalformedPathError } from '../errors.ts';
import { escapeRegExp } from '../util.ts';
import { compileRequirement, countCaptures } from './requirement.ts';
import { escapePathComponent, unescapePathComponent } from './params.ts';
import { copyFixed, isFixedHash } from './fixed.ts';
import type { KeySegment, ParamHash, Params, Route, Segment } from './types.ts';

/** The default pattern of a dynamic segment: anything up to the next separator. */
export const DEFAULT_SEGMENT_SOURCE = '[^/.?]+';
/** Without a list of known controllers, a controller is one path component of word characters. */
export const DEFAULT_CONTROLLER_SOURCE = '[A-Za-z0-9_]+';

interface Piece {
  readonly src: string;
  /** When true the piece is `(?:src)?`; Rails' `unoptionalize` takes `src` back out. */
  readonly optional: boolean;
}

const render = (p: Piece): string => (p.optional ? (p.src === '' ? '' : `(?:${p.src})?`) : p.src);

/** Source matching one controller name from `controllers`, case-insensitively, as Rails does. */
export function controllerSource(segment: Extract<Segment, { type: 'controller' }>, controllers: readonly string[] | null): string {
  if (segment.requirement) return compileRequirement({ source: segment.requirement.source, flags: `${segment.requirement.flags}i` });
  if (controllers === null) return DEFAULT_CONTROLLER_SOURCE;
  if (controllers.length === 0) return '(?!)';
  return compileRequirement({ source: controllers.map(escapeRegExp).join('|'), flags: 'i' });
}

/** The inner source one key segment captures. */
export function segmentSource(segment: KeySegment, controllers: readonly string[] | null): string {
  switch (segment.type) {
    case 'controller': return controllerSource(segment, controllers);
    case 'glob': return segment.requirement ? compileRequirement(segment.requirement) : '.*';
    default: return segment.requirement ? compileRequirement(segment.requirement) : DEFAULT_SEGMENT_SOURCE;
  }
}

/** Builds the pattern of a run of segments (a whole route, or one `/`-separated group of it). */
export function buildPiece(segments: readonly Segment[], controllers: readonly string[] | null): Piece {
  let piece: Piece = { src: '', optional: false };
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i];
    if (s.type === 'static' || s.type === 'divider') {
      // A static word is matched as generation writes it and clients send it: percent-encoded (`café` is `caf%C3%A9`).
      const escaped = escapeRegExp(s.type === 'static' ? escapePathComponent(s.value) : s.value);
      if (s.optional && piece.src !== '') {
        const opt = s.value.length === 1 ? `${escaped}?` : `(?:${escaped})?`;
        piece = { src: `(?:${opt}$|${escaped}${piece.src})`, optional: false };
      } else if (s.optional) {
        piece = { src: escaped, optional: true };
      } else {
        piece = { src: escaped + render(piece), optional: false };
      }
    } else {
      piece = { src: `(${segmentSource(s, controllers)})${render(piece)}`, optional: s.optional };
    }
  }
  return piece;
}

/** One capture's place in a match: group number and the segment that fills it. */
export interface Capture {
  readonly group: number;
  readonly segment: KeySegment;
}

export interface CompiledPattern {
  readonly regexp: RegExp;
  readonly captures: readonly Capture[];
}

/** Compiles a route (or, with `asGroup`, one `/`-separated group of it) to an anchored RegExp and its capture map. */
export function compilePattern(segments: readonly Segment[], controllers: readonly string[] | null, asGroup = false): CompiledPattern {
  const piece = buildPiece(segments, controllers);
  const captures: Capture[] = [];
  let group = 1;
  for (const s of segments) {
    if (!('key' in s)) continue;
    captures.push({ group, segment: s });
    group += 1 + countCaptures(segmentSource(s, controllers));
  }
  // A group is only tried when present, so its own leading optional is taken out (Rails' unoptionalize).
  const src = asGroup ? piece.src : render(piece);
  return { regexp: new RegExp(`^${src}$`), captures };
}

/** Parameters a route puts in every recognition: its fixed requirements. */
export function parameterShell(route: Route): Params {
  const shell: Params = {};
  for (const key in route.requirements) {
    const req = route.requirements[key];
    if (typeof req === 'string' || typeof req === 'boolean' || req === null) shell[key] = req;
    // A list or hash is the route's own: each recognition gets a copy of it.
    else if (Array.isArray(req)) shell[key] = [...req];
    else if (isFixedHash(req)) shell[key] = copyFixed(req) as ParamHash;
  }
  return shell;
}

/** Ruby's `String#split('/')`: trailing empty strings dropped. */
export function splitGlob(text: string): string[] {
  const parts = text.split('/');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Decodes a captured value, turning a bad percent-escape into a 400-class error. */
export function decodeCapture(value: string, path: string): string {
  const decoded = unescapePathComponent(value);
  if (decoded === null) throw new MalformedPathError(path);
  return decoded;
}

/** Writes one segment's value (or its default when absent) into `params`, Rails-style. */
export function assignCapture(params: Params, segment: KeySegment, raw: string | undefined, path: string): void {
  switch (segment.type) {
    case 'controller':
      if (raw !== undefined) params.controller = raw.toLowerCase();
      else if (segment.default !== null) params.controller = segment.default;
      return;
    case 'glob':
      params[segment.key] = splitGlob(raw ?? '').map((p) => decodeCapture(p, path));
      return;
    default:
      if (raw !== undefined) params[segment.key] = decodeCapture(raw, path);
      else if (segment.default !== null) params[segment.key] = segment.default;
  }
}

/** Extracts parameters from a successful whole-path match. */
export function extractParams(route: Route, pattern: CompiledPattern, match: RegExpExecArray, path: string): Params {
  const params = parameterShell(route);
  for (const c of pattern.captures) assignCapture(params, c.segment, match[c.group], path);
  return params;
}
