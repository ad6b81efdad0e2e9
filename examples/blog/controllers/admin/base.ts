/** What the admin controllers share: their own layout, and HTTP Basic sign-in. */
import { secureCompare } from '../../../../core/index.ts';
import { ApplicationController } from '../application.ts';

export interface AdminCredentials {
  readonly user: string;
  readonly password: string;
}

export class AdminController extends ApplicationController {
  static {
    this.layout('admin');
    this.before_filter('require_admin');
    this.hide_action('require_admin');
  }

  /** Answers 401 with a Basic challenge unless the request carries the configured credentials. */
  require_admin(): boolean | Promise<boolean> {
    const admin = this.services.admin;
    return this.authenticate_or_request_with_http_basic('Blog admin', (user, password) => {
      if (admin === null) return false;
      // Both compared in full and in constant time, so timing says nothing about which one was wrong.
      const userOk = secureCompare(user, admin.user);
      const passwordOk = secureCompare(password, admin.password);
      return userOk && passwordOk;
    });
  }
}
