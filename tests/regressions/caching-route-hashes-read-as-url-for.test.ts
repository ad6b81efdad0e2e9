/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, html, memoryViews } from '../../core/index.ts';
import { withApp } from '../support/harness.ts';
import { scratchDir } from '../support/temp.ts';

/**
 * core/controller/base.ts `fragmentName`: Rails keys a fragment named by a
 * route hash by what `url_for` gives it against the current request, so
 * `read_fragment({})` (and the `cache` helper's hash) in post 2's page is post
 * 2's own (`views/<host>/posts/2`) and `{ action_suffix: 'sidebar' }` is post
 * 2's sidebar. The hash was generated with the controller named and nothing
 * recalled, so every post's page read and wrote the one key
 * `views/<host>/posts`: post 1's fragment was shown on post 2's page.
 * Expected: a fragment per post, and expiry by the post's own path.
 */
test("a fragment named by a route hash is this page's own: another post's page never shows it", async () => {
  let renders = 0;
  class PostsController extends Controller {
    async show(): Promise<void> {
      const name = this.params.part === 'sidebar' ? { action_suffix: 'sidebar' } : {};
      let fragment = await this.read_fragment(name);
      if (fragment === undefined) fragment = await this.write_fragment(name, `post ${this.params.id}, render ${++renders}`);
      this.render({ text: fragment });
    }
    async update(): Promise<void> {
      this.render({ text: String(await this.expire_fragment({ action: 'show' })) });
    }
  }
  await withApp({ posts: PostsController }, {}, async (s) => {
    assert.is((await s.get('/posts/1')).body, 'post 1, render 1');
    assert.is((await s.get('/posts/2')).body, 'post 2, render 2');
    assert.is((await s.get('/posts/1')).body, 'post 1, render 1');
    assert.is((await s.get('/posts/2?part=sidebar')).body, 'post 2, render 3');
    assert.is((await s.get('/posts/1?part=sidebar')).body, 'post 1, render 4');

    assert.is((await s.send('PUT', '/posts/2')).body, '1', "update of post 2 expires post 2's fragment");
    assert.is((await s.get('/posts/2')).body, 'post 2, render 5');
    assert.is((await s.get('/posts/1')).body, 'post 1, render 1');
  });
});

test("a template's cache block named by a route hash is its page's own", async () => {
  let renders = 0;
  class PostsController extends Controller {
    show(): void {}
  }
  const views = memoryViews({
    'posts/show.html': async (v: any) => html`<p>${await v.cache({ action_suffix: 'body' }, () => `post ${v.params.id}, render ${++renders}`)}</p>`,
  });
  await withApp({ posts: PostsController }, { views }, async (s) => {
    assert.is((await s.get('/posts/1')).body, '<p>post 1, render 1</p>');
    assert.is((await s.get('/posts/2')).body, '<p>post 2, render 2</p>');
    assert.is((await s.get('/posts/1')).body, '<p>post 1, render 1</p>');
  });
});

/**
 * core/controller/base.ts `cacheTarget`: Rails' `expire_page` and
 * `expire_action` generate a route hash with `url_for`, so in `update` of
 * post 2, `expire_action(:action => 'show')` names `/posts/2`. The hash was
 * generated with nothing recalled: no route matched without an id, and the
 * sweeping action answered 500 with nothing expired.
 * Expected: the current post's page and entry expired.
 */
test("expire_page and expire_action take what a route hash leaves out from the request, as url_for does", async () => {
  let renders = 0;
  class PostsController extends Controller {
    static {
      this.caches_page('show');
      this.caches_action('edit');
    }
    show(): void { this.render({ text: `post ${this.params.id}` }); }
    edit(): void { this.render({ text: `edit ${this.params.id}, render ${++renders}` }); }
    async update(): Promise<void> {
      const pages = this.expire_page({ action: 'show' });
      const entries = await this.expire_action({ action: 'edit' });
      this.render({ text: `${pages} ${entries}` });
    }
  }
  await withApp({ posts: PostsController }, { publicDir: scratchDir('expire-recall') }, async (s) => {
    for (const path of ['/posts/1', '/posts/2', '/posts/1/edit', '/posts/2/edit']) assert.is((await s.get(path)).headers['x-cache'], 'miss', path);
    const put = await s.send('PUT', '/posts/2');
    assert.equal([put.status, put.body], [200, '1 1']);
    assert.is((await s.get('/posts/2')).headers['x-cache'], 'miss');
    assert.is((await s.get('/posts/1')).headers['x-cache'], 'hit');
    assert.is((await s.get('/posts/2/edit')).headers['x-cache'], 'miss');
    assert.is((await s.get('/posts/1/edit')).headers['x-cache'], 'hit');
  });
});

test.run();
