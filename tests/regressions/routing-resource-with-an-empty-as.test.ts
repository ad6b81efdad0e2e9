/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, draw } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

class AccountsController extends Controller {
  show(): void {
    this.render({ text: `show ${this.url_for({ action: 'edit' })}` });
  }

  edit(): void {
    this.render({ text: 'edit' });
  }
}

/**
 * core/routing/resources.ts refused `:as => ''` at declaration, though Rails joined the resource's path as
 * `"#{path_prefix}/#{path_segment}"` and drew it at the prefix: an application serving each account on its
 * own subdomain declared `resource :account, :as => ''` to answer `/` with the account, and its ported routes
 * file did not load. The member action follows Rails' join too, at `//edit`.
 */
test('a resource with an empty :as is drawn at its prefix, as Rails joined its path', async () => {
  const routes = draw((map) => {
    map.resource('account', { as: '', only: ['show', 'edit', 'update'] });
    map.resources('pages', { as: '', path_prefix: '/site', only: ['index', 'show'] });
  });
  assert.equal(routes.recognize('GET', '/'), { controller: 'accounts', action: 'show' });
  assert.equal(routes.recognize('PUT', '/'), { controller: 'accounts', action: 'update' });
  assert.equal(routes.recognize('GET', '/.xml'), { controller: 'accounts', action: 'show', format: 'xml' });
  assert.equal(routes.recognize('GET', '/site'), { controller: 'pages', action: 'index' });
  assert.equal(routes.recognize('GET', '/site//3'), { controller: 'pages', action: 'show', id: '3' });
  const h = routes.helpers() as unknown as Record<string, (...args: unknown[]) => string>;
  assert.is(h.account_path(), '/');
  assert.is(h.edit_account_path(), '//edit');
  assert.is(h.pages_path(), '/site');

  const app = appWith({ accounts: AccountsController }, { draw: (map) => map.resource('account', { as: '' }) });
  const show = await call(app, 'GET /');
  assert.is(show.status, 200);
  assert.is(show.body, 'show http://test.host//edit');
  assert.is((await call(app, 'GET //edit')).body, 'edit');
});

test.run();
