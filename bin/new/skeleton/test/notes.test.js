/**
 * The application's own tests: requests go straight to `app.handle`, the function the HTTP server
 * calls for each request, so they need no port and no network. `npm test` runs them (node:test).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApplication } from '../config/application.js';

/**
 * Sends one request; a `form` is sent as a browser sends a form.
 * @param {import('signalbox').App} app
 * @param {string} method
 * @param {string} url
 * @param {Record<string, string>} [form]
 */
async function request(app, method, url, form) {
  const res = await app.handle({
    method,
    url,
    // Redirects name the host they send the browser to, so the request names one, as browsers do.
    headers: { host: 'localhost', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  const body = typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
  return { status: res.status, headers: res.headers, body };
}

// The test environment: quiet logs, and no authenticity token needed for forms.
const fresh = () => createApplication({ environment: 'test' });

test('the home page lists the notes', async () => {
  const res = await request(fresh(), 'GET', '/');
  assert.equal(res.status, 200);
  assert.match(res.body, /<h1>Notes<\/h1>/);
  assert.match(res.body, /Welcome to/);
});

test('creating a note redirects to its page, which shows it', async () => {
  const app = fresh();
  const created = await request(app, 'POST', '/notes', { 'note[title]': 'Groceries', 'note[body]': 'Milk <and> eggs' });
  assert.equal(created.status, 302);
  const location = String(created.headers.Location);
  assert.equal(location, 'http://localhost/notes/2');
  const page = await request(app, 'GET', new URL(location).pathname);
  assert.equal(page.status, 200);
  assert.match(page.body, /<h1>Groceries<\/h1>/);
  assert.match(page.body, /Milk &lt;and&gt; eggs/, 'what users write is escaped');
});

test('a note without a title is refused: the form again, with the reason, as 422', async () => {
  const res = await request(fresh(), 'POST', '/notes', { 'note[title]': '', 'note[body]': 'kept' });
  assert.equal(res.status, 422);
  assert.match(res.body, /Title can&#39;t be blank/);
  assert.match(res.body, /kept<\/textarea>/, 'what was typed is kept');
});

test('notes are JSON too', async () => {
  const res = await request(fresh(), 'GET', '/notes/1.json');
  assert.equal(res.status, 200);
  assert.equal(JSON.parse(res.body).id, 1);
});

test('an unknown note and an unknown path answer 404 with public/404.html', async () => {
  for (const path of ['/notes/999', '/no/such/page']) {
    const res = await request(fresh(), 'GET', path);
    assert.equal(res.status, 404, path);
    assert.match(res.body, /The page you were looking for doesn't exist/, path);
  }
});
