/**
 * Reads an entry's `expect` prose into checks. The corpus states outcomes
 * in a small, regular vocabulary (statuses, time bounds, `params.x === "y"`,
 * `a#b never runs`, `Location = "..."`, "empty session"...); each phrase the
 * reader recognises becomes one named check on the observed response. The
 * invariants of BAD-INPUTS.md section 9 apply to every entry besides.
 */

import { STATUS_CODES } from 'node:http';

/** What one request produced, as the checks see it. */
export interface Observed {
  readonly status: number;
  readonly headers: Readonly<Record<string, string[]>>;
  readonly body: string;
  readonly ms: number;
  /** Actions that ran for this request (`posts#create`), with the path they were asked for. */
  readonly actions: readonly { action: string; path: string }[];
  /** Whether the server closed the connection (status 0 with this: closed without answering; without it: no answer in time). */
  readonly closed?: boolean;
  /** Interim statuses (100 Continue) sent before the answer. */
  readonly interim?: readonly number[];
  /** The echo fixture actions answer with, when the body is one. */
  readonly echo: { action: string; params: any; session: any } | null;
}

export interface Check {
  readonly name: string;
  /** Null when the check holds, else what went wrong. */
  readonly run: (o: Observed) => string | null;
}

export interface Reading {
  readonly statuses: ReadonlySet<number>;
  /** False: any status below 500 is acceptable besides `statuses`. */
  readonly exclusive: boolean;
  /** Milliseconds the response may take, when the prose bounds it. */
  readonly within_ms: number | null;
  readonly heap_mb: number | null;
  /** Whether the server may close the connection without answering ("400 or connection closed"). */
  readonly close_allowed: boolean;
  readonly checks: Check[];
  /**
   * What the prose states that this reader cannot check (a time it cannot place, an
   * expectation with no outcome it recognises). A runner fails an entry that has any:
   * an unread expectation must never pass as if it held.
   */
  readonly unread: string[];
}

/**
 * The same prose in plain characters: typographic quotes become straight ones, a number
 * with thousands separators before a unit ("1,000 ms", "4,096 bytes") loses them, a small
 * number spelled out before a unit ("one second") becomes digits, and a status's reason
 * phrase ("406 Not Acceptable", "Bad Request (400)") leaves just the code, so every phrase
 * below reads it as it reads the plain spelling (and "Not Acceptable" negates nothing).
 */
export function normaliseExpect(expect: string): string {
  return expect
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/\b(\d{1,3}(?:,\d{3})+)(?=\s*(?:ms|milliseconds?|s|secs?|seconds?|MB|KB|bytes|requests?)\b)/g, (n) => n.replaceAll(',', ''))
    .replace(new RegExp(String.raw`\b(one|two|three|five|ten)\s+(?=${UNIT}\b)`, 'gi'), (_, word: string) => `${SMALL_NUMBERS[word.toLowerCase()]} `)
    // "within a second", "in under a second".
    .replace(/\b(within|under|in|than|most)\s+an?\s+(second)\b/gi, '$1 1 $2')
    // "100 ms or less", "1s max", "(max. 1 s)": the bound "at most" states.
    .replace(new RegExp(String.raw`\b(\d+(?:\.\d+)?\s*${UNIT})\s+(?:or less|or sooner|max(?:imum)?\b\.?|at most\b)`, 'gi'), 'at most $1')
    .replace(new RegExp(String.raw`\bmax(?:imum)?\.?:?\s+(?=\d+(?:\.\d+)?\s*${UNIT}\b)`, 'gi'), 'at most ')
    .replace(/\b([1-5]\d\d)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})/gi, (whole, code: string, words: string) => {
      const reason = STATUS_CODES[code];
      return reason !== undefined && words.toLowerCase().startsWith(reason.toLowerCase()) ? code + words.slice(reason.length) : whole;
    })
    .replace(/\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})\s*\(([1-5]\d\d)\)/gi, (whole, words: string, code: string) => {
      const reason = STATUS_CODES[code];
      return reason !== undefined && words.toLowerCase().endsWith(reason.toLowerCase()) ? `${words.slice(0, words.length - reason.length)}(${code})` : whole;
    });
}

