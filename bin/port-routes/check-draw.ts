/**
 * Draws the ported declarations with Signalbox's own `draw()` before the module is written (internal to
 * `signalbox port-routes`). Once a statement is left out, a later one that relied on it can be refused by
 * draw(), which would make the whole module throw at import, far from the line of the routes file that caused
 * it: `map.root :new_user_session` after `map.devise_for :users`, a plugin's call, was left out. Each such
 * statement is left out too and reported with draw()'s error and its own line, so the rest of the table loads.
 *
 * @example
 *   const declarations = withoutUndrawable(evaluation.declarations, evaluation.root, omissions, ['config/routes.rb']);
 */
import { draw, type DrawConfig, type Mapper } from '../../core/index.ts';
import type { Declaration, DrawSetting, MapperCall, Omission } from './evaluator.ts';
import { type Data, isDataHash, isDataRegexp, type MapperRef } from './values.ts';

/** Each pass leaves out what the last one refused; a statement left out can only make later ones refuse. */
const MAX_PASSES = 8;

/**
 * The declarations with each statement draw() refuses after a statement left out turned into an omission (also
 * pushed onto `omissions`). A statement refused with nothing left out before it is the file's own mistake, which
 * Rails would have refused too: it is printed as written, and the module's draw() says what is wrong with it.
 * @param files the files in the order they are drawn
 */
export function withoutUndrawable(declarations: Declaration[], root: MapperRef, omissions: Omission[], files: readonly string[], config: DrawConfig = {}): Declaration[] {
  const order = (file: string, line: number) => (files.indexOf(file) + 1) * 2 ** 32 + line;
  let current = declarations;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const first = omissions.reduce((min, o) => Math.min(min, order(o.file, o.line)), Infinity);
    const refused = refusedCalls(current, root, checkedConfig(config));
    for (const call of refused.keys()) if (order(call.file, call.line) < first) refused.delete(call);
    if (refused.size === 0) break;
    current = replace(current, refused, omissions);
  }
  return current;
}

/** The calls that threw while the declarations were drawn, each with its error; the others are drawn as usual. */
function refusedCalls(declarations: readonly Declaration[], root: MapperRef, config: DrawConfig): Map<MapperCall, unknown> {
  const refused = new Map<MapperCall, unknown>();
  const maps = new Map<MapperRef, Mapper>();
  const run = (list: readonly Declaration[]): void => {
    for (const d of list) {
      if (d.kind !== 'call') continue;
      const map = maps.get(d.receiver);
      if (map === undefined) continue;
      const args: unknown[] = d.args.map(value);
      const block = d.block;
      if (block !== null) {
        args.push((child: Mapper) => {
          if (block.param !== null) maps.set(block.param, child);
          run(block.body);
        });
      }
      try {
        (map[d.method] as (...a: unknown[]) => void).apply(map, args);
      } catch (error) {
        refused.set(d, error);
      }
    }
  };
  // The module's own draw() warns the developer when it runs; this one is only a check, and stays quiet.
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'test';
  try {
    draw((map) => {
      maps.set(root, map);
      run(declarations);
    }, config);
  } catch {
    // A table whose every statement drew but that draw() refuses as a whole has no line to name: it is printed
    // as ported, and its draw() gives the error.
  } finally {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
  return refused;
}

function replace(list: readonly Declaration[], refused: ReadonlyMap<MapperCall, unknown>, omissions: Omission[]): Declaration[] {
  return list.map((d): Declaration => {
    if (d.kind !== 'call') return d;
    if (refused.has(d)) {
      const error = refused.get(d);
      const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const omission: Omission = {
        kind: 'omitted', file: d.file, line: d.line, endLine: d.block?.endLine ?? d.endLine, statement: d.statement,
        reason: `Signalbox's draw() refuses it (${why}): what it relies on may come from a statement left out before it`,
      };
      omissions.push(omission);
      return omission;
    }
    if (d.block === null) return d;
    return { ...d, block: { ...d.block, body: replace(d.block.body, refused, omissions) } };
  });
}

/** The settings a draw() of the ported calls takes: the last value the files assigned to each. */
export function drawConfig(settings: readonly DrawSetting[]): DrawConfig {
  const config: Record<string, unknown> = {};
  for (const s of settings) config[s.name] = value(s.value);
  return config as DrawConfig;
}

/**
 * The settings the check draws with: all but the separator, whose only effect is the text of the paths (which
 * draw() refuses nothing for) and whose deprecation warning, given once per process, is the module's to give.
 */
function checkedConfig(config: DrawConfig): DrawConfig {
  const { resource_action_separator: _separator, ...rest } = config;
  return rest;
}

/** A ported value as the module's literal would make it. */
function value(d: Data): unknown {
  if (d === null || typeof d !== 'object') return d;
  if (Array.isArray(d)) return d.map(value);
  if (isDataRegexp(d)) return d.flags.includes('x') ? { source: d.source, flags: d.flags } : new RegExp(d.source, d.flags);
  if (isDataHash(d)) {
    const hash: Record<string, unknown> = {};
    for (const [k, v] of d.entries) Object.defineProperty(hash, k, { value: value(v), enumerable: true, writable: true, configurable: true });
    return hash;
  }
  return null;
}
