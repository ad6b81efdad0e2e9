/**
 * An action the controller has no method for, as Rails 2.1's `perform_action` treats it: the before
 * filters run first; then `method_missing`, else a public template of the action's name (a
 * template-only action), else `UnknownAction`, raised inside the chain where `rescue_from` sees it.
 * Each case runs under both request engines.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, UnknownAction, html, memoryViews, type Mapper, type Template } from '../../../core/index.ts';
import { defaultErrorPage } from '../../../core/pipeline/default-pages.ts';
import type { Engine } from '../../../machines/index.ts';
import { appWith, call, form, get, tempDir, withServer, type AppOptions, type ControllerClass } from '../../support/harness.ts';

const test = suite('an action with no method: filters first, then a template of its name, else UnknownAction');

const ENGINES: readonly Engine[] = ['compiled', 'xstate'];

const VIEWS: Record<string, Template> = {
  'pages/about.html': (v) => html`<p>About ${v.params.id ?? 'us'}</p>${v.render({ partial: 'form' })}`,
  'pages/_form.html': () => html`<form></form>`,
  'pages/feed.xml': () => '<feed/>',
  'pages/secret.html': () => 'the secret template',
  'layouts/application.html': (v) => `<body>${v.yield()}</body>`,
};

/** Rails' default routes, and `:controller/:action.:format` so that `/pages/about.json` names a format. */
function routes(map: Mapper): void {
  map.connect(':controller/:action/:id.:format');
  map.connect(':controller/:action/:id');
  map.connect(':controller/:action.:format');
  map.connect(':controller/:action');
}

function appOf(engine: Engine, controllers: Record<string, ControllerClass>, options: AppOptions = {}) {
  return appWith(controllers, { engine, views: memoryViews(VIEWS), draw: routes, ...options });
}