const UNIT = String.raw`(?:ms|milliseconds?|s|secs?|seconds?)`;
const SMALL_NUMBERS: Record<string, string> = { one: '1', two: '2', three: '3', five: '5', ten: '10' };

// A status, not part of an identifier ("CVE-2011-0447", "CWE-400", "RFC 9110", "#500") nor a unit ("100ms", "500.html").
const STATUS = /(?<![A-Za-z]-|[A-Za-z]{2}-|#|\bRFC\s?)\b([1-5](?:\d\d|xx|XX))\b(?!\s*(?:ms|s\b|MB|KB|bytes|\.html))/g;
const NEGATION = /\b(?:never|not|no|nor|without|rather than|instead of|anything but|other than|except)\s+(?:\w+\s+){0,4}$/i;
const NEGATED_AFTER = /^(?:\s+(?:page|response|error|answer|status))?\s+(?:is|are|must|should|may|would be|will)\s+(?:never|not|be wrong|wrong|forbidden|unacceptable|a failure)\b|^\s+(?:is|are) (?:forbidden|unacceptable|a failure)\b/i;

/**
 * The prose without its remarks on history: a parenthesis that tells what Rails or an
 * advisory did ("(Rails 2.1 raises TypeError -> 500 page)", "(as in 2.1, see CVE-...)") and
 * offers nothing itself ("(or 500 as in 2.1)" does), or a clause that only tells it
 * ("; Rails 2.1 returned 500 here"). Such a remark allows no status and states no time.
 */
export function withoutRemarks(expect: string): string {
  const HISTORY = /\b(?:Rails|CVE|GHSA|advisory|as in \d|as \d\.\d|used to|formerly|historically)\b|\b\d\.\d+(?:\.\d+)? (?:did|does|returned|returns|raised|raises|gave|gives|answered|answers|would|accepted|accepts|used)\b/i;
  const AS = String.raw`(?:as in |as |like |unlike |in |under |where |whereas |while )`;
  const RAILS = String.raw`(?:Rails \d[\d.]*|CVE-[\d-]+)\b[^;()—–]*`;
  return expect
    .replace(/\(([^()]*)\)/g, (whole, inner: string) => (!/^\s*(?:or|and|also|else|either)\b/i.test(inner) && HISTORY.test(inner) ? '' : whole))
    .replace(new RegExp(String.raw`(^|[;—–]|\.\s)\s*(?:(?:note|NB|cf\.?)\s*:?\s*)?${AS}?${RAILS}`, 'gi'), '$1')
    .replace(new RegExp(String.raw`,\s*${AS}${RAILS}`, 'gi'), '');
}
// The invariant every entry shares; its 200 is about the next request, not this one
// ("follow-up GET / returns 200", "the next GET / still answers 200", "a fresh request gets 200").
const FOLLOW_UP = /\b(?:follow-up|next|fresh|later|subsequent|another)\s+(?:plain\s+)?(?:GET(?:\s+\/)?|request|probe)\b[^;]*?\b200\b|\bGET \/ (?:\w+ ){0,3}(?:returns?|answers?|gets?|responds?(?: with)?|still) 200\b/gi;

/** Every status the prose allows: numbers not negated ("never 500"), not units ("100ms", "500.html"); `2xx` is a range. */
export function allowedStatuses(expect: string): Set<number> {
  const text = withoutRemarks(expect).replace(FOLLOW_UP, '');
  const out = new Set<number>();
  for (const m of text.matchAll(STATUS)) {
    if (NEGATION.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
    // "a 500 is never acceptable", "a 500 must not occur": negated after the code.
    if (NEGATED_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 40))) continue;
    if (/xx$/i.test(m[1])) for (let s = Number(m[1][0]) * 100; s < Number(m[1][0]) * 100 + 100; s++) out.add(s);
    else out.add(Number(m[1]));
  }
  return out;
}

/**
 * Whether the statuses named are the only acceptable ones. Prose that states a
 * status ("status 400/413", "each 406", "returns 404", "responds 200 or 406",
 * "HTTP 422", "an error frame (400/405/501)") is exclusive, unless it offers a
 * non-status alternative ("status 400 or params without...", "prefixed with
 * http://host or rejected (400)"); prose that only mentions a status in passing
 * ("=== null or 400") allows any non-5xx as well.
 */
