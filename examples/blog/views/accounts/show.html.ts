import { html } from '../../../../core/index.ts';
import { formatLinks, type View } from '../../helpers.ts';
import type { Account } from '../../models.ts';
import type { AccountsController } from '../../controllers/accounts.ts';

export default (v: View<AccountsController>) => {
  const account: Account = v.account;
  return html`${v.content_for('title', 'Your account')}
<h1>Your account</h1>
<dl class="record">
  <dt>Name</dt><dd>${account.name}</dd>
  <dt>Email</dt><dd>${account.email}</dd>
</dl>
<div class="actions">
  ${v.link_to('Edit', v.edit_account_path(), { class: 'button' })}
  ${v.link_to('Delete account', v.account_path(), { method: 'delete', confirm: 'Delete your account?' })}
</div>
${formatLinks(v, v.formatted_account_path('json'), v.formatted_account_path('xml'))}
`;
};
