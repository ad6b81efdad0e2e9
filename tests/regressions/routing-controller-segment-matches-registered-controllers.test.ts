/**
 * A regression test: the comment above each test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, createApp, draw } from '../../index.ts';
import { call, headerOf } from '../support/harness.ts';

class EchoController extends Controller {
  method_missing(): void {
    this.render({ text: `${String(this.params.controller)}#${String(this.params.action)} ${JSON.stringify(this.request.path_parameters)}` });
  }
}
class VisualController extends EchoController {}
class TokensController extends EchoController {}
class AccountsController extends EchoController {}

const appFor = (block: Parameters<typeof draw>[0], config?: Parameters<typeof draw>[1]) =>
  createApp({
    routes: draw(block, config),
    controllers: { visual: VisualController, tokens: TokensController, accounts: AccountsController, 'admin/accounts': AccountsController },
    environment: 'test',
    logger: false,
  });

/**
 * machines/app.ts `createApp`: a route set drawn without `controllers` (as
 * `signalbox port-routes` writes every routes file) let its `:controller`
 * segment match any word, so the default route `:controller/:action/:id`
 * took `/jambalaya/GO/5` for a controller named "jambalaya" and the app
 * answered 404, never reaching the route drawn after it. Rails 2.x matched
 * the segment against the application's controllers only, so the default
 * route let the path through to `visual#jam`, and `/abc123` to `tokens#show`.
 */
test('a :controller segment matches only the controllers the app registers, so later routes take the paths it does not', async () => {
  const app = appFor((map) => {
    map.connect(':controller/:action/:id');
    map.named('jam', 'jambalaya/:ontology/:id', { controller: 'visual', action: 'jam' });
    map.connect(':code', { controller: 'tokens', action: 'show' });
  });
  const jam = await call(app, 'GET /jambalaya/GO/5');
  assert.is(jam.status, 200);
  assert.is(jam.body, 'visual#jam {"controller":"visual","action":"jam","ontology":"GO","id":"5"}');
  assert.is((await call(app, 'GET /abc123')).body, 'tokens#show {"controller":"tokens","action":"show","code":"abc123"}');
  assert.is((await call(app, 'GET /visual/jam/7')).body, 'visual#jam {"controller":"visual","action":"jam","id":"7"}', 'a registered controller still takes the default route');
  assert.is((await call(app, 'GET /Visual/jam/7')).status, 200, 'matched case-insensitively, as Rails did');
  assert.is((await call(app, 'GET /admin/accounts/show/3')).body, 'admin/accounts#show {"controller":"admin/accounts","action":"show","id":"3"}', 'a namespaced controller is one match, not admin and an action');
  assert.is(app.routes.recognize('GET', '/jambalaya/GO/5').controller, 'visual', 'the app recognises with the same table');
});

/**
 * The same cause: `DELETE /feeds/1` matched the default route with a
 * controller "feeds" the app does not have, and got a 404. In Rails the
 * default route did not match, so only the GET route did: 405 with Allow: GET.
 */
test('a path that only a GET route takes answers 405, not a 404 from a controller the default route made up', async () => {
  const app = appFor((map) => {
    map.connect('feeds/:id', { controller: 'accounts', action: 'show', conditions: { method: 'get' } });
    map.connect(':controller/:action/:id');
  });
  const res = await call(app, 'DELETE /feeds/1');
  assert.is(res.status, 405);
  assert.is(headerOf(res, 'allow'), 'GET');
});

test('a route set drawn with its own controllers keeps them', async () => {
  const app = appFor((map) => {
    map.connect(':controller/:action/:id');
    map.connect(':code', { controller: 'tokens', action: 'show' });
  }, { controllers: ['tokens', 'elsewhere'] });
  assert.is((await call(app, 'GET /accounts')).body, 'tokens#show {"controller":"tokens","action":"show","code":"accounts"}');
  assert.equal(app.routes.config.controllers, ['tokens', 'elsewhere']);
});

test.run();
