/** The account form, shared by new and edit: `v.render({ partial: 'form', locals: { method, submit } })`. */
import { html } from '../../../../core/index.ts';
import { errorMessages, type View } from '../../helpers.ts';
import type { Account } from '../../models.ts';

export default (v: View<{ account: Account; method: 'post' | 'put'; submit: string }>) => {
  const account = v.account;
  // A singleton: one URL for create and update, the method tells them apart.
  return html`${errorMessages(v, account.errors, 'account')}
${v.form_tag(v.account_path(), { method: v.method, class: 'record' })}
  <p>${v.label_tag('account[name]', 'Name')}<br>${v.text_field_tag('account[name]', account.name, { size: 40 })}</p>
  <p>${v.label_tag('account[email]', 'Email')}<br>${v.text_field_tag('account[email]', account.email, { size: 40, type: 'email' })}</p>
  <p>${v.submit_tag(v.submit)}</p>
</form>`;
};