export function statusesExclusive(expect: string): boolean {
  const text = withoutRemarks(expect).replace(FOLLOW_UP, '');
  // A status stated under a condition ("if 500, ...", "(if JSON not exempt) returns 422", "unless ...") is not the rule.
  if (!text.split(';').some((clause) => !/\b(?:if|unless)\b/i.test(clause) && STATED.test(clause))) return false;
  // A status offered beside a non-status outcome ("status 400 or params ...", "(400) or connection closed") is one way among others.
  if (/\bstatus [\d/ ]+or (?!\d)|\(\d{3}(?:\/\d{3})*\) or (?!\d)/.test(text)) return false;
  return !text.split(';').some(offersOtherOutcome);
}

// How prose states the status a request gets.
const STATED = /\bstatus\b|\beach \d{3}\b|\(\d{3}(?:\/\d{3})*\)|^\s*(?:an? )?[1-5](?:\d\d|xx)\b|\bframe (?:status )?\d{3}\b|(?:->|→|=>|⇒) \d{3}\b|\b(?:returns?|responds?|answers?|answered|gets?|yields?|receives?|expects?|rejected(?: as)?|refused|refuses(?: it)?|must be|should be|gives?|either|one of|any of|HTTP(?:\/\d(?:\.\d)?)?)(?: with)?(?: an?)? \d{3}\b/i;

/** One clause whose alternatives ("X or Y") name a status on one side only: the other side is an outcome of its own. */
function offersOtherOutcome(clause: string): boolean {
  // A remark in parentheses ("(tested against the raw segment or the decoded value)") offers nothing; "(or X)" and "(400)" do.
  const plain = clause.replace(/\(([^()]*)\)/g, (whole, inner: string) => (/^\s*or\b/.test(inner) || allowedStatuses(inner).size > 0 ? whole : ''));
  const sides = plain.split(/\bor\b/);
  // "never a crash or a 500": the alternatives are all negated.
  if (sides.length < 2 || sides.slice(0, -1).some((side) => /\b(?:never|no|not|nor)\b/i.test(side))) return false;
  const named = sides.map((side) => allowedStatuses(side).size > 0);
  return named.some(Boolean) && named.some((n, i) => !n && /[a-z]{3}/i.test(sides[i].replace(/\b(?:either|never|not|no|and|with|the)\b/gi, '')));
}

// A time: "50ms", "1 s", "2 seconds", "100 milliseconds".
const TIME = String.raw`(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)\b`;
// What bounds a response's time: "within 50ms", "in <1s", "in under 2 seconds", "less than 100 ms", "at most 1s".
const BOUND = new RegExp(String.raw`(?:\bwithin|\bin\s*<|\bin under|\bunder|\bless than|\bat most|\bno (?:more|longer|later) than|\bin at most|(?<![<\w])<=?|≤)\s*${TIME}`, 'i');

function milliseconds(amount: string, unit: string): number {
  return Number(amount) * (unit.toLowerCase().startsWith('m') ? 1 : 1000);
}

/** A time bound: "within 50ms", "in <1s", "within 2 seconds", "in under 100 ms". */
export function timeBound(expect: string): number | null {
  const m = BOUND.exec(withoutRemarks(expect));
  return m ? milliseconds(m[1], m[2]) : null;
}

/** Times the prose states besides the bound `timeBound` reads ("recommend <= 20s"): a runner that cannot place them must say so. */
export function otherTimes(written: string): string[] {
  const expect = withoutRemarks(written);
  const bound = BOUND.exec(expect);
  const out: string[] = [];
  for (const m of expect.matchAll(new RegExp(TIME, 'gi'))) {
    if (bound && m.index >= bound.index && m.index < bound.index + bound[0].length) continue;
    out.push(m[0]);
  }
  return out;
}

/**
 * How long a slow client may hold its connection before the server closes it, in seconds:
 * the recommended bound when one is given ("<= 60s, recommend <= 20s"), else the only one.
 */
export function closeBound(expect: string): number | null {
  const recommended = new RegExp(String.raw`recommend(?:ed)?\s*(?:<=|≤|at most|within)?\s*${TIME}`, 'i').exec(expect);
  const any = recommended ?? new RegExp(String.raw`(?:<=|≤|at most|within)\s*${TIME}`, 'i').exec(expect);
  return any ? milliseconds(any[1], any[2]) / 1000 : null;
}

