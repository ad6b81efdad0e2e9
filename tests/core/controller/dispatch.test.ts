/**
 * Running one action: the filter chain (before, after, around, halting,
 * scoping, inheritance), `rescue_from` at request time, and which method
 * names are actions at all.
 */
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultErrorPage } from '../../../core/pipeline/default-pages.ts';
import { Controller, RecordNotFound } from '../../../core/index.ts';
import { dispatch } from '../../../core/controller/dispatch.ts';
import type { ControllerWiring } from '../../../core/controller/base.ts';
import { createMimeRegistry, draw, Request, Response, CookieJar, NULL_SESSION_STORE } from '../../../core/index.ts';
import { SessionHandle } from '../../../core/session/session.ts';
import { isThenable } from '../../../core/util.ts';
import { appWith, call } from '../../support/harness.ts';

const test = suite('dispatch runs filters around the action and rescues what it throws');

/** A controller that records what ran in `log`, and answers it as text unless something else rendered. */
class Logging extends Controller {
  log: string[] = [];
  note(entry: string): void {
    this.log.push(entry);
  }
  show(): void {
    this.note('action');
    this.render({ text: 'shown' });
  }
  index(): void {
    this.note('action');
  }
}

/** Reads the trail a `Logging` controller leaves in an X-Log header (set by a last after filter). */
function trail(klass: typeof Logging) {
  klass.after_filter((c: Logging) => c.response.set_header('X-Log', c.log.join(' ')));
  return appWith({ pages: klass });
}

test('before filters run in order, then the action, then after filters', async () => {
  class Pages extends Logging {
    static {
      this.before_filter('first', (c: Logging) => c.note('second'));
      this.after_filter('after');
    }
    first(): void { this.note('first'); }
    after(): void { this.note('after'); }
  }
  const res = await call(trail(Pages), 'GET /pages/show');
  assert.is(res.body, 'shown');
  assert.is(res.header('x-log'), 'first second action after');
});

test('a before filter that renders or redirects halts the chain: no action, no after filters', async () => {
  const after: string[] = [];
  class Pages extends Logging {
    static {
      this.before_filter('deny', 'never');
      this.after_filter(() => after.push('after'));
    }
    deny(): void { this.redirect_to('/login'); }
    never(): void { this.note('never'); }
  }
  const res = await call(appWith({ pages: Pages }), 'GET /pages/show');
  assert.is(res.status, 302);
  assert.is(res.header('location'), 'http://test.host/login');
  assert.equal(after, []);
  class Rendering extends Logging {
    static {
      this.before_filter((c: Logging) => c.render({ text: 'halted', status: 'forbidden' }));
    }
  }
  const halted = await call(appWith({ pages: Rendering }), 'GET /pages/show');
  assert.is(halted.status, 403);
  assert.is(halted.body, 'halted');
});

test('async filters are awaited before the next step', async () => {
  class Pages extends Logging {
    static {
      this.before_filter(async (c: Logging) => {
        await new Promise((r) => setTimeout(r, 5));
        c.note('slow');
      });
    }
  }
  assert.is((await call(trail(Pages), 'GET /pages/show')).header('x-log'), 'slow action');
});

/** What the request pipeline wires into a `pages` controller for a GET of `action`, built by hand. */
function wiringFor(action: string): ControllerWiring {
  const request = new Request({ method: 'GET', url: `/pages/${action}`, headers: { host: 'test.host' } }, { mime: createMimeRegistry() });
  const response = new Response();
  const routes = draw((map) => map.connect(':controller/:action'));
  return {
    request, response, routes, helpers: routes.helpers(), session: new SessionHandle(NULL_SESSION_STORE, request),
    cookies: new CookieJar(() => request.cookies, response), views: null, controller_path: 'pages', action_name: action, services: {},
    logger: pino({ level: 'silent' }),
  };
}

/** A thenable that is not a Promise (as some query builders and older promise libraries return), nor is what its `then` returns. */
function thenable<T>(promise: Promise<T>): PromiseLike<T> {
  return {
    then: (resolve, reject) => thenable(promise.then(resolve, reject)),
  };
}

