/**
 * Internal to the model tests: what makes a request take each state and
 * each transition of the request machine, against the fixture app of
 * request-fixture.ts.
 *
 * A transition's entry lists the ingredients that cause it. The first is
 * the one every path through the transition uses; each further one is an
 * alternative, and it yields one more request for each path through the
 * transition. A path's request is its ingredients applied in path order
 * to a plain `GET /widgets`, so a later ingredient refines what an
 * earlier one chose (the error raised in dispatch is chosen after the
 * route that leads there). A state's entry says what brings a request
 * there, and optionally what any response of a request that passed
 * through it must show.
 *
 * Keys are `source -> target [guard] (event)`, as machine-model.ts names
 * transitions. A state or transition of the machine without an entry fails
 * the model test, naming it.
 */
import type { ModelPath } from './machine-model.ts';
import { PAGES } from './request-fixture.ts';
import type { ClientResponse } from '../support/harness.ts';

export interface Expectation {
  readonly status?: number;
  /** The body of a GET (a HEAD must answer with the same headers and no body). */
  readonly body?: string;
  /** Headers (lower-case names) that must have exactly these values. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Draft {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Send `If-None-Match` naming the ETag this very request gets without it (asked once first, untraced). */
  readonly conditional?: boolean;
  /** Ask once first, untraced (a cached page is written by a first request, and answers the next). */
  readonly warm?: boolean;
  readonly expect: Expectation;
}

export interface Ingredient {
  readonly why: string;
  readonly request?: Partial<Omit<Draft, 'expect'>>;
  readonly expect?: Expectation;
}

