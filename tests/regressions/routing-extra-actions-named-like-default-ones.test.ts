/**
 * A regression test: the comment above each test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, draw, UrlGenerationError } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

type Helpers = Record<string, (...args: unknown[]) => string>;

class EditorsController extends Controller {
  create(): void {
    this.render({ text: `create ${String(this.params.id)} ${this.request.method}` });
  }
}

/**
 * A resource's extra action named like a default one got the requirements of the place it was drawn, where Rails'
 * action_options_for chose them by the action's name: a `:member => { :create => :get }` route carried the `:id`
 * requirement, so an id with a dot, or one the resource's own `:id` requirement refuses, neither generated nor
 * reached the action, though Rails drew that route with no `:id` requirement at all.
 */
test('a member action named create, new or index has no :id requirement, as its name chose in Rails', async () => {
  const routes = draw((map) => {
    map.resources('people', (person) => person.resources('editors', { member: { create: 'get', destroy: 'get' } }));
    map.resources('posts', { requirements: { id: /\d+/ }, member: { new: 'get', index: 'get', preview: 'get' } });
  });
  const h = routes.helpers() as unknown as Helpers;
  assert.is(h.create_person_editor_path(1, 'john.doe'), '/people/1/editors/john.doe/create');
  assert.equal(routes.recognize('GET', '/posts/draft/new'), { controller: 'posts', action: 'new', id: 'draft' });
  assert.equal(routes.recognize('GET', '/posts/draft/index'), { controller: 'posts', action: 'index', id: 'draft' });
  // Named like a default member action, or like none, a member action keeps the :id requirement.
  assert.throws(() => h.destroy_person_editor_path(1, 'john.doe'), (e: unknown) => e instanceof UrlGenerationError);
  assert.throws(() => routes.recognize('GET', '/posts/draft/preview'), /No route matches/);
  assert.equal(routes.recognize('GET', '/posts/7/preview'), { controller: 'posts', action: 'preview', id: '7' });

  const app = appWith({ editors: EditorsController }, {
    draw: (map) => map.resources('people', (person) => person.resources('editors', { member: { create: 'get' } })),
  });
  const reply = await call(app, 'GET /people/1/editors/2/create');
  assert.is(reply.status, 200);
  assert.is(reply.body, 'create 2 get');
});

/**
 * The other way round, `:collection => { :destroy => :delete }` drew a route that generated with no id, where Rails
 * gave it destroy's `:id` requirement though its path has no `:id`: its helper generated only from an id the
 * requirement admits, which it consumed rather than adding to the query (a routes file remarked that such a
 * route "does not work" and declared its own).
 */
test('a collection action named like a default member action keeps that action\'s :id requirement', () => {
  const routes = draw((map) => {
    map.resources('taggings', { collection: { destroy: 'delete', edit: 'get', search: 'get' } });
    map.resource('session', { collection: { destroy: 'any' } });
  });
  const h = routes.helpers() as unknown as Helpers;
  assert.throws(() => h.destroy_taggings_path(), (e: unknown) => e instanceof UrlGenerationError && /missing :id/.test(e.message));
  assert.is(h.destroy_taggings_path({ id: 5 }), '/taggings/destroy');
  assert.is(h.edit_taggings_path({ id: 5 }), '/taggings/edit');
  assert.throws(() => h.destroy_taggings_path({ id: 'a.b' }), (e: unknown) => e instanceof UrlGenerationError);
  assert.is(h.search_taggings_path({ id: 5 }), '/taggings/search?id=5', 'an action named like none keeps no :id requirement');
  // Recognition reads no requirement on a key the path does not hold, as in Rails.
  assert.equal(routes.recognize('DELETE', '/taggings/destroy'), { controller: 'taggings', action: 'destroy' });
  // A singleton has no :id, so nothing changes for it.
  assert.is(h.destroy_session_path(), '/session/destroy');
});

test.run();