/** A non-Promise thenable that settles after `ms` with `value` (or fails with it). */
function later<T>(ms: number, value: T, fail = false): PromiseLike<T> {
  return thenable(new Promise<T>((ok, no) => setTimeout(() => (fail ? no(value) : ok(value)), ms)));
}

test('a thenable that is not a Promise, returned by a filter, the action or a rescue handler, is awaited', async () => {
  class Pages extends Logging {
    static {
      this.before_filter((c: Logging) => later(5, null).then(() => c.note('filter')));
      this.rescue_from(RecordNotFound, { with: function (this: Logging, e: Error) {
        return later(5, null).then(() => this.render({ text: e.message, status: 'not_found' }));
      } });
    }
    override show(): PromiseLike<void> {
      return later(5, null).then(() => this.render({ text: 'late' }));
    }
    missing(): PromiseLike<unknown> {
      return later(5, new RecordNotFound('gone'), true);
    }
  }
  const shown = await call(trail(Pages), 'GET /pages/show');
  assert.is(shown.status, 200);
  assert.is(shown.body, 'late', 'what the action rendered once its thenable settled, not the implicit template render');
  assert.is(shown.header('x-log'), 'filter');
  const rescued = await call(appWith({ pages: Pages }), 'GET /pages/missing');
  assert.is(rescued.status, 404, 'a thenable that rejects is rescued like a rejected promise');
  assert.is(rescued.body, 'gone');
});

test('a chain of synchronous steps answers synchronously; a thenable anywhere makes the answer a promise', async () => {
  class Pages extends Controller {
    static { this.before_filter('check'); }
    check(): void {}
    now(): void { this.render({ text: 'now' }); }
    soon(): PromiseLike<void> { return later(1, null).then(() => this.render({ text: 'soon' })); }
  }
  const now = dispatch(Pages, wiringFor('now'), { forgery: { required: false }, allow_forgery_protection: false });
  assert.ok(now instanceof Pages, 'the controller itself, with no promise hop');
  assert.is(now.response.body, 'now');
  const soon = dispatch(Pages, wiringFor('soon'), { forgery: { required: false }, allow_forgery_protection: false });
  assert.ok(isThenable(soon));
  assert.is((await soon).response.body, 'soon');
});

test('prepend_before_filter runs ahead of filters declared earlier', async () => {
  class Pages extends Logging {
    static {
      this.before_filter((c: Logging) => c.note('declared first'));
      this.prepend_before_filter((c: Logging) => c.note('prepended'));
    }
  }
  assert.is((await call(trail(Pages), 'GET /pages/show')).header('x-log'), 'prepended declared first action');
});

test('around filters wrap the action (outermost first) and the after filters run outside them', async () => {
  class Pages extends Logging {
    static {
      this.around_filter('outer');
      this.around_filter(async (c: Logging, run?: () => Promise<void>) => {
        c.note('inner in');
        await run!();
        c.note('inner out');
      });
    }
    async outer(run: () => Promise<void>): Promise<void> {
      this.note('outer in');
      await run();
      this.note('outer out');
    }
  }
  assert.is((await call(trail(Pages), 'GET /pages/show')).header('x-log'), 'outer in inner in action inner out outer out');
});

test('an around filter that does not proceed skips the action; what it rendered is the response', async () => {
  class Pages extends Logging {
    static {
      this.around_filter((c: Logging) => c.render({ text: 'cached copy' }));
    }
  }
  const res = await call(trail(Pages), 'GET /pages/show');
  assert.is(res.body, 'cached copy');
  assert.is(res.header('x-log'), '');
  class Silent extends Logging {
    static {
      this.around_filter(() => {});
    }
  }
  const silent = await call(appWith({ pages: Silent }), 'GET /pages/show');
  assert.is(silent.status, 200);
  assert.is(silent.body, '', 'nothing rendered: an empty 200');
});

test('only and except scope filters to actions', async () => {
  class Pages extends Logging {
    static {
      this.before_filter((c: Logging) => c.note('only-show'), { only: 'show' });
      this.before_filter((c: Logging) => c.note('except-show'), { except: ['show'] });
    }
    other(): void {
      this.note('other');
      this.render({ text: 'other' });
    }
  }
  const app = trail(Pages);
  assert.is((await call(app, 'GET /pages/show')).header('x-log'), 'only-show action');
  assert.is((await call(app, 'GET /pages/other')).header('x-log'), 'except-show other');
});

