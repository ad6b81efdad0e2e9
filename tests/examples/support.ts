/**
 * Running the example blog for its integration tests: a fresh store and
 * app per test, served on a free port of 127.0.0.1, once per entry of
 * `RUNS` (each engine over HTTP, and the WebSocket tunnel). Logs go to an in-memory sink (the tests read which controller and
 * action answered from the `request completed` lines), so runs stay quiet. Each blog caches its pages in
 * a directory of its own under the OS temp dir, and its post pages in a memory store of its own.
 *
 * @example
 *   for (const run of RUNS) {
 *     const it = blogSuite('posts', run);
 *     it('lists posts', async ({ blog }) => { assert.is((await blog.get('/posts')).status, 200); });
 *     it.run();
 *   }
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { suite, type Test } from 'uvu';
import type { App, Engine } from '../../machines/index.ts';
import { TunnelError, serve, tunnel, type RunningServer, type Tunnel, type TunnelResponse } from '../../transport/index.ts';
import { createBlogApp, type BlogAppOptions } from '../../examples/blog/app.ts';
import { Store } from '../../examples/blog/models.ts';
import { scratchDir } from '../support/temp.ts';

/** One way of running the blog: which engine runs its requests, and which transport carries them. */
export interface BlogRun {
  readonly engine: Engine;
  readonly transport: 'http' | 'tunnel';
}

/** Both engines over HTTP, and the default engine through the WebSocket tunnel: every suite runs once per entry. */
export const RUNS: readonly BlogRun[] = [
  { engine: 'compiled', transport: 'http' },
  { engine: 'xstate', transport: 'http' },
  { engine: 'compiled', transport: 'tunnel' },
];

/** A WHATWG Response from a tunnel answer, so suites read both transports alike. */
function asResponse(res: TunnelResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers.raw)) {
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const nullBody = res.status === 204 || res.status === 304 || res.status < 200;
  return new Response(nullBody ? null : Buffer.from(res.body), { status: res.status, statusText: res.statusText, headers });
}

/** `fetch` through a tunnel socket: the same request as an HTTP client would send, carried as a frame. */
function tunnelFetch(t: Tunnel): (path: string, init?: RequestInit) => Promise<Response> {
  return async (path, init = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : String(init.body);
    if (body !== undefined && init.body instanceof URLSearchParams) headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    try {
      return asResponse(await t.request({ method: init.method ?? 'GET', path, headers, body }));
    } catch (error) {
      // Requests the tunnel refuses to carry (an unknown method) come back as error frames with a status.
      if (error instanceof TunnelError && error.status !== undefined) return new Response(error.message, { status: error.status });
      throw error;
    }
  };
}

/** One `request completed` log line: which controller and action answered. */
export interface RequestLog {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly controller: string | null;
  readonly action: string | null;
  /** For a cached action: whether the caches answered (`hit`, a page hit logged by the transport) or not. */
  readonly cache?: 'hit' | 'miss';
}

