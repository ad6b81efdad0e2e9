// Run by plain `node` (no TypeScript loader) in a project that installed the packed package
// (tests/package/packed.test.ts): imports every entry the package exports, serves a small
// application written in plain JavaScript, and prints what it saw as JSON. The suite also runs it under
// --disallow-code-generation-from-strings, where it must see the same.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('./node_modules/signalbox/package.json', import.meta.url), 'utf8'));
const entries = {};
for (const subpath of Object.keys(manifest.exports)) {
  if (subpath === './package.json') continue;
  const specifier = subpath === '.' ? 'signalbox' : `signalbox/${subpath.slice(2)}`;
  entries[specifier] = Object.keys(await import(specifier)).sort();
}

const { Controller, createApp, draw, serve } = await import('signalbox');
const { tunnel } = await import('signalbox/tunnel-client');

class PostsController extends Controller {
  index() {
    this.render({ json: { posts: [{ id: 1, title: 'Hello' }] } });
  }
}
const routes = draw((map) => { map.resources('posts', { only: ['index', 'show'] }); });
// Named and hash generation and recognition, which routing compiles to functions where the process allows it.
const generated = {
  named: routes.helpers().post_path(7),
  hash: routes.generate({ controller: 'posts', action: 'show', id: '7', page: 2 }),
  recognized: routes.recognize('GET', '/posts/7'),
};
const app = createApp({ routes, controllers: { posts: PostsController }, logger: false });
const server = await serve(app, { port: 0, host: '127.0.0.1', inspect: true });
try {
  const http = await fetch(`${server.url}/posts.json`);
  const missing = await fetch(`${server.url}/nowhere`);
  const inspector = await fetch(`${server.url}/__inspect`);
  const elk = await fetch(`${server.url}/__inspect/elk.bundled.js`);
  const client = await tunnel(`${server.url.replace('http', 'ws')}/_tunnel`);
  const tunnelled = await client.request({ path: '/posts.json' });
  const result = {
    entries,
    generated,
    http: { status: http.status, body: await http.json() },
    missing: missing.status,
    inspector: inspector.status,
    elk: { status: elk.status, body: await elk.text() },
    tunnel: { status: tunnelled.status, body: await tunnelled.json() },
  };
  await client.close();
  console.log(JSON.stringify(result));
} finally {
  await server.close();
}