test('a subclass adds and skips filters without changing what its parent runs', async () => {
  class Parent extends Logging {
    static {
      this.before_filter('authenticate');
    }
    authenticate(): void { this.note('auth'); }
  }
  class Child extends Parent {
    static {
      this.skip_before_filter('authenticate');
      this.before_filter((c: Logging) => c.note('child'));
    }
  }
  class Sibling extends Parent {
    static {
      this.after_filter((c: Logging) => c.note('sibling'));
    }
  }
  const headerOf = async (k: typeof Logging) => (await call(trail(k), 'GET /pages/show')).header('x-log');
  assert.is(await headerOf(Child), 'child action');
  assert.is(await headerOf(Sibling), 'auth action sibling');
  assert.is(await headerOf(Parent), 'auth action');
});

test('a filter named after a method that does not exist fails the request (500)', async () => {
  class Pages extends Logging {
    static {
      // @ts-expect-error -- the compiler refuses the name; JavaScript and casts reach the check at request time
      this.before_filter('missing_method');
    }
  }
  const res = await call(appWith({ pages: Pages }, { config: { consider_all_requests_local: true } }), 'GET /pages/show', { remoteAddress: '127.0.0.1' });
  assert.is(res.status, 500);
  assert.match(res.body, 'has no method missing_method (named as a filter)');
});

test('filter and rescue handler methods cannot be requested as actions', async () => {
  class Pages extends Logging {
    static {
      this.before_filter('authenticate');
      // Not Error: a handler for every error would handle the UnknownAction too, as Rails' would.
      this.rescue_from(RangeError, 'handle');
    }
    authenticate(): void {}
    handle(): void {}
  }
  const app = appWith({ pages: Pages });
  assert.is((await call(app, 'GET /pages/authenticate')).status, 404);
  assert.is((await call(app, 'GET /pages/handle')).status, 404);
  assert.is((await call(app, 'GET /pages/show')).status, 200);
});

class NotAllowed extends Error {}
class VeryNotAllowed extends NotAllowed {}

test('rescue_from handles an error class (and its subclasses) with a method or a function', async () => {
  class Pages extends Controller {
    static {
      this.rescue_from(NotAllowed, 'forbid');
      this.rescue_from(RangeError, function (this: Controller, e: Error) { this.render({ text: `range: ${e.message}`, status: 400 }); });
    }
    forbid(e: Error): void { this.head('forbidden', { x_error: e.constructor.name }); }
    one(): void { throw new NotAllowed(); }
    two(): void { throw new VeryNotAllowed(); }
    three(): void { throw new RangeError('too far'); }
  }
  const app = appWith({ pages: Pages });
  let res = await call(app, 'GET /pages/one');
  assert.is(res.status, 403);
  assert.is(res.header('x-error'), 'NotAllowed');
  res = await call(app, 'GET /pages/two');
  assert.is(res.header('x-error'), 'VeryNotAllowed');
  res = await call(app, 'GET /pages/three');
  assert.is(res.status, 400);
  assert.is(res.body, 'range: too far');
});

test('rescue_from by class name matches the error class or any class it extends', async () => {
  class Pages extends Controller {
    static {
      this.rescue_from('NotAllowed', (e: Error) => e);
      this.rescue_from('NotAllowed', function (this: Controller) { this.render({ text: 'by name' }); });
    }
    one(): void { throw new VeryNotAllowed(); }
    two(): void { throw 'a thrown string is no error object'; }
  }
  const app = appWith({ pages: Pages });
  assert.is((await call(app, 'GET /pages/one')).body, 'by name', 'the last matching declaration wins');
  assert.is((await call(app, 'GET /pages/two')).status, 500);
});

test('the last declared matching handler wins, also across inheritance', async () => {
  class Parent extends Controller {
    static {
      this.rescue_from(NotAllowed, function (this: Controller) { this.render({ text: 'parent' }); });
    }
    go(): void { throw new VeryNotAllowed(); }
  }
  class Child extends Parent {
    static {
      this.rescue_from(VeryNotAllowed, function (this: Controller) { this.render({ text: 'child' }); });
    }
  }
  assert.is((await call(appWith({ pages: Child }), 'GET /pages/go')).body, 'child');
  assert.is((await call(appWith({ pages: Parent }), 'GET /pages/go')).body, 'parent');
});

