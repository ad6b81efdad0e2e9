import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import type { AccountsController } from '../../controllers/accounts.ts';

export default (v: View<AccountsController>) => html`${v.content_for('title', 'Edit your account')}
<h1>Edit your account</h1>
${v.render({ partial: 'form', locals: { method: 'put', submit: 'Update account' } })}
<p>${v.link_to('Back to your account', v.account_path())}</p>
`;