export interface StateEntry {
  readonly why: string;
  /** What every response of a request that entered this state shows; a message when it does not. */
  readonly observe?: (response: ClientResponse, draft: Draft) => string | null;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_BODY = { 'content-type': 'application/json' };
const REVALIDATE = 'private, max-age=0, must-revalidate';

const header = (r: ClientResponse, name: string): string | undefined => {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

const nothing = (why: string): Ingredient => ({ why });

export const TRANSITION_INGREDIENTS: Readonly<Record<string, readonly Ingredient[]>> = {
  'servingPublic -> parsing (done)': [nothing('a path no public file or cached page answers')],
  'servingPublic -> responding [publicAnswerFound] (done)': [
    { why: 'a file in the public directory', request: { path: '/404.html' }, expect: { status: 200, body: PAGES['404.html'] } },
    { why: 'a cached page', request: { path: '/widgets/shelf', warm: true }, expect: { status: 200, body: 'the shelf', headers: { 'x-cache': 'hit' } } },
  ],
  'servingPublic -> rescuing (error)': [{
    why: 'a path whose escapes do not decode, refused by its first reader',
    request: { path: '/widgets%E0' },
    expect: { status: 400 },
  }],
  'parsing -> negotiating (done)': [nothing('a request that parses: a known method and well-formed parameters')],
  'parsing -> unknownMethod [isUnknownMethod] (error)': [{
    why: 'an unknown method: a POST whose _method is brew',
    request: { method: 'POST', headers: FORM, body: '_method=brew' },
    expect: { status: 501, headers: { allow: 'GET, HEAD, POST, PUT, DELETE, OPTIONS' } },
  }],
  'parsing -> rescuing (error)': [
    { why: 'a parse failure: a query with a bad percent escape', request: { path: '/widgets?a=%zz' }, expect: { status: 400 } },
    { why: 'a parse failure: a JSON body that does not parse', request: { method: 'POST', headers: JSON_BODY, body: '{"widget":' }, expect: { status: 400 } },
  ],
  'negotiating -> checkingForgery (always)': [nothing('nothing more: every request that parsed')],
  'checkingForgery -> recognizing (always)': [nothing('nothing more: the verdict is only recorded here')],
  'recognizing -> dispatching [routeFound] (always)': [
    nothing('a path and method a route takes (GET /widgets)'),
    { why: 'HEAD, recognised as GET', request: { method: 'HEAD' } },
  ],
  'recognizing -> forgeryRejected [isUnroutedForgery] (always)': [{
    why: 'a tokenless form to a path no route takes with its method (DELETE /widgets)',
    request: { method: 'DELETE', headers: FORM, body: 'a=1' },
    expect: { status: 422, body: PAGES['422.html'] },
  }],
  'recognizing -> methodNotAllowed [pathAllowsOtherMethods] (always)': [{
    why: 'a method the path does not take, in a body no forgery check applies to (DELETE /widgets as JSON)',
    request: { method: 'DELETE', headers: JSON_BODY },
    expect: { status: 405, headers: { allow: 'GET, POST' } },
  }],
  'recognizing -> routingError (always)': [{
    why: 'a path no route takes',
    request: { path: '/nowhere' },
    expect: { status: 404, body: PAGES['404.html'] },
  }],
  'dispatching -> rendering (done)': [nothing('an action that finishes without raising')],
  'dispatching -> notAcceptable [isNotAcceptable] (error)': [
    { why: 'an Accept list respond_to has nothing for', request: { headers: { accept: 'image/png' } }, expect: { status: 406, body: '' } },
    { why: 'a format no MIME type is registered for', request: { path: '/widgets.xyz' }, expect: { status: 406, body: '' } },
  ],
  'dispatching -> forgeryRejected [isForgeryRejected] (error)': [
    {
      why: 'a tokenless form to a protected action (POST /widgets)',
      request: { method: 'POST', path: '/widgets', headers: FORM, body: 'widget%5Bname%5D=cog' },
      expect: { status: 422, body: PAGES['422.html'] },
    },
  ],
  'dispatching -> rescuing (error)': [
    { why: 'an action that raises, unrescued', request: { path: '/widgets/explode' }, expect: { status: 500, body: PAGES['500.html'] } },
    { why: 'a routed action the controller lacks', request: { path: '/gadgets/missing' }, expect: { status: 404, body: PAGES['404.html'] } },
    {
      // As in Rails: the controller decides an action it lacks, and this one has no forgery check to fail.
      why: 'a tokenless form to a routed action an unprotected controller lacks',
      request: { method: 'POST', path: '/gadgets/missing', headers: FORM, body: 'a=1' },
      expect: { status: 404, body: PAGES['404.html'] },
    },
  ],
  'rendering -> notModified [isFresh] (always)': [{
    why: 'If-None-Match naming the ETag of the answer',
    request: { conditional: true },
    expect: { status: 304, body: '' },
  }],
  'rendering -> responding (always)': [
    { why: 'an answer the client does not have yet', expect: { status: 200, body: 'widgets' } },
    {
      why: 'a POST with _method=put, routed to update',
      request: { method: 'POST', path: '/widgets/7', headers: FORM, body: '_method=put&widget%5Bname%5D=cog' },
      expect: { status: 200, body: 'updated widget 7' },
    },
    { why: 'a verification failure: a required parameter missing', request: { path: '/widgets/audit' }, expect: { status: 400, body: '' } },
  ],
  'notModified -> responding (always)': [nothing('nothing more')],
  'routingError -> responding (always)': [nothing('nothing more')],
  'methodNotAllowed -> responding (always)': [nothing('nothing more')],
  'unknownMethod -> responding (always)': [nothing('nothing more')],
  'notAcceptable -> responding (always)': [nothing('nothing more')],
  'forgeryRejected -> responding (always)': [nothing('nothing more')],
  'rescuing -> responding (always)': [nothing('nothing more')],
  'responding -> done (always)': [nothing('nothing more')],
};

const bodyOf = (r: ClientResponse) => r.body.toString('utf8');
const isHead = (d: Draft) => d.method === 'HEAD';

export const STATE_INGREDIENTS: Readonly<Record<string, StateEntry>> = {
  servingPublic: { why: 'every request' },
  parsing: { why: 'a request no public file answers' },
  negotiating: { why: 'a request that parses' },
  checkingForgery: { why: 'a request that parses' },
  recognizing: { why: 'a request that parses' },
  dispatching: { why: 'a path and method a route takes' },
  rendering: {
    why: 'an action that finishes',
    observe: (r) => (r.status === 200 && Number(header(r, 'content-length')) > 0 && !(header(r, 'etag') && header(r, 'cache-control') === REVALIDATE)
      ? 'a 200 with a body lacks its ETag or revalidating Cache-Control' : null),
  },
  notModified: {
    why: 'If-None-Match naming the ETag of the answer',
    observe: (r) => (r.status === 304 && r.body.length === 0 && header(r, 'etag') ? null : `expected an empty 304 with an ETag, got ${r.status}`),
  },
  routingError: { why: 'a path no route takes', observe: (r, d) => (r.status === 404 && (isHead(d) || bodyOf(r) === PAGES['404.html']) ? null : `expected public/404.html, got ${r.status}`) },
  methodNotAllowed: { why: 'a method the path does not take', observe: (r) => (r.status === 405 && header(r, 'allow') ? null : `expected 405 with Allow, got ${r.status}`) },
  unknownMethod: { why: 'an unknown method', observe: (r) => (r.status === 501 && header(r, 'allow') ? null : `expected 501 with Allow, got ${r.status}`) },
  notAcceptable: { why: 'nothing the client accepts', observe: (r) => (r.status === 406 && r.body.length === 0 ? null : `expected an empty 406, got ${r.status}`) },
  forgeryRejected: { why: 'a tokenless form', observe: (r, d) => (r.status === 422 && (isHead(d) || bodyOf(r) === PAGES['422.html']) ? null : `expected public/422.html, got ${r.status}`) },
  rescuing: {
    why: 'a request that does not parse, or an action that raises',
    // A public 500 is the page, never diagnostics.
    observe: (r, d) => (r.status < 400 ? `expected an error status, got ${r.status}` : r.status === 500 && !isHead(d) && bodyOf(r) !== PAGES['500.html'] ? 'a 500 without public/500.html' : null),
  },
  responding: {
    why: 'every request',
    observe: (r) => (header(r, 'x-runtime') === undefined ? 'no X-Runtime: the response did not come from respond()' : null),
  },
  done: { why: 'every request' },
};

export interface PlannedRequest {
  /** The path's states, and the alternative ingredient when there is one. */
  readonly label: string;
  readonly path: ModelPath;
  readonly ingredients: readonly string[];
  readonly draft: Draft;
}

const BASE: Draft = { method: 'GET', path: '/widgets', headers: {}, expect: {} };

function apply(draft: Draft, ingredient: Ingredient): Draft {
  const r = ingredient.request ?? {};
  return { ...draft, ...r, headers: { ...draft.headers, ...r.headers }, expect: { ...draft.expect, ...ingredient.expect } };
}

// Null when a transition on the path has no ingredient (the table check names it).
function build(path: ModelPath, choose: (ways: readonly Ingredient[], step: number) => Ingredient): { draft: Draft; ingredients: string[] } | null {
  let draft = BASE;
  const ingredients: string[] = [];
  for (const [step, key] of path.transitions.entries()) {
    const ways = TRANSITION_INGREDIENTS[key];
    if (!ways || ways.length === 0) return null;
    const ingredient = choose(ways, step);
    ingredients.push(ingredient.why);
    draft = apply(draft, ingredient);
  }
  return { draft, ingredients };
}

/**
 * The concrete requests for `paths`: one per path from the first ingredients, and one per alternative
 * ingredient of each transition on it. Requests that come out the same are kept once.
 */
export function planRequests(paths: readonly ModelPath[]): PlannedRequest[] {
  const planned = new Map<string, PlannedRequest>();
  const add = (path: ModelPath, label: string, built: { draft: Draft; ingredients: string[] } | null) => {
    if (built === null) return;
    const { expect: _expect, ...request } = built.draft;
    const id = JSON.stringify(request);
    if (!planned.has(id)) planned.set(id, { label, path, ingredients: built.ingredients, draft: built.draft });
  };
  for (const path of paths) {
    const route = path.states.join(' > ');
    add(path, route, build(path, (ways) => ways[0]));
    path.transitions.forEach((key, i) => {
      for (const alternative of (TRANSITION_INGREDIENTS[key] ?? []).slice(1)) {
        add(path, `${route}, with ${alternative.why}`, build(path, (ways, step) => (step === i ? alternative : ways[0])));
      }
    });
  }
  return [...planned.values()];
}
