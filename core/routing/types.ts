/**
 * The shapes of the route table. Everything here is plain data: a route set
 * can be printed, diffed and serialised with `JSON.stringify`.
 */
import type { Requirement } from './requirement.ts';

/** One piece of a route's path, in Rails 2.1's segment vocabulary. */
export type Segment =
  /** Literal text between separators (`posts`), or an optional `?text?` piece. */
  | { readonly type: 'static'; readonly value: string; readonly optional: boolean }
  /** A separator: `/`, `.` or `?`. Only `/` may be optional. */
  | { readonly type: 'divider'; readonly value: string; readonly optional: boolean }
  /** `:key`; `default` is what recognition fills in when the segment is absent. */
  | {
      readonly type: 'dynamic';
      readonly key: string;
      readonly optional: boolean;
      readonly default: string | null;
      readonly requirement: Requirement | null;
    }
  /** `:controller`: matches known controller names (case-insensitively) and may span slashes. */
  | {
      readonly type: 'controller';
      readonly key: 'controller';
      readonly optional: boolean;
      readonly default: string | null;
      readonly requirement: Requirement | null;
    }
  /** `*key`: the rest of the path, as an array of components. */
  | { readonly type: 'glob'; readonly key: string; readonly optional: boolean; readonly requirement: Requirement | null };

export type KeySegment = Extract<Segment, { key: string }>;

/**
 * A route-level requirement: a fixed value (`action: 'show'`), a fixed list (`path: ['home']`: recognition
 * gives the list, generation wants an equal one), a fixed hash (`member: { remove: 'get' }`, the same way),
 * true or false as given, a pattern on a non-path key, or null for an option declared nil (`id: null`: recognition gives `id: null`,
 * generation wants no id).
 */
export type RouteRequirement = string | boolean | readonly string[] | FixedHash | Requirement | null;

/**
 * A hash given for a key the path lacks, as Rails kept it: `with_options(:member => {...})` around named
 * routes, or a misspelt `:requirements`. Its values are kept as parameters are (strings, lists, hashes, nil).
 */
export interface FixedHash {
  readonly [key: string]: FixedLeaf;
}

export type FixedLeaf = string | boolean | null | readonly FixedLeaf[] | FixedHash;

export interface Route {
  /** Declaration order; the first matching route wins recognition. */
  readonly index: number;
  /** Named-route name (`post`, `formatted_post`), or null for `connect` routes. */
  readonly name: string | null;
  /** The path as declared, prefixes applied: `/posts/:post_id/comments/:id.:format`. */
  readonly path: string;
  /** Upper-case methods this route answers, or null for any method. */
  readonly methods: readonly string[] | null;
  readonly segments: readonly Segment[];
  /** Requirements on keys that are not path segments (fixed `controller`/`action`, extra patterns, nil options). */
  readonly requirements: Readonly<Record<string, RouteRequirement>>;
  /** Conditions other than `method`, kept as declared (recognition ignores them, as Rails 2.1 does). */
  readonly conditions: Readonly<Record<string, unknown>>;
  /** Rails' `Route#defaults`: segment defaults plus fixed requirements. */
  readonly defaults: Readonly<Record<string, string>>;
  /** Dynamic segment keys in path order; named helpers fill them positionally. */
  readonly segment_keys: readonly string[];
  /** Keys the route uses: segment keys and requirement keys. */
  readonly significant_keys: readonly string[];
}

/** Recognised parameters: strings, arrays of strings for globs, null for options declared nil, and a route's fixed boolean or hash. */
export type Params = Record<string, string | string[] | boolean | null | ParamHash>;

/** A route's fixed hash as recognition returns it: a copy each request may change. */
export interface ParamHash {
  [key: string]: ParamLeaf;
}

export type ParamLeaf = string | boolean | null | ParamLeaf[] | ParamHash;

/** Options handed to generation: anything with a `to_param`, arrays, nested hashes for the query. */
export type GenerateOptions = Record<string, unknown>;
