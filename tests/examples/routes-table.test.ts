/**
 * Every route of the example blog's table, reached over HTTP. The test walks
 * `routes.routes` (not a hand-picked list): it fills each path with records
 * made for that request, sends the route's method (browsers' PUT and DELETE
 * as POST + `_method`, API clients' as themselves), and checks that the
 * route's own controller and action answered, sensibly for the method and
 * the format. A route added to routes.ts without an answer fails here.
 */
import * as assert from 'uvu/assert';
import type { Route } from '../../core/index.ts';
import { routes } from '../../examples/blog/routes.ts';
import { RUNS, blogSuite, type Blog } from './support.ts';

type Format = 'html' | 'json' | 'xml';

/** Valid attributes for the resource a controller writes. */
const ATTRIBUTES: Readonly<Record<string, [root: string, attrs: Record<string, string>]>> = {
  posts: ['post', { title: 'Route walk', body: 'Made by the route walk' }],
  comments: ['comment', { author: 'Walker', body: 'A comment from the route walk' }],
  accounts: ['account', { name: 'Walker', email: 'walker@example.com' }],
};

/** The status each kind of request should get, by method and format. */
function expectedStatus(route: Route, method: string, format: Format): number {
  if (route.defaults.action === 'crash') return 500;
  const api = format !== 'html';
  switch (method) {
    case 'GET': return 200;
    case 'POST': return api ? 201 : 302;
    case 'PUT': return api ? 200 : 302;
    case 'DELETE': return api ? 204 : 302;
    default: throw new Error(`unexpected method ${method}`);
  }
}

const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
};

/** Makes the records a request to `route` needs, and returns the path parameters that name them. */
function fixtures(blog: Blog, route: Route): Record<string, string> {
  const { store } = blog;
  const post = store.posts.create({ title: 'Walked', body: 'A post for one request' });
  const comment = store.comments.save(store.buildComment(post, { author: 'Fixture', body: 'A comment for one request' }));
  if (route.defaults.controller === 'accounts') {
    // The singleton exists for every action but create, which needs it gone.
    const existing = store.account;
    if (route.defaults.action === 'create' && existing) store.accounts.destroy(existing.id);
    if (route.defaults.action !== 'create' && !existing) store.accounts.create({ name: 'Owner', email: 'owner@example.com' });
  }
  return { post_id: String(post.id), id: String(route.defaults.controller === 'comments' ? comment.id : post.id) };
}

function fillPath(route: Route, params: Record<string, string>): string {
  const path = route.path.replace(/:(\w+)/g, (_, key: string) => {
    if (!(key in params)) throw new Error(`no value for :${key} in ${route.path}`);
    return params[key];
  });
  return path === '' ? '/' : path;
}

function requestFor(route: Route, method: string, format: Format): { method: string; headers: Record<string, string>; body?: string } {
  const writes = method === 'POST' || method === 'PUT';
  const [root, attrs] = ATTRIBUTES[route.defaults.controller] ?? ['none', {}];
  if (format === 'html') {
    // A browser: GET, or a form POST carrying `_method` for PUT and DELETE.
    if (method === 'GET') return { method, headers: { Accept: 'text/html' } };
    const fields = new URLSearchParams({ authenticity_token: '' });
    if (method !== 'POST') fields.set('_method', method.toLowerCase());
    if (writes) for (const [k, v] of Object.entries(attrs)) fields.set(`${root}[${k}]`, v);
    return { method: 'POST', headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' }, body: fields.toString() };
  }
  if (!writes) return { method, headers: {} };
  if (format === 'json') return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ [root]: attrs }) };
  const xml = `<${root}>${Object.entries(attrs).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</${root}>`;
  return { method, headers: { 'Content-Type': 'application/xml' }, body: xml };
}

for (const run of RUNS) {
  const it = blogSuite('blog: every route of the table', run);

  it('each route answers through its own controller and action, in every format it has', async ({ blog }) => {
    const reached = new Set<Route>();
    for (const route of routes.routes) {
      const formats: Format[] = route.segment_keys.includes('format') ? ['html', 'json', 'xml'] : ['html'];
      // A route without a method condition (root, admin_root) is reached with GET.
      const method = route.methods?.[0] ?? 'GET';
      for (const format of formats) {
        const path = fillPath(route, { ...fixtures(blog, route), format });
        const request = requestFor(route, method, format);
        const label = `${route.name ?? '(unnamed)'} ${method} ${path}`;
        const before = blog.requests.length;
        const res = await blog.fetch(path, request);
        const body = await res.text();

        assert.is(blog.requests.length, before + 1, `${label}: routed, not served from public/`);
        const log = blog.requests[before];
        const expected = expectedStatus(route, method, format);
        assert.is(res.status, expected, `${label}: ${body.slice(0, 300)}`);
        assert.is(log.status, expected, label);
        // (A request whose action raised is logged without its controller: see framework-gaps.test.ts.)
        if (expected !== 500) assert.is(`${log.controller}#${log.action}`, `${route.defaults.controller}#${route.defaults.action}`, label);

        if (res.status === 200) {
          assert.is(res.headers.get('content-type'), CONTENT_TYPES[format], label);
          if (format === 'json') JSON.parse(body);
          if (format === 'xml') assert.match(body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<[a-z-]+[ >]/, label);
          if (format === 'html') assert.match(body, /^<!DOCTYPE html>[\s\S]*<\/html>\n$/, label);
        } else if (res.status === 201 || res.status === 302) {
          const location = res.headers.get('location') ?? '';
          assert.ok(location.startsWith(`${blog.url}/`), `${label}: Location ${location}`);
          // Wherever it points is itself a working page or resource.
          const target = await blog.get(new URL(location).pathname, { Accept: format === 'html' ? 'text/html' : `application/${format}` });
          assert.is(target.status, 200, `${label}: following ${location}`);
        } else if (res.status === 204) {
          assert.is(body, '', label);
        } else if (res.status === 500) {
          assert.not.match(body, 'Deliberate', label);
        }
      }
      reached.add(route);
    }
    assert.is(reached.size, routes.routes.length);
  });

  it.run();
}
