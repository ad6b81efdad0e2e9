/**
 * Positional generation compiled per route: `post_comment_path(1, 2)` with
 * every segment key given needs none of generation's hash machinery (no
 * recall can apply, nothing expires, nothing spills into the query string),
 * so each eligible route gets a straight-line function that checks and
 * escapes its values and concatenates the path. It returns null whenever a
 * value is refused, and the caller then takes the general path, which gives
 * the same answer or the error; a property test holds the two to agreement.
 *
 * Keys and literal text are embedded with `JSON.stringify` only; values
 * never become code.
 */
import { functionFromSource } from '../generated-code.ts';
import type { GenRoute } from './gen-route.ts';
import { compileRequirement } from './requirement.ts';
import { escapePathComponent, toParam } from './params.ts';
import { DEFAULT_SEGMENT_SOURCE } from './pattern.ts';

export interface FastGenerator {
  readonly arity: number;
  /** The path for one value per segment key (in `segment_keys` order), or null to defer to general generation. */
  readonly generate: (values: readonly unknown[]) => string | null;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value === false) return null;
  return toParam(value);
}

// The default `[^/.?]+` requirement, without a RegExp.
function plain(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 47 || c === 46 || c === 63) return false;
  }
  return true;
}

/** One piece of a fast path: literal text (already escaped), or the value at `arity`, checked by `check`. */
type Piece = string | { readonly arity: number; readonly check: 'plain' | RegExp | null };

/** Compiles the positional fast path for a route, or returns null when the route needs general generation. */
export function compileFastGenerator(g: GenRoute): FastGenerator | null {
  const pieces = fastPieces(g);
  if (pieces === null) return null;
  const arity = pieces.filter((p) => typeof p !== 'string').length;
  // Where code generation is refused, the same pieces are walked by a loop.
  return { arity, generate: writtenGenerator(pieces) ?? interpretedGenerator(pieces) };
}

/** The route's path as pieces, or null when positional values alone cannot build it. */
function fastPieces(g: GenRoute): Piece[] | null {
  const segs = g.segments;
  // Pattern requirements on keys outside the path cannot be met positionally.
  if (g.checks.some((c) => c.re !== null)) return null;
  let last = segs.length - 1;
  while (last > 0 && segs[last].optional && (segs[last].type === 'static' || segs[last].type === 'divider')) last--;
  const pieces: Piece[] = [];
  let arity = 0;
  for (let i = 0; i <= last; i++) {
    const s = segs[i];
    switch (s.type) {
      case 'divider': pieces.push(s.value); break;
      case 'static':
        if (s.optional) return null;
        pieces.push(escapePathComponent(s.value));
        break;
      case 'dynamic': {
        if (s.optional) return null;
        const check = s.requirement === null ? null : compileRequirement(s.requirement) === DEFAULT_SEGMENT_SOURCE ? 'plain' : g.valueRes[i]!;
        pieces.push({ arity: arity++, check });
        break;
      }
      default:
        return null;
    }
  }
  if (segs.slice(last + 1).some((s) => 'key' in s)) return null;
  if (arity !== g.route.segment_keys.length) return null;
  return pieces;
}

/** The pieces as one straight-line function: every value checked, then the path concatenated; null where source is refused. */
function writtenGenerator(pieces: readonly Piece[]): FastGenerator['generate'] | null {
  const body: string[] = [];
  const parts: string[] = [];
  const regexps: RegExp[] = [];
  for (const p of pieces) {
    if (typeof p === 'string') {
      parts.push(JSON.stringify(p));
      continue;
    }
    const v = `v${p.arity}`;
    const a = `a${p.arity}`;
    // Numbers (the usual ids) need neither conversion through to_param nor escaping.
    body.push(`const ${a} = values[${p.arity}];`, `const ${v} = typeof ${a} === 'number' ? '' + ${a} : text(${a});`, `if (${v} === null) return null;`);
    if (p.check === 'plain') body.push(`if (!plain(${v})) return null;`);
    else if (p.check !== null) body.push(`if (!re[${regexps.push(p.check) - 1}].test(${v})) return null;`);
    parts.push(`(typeof ${a} === 'number' ? ${v} : escape(${v}))`);
  }
  const source = `return function generate(values) {\n${body.join('\n')}\nreturn ${parts.join(' + ') || '""'};\n};`;
  const factory = functionFromSource<(...deps: unknown[]) => FastGenerator['generate']>(['text', 'plain', 'escape', 're'], source);
  return factory === null ? null : factory(text, plain, escapePathComponent, regexps);
}

/** The pieces walked by a loop: the written generator's answers, without generating code. */
function interpretedGenerator(pieces: readonly Piece[]): FastGenerator['generate'] {
  return (values) => {
    let out = '';
    for (const p of pieces) {
      if (typeof p === 'string') {
        out += p;
        continue;
      }
      const a = values[p.arity];
      const v = typeof a === 'number' ? `${a}` : text(a);
      if (v === null) return null;
      if (p.check === 'plain' ? !plain(v) : p.check !== null && !p.check.test(v)) return null;
      out += typeof a === 'number' ? v : escapePathComponent(v);
    }
    return out;
  };
}