/** Follows `params.a.b`, `params["a.b"]` in the echoed parameters. */
function paramAt(params: unknown, path: string): unknown {
  let node: any = params;
  for (const m of path.matchAll(/\.([\w$]+)|\["([^"]+)"\]|\['([^']+)'\]|\[:([\w$]+)\]/g)) {
    const key = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// `params.a.b`, `params["a.b"]`, `params['a.b']`, and Rails' own `params[:post][:title]`.
const PARAM_PATH = String.raw`params((?:\.[\w$]+|\["[^"]+"\]|\['[^']+'\]|\[:[\w$]+\])*)`;
const LITERAL = String.raw`("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\[[^\]]*\]|\{[^}]*\}|null|nil(?!\w)|true|false|-?\d+(?:\.\d+)?|undefined)`;

/** A literal as the prose writes it; a single-quoted string ('c') is the string it quotes. */
function literalValue(literal: string): unknown {
  if (literal === 'undefined' || literal === 'nil') return undefined;
  if (literal.startsWith("'")) return JSON.parse(`"${literal.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as unknown;
  return JSON.parse(literal) as unknown;
}

/** `params.x === "v"`, `params.x == [..]`, `params.x is an object {..}`, `params.x undefined`. */
function paramChecks(expect: string, statuses: Set<number>): Check[] {
  const checks: Check[] = [];
  const re = new RegExp(`${PARAM_PATH}\\s*(?:===|==|=|is an object|is exactly|is|(?:must|should) (?:be|equal)|equals?)?\\s*${LITERAL}`, 'g');
  // "params.post.admin absent", "params.x is missing", "params.x not set": the same as `=== undefined`.
  const absent = new RegExp(`${PARAM_PATH}\\s+(?:is |must be |stays )?(?:absent|missing|not present|not set)\\b`, 'g');
  const stated = [...expect.matchAll(re)].map((m) => [m[1], m[2]] as const);
  for (const m of expect.matchAll(absent)) stated.push([m[1], 'undefined']);
  // "params has key "a.b" with value "c"", "params.post has a "title" key whose value is "x"".
  for (const m of expect.matchAll(new RegExp(`${PARAM_PATH} has (?:an? )?(?:own )?key "([^"]+)" (?:with value|whose value is|equal to|set to|=)\\s*${LITERAL}`, 'g'))) {
    stated.push([`${m[1]}[${JSON.stringify(m[2])}]`, m[3]]);
  }
  for (const [path, literal] of stated) {
    const expected = literalValue(literal);
    // "params.x === v or 400": a refusal is the other allowed outcome, so only an echo is checked.
    const mustEcho = expected !== undefined && statuses.size === 0;
    checks.push({
      name: `params${path} is ${literal}`,
      run: (o) => {
        if (o.echo === null) return mustEcho ? `no action echoed its params (status ${o.status})` : null;
        const actual = paramAt(o.echo.params, path);
        // Ruby's nil: absent, or JSON null.
        if (literal === 'nil' && actual === null) return null;
        return same(actual, expected) ? null : `params${path} is ${JSON.stringify(actual)}`;
      },
    });
  }
  for (const m of expect.matchAll(new RegExp(`${PARAM_PATH} has no (?:own )?"?([\\w$]+)"? key`, 'g'))) {
    const [_, path, key] = m;
    checks.push({
      name: `params${path} has no ${key} key`,
      run: (o) => {
        const node = o.echo === null ? undefined : paramAt(o.echo.params, path);
        return node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? `params${path} has a ${key} key` : null;
      },
    });
  }
  return checks;
}

// An action as the prose names it: "posts#create", or a resource action alone ("destroy").
const ACTION = String.raw`(?:[\w/]+#\w+|\b(?:index|show|new|create|edit|update|destroy)\b)`;
// A list of them: "destroy/update", "destroy and update", "create, update or destroy".
const ACTIONS = String.raw`${ACTION}(?:(?:\s*\/\s*|,\s*(?:and |or )?|\s+(?:and|or|nor)\s+)${ACTION})*`;
// What says an action does not run: "never runs", "not executed", "must not run", "is never invoked"...
const NEVER_RUNS = String.raw`(?:is |are |gets? )?(?:never|not|must not|must never|should not|should never|does not|do not|may not|cannot)(?: be)? (?:runs?|executed|executes|invoked|called|reached|dispatched|routed)\b`;
const actionsIn = (list: string) => [...list.matchAll(new RegExp(ACTION, 'g'))].map((m) => m[0]);

