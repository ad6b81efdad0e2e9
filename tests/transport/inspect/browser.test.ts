/**
 * The inspector in a real browser: headless Chromium (Debian's `chromium`,
 * installed by `npm run setup:browser` and by .ci/run) driven by
 * playwright-core. The example blog runs with the inspector on; the page
 * must draw every state of the request machine, then show requests made
 * over HTTP and over the tunnel with the states each walked (a 404 through
 * routingError, a 304 through notModified), and replay one step by step.
 * A screenshot is saved to tests/artifacts/ (not committed).
 *
 * Without Chromium the suite is Unavailable, saying how to install it: the
 * runner counts its tests as skipped locally and failed in CI (CI=true); a
 * browser test that silently passes would prove nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createBlogApp } from '../../../examples/blog/app.ts';
import { requestMachine } from '../../../machines/index.ts';
import { serve, tunnel, type RunningServer } from '../../../transport/index.ts';
import { elkScript, ELK_MISSING } from '../../../transport/inspect/page-route.ts';
import { Unavailable } from '../../harness/unavailable.ts';

const test = suite('the inspector page in headless Chromium');

const CHROMIUM = process.env.SIGNALBOX_CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../artifacts');
const SCREENSHOT = join(ARTIFACTS, 'inspector.png');

let server: RunningServer;
let context: BrowserContext;
let page: Page;
let profile: string;
const problems: string[] = [];

test.before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Unavailable(`Chromium is not installed at ${CHROMIUM}: run \`npm run setup:browser\` (Debian: apt-get install -y chromium), or point SIGNALBOX_CHROMIUM at a Chromium binary`);
  }
  server = await serve(createBlogApp({ environment: 'test' }), { port: 0, host: '127.0.0.1', inspect: true });
  profile = mkdtempSync(join(tmpdir(), 'signalbox-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    viewport: { width: 1400, height: 1000 },
  });
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  // Offline means offline: any request leaving this server fails the test.
  await context.route((url) => !url.href.startsWith(server.url) && !url.href.startsWith(server.url.replace('http', 'ws')), (route) => {
    problems.push(`request elsewhere: ${route.request().url()}`);
    return route.abort();
  });
});

test.after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

interface Listed { id: string; transport: string; status: string; states: string[]; path: string }

async function listed(): Promise<Listed[]> {
  return page.$$eval('#requests li', (items) => items.map((li) => {
    const e = li as HTMLElement;
    return { id: e.dataset.requestId!, transport: e.dataset.transport!, status: e.dataset.status!, states: (e.dataset.states ?? '').split(','), path: e.querySelector('.path')!.textContent! };
  }));
}

/** Waits until the page lists `n` finished requests. */
async function finished(n: number): Promise<Listed[]> {
  await page.waitForFunction((count) => document.querySelectorAll('#requests li[data-done="true"]').length >= count, n, { timeout: 10_000 });
  return (await listed()).reverse();
}

test('the page draws every state and transition of the request machine, from its definition', async () => {
  await page.goto(`${server.url}/__inspect`);
  await page.waitForSelector('#machines[data-ready="true"]', { timeout: 20_000 });
  await page.waitForSelector('#status[data-state="live"]', { timeout: 10_000 });
  const config = requestMachine.config as { initial: string; states: Record<string, { type?: string }> };
  const drawn = await page.$$eval('svg[data-machine="request"] g.state', (gs) => gs.map((g) => (g as SVGGElement).dataset.state!));
  assert.equal([...drawn].sort(), Object.keys(config.states).sort(), 'every state, once');
  const names = await page.$$eval('svg[data-machine="request"] g.state text.name', (ts) => ts.map((t) => t.textContent));
  assert.equal([...names].sort(), Object.keys(config.states).sort(), 'each named in the SVG');
  assert.is(await page.$$eval('svg[data-machine="request"] g.edge', (gs) => gs.length), 26, 'every transition');
  assert.ok(await page.$(`svg g.state.initial[data-state="${config.initial}"]`), 'initial state marked');
  assert.is(await page.$$eval('svg g.initial-marker circle', (c) => c.length), 1, 'one start dot');
  assert.ok(await page.$('svg g.state.final[data-state="done"] rect.inner'), 'final state double-bordered');
  const label = await page.$$eval('svg g.edge[data-edge="recognizing#0"] text', (ts) => ts.map((t) => t.textContent).join(' '));
  assert.is(label, 'always [routeFound]', 'edges labelled with event and guard');
  assert.is(server.inspector!.viewers, 1);
});

