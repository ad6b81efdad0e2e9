/**
 * A Location never leads off the site unless the app gave a URL that plainly
 * names another host. Browsers read a host from more than `//host`: a special
 * scheme without its slashes (`https:evil.example`, `http:/evil.example`,
 * `http:\\evil.example`) names one too, so such a target is a path on this
 * site, as Rails' `^\w+://` test had it. `head` and `render` send their
 * `location` unexpanded, as Rails did, but never as a path a browser would
 * read as another host or as script. Checked over real HTTP.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, draw } from '../../core/index.ts';
import { createApp } from '../../machines/index.ts';
import { serve, type RunningServer } from '../../transport/index.ts';
import { publicDir } from './support/app.ts';
import { requestBytes, send } from './support/wire.ts';

class GoController extends Controller {
  redirect(): void {
    this.redirect_to(String(this.params.to));
  }

  back(): void {
    this.redirect_to('back');
  }

  created(): void {
    this.head('created', { location: String(this.params.to) });
  }

  rendered(): void {
    this.render({ text: 'made', status: 'created', location: String(this.params.to) });
  }
}

const test = suite('a Location never leads off the site unless the app gave a URL naming another host');
let server: RunningServer;
let host: string;

test.before(async () => {
  const routes = draw((map) => {
    map.connect('go/:action', { controller: 'go' });
  });
  const app = createApp({ routes, controllers: { go: GoController }, environment: 'production', logger: false, publicDir: publicDir(), session: false });
  server = await serve(app, { port: 0 });
  host = `127.0.0.1:${server.port}`;
});

test.after(async () => {
  await server.close();
});

async function locationOf(action: string, to: string, headers: [string, string][] = []): Promise<string | undefined> {
  const response = await send(server.port, requestBytes({ method: 'GET', target: `/go/${action}?to=${encodeURIComponent(to)}`, headers }, host));
  const location = response.headers.location;
  assert.ok(location === undefined || location.length === 1, 'at most one Location');
  return location?.[0];
}

test('a special scheme without its // is a path on this site, however a browser would read it', async () => {
  for (const target of ['https:evil.example', 'http:/evil.example', 'http:\\\\evil.example', 'HTTPS:evil.example/x', 'wss:evil.example', 'ftp:evil.example', 'http:/\\evil.example']) {
    const location = await locationOf('redirect', target);
    assert.ok(location?.startsWith(`http://${host}/`), `${target} -> ${location}`);
    assert.is(new URL(location!).host, host, `${target} stays on the site`);
  }
  assert.is(await locationOf('redirect', 'https:evil.example'), `http://${host}/https:evil.example`);
});

test('a URL with its // is kept, as Rails kept it, and so is any other scheme', async () => {
  assert.is(await locationOf('redirect', 'https://elsewhere.example/x?y=1'), 'https://elsewhere.example/x?y=1');
  assert.is(await locationOf('redirect', 'HTTP://elsewhere.example/'), 'HTTP://elsewhere.example/');
  assert.is(await locationOf('redirect', 'mailto:someone@example.com'), 'mailto:someone@example.com');
});

test('redirect_to back with a Referer that names a host without its // stays on the site', async () => {
  assert.is(await locationOf('back', '', [['Referer', 'https:evil.example/phish']]), `http://${host}/https:evil.example/phish`);
  assert.is(await locationOf('back', '', [['Referer', 'http://127.0.0.1/before']]), 'http://127.0.0.1/before');
});

test('head and render send their location as given, but never as a path a browser reads as a host or script', async () => {
  for (const action of ['created', 'rendered']) {
    assert.is(await locationOf(action, '//evil.example/x'), '/evil.example/x', `${action}: protocol-relative`);
    assert.is(await locationOf(action, '/\\evil.example/x'), '/evil.example/x', `${action}: a backslash after the slash`);
    assert.is(await locationOf(action, '\\\\evil.example'), '/evil.example', `${action}: backslashes`);
    assert.is(await locationOf(action, 'https:evil.example'), '/https:evil.example', `${action}: a special scheme without //`);
    assert.is(await locationOf(action, 'javascript:alert(1)'), '/javascript:alert(1)', `${action}: script`);
    assert.is(await locationOf(action, '/posts/1'), '/posts/1', `${action}: a path stays`);
    assert.is(await locationOf(action, 'posts/1'), 'posts/1', `${action}: a relative path stays`);
    assert.is(await locationOf(action, 'https://elsewhere.example/a'), 'https://elsewhere.example/a', `${action}: a URL stays`);
  }
});

test.run();
