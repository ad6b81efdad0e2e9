/**
 * The example blog's routes: a routes file as a Rails 2.1 app would write it.
 */
import { draw } from '../../core/index.ts';

export const controllers = ['posts', 'comments', 'accounts', 'admin/posts', 'admin/dashboard', 'sessions'];

export const routes = draw((map) => {
  map.resources('posts', { has_many: 'comments', collection: { search: 'get' }, member: { publish: 'put' } });
  map.resource('account');
  map.named('login', 'login', { controller: 'sessions', action: 'new', conditions: { method: 'get' } });
  map.named('logout', 'logout', { controller: 'sessions', action: 'destroy', conditions: { method: 'delete' } });
  map.namespace('admin', (admin) => {
    admin.resources('posts', { only: ['index', 'show', 'destroy'] });
    admin.root({ controller: 'dashboard' });
  });
  map.root({ controller: 'posts' });
}, { controllers });

export default routes;
