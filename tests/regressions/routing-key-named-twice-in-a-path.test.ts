/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, LinearRecognizer, TreeRecognizer } from '../../core/index.ts';

/**
 * core/routing/route.ts `buildRoute` refused a path naming a key twice, which Rails 2.1's route builder
 * drew: an API resource under `:path_prefix => '/api/v1/:format'` gets formatted routes such as
 * `/api/v1/:format/projects.:format`, so draw() threw and a ported routes file holding one did not load.
 * Rails filled params segment by segment, a later capture over an earlier one, and wrote the one value
 * into every segment of the key when generating.
 */
test('a path naming a key twice is drawn: the later capture is the param, and generation writes the value into both', () => {
  const routes = draw((map) => {
    map.resources('projects', { path_prefix: '/api/v1/:format' });
    map.connect('pairs/:id/with/:id', { controller: 'pairs', action: 'show' });
  });
  assert.equal(routes.recognize('GET', '/api/v1/json/projects/3'), { controller: 'projects', action: 'show', format: 'json', id: '3' });
  assert.equal(routes.recognize('GET', '/api/v1/json/projects/3.xml'), { controller: 'projects', action: 'show', format: 'xml', id: '3' });
  assert.equal(routes.recognize('GET', '/pairs/1/with/2'), { controller: 'pairs', action: 'show', id: '2' });
  for (const recognizer of [new LinearRecognizer(routes.routes, { controllers: null }), new TreeRecognizer(routes.routes, { controllers: null })]) {
    assert.equal(recognizer.match('GET', '/api/v1/json/projects.xml')?.params, { controller: 'projects', action: 'index', format: 'xml' });
  }
  assert.is(routes.generate({ controller: 'pairs', action: 'show', id: 5 }), '/pairs/5/with/5');
  const h = routes.helpers() as unknown as Record<string, (...args: unknown[]) => string>;
  assert.is(h.formatted_projects_path({ format: 'json' }), '/api/v1/json/projects.json');
  assert.is(h.formatted_project_path('json', 3), '/api/v1/json/projects/3.json');
  assert.is(h.project_path('xml', 3), '/api/v1/xml/projects/3');
});

test.run();
