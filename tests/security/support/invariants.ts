/**
 * What must hold after every bad input, whatever the entry (BAD-INPUTS.md
 * section 9): prototypes untouched, 500s are the static page, no secrets or
 * stack traces in bodies, redirects that cannot split headers or leave the
 * site, and no cookie the app did not mean to set.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Observed } from './expect.ts';

const SHARED = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype } as const;

/** The own property names of the shared prototypes, to compare before and after. */
export function prototypeSnapshot(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, proto] of Object.entries(SHARED)) out[name] = Reflect.ownKeys(proto).map(String).sort();
  return out;
}

export function prototypeChanges(before: Record<string, string[]>): string[] {
  const after = prototypeSnapshot();
  const changes: string[] = [];
  for (const name of Object.keys(before)) {
    const added = after[name].filter((k) => !before[name].includes(k));
    if (added.length > 0) changes.push(`${name}.prototype gained ${added.join(', ')}`);
  }
  return changes;
}

v8.setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, in MB. */
export function settledHeapMb(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

/** Headers the framework and Node emit; anything else in a response was put there by input. */
const KNOWN_HEADERS = new Set([
  'content-type', 'content-length', 'location', 'set-cookie', 'cache-control', 'etag', 'x-runtime', 'allow',
  'www-authenticate', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'last-modified', 'content-disposition',
  'vary', 'x-request-id', 'accept-ranges', 'content-transfer-encoding',
  // Byte ranges of public files, and a session store that is away.
  'content-range', 'retry-after',
]);

export interface InvariantContext {
  readonly public500: string;
  readonly secret: string;
  readonly session_key: string;
  /** host:port the requests named. */
  readonly host: string;
}

/** Problems with one response that no entry may show. */
export function invariantProblems(o: Observed, ctx: InvariantContext): string[] {
  const problems: string[] = [];
  if (o.status === 500 && o.body !== ctx.public500) problems.push(`a 500 whose body is not public/500.html: ${JSON.stringify(o.body.slice(0, 200))}`);
  if (/\n\s+at .+:\d+:\d+\)?/.test(o.body)) problems.push('a stack trace in the body');
  if (o.body.includes(ctx.secret)) problems.push('the session secret in the body');
  if (/root:.*:0:0:/.test(o.body)) problems.push('/etc/passwd contents in the body');
  for (const location of o.headers.location ?? []) {
    if (/[\r\n\0]/.test(location) || /[^\x20-\x7e]/.test(location)) problems.push(`Location carries control or non-ASCII characters: ${JSON.stringify(location)}`);
    if (location.startsWith('//')) problems.push(`Location is protocol-relative: ${location}`);
    if (/^\s*javascript:/i.test(location)) problems.push(`Location is a javascript: URL: ${location}`);
  }
  if ((o.headers.location ?? []).length > 1) problems.push('more than one Location header');
  for (const cookie of o.headers['set-cookie'] ?? []) {
    if (!cookie.startsWith(`${ctx.session_key}=`)) problems.push(`a cookie the app never sets: ${cookie.slice(0, 80)}`);
  }
  for (const name of Object.keys(o.headers)) {
    if (!KNOWN_HEADERS.has(name)) problems.push(`an unexpected response header: ${name}`);
  }
  return problems;
}
