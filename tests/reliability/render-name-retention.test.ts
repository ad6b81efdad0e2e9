/**
 * Rendering keeps what it has worked out about template names (core/controller/render.ts), so a name
 * is built once. Action names can come from the client: the default route takes them from the URL,
 * and `render({ action: params.page })` from anywhere. What is kept must not grow with their length:
 * a few thousand renders of 8 KB names once held 33 MB until the process ended.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Controller, MissingTemplate, memoryViews } from '../../core/index.ts';
import { appWith, call } from '../support/harness.ts';

v8.setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapMiB(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const test = suite('what rendering remembers does not grow with the names clients send');

test('rendering thousands of long action names from the request keeps none of them', async () => {
  class PagesController extends Controller {
    static {
      this.rescue_from(MissingTemplate, function (this: Controller) {
        this.render({ text: 'no such page', status: 404 });
      });
    }
    show(): void {
      this.render({ action: String(this.params.page) });
    }
  }
  const app = appWith({ pages: PagesController }, { views: memoryViews({}) });
  assert.is((await call(app, 'GET /pages/show?page=warmup')).status, 404);
  const before = heapMiB();
  for (let i = 0; i < 4200; i++) {
    const res = await call(app, `GET /pages/show?page=${String(i).padStart(5, '0')}${'p'.repeat(8000)}`);
    assert.is(res.status, 404);
  }
  const grown = heapMiB() - before;
  // 4200 names of 8 KB are 33 MB; a few MB leave room for the collector's own noise.
  assert.ok(grown < 8, `the heap grew by ${grown.toFixed(1)} MiB`);
});

test('asking for thousands of long unknown action names keeps none of them', async () => {
  // Each name is looked up as a template (a template-only action), then refused as an UnknownAction.
  class PagesController extends Controller {}
  const app = appWith({ pages: PagesController }, { views: memoryViews({ 'pages/about.html': () => 'about' }) });
  assert.is((await call(app, 'GET /pages/about')).status, 200);
  assert.is((await call(app, 'GET /pages/warmup')).status, 404);
  const before = heapMiB();
  for (let i = 0; i < 4200; i++) {
    const res = await call(app, `GET /pages/${String(i).padStart(5, '0')}${'p'.repeat(8000)}`);
    assert.is(res.status, 404);
  }
  const grown = heapMiB() - before;
  assert.ok(grown < 8, `the heap grew by ${grown.toFixed(1)} MiB`);
});

test.run();
