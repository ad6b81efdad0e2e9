/**
 * What a change makes stale, in one place (Rails' cache sweepers): a post's
 * page (action cache) whenever the post or one of its comments changes, and
 * the post list (`/` and `/posts`, every format, in the page cache and the
 * action cache) whenever a post comes, goes or changes. Called from after filters, which run only when the
 * action finished: a refused form changed nothing, so it expires nothing.
 * The route hashes name `/posts`: called from `admin/posts` too, where `posts`
 * would name `admin/posts`, as `url_for` reads a controller name.
 */
import type { Controller } from '../../../core/index.ts';

/**
 * Expires the list and the post's page; the promise (with an asynchronous cache store, or several
 * workers to tell) is the filter's to return, so the response waits until nothing stale is left.
 */
export function expirePost(c: Controller, id: number | null | undefined): unknown {
  c.expire_page('/');
  c.expire_page({ controller: '/posts', action: 'index' });
  return Promise.all([c.expire_action('/'), c.expire_action({ controller: '/posts', action: 'index' }), expirePostPage(c, id)]);
}

/** Expires the post's page alone (its comments changed). */
export function expirePostPage(c: Controller, id: number | null | undefined): unknown {
  return id === null || id === undefined ? undefined : c.expire_action({ controller: '/posts', action: 'show', id });
}
