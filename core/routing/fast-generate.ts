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

/** Compiles the positional fast path for a route, or returns null when the route needs general generation. */
export function compileFastGenerator(g: GenRoute): FastGenerator | null {
  const segs = g.segments;
  // Pattern requirements on keys outside the path cannot be met positionally.
  if (g.checks.some((c) => c.re !== null)) return null;
  let last = segs.length - 1;
  while (last > 0 && segs[last].optional && (segs[last].type === 'static' || segs[last].type === 'divider')) last--;
  const body: string[] = [];
  const parts: string[] = [];
  const regexps: RegExp[] = [];
  let arity = 0;
  for (let i = 0; i <= last; i++) {
    const s = segs[i];
    switch (s.type) {
      case 'divider': parts.push(JSON.stringify(s.value)); break;
      case 'static':
        if (s.optional) return null;
        parts.push(JSON.stringify(escapePathComponent(s.value)));
        break;
      case 'dynamic': {
        if (s.optional) return null;
        const v = `v${arity}`;
        const a = `a${arity}`;
        // Numbers (the usual ids) need neither conversion through to_param nor escaping.
        body.push(`const ${a} = values[${arity}];`, `const ${v} = typeof ${a} === 'number' ? '' + ${a} : text(${a});`, `if (${v} === null) return null;`);
        if (s.requirement !== null) {
          if (compileRequirement(s.requirement) === DEFAULT_SEGMENT_SOURCE) body.push(`if (!plain(${v})) return null;`);
          else {
            regexps.push(g.valueRes[i]!);
            body.push(`if (!re[${regexps.length - 1}].test(${v})) return null;`);
          }
        }
        parts.push(`(typeof ${a} === 'number' ? ${v} : escape(${v}))`);
        arity++;
        break;
      }
      default:
        return null;
    }
  }
  if (segs.slice(last + 1).some((s) => 'key' in s)) return null;
  if (arity !== g.route.segment_keys.length) return null;
  const source = `return function generate(values) {\n${body.join('\n')}\nreturn ${parts.join(' + ') || '""'};\n};`;
  // Where code generation is refused, the helper's general way builds every path.
  const factory = functionFromSource<(...deps: unknown[]) => FastGenerator['generate']>(['text', 'plain', 'escape', 're'], source);
  if (factory === null) return null;
  return { arity, generate: factory(text, plain, escapePathComponent, regexps) };
}
