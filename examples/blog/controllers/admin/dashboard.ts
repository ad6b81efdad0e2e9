/** The admin home (`/admin`) and a deliberate crash (`/admin/crash`) to show the 500 page. */
import type { Store } from '../../models.ts';
import { AdminController } from './base.ts';

export class DashboardController extends AdminController {
  counts: { posts: number; drafts: number; comments: number; accounts: number } = { posts: 0, drafts: 0, comments: 0, accounts: 0 };

  index(): void {
    const store: Store = this.store;
    this.counts = {
      posts: store.posts.count(),
      drafts: store.posts.count((p) => !p.published),
      comments: store.comments.count(),
      accounts: store.accounts.count(),
    };
  }

  /** An ordinary bug: in production (and in tests) the visitor sees public/500.html and nothing of this message. */
  crash(): void {
    throw new Error('Deliberate crash from admin/dashboard#crash');
  }
}
