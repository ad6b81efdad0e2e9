/**
 * What a trace event may carry to an inspector page. Every event the
 * inspector sends goes through `sanitiseTraceEvent`, which rebuilds it from
 * an allow-list of fields, so anything else an event might hold now or
 * later (headers, cookies, `Authorization`, parameters, the session, the
 * body, an error) never leaves the process. Of the allowed fields:
 *
 * - `path` keeps the path only: an absolute-form target loses its scheme
 *   and authority (user:password@ included), the fragment is dropped, and
 *   every query value and `;matrix` value reads `[FILTERED]` (names stay:
 *   they say which parameters came, values may be tokens or personal data).
 *   The app already strips the query before tracing; this holds whatever an
 *   engine or a future event sends. Path segments are shown: they are what
 *   the routes match, and Rails logs them too; keep secrets out of paths.
 * - names (states, events, guards, the machine) must look like names, the
 *   method like an HTTP token, the transport be `http` or `tunnel` (else
 *   `other`); anything else reads `?`.
 * - numbers must be finite (statuses 100-999); strings are bounded and free
 *   of control characters.
 */
import type { TraceEvent } from '../../machines/trace.ts';

/** A trace event as the inspector sends it. */
export type WireTraceEvent = TraceEvent;

export const FILTERED = '[FILTERED]';
const MAX_PATH = 1024;
const NAME = /^[\w$.:*-]{1,200}$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;
const ID = /^[\w.:-]{1,64}$/;

// A machine has a few dozen names, each seen on every request: remember the verdicts (bounded, should a
// stream of odd names ever come).
const checkedNames = new Map<string, string>();

/** A name as traces use them (`parsing`, `xstate.done.actor.0.request.parsing`, `isFresh`), or `?`. */
export function sanitiseName(value: unknown): string {
  if (typeof value !== 'string') return '?';
  let name = checkedNames.get(value);
  if (name === undefined) {
    name = NAME.test(value) ? value : '?';
    if (checkedNames.size >= 1024) checkedNames.clear();
    checkedNames.set(value, name);
  }
  return name;
}

// Nothing to strip: a path without query, fragment, matrix parameters, control characters or authority.
const PLAIN_PATH = /^\/(?!\/)[^?#;\u0000-\u001f\u007f]*$/;

function time(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) / 1000 : 0;
}

/** A request path with nothing in it but the path and parameter names. */
export function sanitisePath(value: unknown): string {
  if (typeof value !== 'string') return '?';
  if (value.length <= MAX_PATH && PLAIN_PATH.test(value)) return value;
  // Control characters (and DEL) never reach the page: it shows the path as text, but logs and copies may not.
  let path = value.replace(/[\u0000-\u001f\u007f]/g, '');
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  // Absolute form (`GET http://user:pass@host/x`): the authority is not the path, and may hold credentials.
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  else if (path.startsWith('//')) path = path.replace(/^\/\/[^/?]*/, '') || '/';
  const q = path.indexOf('?');
  let query = '';
  if (q >= 0) {
    query = path.slice(q + 1).split('&').filter((pair) => pair !== '').map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${FILTERED}`;
    }).join('&');
    path = path.slice(0, q);
  }
  path = path.split('/').map((segment) => {
    const semi = segment.indexOf(';');
    if (semi < 0) return segment;
    const params = segment.slice(semi + 1).split(';').map((p) => (p.includes('=') ? `${p.slice(0, p.indexOf('='))}=${FILTERED}` : p));
    return [segment.slice(0, semi), ...params].join(';');
  }).join('/');
  const out = q >= 0 ? `${path}?${query}` : path;
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

/**
 * The event rebuilt from its allowed fields, or null when it is not a trace
 * event at all (unknown kind, no usable id).
 */
export function sanitiseTraceEvent(event: unknown): WireTraceEvent | null {
  if (event === null || typeof event !== 'object') return null;
  const e = event as Record<string, unknown>;
  if (typeof e.id !== 'string' || !ID.test(e.id)) return null;
  const id = e.id;
  const t = time(e.t);
  switch (e.kind) {
    case 'request':
      return {
        kind: 'request',
        id,
        machine: sanitiseName(e.machine),
        method: typeof e.method === 'string' && TOKEN.test(e.method) ? e.method : '?',
        path: sanitisePath(e.path),
        transport: e.transport === 'http' || e.transport === 'tunnel' ? e.transport : 'other',
        t,
      };
    case 'state':
      return { kind: 'state', id, state: sanitiseName(e.state), t };
    case 'transition':
      return {
        kind: 'transition',
        id,
        from: sanitiseName(e.from),
        to: sanitiseName(e.to),
        event: sanitiseName(e.event),
        guard: e.guard === null || e.guard === undefined ? null : sanitiseName(e.guard),
        t,
      };
    case 'done':
      return {
        kind: 'done',
        id,
        status: typeof e.status === 'number' && Number.isInteger(e.status) && e.status >= 100 && e.status <= 999 ? e.status : 0,
        ms: Math.max(0, time(e.ms)),
        t,
      };
    default:
      return null;
  }
}
