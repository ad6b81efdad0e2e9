/**
 * What every server in the HTTP benches answers for GET /posts/1 and GET /posts/1.html: the same
 * in-memory post, found afresh (`findPost`) and serialised with JSON.stringify on each request, and the same page, with the same
 * Content-Type. Signalbox renders the page from real templates (bench/fixtures/views: a layout, two
 * partials, route helpers, escaping); the peers render it with `page()` below, a template literal
 * with the same escaping, on each request. The benches check the bodies are byte-identical before
 * measuring.
 */

export interface BenchPost {
  readonly id: number;
  readonly title: string;
  readonly body: string;
  readonly author: string;
  readonly published: boolean;
  readonly comments_count: number;
  readonly created_at: string;
  readonly tags: readonly string[];
}

// Text with characters to escape, so both sides do the work a real page does.
export const POST: BenchPost = Object.freeze({
  id: 1,
  title: 'Hello from <Signalbox> & friends',
  body: 'Rails 2.1 routing and a request machine, measured over "HTTP" — it\'s a bench.',
  author: 'bench & co',
  published: true,
  comments_count: 3,
  created_at: '2008-06-01T12:00:00Z',
  tags: Object.freeze(['routing', 'views & layouts', '<xstate>']),
});

/**
 * The post as a model's find gives it: a new record for each request, as a store hands out rows, so
 * no server serialises or renders one shared object. (The servers used to share the frozen
 * POST itself. V8 13 serialises a frozen array on its slow path, about 0.3 µs per JSON.stringify on
 * Node 24, a cost a record read from a store never pays: bench/RESULTS.md, tunnel section.)
 */
export function findPost(id: number): BenchPost | undefined {
  return id === POST.id ? { ...POST, tags: [...POST.tags] } : undefined;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** HTML escaping as the peers write it: the five characters, as Signalbox's `html` escapes them. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The page as a peer renders it per request: bench/fixtures/views' templates, written as one template literal. */
export function page(post: BenchPost): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${esc(post.title)} · Bench</title></head>
<body><nav><a href="/posts" class="nav">All posts</a></nav>
<main><article id="post-${post.id}">
<h1>${esc(post.title)}</h1>
<p class="byline">by ${esc(post.author)}, ${esc(post.created_at)}</p>
<p>${esc(post.body)}</p>
<ul class="tags">${post.tags.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>
<p><a href="/posts/${post.id}/edit">Edit</a> · <a href="/posts/${post.id}">Permalink</a></p>
</article>
</main>
<footer>Signalbox bench</footer></body></html>
`;
}

/** The page every server must send for GET /posts/1.html. */
export const HTML = page(POST);

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

export const PATHS = { json: '/posts/1', html: '/posts/1.html' } as const;

/** The routes the head-to-head and tunnel benches measure, with what each must answer. */
export interface RouteSpec { readonly key: 'json' | 'html'; readonly label: string; readonly path: string; readonly type: string; readonly body: string }
export const ROUTES: readonly RouteSpec[] = [
  { key: 'json', label: 'GET /posts/1 (JSON)', path: PATHS.json, type: JSON_TYPE, body: JSON.stringify(POST) },
  { key: 'html', label: 'GET /posts/1.html (view: layout, two partials, route helpers, escaping)', path: PATHS.html, type: HTML_TYPE, body: HTML },
];

/**
 * An example blog page (bench/servers/blog-server.ts) with its authenticity tokens blanked: each
 * visitor's forms carry their own, and apart from them two servers must send the same bytes.
 */
export const withoutTokens = (body: string): string => body.replace(/name="authenticity_token" value="[^"]*"/g, 'name="authenticity_token" value="…"');
