/**
 * HTTP Basic authentication: credentials from Authorization (or the headers
 * proxies move it to), checked by the application, and a 401 challenge when
 * they are missing or wrong.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, decodeCredentials, encodeCredentials } from '../../../core/index.ts';
import { appWith, call, get, withServer } from '../../support/harness.ts';

const test = suite('HTTP Basic authentication checks credentials or challenges for them');

class AdminController extends Controller {
  static {
    this.before_filter((c: Controller) => c.authenticate_or_request_with_http_basic('Admin "area"\r\n', (user, password) => user === 'dhh' && password === 'sec:ret'), { except: ['peek', 'later'] });
    this.before_filter((c: Controller) => c.authenticate_or_request_with_http_basic('Later', async (user) => user === 'async'), { only: 'later' });
  }
  index(): void { this.render({ text: 'welcome' }); }
  later(): void { this.render({ text: 'welcome later' }); }
  peek(): void {
    const seen: string[] = [];
    const ok = this.authenticate_with_http_basic((user, password) => {
      seen.push(`${user}/${password}`);
      return true;
    });
    this.render({ text: `${String(ok)} ${seen.join(',')}` });
  }
}

const app = () => appWith({ admin: AdminController });

test('the right credentials pass; a password may contain colons', async () => {
  const res = await call(app(), 'GET /admin/index', { headers: { authorization: encodeCredentials('dhh', 'sec:ret') } });
  assert.is(res.body, 'welcome');
});

test('missing or wrong credentials get 401 with a Basic challenge whose realm cannot break the header', async () => {
  for (const headers of [{}, { authorization: encodeCredentials('dhh', 'wrong') }, { authorization: 'Bearer abc' }] as Record<string, string>[]) {
    const res = await call(app(), 'GET /admin/index', { headers });
    assert.is(res.status, 401);
    assert.is(res.header('www-authenticate'), 'Basic realm="Admin area"');
    assert.is(res.body, 'HTTP Basic: Access denied.\n');
  }
});

test('a realm beyond ASCII is challenged for over HTTP in UTF-8, not answered with a 500', async () => {
  class PanelController extends Controller {
    static {
      this.before_filter((c: Controller) => c.authenticate_or_request_with_http_basic('管理 Zoë', () => false));
    }
    index(): void { this.render({ text: 'never' }); }
  }
  await withServer(appWith({ panel: PanelController }), {}, async (server) => {
    const res = await get(server, '/panel/index');
    assert.is(res.status, 401);
    // Node reads header bytes as Latin-1: the realm's UTF-8 bytes come back as their own characters.
    assert.is(Buffer.from(String(res.headers['www-authenticate']), 'latin1').toString('utf8'), 'Basic realm="管理 Zoë"');
  });
});

test('a filter that drops the promise of an asynchronous check still halts: the action never runs ahead of the 401, and the server stays up', async () => {
  const shown: string[] = [];
  class VaultController extends Controller {
    static {
      this.before_filter((c: Controller) => {
        // A block body: the promise is not returned.
        void c.authenticate_or_request_with_http_basic('Vault', async (user, password) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return user === 'dhh' && password === 'secret';
        });
      });
    }
    index(): void {
      shown.push(String(this.request.headers.authorization));
      this.render({ text: 'the vault' });
    }
  }
  await withServer(appWith({ vault: VaultController }), {}, async (server) => {
    const refused = await get(server, '/vault/index', { headers: { authorization: encodeCredentials('dhh', 'wrong') } });
    assert.equal([refused.status, refused.body], [401, 'HTTP Basic: Access denied.\n']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(shown, [], 'the action did not run');
    const allowed = await get(server, '/vault/index', { headers: { authorization: encodeCredentials('dhh', 'secret') } });
    assert.equal([allowed.status, allowed.body], [200, 'the vault']);
  });
});

test('an asynchronous check is awaited', async () => {
  assert.is((await call(app(), 'GET /admin/later', { headers: { authorization: encodeCredentials('async', 'x') } })).body, 'welcome later');
  assert.is((await call(app(), 'GET /admin/later', { headers: { authorization: encodeCredentials('other', 'x') } })).status, 401);
});

test('authenticate_with_http_basic is false without credentials, and reads the headers proxies use', async () => {
  assert.is((await call(app(), 'GET /admin/peek')).body, 'false ');
  for (const name of ['x-http-authorization', 'x_http_authorization', 'redirect-x-http-authorization']) {
    assert.is((await call(app(), 'GET /admin/peek', { headers: { [name]: encodeCredentials('u', 'p') } })).body, 'true u/p', name);
  }
});

test('encodeCredentials and decodeCredentials: a malformed value is no credentials', () => {
  assert.is(encodeCredentials('dhh', 'secret'), 'Basic ZGhoOnNlY3JldA==');
  assert.equal(decodeCredentials('basic ZGhoOnNlY3JldA=='), ['dhh', 'secret']);
  assert.equal(decodeCredentials(encodeCredentials('ünï', 'a:b:c')), ['ünï', 'a:b:c']);
  assert.is(decodeCredentials(null), null);
  assert.is(decodeCredentials('Basic !!!'), null);
  assert.is(decodeCredentials(`Basic ${Buffer.from('no colon').toString('base64')}`), null);
  // Whitespace may sit inside the base64 (folded headers); anything else outside its alphabet is no credentials.
  assert.equal(decodeCredentials('Basic \tZGho On\tNlY3JldA== '), ['dhh', 'secret']);
  assert.is(decodeCredentials('BasicZGhoOnNlY3JldA=='), null);
  assert.is(decodeCredentials(`Basic ${' '.repeat(100_000)}!`), null);
});

test.run();
