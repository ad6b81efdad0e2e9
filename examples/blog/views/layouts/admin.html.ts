/** The admin layout (declared by AdminController with `this.layout('admin')`). */
import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import { page } from './_chrome.ts';

export default (v: View) => {
  const title = v.yield('title').value;
  const nav = html`
        <strong>Admin</strong>
        ${v.link_to('Dashboard', v.admin_root_path())}
        ${v.link_to('All posts', v.admin_posts_path())}
        ${v.link_to('Back to the blog', v.root_path())}`;
  return page(v, { title: `${title === '' ? 'Admin' : title} · Admin · Signalbox Blog`, section: 'admin', nav });
};