for (const engine of ENGINES) {
  test(`[${engine}] a before filter runs before an unknown action is known to be one: it may redirect`, async () => {
    class Posts extends Controller {
      static {
        this.before_filter('login_required');
      }
      login_required(): void {
        if (this.params.user === undefined) this.redirect_to('/login');
      }
      index(): void { this.render({ text: 'index' }); }
    }
    const app = appOf(engine, { posts: Posts });
    const anonymous = await call(app, 'GET /posts/nonexistent');
    assert.is(anonymous.status, 302);
    assert.is(anonymous.header('location'), 'http://test.host/login');
    const known = await call(app, 'GET /posts/nonexistent?user=ann');
    assert.is(known.status, 404, 'past the filter, the action is unknown');
    assert.is(known.body, defaultErrorPage(404));
  });

  test(`[${engine}] a before filter that renders ends the chain for an unknown action too`, async () => {
    class Posts extends Controller {
      static {
        this.before_filter((c: Controller) => c.render({ text: 'closed for maintenance', status: 503 }));
      }
    }
    const res = await call(appOf(engine, { posts: Posts }), 'GET /posts/nonexistent');
    assert.is(res.status, 503);
    assert.is(res.body, 'closed for maintenance');
  });

  test(`[${engine}] rescue_from UnknownAction, by class or by name, answers an unknown action`, async () => {
    class ByClass extends Controller {
      static {
        this.rescue_from(UnknownAction, function (this: Controller, e: Error) {
          this.render({ text: `no page here (${e.message})`, status: 404 });
        });
      }
    }
    class ByName extends Controller {
      static {
        this.rescue_from('UnknownAction', 'not_found');
      }
      not_found(): void { this.render({ text: 'custom 404', status: 'not_found' }); }
    }
    const app = appOf(engine, { by_class: ByClass, by_name: ByName });
    const one = await call(app, 'GET /by_class/nope');
    assert.is(one.status, 404);
    assert.is(one.body, 'no page here (No action responded to nope in ByClass)');
    const two = await call(app, 'GET /by_name/nope');
    assert.is(two.status, 404);
    assert.is(two.body, 'custom 404');
    assert.is((await call(app, 'GET /by_name/not_found')).status, 404, 'the handler is no action itself');
  });

  test(`[${engine}] a template with no method is an action: it renders in its layout, with the filters around it`, async () => {
    const ran: string[] = [];
    class Pages extends Controller {
      static {
        this.before_filter(() => ran.push('before'));
        this.after_filter((c: Controller) => ran.push(`after ${c.response.status}`));
      }
    }
    const app = appOf(engine, { pages: Pages });
    const res = await call(app, 'GET /pages/about');
    assert.is(res.status, 200);
    assert.is(res.body, '<body><p>About us</p><form></form></body>');
    assert.match(res.header('content-type') ?? '', /^text\/html/);
    assert.equal(ran, ['before', 'after 200']);
    assert.is((await call(app, 'GET /pages/about/7')).body, '<body><p>About 7</p><form></form></body>', 'with an id too');
    const feed = await call(app, 'GET /pages/feed.xml');
    assert.is(feed.body, '<feed/>', 'in the format it is written for');
    assert.match(feed.header('content-type') ?? '', /^application\/xml/);
  });

  test(`[${engine}] a template-only action answers only in its template's format`, async () => {
    class Pages extends Controller {}
    const app = appOf(engine, { pages: Pages }, { config: { consider_all_requests_local: true } });
    const json = await call(app, 'GET /pages/about.json');
    assert.is(json.status, 404);
    assert.is(json.body, defaultErrorPage(404));
    const local = await call(app, 'GET /pages/about.json', { remoteAddress: '127.0.0.1' });
    assert.match(local.body, '<h1>Unknown action</h1>', 'an unknown action, not a missing template');
    assert.is((await call(app, 'GET /pages/feed')).status, 404, 'an xml-only template is no html action');
    assert.is((await call(app, 'GET /pages/about', { headers: { accept: 'application/json' } })).status, 200, 'Accept does not choose the template format; only js would');
    assert.is((await call(app, 'GET /pages/about.bogus')).status, 406, 'a format no MIME type is registered for is refused before any controller runs, as for any action');
  });

  test(`[${engine}] a partial is not an action, though its template exists`, async () => {
    class Pages extends Controller {}
    const res = await call(appOf(engine, { pages: Pages }), 'GET /pages/_form');
    assert.is(res.status, 404);
    assert.is(res.body, defaultErrorPage(404));
  });

  test(`[${engine}] hidden and underscored methods are still no actions; a template of a hidden name renders without the method`, async () => {
    const called: string[] = [];
    class Pages extends Controller {
      static {
        this.hide_action('helper', 'secret');
      }
      helper(): void { called.push('helper'); this.render({ text: 'helper ran' }); }
      secret(): void { called.push('secret'); this.render({ text: 'secret ran' }); }
      _form(): void { called.push('_form'); this.render({ text: '_form ran' }); }
    }
    const app = appOf(engine, { pages: Pages });
    assert.is((await call(app, 'GET /pages/helper')).status, 404);
    assert.is((await call(app, 'GET /pages/_form')).status, 404);
    // Rails' perform_action: not an action method, so the template of that name is rendered by default.
    assert.is((await call(app, 'GET /pages/secret')).body, '<body>the secret template</body>');
    assert.equal(called, [], 'no hidden method ran');
  });

  test(`[${engine}] method_missing comes before a template of the same name`, async () => {
    class Pages extends Controller {
      method_missing(name: string): void {
        if (name !== 'about') this.render({ text: `missing ${name}` });
      }
    }
    const app = appOf(engine, { pages: Pages });
    assert.is((await call(app, 'GET /pages/other')).body, 'missing other');
    assert.is((await call(app, 'GET /pages/about')).body, '<body><p>About us</p><form></form></body>', 'then the implicit render');
  });

  test(`[${engine}] after filters do not run when the action is unknown; around filters see the error`, async () => {
    const ran: string[] = [];
    class Pages extends Controller {
      static {
        this.before_filter(() => ran.push('before'));
        this.around_filter(async (_c: Controller, proceed: () => Promise<void>) => {
          ran.push('around in');
          try {
            await proceed();
            ran.push('around out');
          } catch (error) {
            ran.push(`around saw ${(error as Error).constructor.name}`);
            throw error;
          }
        });
        this.after_filter(() => ran.push('after'));
      }
    }
    const res = await call(appOf(engine, { pages: Pages }), 'GET /pages/nonexistent');
    assert.is(res.status, 404);
    assert.equal(ran, ['before', 'around in', 'around saw UnknownAction']);
  });

  test(`[${engine}] an unknown controller is a routing error as before: no controller's filters run`, async () => {
    const ran: string[] = [];
    class Pages extends Controller {
      static {
        this.before_filter(() => ran.push('before'));
      }
    }
    const app = appOf(engine, { pages: Pages }, { config: { consider_all_requests_local: true } });
    const res = await call(app, 'GET /nowhere/about');
    assert.is(res.status, 404);
    assert.is(res.body, defaultErrorPage(404));
    assert.match((await call(app, 'GET /nowhere/about', { remoteAddress: '127.0.0.1' })).body, '<h1>Routing Error</h1>');
    assert.equal(ran, []);
  });

  test(`[${engine}] a forged POST to an unknown action meets the controller's own forgery check`, async () => {
    class Protected extends Controller {
      static { this.protect_from_forgery(); }
      create(): void { this.render({ text: 'created' }); }
    }
    class Open extends Controller {
      create(): void { this.render({ text: 'created' }); }
    }
    class Scoped extends Controller {
      static { this.protect_from_forgery({ only: ['create'] }); }
      create(): void { this.render({ text: 'created' }); }
    }
    const app = appOf(engine, { protected: Protected, open: Open, scoped: Scoped }, { config: { allow_forgery_protection: true } });
    assert.is((await call(app, 'POST /protected/nonexistent', form({}))).status, 422, 'InvalidAuthenticityToken, as its before filter raised in Rails');
    assert.is((await call(app, 'POST /open/nonexistent', form({}))).status, 404, 'an unprotected controller has no check to fail');
    assert.is((await call(app, 'POST /scoped/nonexistent', form({}))).status, 404, 'nor one whose protection leaves the name out');
    assert.is((await call(app, 'POST /nowhere/nonexistent', form({}))).status, 422, 'no controller at all: as unrouted');
  });
}

