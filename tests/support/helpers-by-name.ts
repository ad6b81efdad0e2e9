/**
 * Route helpers by name, for specifications that draw their own route tables. The compiler knows the
 * helpers `RouteHelpers` declares, which in this repository are the example blog's
 * (examples/blog/routes.helpers.d.ts), not a test's own table's; these tests call helpers of any name
 * and with any arguments, wrong ones included, and check what happens at run time. Not a test file.
 */
import type { Helpers, RouteSet, UrlOptions } from '../../core/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test calls helpers the compiler cannot know
export type AnyHelper = (...args: any[]) => any;

/** A helpers object whose every name is callable, as JavaScript sees it. */
export type HelpersByName = Readonly<Record<string, AnyHelper>>;

/** `set.helpers(...)`, with every helper reachable by name. */
export function helpersOf(set: RouteSet, default_url_options?: UrlOptions, recall?: UrlOptions, params?: UrlOptions): HelpersByName {
  return set.helpers(default_url_options, recall, params) as Helpers as unknown as HelpersByName;
}
