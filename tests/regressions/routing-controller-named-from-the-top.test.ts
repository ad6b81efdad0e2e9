/**
 * A regression test: the comment above each test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

class TicketsController extends Controller {
  show(): void {
    this.render({ text: `${this.controller_path} ${String(this.params.controller)} ${String(this.params.id)}` });
  }
}

/**
 * A routes file may name a controller from the top with a leading slash
 * (`map.connect 'support/:id', :controller => '/helpdesk/tickets'`), as
 * applications did to step out of a namespace. Rails kept the slash in
 * `params[:controller]` and constantized `::Helpdesk::TicketsController`;
 * Signalbox recognised the route the same way, then looked the controller
 * up with the slash and answered 404.
 */
test('a route naming its controller with a leading slash reaches that controller, and params keep the slash', async () => {
  const app = appWith({ 'helpdesk/tickets': TicketsController }, {
    draw: (map) => {
      map.connect('support/:id', { controller: '/helpdesk/tickets', action: 'show' });
      map.connect('elsewhere/:id', { controller: '/helpdesk/nothing', action: 'show' });
    },
  });
  const res = await call(app, 'GET /support/5');
  assert.is(res.status, 200);
  assert.is(res.body, 'helpdesk/tickets /helpdesk/tickets 5');
  assert.is((await call(app, 'GET /elsewhere/5')).status, 404, 'a slash naming no controller is still no controller');
});

test.run();