export interface Blog {
  readonly app: App;
  readonly store: Store;
  readonly server: RunningServer;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request the app completed, in order. */
  readonly requests: RequestLog[];
  /** Every log line, parsed. */
  readonly lines: Record<string, unknown>[];
  /** `fetch` against the server; redirects are never followed, so tests see the 302s. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** A browser form post: url-encoded `fields` (add `_method` for PUT and DELETE). */
  submit(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** An API call with a JSON body. */
  json(method: string, path: string, body: unknown): Promise<Response>;
  /** An API call with an XML body. */
  xml(method: string, path: string, body: string): Promise<Response>;
  /**
   * A browser's session: GETs a page with a form and returns its session cookie (`_session_id=...`)
   * and the form's authenticity token, as a browser would send them back.
   */
  session(path?: string): Promise<{ cookie: string; token: string }>;
  close(): Promise<void>;
}

export const TEST_SECRET = 'the example blog test suite session secret';
export const ADMIN = Object.freeze({ user: 'editor', password: 'correct horse battery staple' });
export const ADMIN_AUTHORIZATION = `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`;

/** The session cookie a browser holds after `response`: the one it set, else the one it had (cookie sessions change with their data). */
export function cookieAfter(response: Response, cookie: string): string {
  const set = response.headers.get('set-cookie');
  return set ? set.split(';')[0] : cookie;
}

/** Starts the blog on a free port with a fresh store (or the one given). */
export async function startBlog(run: BlogRun, options: Omit<BlogAppOptions, 'engine' | 'logger'> = {}): Promise<Blog> {
  const engine = run.engine;
  const store = options.store ?? new Store({ clock: () => Date.UTC(2025, 2, 3, 14, 5) });
  const lines: Record<string, unknown>[] = [];
  const requests: RequestLog[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (text.trim() === '') continue;
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        if (line.msg === 'request completed') requests.push(line as unknown as RequestLog);
      }
      done();
    },
  });
  const app = createBlogApp({
    ...options, engine, store, environment: options.environment ?? 'test', logger: pino({ level: 'info' }, sink), secret: TEST_SECRET, admin: ADMIN,
    page_cache_directory: options.page_cache_directory ?? scratchDir('blog-pages'),
  });
  const server = await serve(app, { port: 0, host: '127.0.0.1' });
  const url = server.url;
  const socket = run.transport === 'tunnel' ? await tunnel(`ws://127.0.0.1:${server.port}${server.tunnel!.path}`, { cookies: false, reconnect: false }) : null;
  const carry = socket ? tunnelFetch(socket) : (path: string, init: RequestInit) => fetch(url + path, { redirect: 'manual', ...init });
  // The admin area asks for HTTP Basic credentials; the suites act as the signed-in admin unless a request says otherwise.
  const doFetch = (path: string, init: RequestInit = {}) => carry(path, {
    ...init,
    headers: path.startsWith('/admin') ? { Authorization: ADMIN_AUTHORIZATION, ...(init.headers as Record<string, string> | undefined) } : init.headers,
  });
  return {
    app, store, server, url, requests, lines,
    fetch: doFetch,
    get: (path, headers = {}) => doFetch(path, { headers }),
    submit: (path, fields, headers = {}) => doFetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
    json: (method, path, body) => doFetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    }),
    xml: (method, path, body) => doFetch(path, {
      method,
      headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' },
      body,
    }),
    async session(path = '/posts/new') {
      const res = await doFetch(path, { headers: { Accept: 'text/html' } });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
      const token = /name="authenticity_token" value="([^"]*)"/.exec(await res.text())?.[1] ?? '';
      if (cookie === '' || token === '') throw new Error(`GET ${path} gave no session cookie or no token`);
      return { cookie, token };
    },
    async close() {
      await socket?.close();
      await server.close();
    },
  };
}

export interface BlogContext {
  blog: Blog;
}

/** A uvu suite named `<name> [<engine>, <transport>]` that starts a fresh blog before each test and stops it after. */
export function blogSuite(name: string, run: BlogRun, options: Omit<BlogAppOptions, 'engine' | 'logger'> = {}): Test<BlogContext> {
  const it = suite<BlogContext>(`${name} [${run.engine}, ${run.transport}]`, {} as BlogContext);
  it.before.each(async (context) => {
    context.blog = await startBlog(run, options);
  });
  it.after.each(async (context) => {
    await context.blog.close();
  });
  return it;
}

/** The path of a `Location` header (the host is the test server's). */
export function locationPath(response: Response): string {
  const location = response.headers.get('location');
  if (location === null) throw new Error(`no Location header on a ${response.status} response`);
  const parsed = new URL(location);
  return parsed.pathname + parsed.search + parsed.hash;
}

/** The id at the end of a `Location` path (`/posts/4` -> 4). */
export function locationId(response: Response): number {
  const path = locationPath(response).replace(/#.*$/, '');
  return Number(path.slice(path.lastIndexOf('/') + 1));
}