test('in development a template added for an action with no method answers the next request', async () => {
  const dir = tempDir('template-only');
  try {
    mkdirSync(join(dir.path, 'pages'), { recursive: true });
    writeFileSync(join(dir.path, 'pages', 'about.html.ts'), 'export default (): string => "about";\n');
    class Pages extends Controller {}
    const app = appWith({ pages: Pages }, { views: dir.path, config: { cache_template_loading: false } });
    await withServer(app, {}, async (server) => {
      assert.is((await get(server, '/pages/about')).body, 'about');
      assert.is((await get(server, '/pages/contact')).status, 404);
      writeFileSync(join(dir.path, 'pages', 'contact.html.ts'), 'export default (): string => "write to us";\n');
      const res = await get(server, '/pages/contact');
      assert.is(res.status, 200);
      assert.is(res.body, 'write to us');
    });
  } finally {
    dir.remove();
  }
});

test('a template-only action renders over real HTTP from a views directory, and its partial does not', async () => {
  const dir = tempDir('template-only-http');
  try {
    mkdirSync(join(dir.path, 'pages'), { recursive: true });
    mkdirSync(join(dir.path, 'layouts'), { recursive: true });
    writeFileSync(join(dir.path, 'pages', 'about.html.ts'), 'export default (v: { render(o: object): string }): string => `about ${v.render({ partial: "note" })}`;\n');
    writeFileSync(join(dir.path, 'pages', '_note.html.ts'), 'export default (): string => "(note)";\n');
    writeFileSync(join(dir.path, 'layouts', 'application.html.ts'), 'export default (v: { yield(): string }): string => `<main>${v.yield()}</main>`;\n');
    class Pages extends Controller {}
    await withServer(appWith({ pages: Pages }, { views: dir.path }), {}, async (server) => {
      const about = await get(server, '/pages/about');
      assert.is(about.status, 200);
      assert.is(about.body, '<main>about (note)</main>');
      assert.is((await get(server, '/pages/_note')).status, 404);
      assert.is((await get(server, '/pages/about.json')).status, 404);
      assert.is((await get(server, '/pages/..%2Flayouts%2Fapplication')).status, 404, 'a name that leaves the directory finds nothing');
    });
  } finally {
    dir.remove();
  }
});

test.run();
