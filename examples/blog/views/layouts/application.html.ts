/** The public layout: navigation, search, flash, and the page (`v.yield()`). */
import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import { page } from './_chrome.ts';

export default (v: View) => {
  const title = v.yield('title').value;
  const nav = html`
        ${v.link_to('Posts', v.posts_path())}
        ${v.link_to('New post', v.new_post_path())}
        ${v.link_to('Account', v.account_path())}
        ${v.link_to('Admin', v.admin_root_path())}
        ${v.link_to('Log in', v.login_path())}
        ${v.form_tag(v.search_posts_path(), { method: 'get', class: 'search' })}${v.text_field_tag('q', typeof v.params.q === 'string' ? v.params.q : '', { id: 'nav_q', placeholder: 'Search posts', 'aria-label': 'Search posts' })}<button type="submit">Search</button></form>`;
  return page(v, { title: title === '' ? 'Signalbox Blog' : `${title} · Signalbox Blog`, section: 'public', nav });
};