/** Actions the prose says must not run: "posts#create never runs", "never routed to destroy/update", "destroy and update are not executed". */
function forbiddenActions(expect: string): string[] {
  const out: string[] = [];
  for (const m of expect.matchAll(new RegExp(`(${ACTIONS})(?: actions?)? ${NEVER_RUNS}`, 'g'))) out.push(...actionsIn(m[1]));
  for (const m of expect.matchAll(new RegExp(`never (?:routed|dispatched) to (${ACTIONS})`, 'g'))) out.push(...actionsIn(m[1]));
  if (/\bposts? (?:is |are )?(?:never|not) created|\bno post (?:is )?created\b/i.test(expect)) out.push('posts#create');
  return [...new Set(out)];
}

const matchesAction = (ran: string, named: string) => (named.includes('#') ? ran === named : ran.endsWith(`#${named}`));

/** Paths the prose says are never routed: "/admin/smuggled never routed". */
function forbiddenPaths(expect: string): string[] {
  return [...expect.matchAll(/(\/[\w/.-]+) (?:is |must |should |must be |should be )?(?:never|not)(?: be)? (?:routed|reached|dispatched|served by an action)\b/g)].map((m) => m[1]);
}

/** The action the prose says answers: "-> posts#index", "routed to posts#show". */
function routedAction(expect: string): string | null {
  return /(?:->|→|=>|⇒|\b(?:routed|dispatched|handled|answered|served)(?: as \w+)? (?:to|by))\s+([\w/]+#\w+)/.exec(expect)?.[1] ?? null;
}

/** Reads `expect` for one entry; `host` fills `{{host}}` in quoted Locations. */
export function readExpect(written: string, host: string): Reading {
  const expect = normaliseExpect(written);
  const statuses = allowedStatuses(expect);
  const checks: Check[] = paramChecks(expect, statuses);

  for (const action of forbiddenActions(expect)) {
    checks.push({ name: `${action} never runs`, run: (o) => (o.actions.some((a) => matchesAction(a.action, action)) ? `${action} ran` : null) });
  }
  if (/not routed to any action|\bno (?:controller )?action (?:runs|is run|is executed|is invoked|is reached)\b|\bnever reaches (?:an|any) action\b/.test(expect)) {
    checks.push({ name: 'no action runs', run: (o) => (o.actions.length > 0 ? `${o.actions.map((a) => a.action).join(', ')} ran` : null) });
  }
  for (const path of forbiddenPaths(expect)) {
    checks.push({ name: `${path} never routed`, run: (o) => (o.actions.some((a) => a.path === path) ? `an action ran for ${path}` : null) });
  }
  const routed = routedAction(expect);
  if (routed !== null) {
    checks.push({
      name: `answered by ${routed}`,
      run: (o) => (o.status >= 200 && o.status < 300 && !o.actions.some((a) => a.action === routed) ? `answered by ${o.actions.map((a) => a.action).join(', ') || 'no action'}` : null),
    });
  }
  if (/\b(?:empty session|session (?:is |must be |should be |stays |remains |must stay |must remain )?empty)\b/.test(expect)) {
    checks.push({ name: 'the session is empty', run: (o) => (o.echo && Object.keys(o.echo.session ?? {}).length > 0 ? `session is ${JSON.stringify(o.echo.session)}` : null) });
  }
  if (/valid session loaded/.test(expect)) {
    checks.push({ name: 'the valid session is loaded', run: (o) => (o.echo && Object.keys(o.echo.session ?? {}).length === 0 ? 'session is empty' : o.echo ? null : 'no echo') });
  }
  if (/value never an array/.test(expect)) {
    checks.push({ name: 'no cookie value is an array', run: (o) => (o.echo && Object.values(o.echo.session ?? {}).some(Array.isArray) ? 'an array value' : null) });
  }
  // "Location = "..."", "Location == "..."", "Location: "..."" (not "Location header = ...", which the corpus qualifies).
  const location = /\bLocation(?:\s*(?:===|==|=|:)|(?: header)? (?:is exactly|equals|must equal|must be exactly))\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')/.exec(expect);
  if (location) {
    const wanted = (location[1] !== undefined ? (JSON.parse(`"${location[1]}"`) as string) : location[2].replace(/\\'/g, "'")).replaceAll('{{host}}', host);
    checks.push({ name: `Location is ${wanted}`, run: (o) => (o.headers.location?.length === 1 && o.headers.location[0] === wanted ? null : `Location is ${JSON.stringify(o.headers.location)}`) });
  }
  if (/href never starts with javascript:/.test(expect)) {
    checks.push({ name: 'no javascript: link', run: (o) => (/href=["']?\s*javascript:/i.test(o.body) ? 'the body links to javascript:' : null) });
  }
  if (/not JSON-parsed|not parsed/.test(expect)) {
    checks.push({ name: 'the body is not parsed as JSON', run: (o) => (o.echo && paramAt(o.echo.params, '.post') !== undefined ? 'params.post came from the body' : null) });
  }
  const setCookieMax = /no Set-Cookie longer than (\d+) bytes/.exec(expect);
  if (setCookieMax) {
    const max = Number(setCookieMax[1]);
    checks.push({ name: `no Set-Cookie over ${max} bytes`, run: (o) => ((o.headers['set-cookie'] ?? []).some((c) => Buffer.byteLength(c) > max) ? 'an oversized cookie was sent' : null) });
  }
  if (/previous session cookie not replaced/.test(expect)) {
    checks.push({ name: 'the session cookie is not replaced', run: (o) => ((o.headers['set-cookie'] ?? []).length > 0 ? `Set-Cookie: ${o.headers['set-cookie']!.join(' | ').slice(0, 120)}` : null) });
  }
  if (/original_filename is a basename/.test(expect)) {
    checks.push({
      name: 'upload names are basenames',
      run: (o) => {
        const names = JSON.stringify(o.echo?.params ?? {}).match(/"original_filename":"[^"]*"/g) ?? [];
        if (o.echo === null || names.length === 0) return 'no upload reached the action';
        return names.some((n) => /[/\\]/.test(n.slice(20))) ? `names: ${names.join(', ')}` : null;
      },
    });
  }
  if (/\bsession not taken from params/.test(expect)) {
    checks.push({ name: 'no cookie derived from the parameters', run: (o) => ((o.headers['set-cookie'] ?? []).some((c) => /attackerfixed|forged/.test(c)) ? 'a cookie echoes the parameters' : null) });
  }
  if (/no 100 Continue|never (?:sends? )?(?:a )?100(?: Continue)?\b|before the body is invited|without inviting the body/i.test(expect)) {
    checks.push({ name: 'no 100 Continue before the answer', run: (o) => ((o.interim ?? []).includes(100) ? 'the server invited the body with 100 Continue' : null) });
  }
  if (/never reflected TRACE/.test(expect)) {
    checks.push({ name: 'TRACE is not reflected', run: (o) => (/^TRACE\b/m.test(o.body) ? 'the body reflects the request' : null) });
  }
  // "no X-Injected header": the response carries no such header; "no Set-Cookie: pwned": no such cookie.
  for (const m of expect.matchAll(/\b(?:no|never an?) ([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+) header\b/g)) {
    const name = m[1].toLowerCase();
    checks.push({ name: `no ${m[1]} header`, run: (o) => (o.headers[name] !== undefined ? `${m[1]}: ${o.headers[name].join(' | ').slice(0, 120)}` : null) });
  }
  for (const m of expect.matchAll(/\bno Set-Cookie:\s*([!#$%&'*+.^_`|~\w-]+)/g)) {
    const cookie = m[1];
    checks.push({ name: `no Set-Cookie: ${cookie}`, run: (o) => ((o.headers['set-cookie'] ?? []).some((c) => c.trimStart().startsWith(`${cookie}=`)) ? `a ${cookie} cookie was set` : null) });
  }
  // "body never contains "<script>"", "the body must not include 'root:'": text the response body must not hold
  // (reflected script, a file's contents); only a quoted text is exact enough to check.
  for (const m of expect.matchAll(new RegExp(String.raw`\bbody (?:never contains?|never includes?|(?:does|must|should) not (?:contain|include)|must never (?:contain|include))\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`, 'gi'))) {
    const text = String(literalValue(m[1])).replaceAll('{{host}}', host);
    checks.push({ name: `the body never contains ${JSON.stringify(text)}`, run: (o) => (o.body.includes(text) ? `the body contains ${JSON.stringify(text)}` : null) });
  }
  checks.push(...locationChecks(expect, host));
  const heap = heapBound(expect);
  const close_allowed = /\b(?:or (?:the )?(?:connection|socket) (?:is |gets )?(?:closed|dropped|reset|terminated)|or closed|or (?:a )?close)\b/i.test(expect);
  const reading = { statuses, exclusive: statusesExclusive(expect), within_ms: timeBound(expect), heap_mb: heap, close_allowed, checks };
  return { ...reading, unread: unreadParts(expect, reading) };
}

// How the prose bounds the heap: "heap growth < 10MB", "heap grows less than 10 MB", "memory growth <= 10 MB",
// "heap must not grow by more than 10MB".
const HEAP = /\b(?:heap|memory)(?: usage)? (?:growth|grows?|increase|increases|rises?|(?:must|should|may|does|do) not grow|doesn't grow|never grows)(?: by)?(?: (?:is|stays|must be|should be|must stay|remains))?\s*(?:<=?|≤|under|below|less than|at most|no more than|not more than|more than|within)?\s*(\d+(?:\.\d+)?)\s*(MB|MiB|KB|KiB|GB|GiB)\b/i;

/** The heap growth the prose allows, in MB. */
export function heapBound(expect: string): number | null {
  const m = HEAP.exec(expect);
  if (!m) return null;
  const unit = m[2].toUpperCase()[0];
  return Number(m[1]) * (unit === 'K' ? 1 / 1024 : unit === 'G' ? 1024 : 1);
}

/** The host a Location names, or null when it names none (a relative or unparsable one). */
function locationHost(location: string): string | null {
  try {
    return new URL(location).host;
  } catch {
    return null;
  }
}

/**
 * What the prose says of Location: "Location never evil.example" (names it nowhere),
 * "Location never starts with //", "never evil.example as its host", "Location host is
 * the configured/allow-listed host", "prefixed with http://{{host}}" (when there is one).
 */
function locationChecks(expect: string, host: string): Check[] {
  const checks: Check[] = [];
  const locations = (o: Observed) => o.headers.location ?? [];
  // The prefix as a word of the prose: without its quotes, nor the punctuation that ends its clause ("prefixed with http://host/; ...").
  const unquote = (text: string) => text.replace(/^["'`]|["'`,.;:)]+$/g, '');
  for (const m of expect.matchAll(/Location (?:never|must not|must never|should not|does not)(?: names?| contains?| includes?| mentions?)? ([\w-]+(?:\.[\w-]+)+)\b(?! as its host)/g)) {
    checks.push({ name: `Location never names ${m[1]}`, run: (o) => (locations(o).some((l) => l.includes(m[1])) ? `Location: ${locations(o)}` : null) });
  }
  for (const m of expect.matchAll(/Location never starts with (\S+)/g)) {
    const prefix = unquote(m[1]);
    checks.push({ name: `Location never starts with ${prefix}`, run: (o) => (locations(o).some((l) => l.startsWith(prefix)) ? `Location: ${locations(o)}` : null) });
  }
  for (const m of expect.matchAll(/never ([\w-]+(?:\.[\w-]+)+) as its host|Location host (?:is )?never ([\w-]+(?:\.[\w-]+)+)/g)) {
    const named = (m[1] ?? m[2]).toLowerCase();
    checks.push({ name: `Location's host is never ${named}`, run: (o) => (locations(o).some((l) => locationHost(l)?.split(':')[0] === named) ? `Location: ${locations(o)}` : null) });
  }
  if (/Location host is (?:the )?(?:configured|allow-listed|request(?:'s)?)\b/i.test(expect)) {
    checks.push({ name: `Location's host is ${host}`, run: (o) => (locations(o).some((l) => locationHost(l) !== null && locationHost(l) !== host) ? `Location: ${locations(o)}` : null) });
  }
  for (const m of expect.matchAll(/prefixed with (\S+)/g)) {
    const prefix = unquote(m[1]).replaceAll('{{host}}', host);
    checks.push({ name: `Location starts with ${prefix}`, run: (o) => (locations(o).some((l) => !l.startsWith(prefix)) ? `Location: ${locations(o)}` : null) });
  }
  return checks;
}

/** Outcomes every entry shares, checked whatever the prose: naming one is an outcome the runner holds it to. */
const SHARED_OUTCOME = /process (?:stays |remains |is still |still |must stay |must remain |should stay )?alive|process (?:must |should )?survives?|(?:process|server) (?:does not|doesn't|must not|never) crash(?:es)?|never crash(?:es)?|no crash|Object\.prototype (?:is |stays |remains )?(?:unchanged|untouched|unmodified|not (?:polluted|modified|changed))|no prototype pollution|\(\{\}\)\.\w+ === undefined|no uncaught exception|never (?:a )?5(?:00|xx)\b|\bno 5(?:00|xx)\b|not (?:a )?500\b|must not cause a 500|Object\.prototype gains no own properties|never file contents|no file disclosure|no stack overflow|server (?:survives|keeps running|stays up|still up)|follow-up|GET \/ (?:still )?(?:returns|answers) 200|raises at (?:boot|declaration)|\bclos(?:e|es|ed|ing)\b[^;]{0,40}?\b(?:10\d\d|[34]\d{3})\b|connection closed|closed by server/i;

/** What in `expect` this reader could not turn into a check. */
function unreadParts(expect: string, reading: Omit<Reading, 'unread'>): string[] {
  const unread: string[] = [];
  // A slow client's close time is the runner's to read (closeBound).
  const stray = /closed by server|headersTimeout|requestTimeout/i.test(expect) ? [] : otherTimes(expect);
  if (stray.length > 0) unread.push(`a time it cannot place: ${stray.join(', ')}`);
  const size = /\b(?:heap|memory)\b[^;]*?\b\d+(?:\.\d+)?\s*(?:MB|MiB|KB|KiB|GB|GiB)\b/i.exec(expect);
  if (size && reading.heap_mb === null && !/per request/i.test(size[0])) unread.push(`a memory bound it cannot place: ${size[0]}`);
  const outcome = reading.statuses.size > 0 || reading.checks.length > 0 || reading.within_ms !== null || reading.heap_mb !== null || absentFiles(expect).length > 0;
  if (!outcome && !SHARED_OUTCOME.test(expect)) unread.push(`no outcome it can check in: ${JSON.stringify(expect)}`);
  return unread;
}

/**
 * The WebSocket close codes the prose accepts: every code it names, when it speaks of a close
 * ("close 1009", "close 1007 (or 1002)", "closes with code 1008/1009", "closed (1002)").
 */
export function closeCodes(expect: string): number[] {
  if (!/\bclos(?:e|es|ed|ing)\b/i.test(expect)) return [];
  return [...new Set([...expect.matchAll(/\b(10(?:0[0-9]|1[0-5])|[34]\d{3})\b(?!\s*(?:ms|s\b|MB|KB|bytes))/g)].map((m) => Number(m[1])))];
}

/** Whether an error answer is as good as a close ("error frame or close 1009", "close 1009 or an error frame"). */
export function errorOrClose(expect: string): boolean {
  return /error (?:frame|answer)s?\b[^;]*\bor (?:a |the socket )?clos|\bclos(?:e|ed)\b[^;]*\bor (?:with )?(?:an )?error (?:frame|answer)/i.test(expect);
}

/** Files the prose says must not exist afterwards: "(/tmp/pwned.txt absent)". */
export function absentFiles(expect: string): string[] {
  const said = /\((\/[\w/.-]+) absent\)|(?<![\w.])(\/[\w/-]+\.[\w.-]+) (?:is |stays |remains )?(?:absent|must not exist|does not exist|never (?:exists|created|written))\b|\bno file (?:at|named|written (?:to|at)) (\/[\w/.-]+)/g;
  return [...new Set([...expect.matchAll(said)].map((m) => (m[1] ?? m[2] ?? m[3]).replace(/\.$/, '')))];
}
