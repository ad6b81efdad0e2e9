// A routes module in plain JavaScript, as an application would write it against the installed package.
import { draw } from 'signalbox';

export const routes = draw((map) => {
  map.resources('posts', { has_many: 'comments', member: { publish: 'put' } });
  map.resource('account');
  map.root({ controller: 'posts' });
});
