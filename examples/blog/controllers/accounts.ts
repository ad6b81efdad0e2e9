/**
 * The singleton account (`map.resource('account')`): `/account`, no index
 * and no id. There is at most one; creating a second is refused as invalid.
 */
import { RecordNotFound, toXml } from '../../../core/index.ts';
import type { Account } from '../models.ts';
import { ApplicationController } from './application.ts';

export class AccountsController extends ApplicationController {
  static {
    this.before_filter('find_account', { only: ['show', 'edit', 'update', 'destroy'] });
    // Declared last, so it wins over the inherited handler: with no account yet, browsers go to the sign-up form.
    this.rescue_from(RecordNotFound, 'no_account');
  }

  account!: Account;

  find_account(): void {
    this.account = this.store.findAccount();
  }

  no_account(error: RecordNotFound): void {
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'There is no account yet: create one.');
        this.redirect_to(this.routes.new_account_url());
      },
      json: () => this.render({ json: { error: error.message }, status: 'not_found' }),
      xml: () => this.render({ xml: toXml([error.message], 'errors'), status: 'not_found' }),
    });
  }

  show(): void {
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.account }),
      xml: () => this.render({ xml: this.account }),
    });
  }

  new(): void {
    this.account = this.store.accounts.build();
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.account }),
      xml: () => this.render({ xml: this.account }),
    });
  }

  edit(): void {
    this.respond_to({
      html: true,
      json: () => this.render({ json: this.account }),
      xml: () => this.render({ xml: this.account }),
    });
  }

  create(): void {
    const account = (this.account = this.store.accounts.build(this.attributes_for('account')));
    this.store.saveAccount(account);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Account was successfully created.');
        this.redirect_to(this.routes.account_url());
      },
      json: () => this.render({ json: account, status: 'created', location: this.routes.account_url() }),
      xml: () => this.render({ xml: account, status: 'created', location: this.routes.account_url() }),
    });
  }

  update(): void {
    const account = this.account.assign(this.attributes_for('account'));
    this.store.saveAccount(account);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Account was successfully updated.');
        this.redirect_to(this.routes.account_url());
      },
      json: () => this.render({ json: account }),
      xml: () => this.render({ xml: account }),
    });
  }

  destroy(): void {
    this.store.accounts.destroy(this.account.id);
    this.respond_to({
      html: () => {
        this.flash.set('notice', 'Account was deleted.');
        this.redirect_to(this.routes.root_url());
      },
      json: () => this.head('no_content'),
      xml: () => this.head('no_content'),
    });
  }
}
