/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, createApp, draw, MissingTemplate, memoryViews } from '../../index.ts';

class NotesController extends Controller {
  show(): void {}
}

/**
 * core/errors.ts `MissingTemplate`: the message named the one path looked for twice,
 * `Missing template app/views/notes/show.html.{ts,js,mjs} (searched: app/views/notes/show.html.{ts,js,mjs})`,
 * in the log line of every missing template, as though two places had been searched.
 */
test('a missing template is named once, with the other paths only when more were searched', async () => {
  // In development the page and the log line of an action with no template say this message.
  const app = createApp({ routes: draw((map) => map.resources('notes')), controllers: { notes: NotesController }, views: memoryViews({}), environment: 'development', logger: false });
  const page = await app.handle({ method: 'GET', url: '/notes/1', headers: { host: 'localhost' }, remoteAddress: '127.0.0.1' });
  assert.is(page.status, 500);
  assert.match(String(page.body), '<p class="message">Missing template (memory)/notes/show.html</p>', 'one path, named once');
  assert.is(new MissingTemplate(['a/show.html.js', 'b/show.html.js']).message, 'Missing template a/show.html.js (searched: a/show.html.js, b/show.html.js)');
});

test.run();
