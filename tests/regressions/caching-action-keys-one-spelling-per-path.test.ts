/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { withApp } from '../support/harness.ts';

/**
 * core/caching/keys.ts `actionCacheKey` / `pathBase`: Rails unescapes action
 * cache paths, so however a URL escapes a path, its entry is the one that
 * expiring the path removes. Keys took the request's path as the client
 * spelled it: `/posts/%61%20b/edit` stored an entry apart from
 * `/posts/a%20b/edit`, which `expire_action({ action: 'edit', id: 'a b' })`
 * never removed, so whoever used that spelling was served the stale page for
 * good; and `expire_action('/posts/a b/edit')` removed nothing.
 * Expected: one entry per path whatever its escaping, removed by a route
 * hash, an escaped path or an unescaped one; an escaped `/` stays apart.
 */
test('an action cache entry is keyed by its path however the URL escapes it, so expiry reaches every spelling', async () => {
  let renders = 0;
  class PostsController extends Controller {
    static {
      this.caches_action('edit');
    }
    edit(): void { this.render({ text: `edit ${this.params.id}, render ${++renders}` }); }
    async destroy(): Promise<void> {
      const how = this.params.how;
      const target = how === 'hash' ? { action: 'edit', id: this.params.id } : how === 'plain' ? `/posts/${this.params.id}/edit` : `/posts/${encodeURIComponent(String(this.params.id))}/edit`;
      this.render({ text: String(await this.expire_action(target)) });
    }
  }
  await withApp({ posts: PostsController }, {}, async (s) => {
    const first = await s.get('/posts/a%20b/edit');
    assert.equal([first.headers['x-cache'], first.body], ['miss', 'edit a b, render 1']);
    for (const spelling of ['/posts/a%20b/edit', '/posts/%61%20b/edit', '/posts/a%20%62/edit']) {
      const hit = await s.get(spelling);
      assert.equal([hit.headers['x-cache'], hit.body], ['hit', 'edit a b, render 1'], spelling);
    }
    // An escaped slash is part of the id: another resource, never the same entry.
    assert.is((await s.get('/posts/a%2Fb/edit')).headers['x-cache'], 'miss');

    for (const how of ['hash', 'escaped', 'plain']) {
      assert.is((await s.send('DELETE', `/posts/a%20b?how=${how}`)).body, '1', how);
      assert.is((await s.get('/posts/%61%20b/edit')).headers['x-cache'], 'miss', how);
      assert.is((await s.get('/posts/a%20b/edit')).headers['x-cache'], 'hit', how);
    }
  });
});

test.run();
