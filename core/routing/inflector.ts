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
  // Resource declarations and polymorphic helpers ask for the same few words over and over, and each
  // `pluralize` call tests its rule list in turn, so answers are remembered for this set. Rails inflects
  // only the last word of an underscored name (`line_items` -> `line_item`), so that word is the key.
  const plurals = new Map<string, string>();
  const singulars = new Map<string, string>();
  return Object.freeze({
    rules,
    plural(word: string): string {
      const cut = word.lastIndexOf('_') + 1;
      const last = cut === 0 ? word : word.slice(cut);
      let inflected = plurals.get(last);
      if (inflected === undefined) {
        const key = last.toLowerCase();
        inflected = uncountable.has(key) ? last : (toPlural.get(key) ?? pluralize.plural(last));
        remember(plurals, last, inflected);
      }
      return cut === 0 ? inflected : word.slice(0, cut) + inflected;
    },
    singular(word: string): string {
      const cut = word.lastIndexOf('_') + 1;
      const last = cut === 0 ? word : word.slice(cut);
      let inflected = singulars.get(last);
      if (inflected === undefined) {
        const key = last.toLowerCase();
        inflected = uncountable.has(key) ? last : (toSingular.get(key) ?? pluralize.singular(last));
        remember(singulars, last, inflected);
      }
      return cut === 0 ? inflected : word.slice(0, cut) + inflected;
    },
  });
}

const INFLECTION_CACHE_LIMIT = 1000;

function remember(cache: Map<string, string>, word: string, inflected: string): void {
  if (cache.size >= INFLECTION_CACHE_LIMIT) cache.clear();
  cache.set(word, inflected);
}

/** `ResponseItem` -> `response_item`, `Admin::Post` / `Admin/Post` -> `admin/post`. */
export function underscore(name: string): string {
  return name
    .replace(/::/g, '/')
    // Before the last capital of a run that starts a word (`HTMLParser`): `([A-Z]+)([A-Z][a-z])` splits the same, but backtracks quadratically over a long run.
    .replace(/(?<=[A-Z])(?=[A-Z][a-z])/g, '_')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}
