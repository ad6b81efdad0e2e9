/**
 * LinearRecognizer: the reference implementation (one anchored RegExp per
 * route, first match wins). Runs the shared suite, then its own cases.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, LinearRecognizer } from '../../../core/index.ts';
import { FIXTURE_ROUTES, runRecognizerSuite } from './recognizer.suite.ts';

runRecognizerSuite({ name: 'LinearRecognizer', create: (routes, options) => new LinearRecognizer(routes, options) });

const test = suite('LinearRecognizer');

test('is named linear', () => {
  assert.is(new LinearRecognizer(FIXTURE_ROUTES, { controllers: null }).name, 'linear');
});

test('an empty table matches nothing and allows nothing', () => {
  const r = new LinearRecognizer([], { controllers: null });
  assert.is(r.match('GET', '/'), null);
  assert.equal(r.allowed_methods('/'), []);
});

test('an empty controllers list lets :controller match nothing', () => {
  const routes = draw((map) => map.connect(':controller/:action')).routes;
  assert.is(new LinearRecognizer(routes, { controllers: [] }).match('GET', '/posts/index'), null);
  assert.equal(new LinearRecognizer(routes, { controllers: null }).match('GET', '/posts/index')?.params, { controller: 'posts', action: 'index' });
});

test('is what draw() compiles when asked for recognizer: linear', () => {
  const set = draw((map) => map.resources('posts'), { recognizer: 'linear' });
  assert.is(set.config.recognizer, 'linear');
  assert.equal(set.recognize('GET', '/posts/1'), { controller: 'posts', action: 'show', id: '1' });
});

test.run();