test('requests over HTTP and over the tunnel appear with the states they walked', async () => {
  // JSON: the HTML pages carry a fresh session's authenticity token, so their ETag changes per cookie-less request.
  const first = await fetch(`${server.url}/posts/1.json`);
  const etag = first.headers.get('etag')!;
  assert.ok(etag, 'the blog sends an ETag');
  assert.is((await fetch(`${server.url}/posts/1.json`, { headers: { 'If-None-Match': etag } })).status, 304);
  assert.is((await fetch(`${server.url}/no/such/page`)).status, 404);
  const t = await tunnel(`${server.url.replace('http', 'ws')}/_tunnel`, { reconnect: false });
  try {
    const viaTunnel = await t.request({ path: '/posts.json' });
    assert.is(viaTunnel.status, 200);
    assert.is((await t.request({ path: '/posts.json', headers: { 'If-None-Match': viaTunnel.headers.get('etag')! } })).status, 304);
    assert.is((await t.request({ path: '/nowhere' })).status, 404);
  } finally {
    await t.close();
  }
  const requests = await finished(6);
  const tail = (r: Listed) => r.states.slice(-3);
  assert.equal(requests.map((r) => `${r.transport} ${r.path} ${r.status}`), [
    'http /posts/1.json 200', 'http /posts/1.json 304', 'http /no/such/page 404',
    'tunnel /posts.json 200', 'tunnel /posts.json 304', 'tunnel /nowhere 404',
  ]);
  for (const r of requests) {
    assert.equal(r.states.slice(0, 5), ['servingPublic', 'parsing', 'negotiating', 'checkingForgery', 'recognizing'], r.path);
    assert.is(r.states[r.states.length - 1], 'done');
  }
  assert.equal(requests[0].states, ['servingPublic', 'parsing', 'negotiating', 'checkingForgery', 'recognizing', 'dispatching', 'rendering', 'responding', 'done']);
  assert.equal(tail(requests[1]), ['notModified', 'responding', 'done'], 'a 304 ends through notModified');
  assert.equal(tail(requests[2]), ['routingError', 'responding', 'done'], 'a 404 ends through routingError');
  assert.equal(requests[4].states, requests[1].states, 'tunnelled: the same walk');
  assert.equal(tail(requests[5]), ['routingError', 'responding', 'done']);
  const badges = await page.$$eval('#requests li .transport', (bs) => bs.map((b) => b.textContent));
  assert.equal([...badges].sort(), ['http', 'http', 'http', 'tunnel', 'tunnel', 'tunnel'], 'each marked by its transport');
  // Following live: the diagram shows the latest request's path.
  await page.waitForFunction(() => document.querySelector('svg g.state.active')?.getAttribute('data-state') === 'done');
});

test('clicking a request replays its path on the diagram step by step', async () => {
  const requests = await finished(6);
  const notModified = requests[1];
  await page.click(`#requests li[data-request-id="${notModified.id}"]`);
  await page.waitForSelector('#replay:not([hidden])');
  assert.equal(await page.$$eval('#steps li', (ls) => ls.map((l) => (l as HTMLElement).dataset.state)), notModified.states);
  const active = () => page.$eval('svg[data-machine="request"]', (svg) => svg.querySelector('g.state.active')?.getAttribute('data-state') ?? null);
  const taken = () => page.$$eval('svg[data-machine="request"] g.edge.taken', (gs) => gs.map((g) => (g as SVGGElement).dataset.edge));
  assert.is(await active(), 'servingPublic', 'a replay starts at the first state');
  assert.equal(await taken(), []);
  for (let i = 1; i < notModified.states.length; i++) {
    await page.click('#step-next');
    assert.is(await active(), notModified.states[i], `step ${i + 1}`);
    assert.is((await taken()).length, i, `${i} transitions taken by step ${i + 1}`);
  }
  assert.ok((await taken()).includes('rendering#0'), 'the isFresh edge into notModified');
  const n = notModified.states.length;
  assert.is(await page.textContent('#step-counter'), `step ${n} of ${n}`);
  assert.is(await page.$eval('#steps li.current', (l) => (l as HTMLElement).dataset.state), 'done');
  await page.click('#step-first');
  assert.is(await active(), 'servingPublic');
  await page.click('#step-play');
  await page.waitForFunction(() => document.querySelector('svg g.state.active')?.getAttribute('data-state') === 'done', undefined, { timeout: 10_000 });
  await page.click('#steps li[data-state="notModified"]');
  assert.is(await active(), 'notModified');
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.ok(existsSync(SCREENSHOT));
});

test('without elkjs (an optional dependency) the page says how to install it and still lists requests', async () => {
  const bare = await context.newPage();
  try {
    // What the server sends in elkjs's place when elkjs cannot be found.
    const standIn = elkScript(() => { throw new Error('Cannot find module elkjs'); }).toString('utf8');
    await bare.route('**/elk.bundled.js', (route) => route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: standIn }));
    await bare.goto(`${server.url}/__inspect`);
    await bare.waitForSelector('#machines[aria-busy="false"] p.error', { timeout: 10_000 });
    assert.is(await bare.textContent('#machines p.error'), `Could not draw the machines: ${ELK_MISSING}`);
    await bare.waitForSelector('#status[data-state="live"]', { timeout: 10_000 });
    assert.is((await fetch(`${server.url}/posts/2.json`)).status, 200);
    await bare.waitForFunction(() => Array.from(document.querySelectorAll('#requests li[data-done="true"] .path')).some((p) => p.textContent === '/posts/2.json'), undefined, { timeout: 10_000 });
  } finally {
    await bare.close();
  }
});

test('nothing went wrong in the page, and nothing was fetched from elsewhere', () => {
  assert.equal(problems, []);
});

test.run();
