/**
 * The route table as text, like Rails' `rake routes`: name, method, path and
 * the fixed `{controller, action}`, in aligned columns.
 */
import { isRequirement } from './gen-route.ts';
import type { FixedHash, Route } from './types.ts';

export interface RouteRow {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly controller: string | null;
  readonly action: string | null;
  /** Every requirement on a key outside the path, patterns as `/source/flags`, nil options as null. */
  readonly requirements: Readonly<Record<string, string | boolean | readonly string[] | FixedHash | null>>;
}

/** One row per route, as plain data (what `--json` prints). */
export function routeRows(routes: readonly Route[]): RouteRow[] {
  return routes.map((r) => ({
    name: r.name ?? '',
    method: r.methods?.join(',') ?? '',
    path: r.path,
    controller: typeof r.requirements.controller === 'string' ? r.requirements.controller : null,
    action: typeof r.requirements.action === 'string' ? r.requirements.action : null,
    requirements: Object.fromEntries(Object.entries(r.requirements).map(([k, v]) => [k, isRequirement(v) ? `/${v.source}/${v.flags}` : v])),
  }));
}

/** Aligned text; the requirements column reads `{controller: "posts", action: "show"}`. */
export function formatRoutes(routes: readonly Route[]): string {
  const rows = routeRows(routes).map((r) => [
    r.name,
    r.method,
    r.path,
    `{${Object.entries(r.requirements).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}}`,
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(0, ...rows.map((row) => row[i].length)));
  return rows
    .map((row) => `${row[0].padStart(widths[0])} ${row[1].padEnd(widths[1])} ${row[2].padEnd(widths[2])} ${row[3]}`.trimEnd())
    .join('\n');
}
