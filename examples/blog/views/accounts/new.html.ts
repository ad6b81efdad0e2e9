import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';
import type { AccountsController } from '../../controllers/accounts.ts';

export default (v: View<AccountsController>) => html`${v.content_for('title', 'Create your account')}
<h1>Create your account</h1>
${v.render({ partial: 'form', locals: { method: 'post', submit: 'Create account' } })}
`;
