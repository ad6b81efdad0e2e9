/**
 * The development error pages, alone: pure functions of an error and facts
 * about the request. What they say (Rails' words where Rails had them), what
 * they list, and that everything they show is escaped.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MethodNotAllowed, MissingTemplate, RecordNotFound, RoutingError, TemplateError, UnknownAction, UrlGenerationError } from '../../../core/index.ts';
import { backtrace, inspect, noRouteMessage, rescuePage, rescueTemplate, type RescueFacts } from '../../../core/pipeline/rescue-pages.ts';

const test = suite('development error pages');

const facts: RescueFacts = {
  method: 'GET', path: '/notes/1', controller: 'NotesController', action: 'show',
  params: { controller: 'notes', action: 'show', id: '1' }, session: { user_id: 7 }, root: '/srv/app',
};

test('each error gets its page: routing, unknown action, missing template, template error, or the exception itself', () => {
  assert.is(rescueTemplate(new RoutingError('x')), 'routing_error');
  assert.is(rescueTemplate(new MethodNotAllowed(['get'])), 'routing_error');
  assert.is(rescueTemplate(new UnknownAction('NotesController', 'nope')), 'unknown_action');
  assert.is(rescueTemplate(new MissingTemplate(['a'])), 'missing_template');
  assert.is(rescueTemplate(new TemplateError('a', new Error('b'))), 'template_error');
  assert.is(rescueTemplate(new UrlGenerationError('no route to build')), 'diagnostics', 'a failed generation is the code\'s error, not the request\'s');
  assert.is(rescueTemplate(new TypeError('x')), 'diagnostics');
});

test('a routing error says No route matches with the path and method, as Rails did, and lists the routes', () => {
  assert.is(noRouteMessage('GET', '/no/such/page'), 'No route matches "/no/such/page" with {:method=>:get}');
  const page = rescuePage(new RoutingError(noRouteMessage('GET', '/no/such/page')), {
    ...facts, path: '/no/such/page', controller: null, action: null, params: null,
    routes: [{ name: 'notes', method: 'GET', path: '/notes', controller: 'notes', action: 'index', requirements: {} }],
  });
  assert.match(page, '<title>Routing Error</title>');
  assert.match(page, 'No route matches "/no/such/page" with {:method=&gt;:get}');
  assert.match(page, '<td>notes</td><td>GET</td><td><code>/notes</code></td><td>notes#index</td>');
  assert.match(page, 'None (the request was refused before its parameters were read)');
});

test('a path, a message, parameters and a session with markup in them are escaped', () => {
  const evil = '<script>alert("x")</script>';
  const page = rescuePage(new TypeError(evil), { ...facts, path: `/${evil}`, params: { q: evil }, session: { name: evil } });
  assert.not.match(page, '<script>');
  assert.match(page, '&lt;script&gt;alert("x")&lt;/script&gt;');
  const routing = rescuePage(new RoutingError(noRouteMessage('GET', `/${evil}`)), { ...facts, path: `/${evil}` });
  assert.not.match(routing, '<script>');
});

test('a method the path does not take is a routing error naming the methods it does', () => {
  const page = rescuePage(new MethodNotAllowed(['get', 'put']), facts);
  assert.match(page, '<h1>Routing Error</h1>');
  assert.match(page, 'Only GET, PUT requests are allowed.');
});

test('an unknown action names it and lists the actions there are', () => {
  const page = rescuePage(new UnknownAction('NotesController', 'publish'), { ...facts, actions: ['index', 'show'] });
  assert.match(page, '<h1>Unknown action</h1>');
  assert.match(page, 'No action responded to publish in NotesController');
  assert.match(page, 'Actions: <code>index</code>, <code>show</code>');
});

test('a missing template lists every path searched', () => {
  const page = rescuePage(new MissingTemplate(['/srv/app/views/notes/show.json.{ts,js,mjs}', '/srv/app/views/layouts/x']), facts);
  assert.match(page, '<h1>Template is missing in NotesController#show</h1>');
  assert.match(page, '<li><code>/srv/app/views/notes/show.json.{ts,js,mjs}</code></li>');
  assert.match(page, '<li><code>/srv/app/views/layouts/x</code></li>');
});

/** An error whose stack has an application frame, a framework frame, a dependency's and Node's. */
function withStack(error: Error): Error {
  error.stack = `${error.name}: ${error.message}
    at NotesController.show (file:///srv/app/app/controllers/notes_controller.js:20:11)
    at dispatch (/srv/sbx/core/controller/dispatch.ts:40:3)
    at parse (/srv/app/node_modules/busboy/lib/index.js:1:1)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async file:///srv/app/server.js:3:1`;
  return error;
}

test('an exception: its class and message, the application\'s frames first, the framework\'s apart, the params and the session', () => {
  const page = rescuePage(withStack(new TypeError("Cannot read properties of undefined (reading 'title')")), facts);
  assert.match(page, '<h1>TypeError in NotesController#show</h1>');
  assert.match(page, "Cannot read properties of undefined (reading 'title')");
  const trace = backtrace(withStack(new Error('x')).stack!, '/srv/app', ['/srv/sbx/core/']);
  assert.equal(trace.application, ['at NotesController.show (app/controllers/notes_controller.js:20:11)', 'at async server.js:3:1']);
  assert.equal(trace.framework, [
    'at dispatch (/srv/sbx/core/controller/dispatch.ts:40:3)',
    'at parse (node_modules/busboy/lib/index.js:1:1)',
    'at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ]);
  assert.is(trace.full.length, 5);
  const reloaded = backtrace('Error: x\n    at default (file:///srv/app/app/views/notes/show.html.js?reload=3:4:9)', '/srv/app');
  assert.equal(reloaded.application, ['at default (app/views/notes/show.html.js:4:9)'], 'a template imported again is shown by its file');
  assert.match(page, 'Application root: <code>/srv/app</code>');
  assert.match(page, '"id": "1"');
  assert.match(page, '"user_id": 7');
});

test('a template error is headed as one, names the template, and traces the template\'s own error', () => {
  const cause = withStack(new ReferenceError('note is not defined'));
  const page = rescuePage(new TemplateError('notes/show.html', cause), facts);
  assert.match(page, '<h1>TemplateError in NotesController#show</h1>');
  assert.match(page, 'In template <code>notes/show.html</code>');
  assert.match(page, '<h2>Caused by ReferenceError</h2>');
  assert.match(page, 'at NotesController.show (app/controllers/notes_controller.js:20:11)');
});

test('causes are shown, a few deep; something thrown that is no Error still gets a page', () => {
  const page = rescuePage(new Error('outer', { cause: new RecordNotFound('inner') }), facts);
  assert.match(page, '<h2>Caused by RecordNotFound</h2>');
  assert.match(page, 'inner');
  const thrown = rescuePage('a string', { ...facts, session: null });
  assert.match(thrown, '<h1>string thrown in NotesController#show</h1>');
  assert.match(thrown, 'The request did not read its session.');
});

test('parameters named like passwords or secrets are filtered; bytes are summarised; a huge value is cut', () => {
  assert.is(inspect({ user: { name: 'a', password: 'hunter2', api_secret: 's' } }), JSON.stringify({ user: { name: 'a', password: '[FILTERED]', api_secret: '[FILTERED]' } }, null, 2));
  assert.match(inspect({ file: new Uint8Array(3) }), '"<3 bytes>"');
  const huge = inspect({ text: 'x'.repeat(50_000) });
  assert.ok(huge.length < 20_100);
  assert.match(huge, /more characters\)$/);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.is(inspect(cyclic), '[object Object]');
});

test.run();
