import { html } from '../../../../core/index.ts';
import type { View } from '../../helpers.ts';

export default (v: View) => html`${v.content_for('title', 'Create your account')}
<h1>Create your account</h1>
${v.render({ partial: 'form', locals: { method: 'post', submit: 'Create account' } })}
`;
