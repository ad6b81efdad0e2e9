/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { withApp } from '../support/harness.ts';
import { scratchDir } from '../support/temp.ts';

/**
 * core/caching/caching.ts `expire_page` / `expire_action`: Rails 2.1 takes a
 * route hash whose `:action` is a list (`expire_page(:action => %w(index show),
 * :id => 1)`) and expires each action's page or entry. The list was handed to
 * route generation whole, which joined it into one action named `index/show`:
 * no route matched, so the sweeping action answered 500 and nothing was expired.
 * Expected: each listed action's page and entry removed, and a count of them.
 */
test('expire_page and expire_action take a list of actions and expire each one', async () => {
  let renders = 0;
  class PostsController extends Controller {
    static {
      this.caches_page('index', 'show');
      this.caches_action('edit', 'new');
    }
    index(): void { this.render({ text: 'list' }); }
    show(): void { this.render({ text: `post ${this.params.id}` }); }
    edit(): void { this.render({ text: `edit ${this.params.id}, render ${++renders}` }); }
    new(): void { this.render({ text: `new, render ${++renders}` }); }
    update(): void {
      const pages = this.expire_page({ action: ['index', 'show'], id: this.params.id });
      this.render({ text: String(pages) });
    }
    async destroy(): Promise<void> {
      const entries = await this.expire_action({ action: ['edit', 'new'], id: this.params.id });
      this.render({ text: String(entries) });
    }
  }
  const dir = scratchDir('expire-list');
  await withApp({ posts: PostsController }, { publicDir: dir }, async (s) => {
    for (const path of ['/posts', '/posts/1', '/posts/1/edit', '/posts/new']) assert.is((await s.get(path)).status, 200, path);
    assert.ok(existsSync(join(dir, 'posts.html')) && existsSync(join(dir, 'posts/1.html')));
    assert.is((await s.get('/posts/1/edit')).headers['x-cache'], 'hit');

    const put = await s.send('PUT', '/posts/1');
    assert.equal([put.status, put.body], [200, '2']);
    assert.not.ok(existsSync(join(dir, 'posts.html')), 'the index page is expired');
    assert.not.ok(existsSync(join(dir, 'posts/1.html')), 'the show page is expired');

    const del = await s.send('DELETE', '/posts/1');
    assert.equal([del.status, del.body], [200, '2']);
    for (const path of ['/posts/1/edit', '/posts/new']) assert.is((await s.get(path)).headers['x-cache'], 'miss', path);

    // From outside a request too.
    assert.is((await s.get('/posts')).headers['x-cache'], 'miss');
    assert.is((await s.get('/posts/1')).headers['x-cache'], 'miss');
    assert.is(s.app.caching!.expire_page({ controller: 'posts', action: ['index', 'show'], id: 1 }), 2);
    assert.is(await s.app.caching!.expire_action({ controller: 'posts', action: ['edit', 'new'], id: 1 }), 2);
    assert.not.ok(existsSync(join(dir, 'posts.html')) || existsSync(join(dir, 'posts/1.html')));
  });
});

test.run();
