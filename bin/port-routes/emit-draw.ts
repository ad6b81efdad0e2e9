/**
 * Prints a ported draw as data: the `draw` format of the acceptance corpus (internal to
 * `signalbox port-routes`). Calls are `[method, ...args]`, a named route is `[name, path, options]`,
 * a regexp is `{"$regexp": source, "flags": ...}`, a block is a final `{"$block": [calls]}`.
 *
 * The format has one thing the module form does not need: a block holds only calls on its own
 * parameter. A routes file may call an enclosing `map` inside a block; since a block runs after the
 * routes its call declares, such a call can move to just after the enclosing call without changing
 * the order of routes. Around `with_options` and `namespace` blocks (which declare nothing themselves)
 * the block is split where needed; inside a resource block, a call on an outer map followed by more
 * nested calls cannot be expressed, and is reported.
 */
import type { Declaration, MapperCall, Omission } from './evaluator.ts';
import { type Data, isDataHash, isDataRegexp, type MapperRef } from './values.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A call in the format, and the map it is made on. */
interface Item {
  readonly receiver: MapperRef;
  readonly call: Json[];
}

/** Method names the format reads as routing methods, so a named route cannot have them as its name. */
const FORMAT_METHODS: ReadonlySet<string> = new Set(['resources', 'resource', 'namespace', 'root', 'connect', 'with_options', 'named_route']);

export interface DrawOutput {
  readonly json: string;
  /** Statements the format cannot express (reported like those left out of the port). */
  readonly omissions: readonly Omission[];
}

export function emitDraw(declarations: readonly Declaration[]): DrawOutput {
  const omissions: Omission[] = [];
  const items = collect(declarations, omissions);
  return { json: `${print(items.map((i) => i.call), 0)}\n`, omissions };
}

function collect(declarations: readonly Declaration[], omissions: Omission[]): Item[] {
  const items: Item[] = [];
  for (const d of declarations) {
    if (d.kind !== 'call') continue;
    const omit = (reason: string) => omissions.push({ kind: 'omitted', file: d.file, line: d.line, endLine: d.endLine, statement: d.statement, reason });
    const head = callHead(d);
    if (typeof head === 'string') {
      omit(head);
      continue;
    }
    if (d.block === null) {
      items.push({ receiver: d.receiver, call: head });
      continue;
    }
    const param = d.block.param;
    const inner = collect(d.block.body, omissions);
    // Runs of calls on the block's own map, and the calls on enclosing maps between them, in order.
    const segments: (Item[] | Item)[] = [];
    for (const item of inner) {
      if (param !== null && item.receiver === param) {
        const last = segments[segments.length - 1];
        if (Array.isArray(last)) last.push(item);
        else segments.push([item]);
      } else {
        segments.push(item);
      }
    }
    const own = segments.filter((s): s is Item[] => Array.isArray(s));
    const firstOuter = segments.findIndex((s) => !Array.isArray(s));
    const outerBetween = firstOuter !== -1 && segments.slice(firstOuter).some((s) => Array.isArray(s));
    const withBlock = (calls: Item[]): Item => ({ receiver: d.receiver, call: [...head, { $block: calls.map((c) => c.call) }] });
    if (d.method === 'resources' || d.method === 'resource') {
      if (outerBetween) {
        omit('in the draw format, a call on an enclosing map inside a resource block can only come after the block\'s own calls');
        continue;
      }
      items.push(withBlock(own.flat()));
      for (const s of segments) if (!Array.isArray(s)) items.push(s);
      continue;
    }
    // `with_options` and `namespace` declare nothing themselves: the same call around each run is the same routes.
    if (own.length === 0) items.push(withBlock([]));
    for (const s of segments) items.push(Array.isArray(s) ? withBlock(s) : s);
  }
  return items;
}

/** The call without its block, or why the format cannot hold it. */
function callHead(d: MapperCall): Json[] | string {
  const args = d.args.map(toJson);
  if (d.method !== 'named') return [d.method, ...args];
  const [name, ...rest] = args;
  if (typeof name !== 'string') return 'a named route without a name';
  if (FORMAT_METHODS.has(name)) return `the draw format reads a route named ${JSON.stringify(name)} as the method of that name`;
  return [name, ...rest];
}

function toJson(d: Data): Json {
  if (d === null || typeof d !== 'object') return d;
  if (Array.isArray(d)) return d.map(toJson);
  if (isDataRegexp(d)) return { $regexp: d.source, flags: d.flags };
  if (isDataHash(d)) return Object.fromEntries(d.entries.map(([k, v]) => [k, toJson(v)]));
  return null;
}

/** One call per line, blocks indented, so that a draw reads like the routes file. */
function print(calls: readonly Json[], depth: number): string {
  if (calls.length === 0) return '[]';
  const pad = '  '.repeat(depth + 1);
  const lines = calls.map((call) => {
    const args = call as Json[];
    const last = args[args.length - 1];
    if (last !== null && typeof last === 'object' && !Array.isArray(last) && Array.isArray(last.$block) && Object.keys(last).length === 1) {
      const head = args.slice(0, -1).map((a) => JSON.stringify(a));
      return `${pad}[${[...head, `{"$block": ${print(last.$block, depth + 1)}}`].join(', ')}]`;
    }
    return `${pad}[${args.map((a) => JSON.stringify(a)).join(', ')}]`;
  });
  return `[\n${lines.join(',\n')}\n${'  '.repeat(depth)}]`;
}
