/**
 * A regression test: the comment above each test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

class DashboardsController extends Controller {
  show(): void {
    this.render({ text: `${this.controller_path} ${String(this.params.controller)} ${this.url_for({ action: 'show' })}` });
  }
}

class EpisodeImagesController extends Controller {
  show(): void {
    this.render({ text: `${this.controller_path} ${String(this.params.controller)} ${String(this.params.episode_id)}` });
  }
}

/**
 * Rails found a route's controller as `"#{params[:controller].camelize}Controller".constantize`, so
 * routes files named controllers in any spelling that camelizes to the class: as a constant
 * (`:controller => 'Admin::Dashboards'`), or with a camel-cased part (`:controller => "EpisodeImages"`
 * on a resource in an `admin/` namespace, camelized to `Admin::EpisodeImages`). Signalbox recognised
 * those routes as Rails did, then looked the controller up by the spelling itself and answered 404.
 */
test('a route naming its controller as a constant or in camel case reaches the controller of that name', async () => {
  const app = appWith({ 'admin/dashboards': DashboardsController, 'admin/episode_images': EpisodeImagesController }, {
    draw: (map) => {
      map.connect('compte', { controller: 'Admin::Dashboards', action: 'show' });
      map.namespace('admin', (admin) => {
        admin.resources('episodes', (episodes) => episodes.resource('image', { controller: 'EpisodeImages' }));
      });
    },
  });
  const dashboard = await call(app, 'GET /compte');
  assert.is(dashboard.status, 200);
  assert.is(dashboard.body, 'admin/dashboards Admin::Dashboards http://test.host/compte', 'params keep the spelling, and url_for recalls it');
  const image = await call(app, 'GET /admin/episodes/4/image');
  assert.is(image.status, 200);
  assert.is(image.body, 'admin/episode_images admin/EpisodeImages 4');
});

class ProjectsController extends Controller {
  show(): void {
    this.render({ text: `${this.controller_path} ${String(this.params.controller)} ${String(this.params.id)}` });
  }
}

/**
 * `resources` and `resource` refused a controller named as a constant (`:controller => 'Community::Projects'`)
 * when the routes were drawn, though Rails drew the resource and reached Community::ProjectsController through
 * it, as it did for a route named by hand: a ported routes file holding one did not load.
 */
test('a resource naming its controller as a constant reaches the controller of that name', async () => {
  const app = appWith({ 'community/projects': ProjectsController, 'api/v1/projects': ProjectsController }, {
    draw: (map) => {
      map.resources('p', { controller: 'Community::Projects' });
      map.resource('featured', { controller: 'Api::V1::Projects' });
    },
  });
  const project = await call(app, 'GET /p/7');
  assert.is(project.status, 200);
  assert.is(project.body, 'community/projects Community::Projects 7');
  const featured = await call(app, 'GET /featured');
  assert.is(featured.status, 200);
  assert.is(featured.body, 'api/v1/projects Api::V1::Projects undefined');
});

test('a spelling that camelizes to no constant name reaches no controller, as constantize raised for it', async () => {
  const app = appWith({ 'admin/episode_images': EpisodeImagesController }, {
    draw: (map) => {
      map.connect('hyphen', { controller: 'admin/episode-images', action: 'show' });
      map.connect('trailing', { controller: 'admin/episode_images/', action: 'show' });
    },
  });
  assert.is((await call(app, 'GET /hyphen')).status, 404);
  assert.is((await call(app, 'GET /trailing')).status, 404);
});

/**
 * The development page for an action such a controller lacks lists the actions it has, as for any
 * other controller: it too looked the controller up by the route's spelling, found none, and listed none.
 */
test('the unknown-action page of a controller named as a constant lists its actions', async () => {
  const app = appWith({ 'admin/dashboards': DashboardsController }, {
    draw: (map) => map.connect('compte/nope', { controller: 'Admin::Dashboards', action: 'nope' }),
    config: { consider_all_requests_local: true },
  });
  const page = (await call(app, 'GET /compte/nope', { remoteAddress: '127.0.0.1' })).body;
  assert.match(page, '<h1>Unknown action</h1>');
  assert.match(page, 'Actions: <code>show</code>');
});

test.run();
