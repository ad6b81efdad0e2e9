import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import accountForm from './_form.html.ts';
import type { AccountsController } from '../../controllers/accounts.ts';

export default (v: View<AccountsController>) => html`${v.content_for('title', 'Edit your account')}
<h1>Edit your account</h1>
${accountForm(v, v.account, { method: 'put', submit: 'Update account' })}
<p>${v.link_to('Back to your account', v.account_path())}</p>
`;
