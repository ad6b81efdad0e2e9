/**
 * What every server in `bench/http.ts` answers for GET /posts/1 and
 * GET /posts/1.html: the same in-memory post serialised with JSON.stringify
 * on each request, and the same small HTML page, with the same Content-Type.
 */

export const POST = Object.freeze({
  id: 1,
  title: 'Hello from Signalbox',
  body: 'Rails 2.1 routing and a request machine, measured over HTTP.',
  author: 'bench',
  published: true,
  comments_count: 3,
  created_at: '2008-06-01T12:00:00Z',
});

export const HTML = '<!DOCTYPE html><html><head><title>Hello from Signalbox</title></head><body><h1>Hello from Signalbox</h1><p>Rails 2.1 routing and a request machine, measured over HTTP.</p></body></html>';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

export const PATHS = { json: '/posts/1', html: '/posts/1.html' } as const;

/** The routes `bench/http.ts` and `bench/tunnel.ts` measure, with what each must answer. */
export interface RouteSpec { readonly key: 'json' | 'html'; readonly label: string; readonly path: string; readonly type: string; readonly body: string }
export const ROUTES: readonly RouteSpec[] = [
  { key: 'json', label: 'GET /posts/1 (JSON)', path: PATHS.json, type: JSON_TYPE, body: JSON.stringify(POST) },
  { key: 'html', label: 'GET /posts/1.html', path: PATHS.html, type: HTML_TYPE, body: HTML },
];
