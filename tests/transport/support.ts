/** What the transport suites share besides tests/support/harness.ts: a controller behind HTTP Basic. */
import { Controller, secureCompare } from '../../core/index.ts';

/** `admin` / `secret` over HTTP Basic, else 401. */
export class AdminController extends Controller {
  static {
    this.before_filter('sign_in');
  }
  sign_in() {
    return this.authenticate_or_request_with_http_basic('Admin', (user, password) => secureCompare(user, 'admin') && secureCompare(password, 'secret'));
  }
  index(): void {
    this.render({ text: 'admin area' });
  }
}
