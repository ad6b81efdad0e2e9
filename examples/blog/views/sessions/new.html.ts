import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';

export default (v: View) => html`${v.content_for('title', 'Log in')}
<h1>Log in</h1>
<p class="placeholder">Signing in is not built yet: it comes with a later feature. Until then everyone may write, edit and delete.</p>
${v.form_tag(v.login_path(), { method: 'get', class: 'record' })}
  <p>${v.label_tag('email', 'Email')}<br>${v.text_field_tag('email', '', { disabled: true, size: 40 })}</p>
  <p>${v.label_tag('password', 'Password')}<br>${v.password_field_tag('password', { disabled: true, size: 40 })}</p>
  <p>${v.submit_tag('Log in', { disabled: true, name: null })}</p>
</form>
<div class="actions">${v.link_to('Log out', v.logout_path(), { method: 'delete' })} (the logout button works: it sends DELETE /logout)</div>
`;
