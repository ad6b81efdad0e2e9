/**
 * Reading the peer suite: where it lives, and turning its JSON encodings of
 * Ruby values (regexps, blocks, records) into what the JS API takes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Mapper } from '../../core/index.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The corpus directory: `SIGNALBOX_ACCEPTANCE_DIR`, or the project's own copy in `tests/acceptance/data/`. */
export function acceptanceDir(): string {
  return resolve(ROOT, process.env.SIGNALBOX_ACCEPTANCE_DIR ?? 'tests/acceptance/data/');
}

/** Every JSON file of the corpus (or of `dir`) whose name matches `pattern`, parsed. */
export function loadCorpus<T>(pattern: RegExp, dir: string = acceptanceDir()): { file: string; data: T }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && pattern.test(f))
    .sort()
    .map((file) => ({ file, data: JSON.parse(readFileSync(join(dir, file), 'utf8')) as T }));
}

const recordClasses = new Map<string, new (id: string | null, isNew: boolean) => object>();

/** A record of the named model, as the polymorphic helpers see one. */
export function makeRecord(model: string, id: string | null, isNew: boolean): object {
  let ctor = recordClasses.get(model);
  if (!ctor) {
    // A class whose `name` is the model name, the way an application's model class would be.
    ctor = {
      [model]: class {
        constructor(readonly id: string | null, readonly isNew: boolean) {}
        new_record(): boolean {
          return this.isNew;
        }
      },
    }[model];
    recordClasses.set(model, ctor);
  }
  return new ctor(id, isNew);
}

/** Converts corpus values: `$regexp` to a requirement descriptor, `$record` to a record. */
export function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('$regexp' in o) return { source: String(o.$regexp), flags: String(o.flags ?? '') };
    if ('$record' in o) {
      const r = o.$record as { model: string; id: string | null; new_record: boolean };
      return makeRecord(r.model, r.id, r.new_record);
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, revive(v)]));
  }
  return value;
}

export type DrawCall = [string, ...unknown[]];

/** Replays a case's `draw` calls on `map`; names the API lacks are named routes (Rails' method_missing). */
export function replayDraw(map: Mapper, calls: readonly DrawCall[]): void {
  const later: DrawCall[] = [];
  for (const call of calls) {
    if (call[0] === 'named_route') later.push(call);
    else replayCall(map, call);
  }
  for (const [, name, path, options] of later) map.named(String(name), String(path), (revive(options) ?? {}) as Record<string, unknown>);
}

function replayCall(map: Mapper, [method, ...rawArgs]: DrawCall): void {
  const args = rawArgs.map((a) => {
    if (a !== null && typeof a === 'object' && '$block' in (a as object)) {
      const inner = (a as { $block: DrawCall[] }).$block;
      return (m: Mapper) => replayDraw(m, inner);
    }
    return revive(a);
  });
  switch (method) {
    case 'resources': case 'resource': case 'namespace': case 'root': case 'connect': case 'with_options':
      (map[method] as (...a: unknown[]) => void).apply(map, args);
      return;
    default:
      map.named(method, String(args[0]), (args[1] ?? {}) as Record<string, unknown>);
  }
}

/** Deep equality that treats records by model and id. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    if (a.constructor !== b.constructor) return false;
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** Stable text for failure messages. */
export function show(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && v.constructor !== Object ? `#<${v.constructor.name} ${String(v.id)}>` : v));
}
