/**
 * The example blog's routes: a routes file as a Rails 2.1 app would write it.
 * `npm run routes` prints this table.
 */
import { draw } from '../../core/index.ts';

export const controllers = ['posts', 'comments', 'accounts', 'admin/posts', 'admin/dashboard', 'sessions'];

export const routes = draw((map) => {
  map.resources('posts', { has_many: 'comments', collection: { search: 'get' }, member: { publish: 'put' } });
  map.resource('account');
  // Placeholders until sign-in exists: a login page and a logout button.
  map.named('login', 'login', { controller: 'sessions', action: 'new', conditions: { method: 'get' } });
  map.named('logout', 'logout', { controller: 'sessions', action: 'destroy', conditions: { method: 'delete' } });
  map.namespace('admin', (admin) => {
    admin.resources('posts', { only: ['index', 'show', 'destroy'] });
    // A deliberate failure, to see what an unrescued exception looks like (public/500.html).
    admin.named('crash', 'crash', { controller: 'dashboard', action: 'crash', conditions: { method: 'get' } });
    admin.root({ controller: 'dashboard' });
  });
  map.root({ controller: 'posts' });
}, { controllers });

export default routes;
