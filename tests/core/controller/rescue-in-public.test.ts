/**
 * `rescue_action_in_public` and `local_request`: what a controller answers,
 * as Rails 2.1's did, for an error no `rescue_from` handled when the request
 * is not shown the development error page. Driven through `app.handle`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, RecordNotFound, UnknownAction } from '../../../core/index.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('rescue_action_in_public answers the errors rescue_from leaves, away from the development page');

class ApplicationController extends Controller {
  override rescue_action_in_public(error: unknown): void {
    if (error instanceof RecordNotFound || error instanceof UnknownAction) this.render({ text: 'no such page', status: 404 });
    else if (error instanceof RangeError) this.redirect_to('/sorry');
    else super.rescue_action_in_public(error);
  }
}

class PostsController extends ApplicationController {
  static {
    this.rescue_from(TypeError, 'typed');
  }
  show(): void {
    throw new RecordNotFound('Post 7');
  }
  range(): void {
    throw new RangeError('out of range');
  }
  broken(): void {
    throw new Error('boom');
  }
  typed(): void {
    this.render({ text: 'rescue_from first', status: 409 });
  }
  wrong(): void {
    throw new TypeError('handled by rescue_from');
  }
  async later(): Promise<void> {
    await Promise.resolve();
    throw new RecordNotFound('later');
  }
}

test('an override renders or redirects for the errors it knows, synchronous or not', async () => {
  const app = appWith({ posts: PostsController });
  let res = await call(app, 'GET /posts/show/7');
  assert.equal([res.status, res.body], [404, 'no such page']);
  res = await call(app, 'GET /posts/later');
  assert.equal([res.status, res.body], [404, 'no such page']);
  res = await call(app, 'GET /posts/range');
  assert.is(res.status, 302);
  assert.is(res.header('location'), 'http://test.host/sorry');
  res = await call(app, 'GET /posts/nonexistent');
  assert.equal([res.status, res.body], [404, 'no such page'], 'an unknown action reaches it too, as Rails raised it in the chain');
});

test('calling super leaves the error to the app, which answers its error page', async () => {
  const res = await call(appWith({ posts: PostsController }), 'GET /posts/broken');
  assert.is(res.status, 500);
  assert.not.match(res.body, 'no such page');
});

test('rescue_from is asked first', async () => {
  const res = await call(appWith({ posts: PostsController }), 'GET /posts/wrong');
  assert.equal([res.status, res.body], [409, 'rescue_from first']);
});

test('a local request, where the app shows the development page, gets that page instead', async () => {
  const app = appWith({ posts: PostsController }, { config: { consider_all_requests_local: true } });
  const local = await call(app, 'GET /posts/show/7', { remoteAddress: '127.0.0.1' });
  assert.is(local.status, 404);
  assert.match(local.body, 'RecordNotFound', 'the development page, naming the error');
  const remote = await call(app, 'GET /posts/show/7', { remoteAddress: '203.0.113.9' });
  assert.equal([remote.status, remote.body], [404, 'no such page']);
});

test("local_request says whether the request came from this machine, as Rails' local_request?", async () => {
  class PagesController extends Controller {
    where(): void {
      this.render({ text: String(this.local_request) });
    }
  }
  const app = appWith({ pages: PagesController });
  assert.is((await call(app, 'GET /pages/where', { remoteAddress: '127.0.0.1' })).body, 'true');
  assert.is((await call(app, 'GET /pages/where', { remoteAddress: '::1' })).body, 'true');
  assert.is((await call(app, 'GET /pages/where', { remoteAddress: '10.0.0.1' })).body, 'false');
});

test.run();
