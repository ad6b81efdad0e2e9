/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { draw } from '../../core/index.ts';

/**
 * core/routing/resources.ts `Resource#shallowPathPrefix` / `shallowNamePrefix`:
 * with `shallow: true` inside a namespace, member routes drop the namespace
 * too. `admin/posts#show` is drawn at `/posts/:id` and named `post` (so it
 * also takes the top-level name), and `/admin/posts/1` is not routed.
 * Spec 2.1: "the namespace sticks to all nested resources"; Rails 2.2's
 * `shallow_path_prefix` is `@options[:namespace]` (less its slash) when shallow.
 */
test('shallow member routes inside a namespace keep the namespace prefix and name', () => {
  const routes = draw((map) => map.namespace('admin', (admin) => admin.resources('posts', { shallow: true, has_many: 'comments' })));
  assert.equal(routes.recognize('GET', '/admin/posts/1'), { controller: 'admin/posts', action: 'show', id: '1' });
  assert.equal(routes.recognize('GET', '/admin/comments/2'), { controller: 'admin/comments', action: 'show', id: '2' });
  assert.ok('admin_post' in routes.named, 'the member route is named admin_post');
  assert.ok('admin_post_comments' in routes.named, 'the nested collection is named admin_post_comments');
});

test.run();
