/**
 * The tunnel client in a real browser, as an application ships it: bundled for the browser (esbuild,
 * as a user's bundler would), served from the app's public directory, and loaded by a page the app
 * rendered. Headless Chromium (Debian's `chromium`, installed by `npm run setup:browser` and by .ci/run)
 * runs it on the browser's own WebSocket, so what is checked here is what a page gets: the upgrade
 * carrying the page's cookies (its session, hence its authenticity token) and the jar of cookies
 * tunnelled answers set changing them rather than replacing them, answers matched to their
 * requests in the batching protocol's binary frames, bodies byte for byte, and the Origin check
 * refusing a page of another origin.
 *
 * Without Chromium the suite is Unavailable: skipped locally, failed in CI (CI=true).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import type { RunningServer } from '../../transport/index.ts';
import { ROOT } from '../support/acceptance.ts';
import { appWith } from '../support/harness.ts';
import { serve } from '../../transport/index.ts';
import { Unavailable } from '../harness/unavailable.ts';

const test = suite('the tunnel client in headless Chromium');

const CHROMIUM = process.env.SIGNALBOX_CHROMIUM || '/usr/bin/chromium';

/** The page every test starts from: the app's own HTML, carrying its authenticity token as Rails' csrf_meta_tag did. */
const pageHtml = (token: string) => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="csrf-token" content="${token}"><title>notes</title></head>
<body><script type="module">import { tunnel } from '/tunnel-client.js'; window.tunnel = tunnel;</script></body></html>`;

class NotesController extends Controller {
  static {
    this.protect_from_forgery();
  }
  index(): void {
    this.render({ html: pageHtml(this.form_authenticity_token()) });
  }
  create(): void {
    const count = Number(this.session['count'] ?? 0) + 1;
    this.session['count'] = count;
    const note = this.params['note'] as Record<string, string>;
    this.render({ json: { title: note['title'], count } });
  }
  show(): void {
    this.render({ json: { id: this.params['id'], count: Number(this.session['count'] ?? 0) } });
  }
  prefer(): void {
    this.cookies.set('theme', String(this.params['theme']));
    this.render({ text: 'kept' });
  }
  forget(): void {
    this.cookies.delete('theme');
    this.render({ text: 'forgotten' });
  }
  theme(): void {
    this.render({ json: { theme: this.cookies.get('theme') ?? null, count: Number(this.session['count'] ?? 0) } });
  }
}

/** The app under test: forgery protection on, a cookie session, the bundled client in its public directory. */
const notesApp = () => appWith({ notes: NotesController }, {
  publicDir,
  session: { key: '_notes', secret: 'n'.repeat(32) },
  config: { allow_forgery_protection: true },
});

let server: RunningServer;
let elsewhere: RunningServer;
let context: BrowserContext;
let page: Page;
let publicDir: string;
let profile: string;
let bundledInputs: string[] = [];
const file = randomBytes(3000);
const problems: string[] = [];

test.before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Unavailable(`Chromium is not installed at ${CHROMIUM}: run \`npm run setup:browser\` (Debian: apt-get install -y chromium), or point SIGNALBOX_CHROMIUM at a Chromium binary`);
  }
  publicDir = mkdtempSync(join(tmpdir(), 'signalbox-public-'));
  const bundle = await build({
    entryPoints: [resolve(ROOT, 'transport/tunnel-client.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  bundledInputs = Object.keys(bundle.metafile.inputs);
  writeFileSync(join(publicDir, 'tunnel-client.js'), bundle.outputFiles[0]!.contents);
  writeFileSync(join(publicDir, 'blob.bin'), file);
  writeFileSync(join(publicDir, 'favicon.ico'), ''); // asked for by every page: not a fault to report
  server = await serve(notesApp(), { port: 0, host: '127.0.0.1' });
  // A second app on another port: another origin, serving the same page and client.
  elsewhere = await serve(notesApp(), { port: 0, host: '127.0.0.1' });
  profile = mkdtempSync(join(tmpdir(), 'signalbox-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
});

test.after(async () => {
  await context?.close();
  await server?.close();
  await elsewhere?.close();
  for (const dir of [profile, publicDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens the app's page and waits for its module to load the client. */
async function openPage(at: RunningServer): Promise<void> {
  const response = await page.goto(`${at.url}/notes`);
  assert.is(response?.status(), 200);
  await page.waitForFunction(() => typeof (window as { tunnel?: unknown }).tunnel === 'function', undefined, { timeout: 10_000 });
}

test('bundled for the browser, the client reaches nothing of Node: not ws, not a node: module', () => {
  assert.ok(bundledInputs.some((input) => input.endsWith('transport/tunnel-client.ts')), 'the client itself was bundled');
  const nodeOnly = bundledInputs.filter((input) => input.startsWith('node:') || /node_modules\/ws\/(lib|index)/.test(input));
  assert.equal(nodeOnly, []);
});

test("a page's tunnel carries the page's session: a form POST with the page's token is accepted, one without is 422", async () => {
  await openPage(server);
  const answers = await page.evaluate(async () => {
    const open = (window as unknown as { tunnel: (url: string) => Promise<{ request(init: object): Promise<{ status: number; json(): Promise<unknown> }>; close(): Promise<void> }> }).tunnel;
    const t = await open(`${location.origin.replace('http', 'ws')}/_tunnel`);
    const token = document.querySelector<HTMLMetaElement>('meta[name=csrf-token]')!.content;
    // Written out, not as a local function: a named function here would not survive tsx's transform into the page.
    const form = { method: 'POST', path: '/notes/create', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
    const first = await t.request({ ...form, body: `authenticity_token=${encodeURIComponent(token)}&note[title]=${encodeURIComponent('Café ☕ <b>')}` });
    const second = await t.request({ ...form, body: `authenticity_token=${encodeURIComponent(token)}&note[title]=again` });
    const forged = await t.request({ ...form, body: 'note[title]=forged' });
    const shown = await t.request({ path: '/notes/show/7' });
    const out = [first.status, await first.json(), second.status, await second.json(), forged.status, shown.status, await shown.json()];
    await t.close();
    return out;
  });
  assert.equal(answers, [
    200, { title: 'Café ☕ <b>', count: 1 },
    200, { title: 'again', count: 2 },
    422,
    200, { id: '7', count: 2 },
  ]);
});

test('cookies tunnelled answers set or remove change the page\'s cookies: its session stays, and its token with it', async () => {
  await openPage(server);
  const answers = await page.evaluate(async () => {
    const open = (window as unknown as { tunnel: (url: string) => Promise<{ request(init: object): Promise<{ status: number; text(): Promise<string> }>; close(): Promise<void> }> }).tunnel;
    const t = await open(`${location.origin.replace('http', 'ws')}/_tunnel`);
    const token = document.querySelector<HTMLMetaElement>('meta[name=csrf-token]')!.content;
    const form = { method: 'POST', path: '/notes/create', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
    const out: unknown[] = [];
    for (const init of [
      { method: 'POST', path: '/notes/prefer?theme=dark', headers: { 'X-CSRF-Token': token } },
      { path: '/notes/theme' },
      { ...form, body: `authenticity_token=${encodeURIComponent(token)}&note[title]=one` },
      { ...form, body: `authenticity_token=${encodeURIComponent(token)}&note[title]=two` },
      { method: 'POST', path: '/notes/forget', headers: { 'X-CSRF-Token': token } },
      { path: '/notes/theme' },
    ]) {
      const r = await t.request(init);
      out.push(`${r.status} ${await r.text()}`);
    }
    await t.close();
    return out;
  });
  assert.equal(answers, [
    '200 kept',
    '200 {"theme":"dark","count":0}',
    '200 {"title":"one","count":1}',
    '200 {"title":"two","count":2}',
    '200 forgotten',
    '200 {"theme":null,"count":2}',
  ]);
});

test('fifty requests in flight from a page each get their own answer', async () => {
  await openPage(server);
  const ids = await page.evaluate(async () => {
    const open = (window as unknown as { tunnel: (url: string) => Promise<{ request(init: object): Promise<{ json(): Promise<{ id: string }> }>; close(): Promise<void> }> }).tunnel;
    const t = await open(`${location.origin.replace('http', 'ws')}/_tunnel`);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => t.request({ path: `/notes/show/${i}` }).then((r) => r.json())));
    await t.close();
    return answers.map((a) => a.id);
  });
  assert.equal(ids, Array.from({ length: 50 }, (_, i) => String(i)));
});

test('a binary file from the public directory arrives byte for byte', async () => {
  await openPage(server);
  const got = await page.evaluate(async () => {
    const open = (window as unknown as { tunnel: (url: string) => Promise<{ request(init: object): Promise<{ status: number; headers: { get(n: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> }>; close(): Promise<void> }> }).tunnel;
    const t = await open(`${location.origin.replace('http', 'ws')}/_tunnel`);
    const r = await t.request({ path: '/blob.bin' });
    const bytes = Array.from(new Uint8Array(await r.arrayBuffer()));
    await t.close();
    return { status: r.status, length: r.headers.get('content-length'), bytes };
  });
  assert.is(got.status, 200);
  assert.is(got.length, String(file.length));
  assert.ok(Buffer.from(got.bytes).equals(file), 'the same bytes');
});

test("a page of another origin cannot open the app's tunnel: the client rejects with tunnel_unavailable, saying where the reason is", async () => {
  await openPage(elsewhere);
  const outcome = await page.evaluate(async (target) => {
    const open = (window as unknown as { tunnel: (url: string, options: object) => Promise<{ request(init: object): Promise<{ status: number }> }> }).tunnel;
    try {
      const t = await open(target, { reconnect: false, timeoutMs: 5000 });
      return `opened: ${(await t.request({ path: '/notes/show/1' })).status}`;
    } catch (error) {
      return `${(error as { code?: string }).code ?? ''}: ${(error as Error).message}`;
    }
  }, `${server.url.replace('http', 'ws')}/_tunnel`);
  assert.match(outcome, /^tunnel_unavailable: Cannot open ws:/);
  assert.match(outcome, 'serve(app, { tunnel: { origins } })', 'the browser says nothing of why: the message says where to look');
});

test('when the server restarts, the page\'s tunnel opens again on the next request', async () => {
  await openPage(server);
  const before = await page.evaluate(async () => {
    const open = (window as unknown as { tunnel: (url: string, options: object) => Promise<{ request(init: object): Promise<{ status: number }> }> }).tunnel;
    const t = await open(`${location.origin.replace('http', 'ws')}/_tunnel`, { reconnect: { minMs: 50, maxMs: 200 } });
    (window as unknown as { open_tunnel: unknown }).open_tunnel = t;
    return (await t.request({ path: '/notes/show/1' })).status;
  });
  assert.is(before, 200);
  const port = server.port;
  await server.close();
  server = await serve(notesApp(), { port, host: '127.0.0.1' });
  const after = await page.evaluate(async () => {
    const t = (window as unknown as { open_tunnel: { request(init: object): Promise<{ status: number; json(): Promise<unknown> }>; close(): Promise<void>; state: string } }).open_tunnel;
    const r = await t.request({ path: '/notes/show/2' });
    const out = [r.status, await r.json(), t.state];
    await t.close();
    return out;
  });
  assert.equal(after, [200, { id: '2', count: 0 }, 'open']);
});

test('nothing went wrong in the page', () => {
  // The refused handshake is the browser's own console error; anything else is a fault.
  const unexpected = problems.filter((p) => !/WebSocket connection to .* failed/.test(p));
  assert.equal(unexpected, []);
});

test.run();
