/**
 * Pluralisation for one route set. Wraps `pluralize` without ever touching
 * its global rule tables: a route set's own irregulars and uncountables are
 * consulted first, so two route sets with different inflections never see
 * each other's rules.
 */
import pluralize from 'pluralize';

export interface InflectionConfig {
  readonly irregular?: readonly (readonly [singular: string, plural: string])[];
  readonly uncountable?: readonly string[];
}

export interface Inflector {
  plural(word: string): string;
  singular(word: string): string;
  /** Frozen copy of the rules this inflector was built with, for printing and diffing. */
  readonly rules: Required<InflectionConfig>;
}

/** Builds an inflector whose rules override `pluralize`'s defaults for this set only. */
export function createInflector(config: InflectionConfig = {}): Inflector {
  const uncountable = new Set((config.uncountable ?? []).map((w) => w.toLowerCase()));
  const toPlural = new Map<string, string>();
  const toSingular = new Map<string, string>();
  for (const [s, p] of config.irregular ?? []) {
    toPlural.set(s.toLowerCase(), p);
    toSingular.set(p.toLowerCase(), s);
    // An irregular plural pluralises to itself, as Rails' irregular rules do.
    toPlural.set(p.toLowerCase(), p);
    toSingular.set(s.toLowerCase(), s);
  }
  const rules = Object.freeze({
    irregular: Object.freeze((config.irregular ?? []).map(([s, p]) => Object.freeze([s, p] as const))),
    uncountable: Object.freeze([...(config.uncountable ?? [])]),
  });
  return Object.freeze({
    rules,
    plural(word: string): string {
      const key = lastWord(word);
      if (uncountable.has(key.word.toLowerCase())) return word;
      const irregular = toPlural.get(key.word.toLowerCase());
      if (irregular !== undefined) return key.head + irregular;
      return key.head + pluralize.plural(key.word);
    },
    singular(word: string): string {
      const key = lastWord(word);
      if (uncountable.has(key.word.toLowerCase())) return word;
      const irregular = toSingular.get(key.word.toLowerCase());
      if (irregular !== undefined) return key.head + irregular;
      return key.head + pluralize.singular(key.word);
    },
  });
}

// Rails inflects only the last word of an underscored name (`line_items` -> `line_item`).
function lastWord(word: string): { head: string; word: string } {
  const cut = word.lastIndexOf('_') + 1;
  return { head: word.slice(0, cut), word: word.slice(cut) };
}

/** `ResponseItem` -> `response_item`, `Admin::Post` / `Admin/Post` -> `admin/post`. */
export function underscore(name: string): string {
  return name
    .replace(/::/g, '/')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}
