/**
 * The route table as TypeScript declarations: one `RouteHelpers` member per
 * named-route helper, with a parameter per segment key, so an application's
 * helpers are checked by the compiler (`signalbox routes --types`). The text
 * is a module that augments the package's `RouteHelpers` interface:
 *
 * @example
 *   routeHelperTypes(routes.routes)
 *   // import type { RouteParam, UrlOptions } from 'signalbox';
 *   // declare module 'signalbox' {
 *   //   interface RouteHelpers {
 *   //     /** GET /posts/:id → posts#show *\/
 *   //     post_path(id: RouteParam, options?: UrlOptions): string;
 *   //     ...
 */
import type { Route } from './types.ts';

export interface HelperTypesOptions {
  /** The routes file the table came from, named in the header (`config/routes.ts`). */
  readonly source?: string;
}

/** Declarations for every helper of the named routes in `routes` (a route set's `routes`), in declaration order. */
export function routeHelperTypes(routes: readonly Route[], options: HelperTypesOptions = {}): string {
  const named = new Map<string, Route>();
  for (const route of routes) if (route.name !== null) named.set(route.name, route);
  const members: string[] = [];
  for (const route of named.values()) members.push(...routeMembers(route, named));
  const from = options.source === undefined ? '' : ` of ${options.source}`;
  return [
    `// The route helpers${from}, written by \`signalbox routes --types\`. Regenerate it when the routes change; do not edit.`,
    "import type { RouteParam, UrlOptions } from 'signalbox';",
    '',
    "declare module 'signalbox' {",
    '  interface RouteHelpers {',
    ...members.map((line) => `    ${line}`),
    '  }',
    '}',
    '',
  ].join('\n');
}

/** The four helpers of one named route, with an overload per way of calling them. */
function routeMembers(route: Route, named: ReadonlyMap<string, Route>): string[] {
  const name = route.name!;
  const params = positional(route);
  const twin = named.get(`formatted_${name}`);
  // `post_path(post, 'xml')`: one value past the keys is a format, answered by the formatted twin.
  const takesFormat = twin !== undefined && twin.segment_keys.length === route.segment_keys.length + 1 && twin.segment_keys[twin.segment_keys.length - 1] === 'format';
  const doc = `/** ${describe(route)} */`;
  const lines: string[] = [];
  for (const kind of ['path', 'url'] as const) {
    const helper = member(`${name}_${kind}`);
    lines.push(doc);
    lines.push(`${helper}(${[...params.map(declare), 'options?: UrlOptions'].join(', ')}): string;`);
    if (takesFormat && !route.segment_keys.includes('format')) {
      lines.push(`${helper}(${[...params.map((p) => declare({ ...p, optional: false })), 'format: string', 'options?: UrlOptions'].join(', ')}): string;`);
    }
    // The hash form (`post_path({ id: 1, anchor: 'c' })`); with no keys, the positional form is it already.
    if (params.length > 0) lines.push(`${helper}(options?: UrlOptions): string;`);
  }
  for (const kind of ['path', 'url'] as const) lines.push(`${member(`hash_for_${name}_${kind}`)}(options?: UrlOptions): UrlOptions;`);
  return lines;
}

interface Param {
  readonly name: string;
  readonly optional: boolean;
  /** A format is a string; a glob also takes a list of components. */
  readonly type: string;
}

/** The positional parameters, one per segment key in path order; once one may be left off, so may those after it. */
function positional(route: Route): Param[] {
  const params: Param[] = [];
  let optional = false;
  const taken = new Set<string>();
  for (const key of route.segment_keys) {
    const segment = route.segments.find((s) => 'key' in s && s.key === key);
    optional ||= segment?.optional === true;
    let name = identifier(key);
    while (taken.has(name)) name = `_${name}`;
    taken.add(name);
    params.push({ name, optional, type: segment?.type === 'glob' ? 'RouteParam | readonly RouteParam[]' : key === 'format' ? 'string' : 'RouteParam' });
  }
  return params;
}

function declare(p: Param): string {
  return `${p.name}${p.optional ? '?' : ''}: ${p.type}`;
}

/** `GET /posts/:id(.:format) → posts#show`, for the helper's hover text. */
function describe(route: Route): string {
  const verb = route.methods === null ? 'ANY' : route.methods.join('|');
  const controller = route.requirements.controller ?? route.defaults.controller;
  const action = route.requirements.action ?? route.defaults.action;
  const target = typeof controller === 'string' ? ` → ${controller}${typeof action === 'string' ? `#${action}` : ''}` : '';
  return `${verb} ${route.path}${target}`.replace(/\*\//g, '*\\/');
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Words a parameter may not be named (a property may).
const RESERVED = new Set([
  'arguments', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'eval',
  'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import', 'in', 'instanceof', 'interface', 'let', 'new',
  'null', 'package', 'private', 'protected', 'public', 'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof',
  'var', 'void', 'while', 'with', 'yield',
]);

/** A segment key as a parameter name: as written when it can be one, else prefixed with `_`. */
function identifier(key: string): string {
  return IDENTIFIER.test(key) && !RESERVED.has(key) ? key : `_${key.replace(/[^\w$]/g, '_')}`;
}

/** A helper name as an interface member: bare when it is an identifier, quoted otherwise. */
function member(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}