test('errors from filters are rescued too; async handlers are awaited', async () => {
  class Pages extends Controller {
    static {
      this.before_filter(() => { throw new RecordNotFound('no such page'); });
      this.rescue_from(RecordNotFound, { with: async function (this: Controller, e: Error) {
        await new Promise((r) => setTimeout(r, 5));
        this.render({ text: e.message, status: 'not_found' });
      } });
    }
    go(): void {}
  }
  const res = await call(appWith({ pages: Pages }), 'GET /pages/go');
  assert.is(res.status, 404);
  assert.is(res.body, 'no such page');
});

test('an unrescued framework error answers its own status (RecordNotFound is 404)', async () => {
  class Pages extends Controller {
    go(): void { throw new RecordNotFound(); }
  }
  assert.is((await call(appWith({ pages: Pages }), 'GET /pages/go')).status, 404);
});

test('actions are public methods below Controller: not _names, not constructor, not getters, not Controller methods', async () => {
  class Application extends Controller {
    shared(): void { this.render({ text: 'shared' }); }
  }
  class Pages extends Application {
    go(): void { this.render({ text: 'go' }); }
    _internal(): void { this.render({ text: 'internal' }); }
    get computed(): string { return 'x'; }
    static helper(): void {}
  }
  const app = appWith({ pages: Pages });
  assert.is((await call(app, 'GET /pages/go')).body, 'go');
  assert.is((await call(app, 'GET /pages/shared')).body, 'shared', 'methods of an application controller are actions');
  for (const name of ['_internal', 'computed', 'helper', 'constructor', 'render', 'redirect_to', 'head', 'respond_to', 'url_for', 'method_missing', 'nope']) {
    assert.is((await call(app, `GET /pages/${name}`)).status, 404, name);
  }
  assert.equal([...Pages.action_methods()].sort(), ['go', 'shared']);
});

test('hide_action keeps a public method from being an action', async () => {
  class Pages extends Controller {
    static {
      this.hide_action('helper');
    }
    helper(): void { this.render({ text: 'helper' }); }
    go(): void { this.render({ text: 'go' }); }
  }
  assert.is((await call(appWith({ pages: Pages }), 'GET /pages/helper')).status, 404);
  assert.not.ok(Pages.action_methods().has('helper'));
  assert.ok(Pages.action_methods().has('go'));
});

test('a subclass that overrides a Controller or Object method does not make it an action; #private methods and request state never are', async () => {
  class Pages extends Controller {
    go(): void { this.render({ text: 'go' }); }
    override render(...args: Parameters<Controller['render']>): void { super.render(...args); }
    override toString(): string { return 'pages'; }
    override valueOf(): number { return 1; }
    override hasOwnProperty(): boolean { return true; }
    #secret(): void { this.render({ text: 'secret' }); }
    reveal(): void { this.#secret(); }
    params_list(): void { this.render({ text: 'listed' }); }
  }
  const app = appWith({ pages: Pages });
  for (const name of ['render', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString', '__proto__', '__defineGetter__', 'secret', '#secret', 'params', 'request', 'session']) {
    assert.is((await call(app, `GET /pages/${encodeURIComponent(name)}`)).status, 404, name);
  }
  assert.equal([...Pages.action_methods()].sort(), ['go', 'params_list', 'reveal']);
  assert.is((await call(app, 'GET /pages/reveal')).body, 'secret');
});

test('method_missing answers every unknown action with its name', async () => {
  class Pages extends Controller {
    method_missing(name: string): void { this.render({ text: `missing ${name}` }); }
  }
  const app = appWith({ pages: Pages });
  assert.is((await call(app, 'GET /pages/anything')).body, 'missing anything');
  assert.is((await call(app, 'GET /pages/whatever')).body, 'missing whatever');
});

test('an unknown action is 404, with the public 404 body (here the default page)', async () => {
  class Pages extends Controller {}
  const res = await call(appWith({ pages: Pages }), 'GET /pages/unknown');
  assert.is(res.status, 404);
  assert.is(res.body, defaultErrorPage(404));
});

test.run();
