/**
 * Which Host headers an app answers by default, against DNS rebinding (as
 * Rails 6+): local names and IP addresses in development, any host in test,
 * the names in SIGNALBOX_HOSTS in every environment, and config.hosts kept
 * as given. The example blog has the same defaults.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import { hostAllowed } from '../../core/request/env.ts';
import { createBlogApp } from '../../examples/blog/app.ts';
import type { App } from '../../machines/index.ts';
import { appWith, call } from '../support/harness.ts';

const test = suite('an app answers local hosts in development, configured ones elsewhere');

class HelloController extends Controller {
  show(): void {
    this.render({ text: 'hello' });
  }
}

const statusFor = async (app: App, host: string) => (await call(app, 'GET /hello/show', { headers: { host } })).status;

function withHostsEnv<T>(value: string | undefined, body: () => T): T {
  const before = process.env.SIGNALBOX_HOSTS;
  if (value === undefined) delete process.env.SIGNALBOX_HOSTS;
  else process.env.SIGNALBOX_HOSTS = value;
  try {
    return body();
  } finally {
    if (before === undefined) delete process.env.SIGNALBOX_HOSTS;
    else process.env.SIGNALBOX_HOSTS = before;
  }
}

test('development answers localhost, *.localhost and IP addresses, and refuses other names with 403', async () => {
  const app = withHostsEnv(undefined, () => appWith({ hello: HelloController }, { environment: 'development' }));
  for (const host of ['localhost:3000', 'localhost', 'blog.localhost:3000', '127.0.0.1:3000', '192.168.1.20', '[::1]:3000']) {
    assert.is(await statusFor(app, host), 200, host);
  }
  for (const host of ['attacker.example', 'localhost.attacker.example', '127.0.0.1.attacker.example', 'evil-localhost']) {
    assert.is(await statusFor(app, host), 403, host);
  }
});

test('test answers any host; production answers any host until told which, and says so in the log', async () => {
  const tested = withHostsEnv(undefined, () => appWith({ hello: HelloController }, { environment: 'test' }));
  assert.is(await statusFor(tested, 'anything.example'), 200);
  const warnings: string[] = [];
  const logger = (await import('pino')).default({ level: 'warn' }, { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) });
  const open = withHostsEnv(undefined, () => appWith({ hello: HelloController }, { environment: 'production', session: false, logger }));
  assert.is(await statusFor(open, 'anything.example'), 200);
  assert.ok(warnings.some((w) => /config\.hosts is empty/.test(w)), JSON.stringify(warnings));
});

test('SIGNALBOX_HOSTS names the hosts in production, and adds to development\'s and to config.hosts', async () => {
  const prod = withHostsEnv('blog.example, .cdn.example', () => appWith({ hello: HelloController }, { environment: 'production', session: false }));
  assert.is(await statusFor(prod, 'blog.example'), 200);
  assert.is(await statusFor(prod, 'a.cdn.example'), 200);
  assert.is(await statusFor(prod, 'localhost'), 403);
  const dev = withHostsEnv('dev.example', () => appWith({ hello: HelloController }, { environment: 'development' }));
  assert.is(await statusFor(dev, 'dev.example'), 200);
  assert.is(await statusFor(dev, 'localhost'), 200);
  const configured = withHostsEnv('extra.example', () => appWith({ hello: HelloController }, { environment: 'development', config: { hosts: ['app.example'] } }));
  assert.is(await statusFor(configured, 'app.example'), 200);
  assert.is(await statusFor(configured, 'extra.example'), 200);
  assert.is(await statusFor(configured, 'localhost'), 403, 'config.hosts replaces the development default');
});

test('a RegExp in config.hosts must match the whole name', () => {
  assert.ok(hostAllowed([/[a-z]+\.example/], 'blog.example:8080'));
  assert.not.ok(hostAllowed([/[a-z]+\.example/], 'blog.example.evil'));
});

test('the example blog has the same defaults', async () => {
  const dev = withHostsEnv(undefined, () => createBlogApp({ environment: 'development', logger: false }));
  assert.is((await call(dev, 'GET /posts', { headers: { host: 'localhost:3000' } })).status, 200);
  assert.is((await call(dev, 'GET /posts', { headers: { host: 'rebound.example' } })).status, 403);
});

test.run();
