import { html } from '../../../../../core/index.ts';
import type { View } from '../../../helpers.ts';
import type { DashboardController } from '../../../controllers/admin/dashboard.ts';

export default (v: View<DashboardController>) => html`${v.content_for('title', 'Dashboard')}
<h1>Dashboard</h1>
<ul class="stats">
  <li><strong>${v.counts.posts}</strong> ${v.link_to(v.counts.posts === 1 ? 'post' : 'posts', v.admin_posts_path())} (${v.counts.drafts} draft${v.counts.drafts === 1 ? '' : 's'})</li>
  <li><strong>${v.counts.comments}</strong> comment${v.counts.comments === 1 ? '' : 's'}</li>
  <li><strong>${v.counts.accounts}</strong> account${v.counts.accounts === 1 ? '' : 's'}</li>
</ul>
<h2>Try the error pages</h2>
<ul>
  <li>${v.link_to('A page that crashes', v.admin_crash_path())}: an ordinary exception, answered with public/500.html in production (in development, local visitors see the diagnostics).</li>
  <li>${v.link_to('A post that does not exist', v.admin_post_path(999999))}: 404.</li>
  <li>The posts as an image: <code>curl -i -H 'Accept: image/png' ${v.posts_url()}</code> answers 406 Not Acceptable.</li>
</ul>
`;
