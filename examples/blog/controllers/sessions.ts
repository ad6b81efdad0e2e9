/** Placeholders until sign-in exists: the login page explains, the logout button just says goodbye. */
import { ApplicationController } from './application.ts';

export class SessionsController extends ApplicationController {
  new(): void {
    // The template says that signing in is still to come.
  }

  destroy(): void {
    this.flash.set('notice', 'You are logged out (nobody was logged in yet).');
    this.redirect_to(this.routes.root_url());
  }
}
