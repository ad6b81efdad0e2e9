/**
 * The recognition stage: a route for the request's method and path, or the
 * answer instead: 404, or 405 with Allow. (A path that does not decode never
 * gets here: parsing refuses it.)
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultErrorPage } from '../../../core/pipeline/default-pages.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller } from '../../../core/index.ts';
import { appWith, call, tempDir } from '../../support/harness.ts';

const test = suite('recognize finds the route or says why there is none');

class PostsController extends Controller {
  index(): void { this.render({ text: 'index' }); }
  show(): void { this.render({ text: `show ${this.params.id}` }); }
  create(): void { this.render({ text: 'create' }); }
}

const draw = (map: import('../../../core/index.ts').Mapper) => {
  map.resources('posts');
  map.named('ghost', 'ghost', { controller: 'ghosts', action: 'index' });
};
const app = (publicDir?: string) => appWith({ posts: PostsController }, { draw, routes: undefined, ...(publicDir ? { publicDir: publicDir } : {}) });

let pub = { path: '', remove: () => {} };
test.before(() => {
  pub = tempDir('recognize-public');
  writeFileSync(join(pub.path, '404.html'), '<h1>Not here</h1>');
  writeFileSync(join(pub.path, '405.html'), '<h1>Wrong method</h1>');
});
test.after(() => pub.remove());

test('a matching route dispatches with its path parameters', async () => {
  assert.is((await call(app(), 'GET /posts/7')).body, 'show 7');
  assert.is((await call(app(), 'POST /posts')).body, 'create');
});

test('path parameters are decoded once; the request path stays encoded', async () => {
  assert.is((await call(app(), 'GET /posts/a%20b%2Fc')).body, 'show a b/c');
});

test('HEAD is routed as GET', async () => {
  const res = await call(app(), 'HEAD /posts/7');
  assert.is(res.status, 200);
  assert.is(res.body, '');
});

test('no route is 404: public/404.html when the app has one, else the default page', async () => {
  let res = await call(app(pub.path), 'GET /nowhere');
  assert.is(res.status, 404);
  assert.is(res.body, '<h1>Not here</h1>');
  assert.is(res.header('content-type'), 'text/html; charset=utf-8');
  res = await call(app(), 'GET /nowhere');
  assert.is(res.status, 404);
  assert.is(res.body, defaultErrorPage(404));
});

test('a route to a controller the app does not have is 404', async () => {
  assert.is((await call(app(), 'GET /ghost')).status, 404);
});

test('a path that matches only other methods is 405 with Allow listing them', async () => {
  let res = await call(app(pub.path), 'DELETE /posts');
  assert.is(res.status, 405);
  assert.is(res.header('allow'), 'GET, POST');
  assert.is(res.body, '<h1>Wrong method</h1>');
  res = await call(app(), 'POST /posts/1');
  assert.is(res.status, 405);
  assert.is(res.header('allow'), 'GET, PUT, DELETE');
});

test.run();
