/**
 * createApp's options are checked by name and type before anything is built, as an application in
 * plain JavaScript needs: a misspelt option or config key, a boolean written as text, a limit that is
 * not a count, each is an ArgumentError naming it, instead of being ignored or failing a request.
 */
import pino from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, Controller, createMimeRegistry, draw, memorySessionStore, memoryStore, memoryViews } from '../../core/index.ts';
import { createApp, type CreateAppOptions } from '../../machines/index.ts';

const test = suite('createApp checks its options');

class PostsController extends Controller {
  index(): void {
    this.render({ text: 'list' });
  }
}

const base = () => ({ routes: draw((map) => { map.resources('posts'); }), controllers: { posts: PostsController }, logger: false as const });

function refused(extra: Record<string, unknown>, message: RegExp): void {
  assert.throws(
    () => createApp({ ...base(), ...extra } as unknown as CreateAppOptions),
    (e: unknown) => e instanceof ArgumentError && message.test((e as Error).message),
    `${JSON.stringify(extra, (_, v: unknown) => (v instanceof RegExp ? String(v) : v))} is refused with ${message}`,
  );
}

test('an option createApp does not know is refused by name, pointed at the one it differs from in case and underscores or by a slip', () => {
  refused({ vews: 'app/views' }, /^Unknown createApp option "vews" \(did you mean views\?\)$/);
  refused({ templates: 'app/views' }, /^Unknown createApp option "templates"$/);
  refused({ public_dir: 'public' }, /^Unknown createApp option "public_dir" \(did you mean publicDir\?\)$/);
  refused({ sessionStore: memorySessionStore() }, /^Unknown createApp option "sessionStore" \(did you mean session_store\?\)$/);
});

test('a config key createApp does not know is refused too; environment belongs to createApp itself', () => {
  refused({ config: { alow_forgery_protection: true } }, /^Unknown createApp config option "alow_forgery_protection" \(did you mean allow_forgery_protection\?\)$/);
  refused({ config: { trust_proxy: true } }, /did you mean trustProxy\?/);
  refused({ config: { environment: 'production' } }, /^createApp: environment is an option of createApp, not of its config$/);
});

test('each option of the wrong type is refused, naming it and what it takes', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ controllers: undefined }, /controllers must be an object \(or Map\) of controller classes by path, not undefined/],
    [{ environment: 'staging' }, /environment must be one of 'development', 'test', 'production', not "staging"/],
    [{ engine: 'fast' }, /engine must be 'compiled' or 'xstate', not "fast"/],
    [{ publicDir: 5 }, /publicDir must be a directory path, not 5/],
    [{ root: ['.'] }, /root must be a directory path, not an array/],
    [{ views: 123 }, /views must be a directory path or a view resolver, not 123/],
    [{ logger: 'info' }, /logger must be a pino logger, or false for none, not "info"/],
    [{ logger: true }, /logger must be a pino logger/],
    [{ mime: {} }, /mime must be a MIME registry/],
    [{ services: 5 }, /services must be an object, not 5/],
    [{ session: 'cookie' }, /session must be an object, or false for none/],
    [{ cache_store: 'memory' }, /cache_store must be an object/],
    [{ page_cache_directory: true }, /page_cache_directory must be a directory path or false/],
  ];
  for (const [extra, message] of cases) refused(extra, message);
});

test('config values of the wrong type are refused: a boolean written as text would count as true', () => {
  refused({ config: { perform_caching: 'false' } }, /config\.perform_caching must be true or false, not "false"/);
  refused({ config: { allow_forgery_protection: 0 } }, /config\.allow_forgery_protection must be true or false, not 0/);
  refused({ config: { hosts: 'example.com' } }, /config\.hosts must be a list of host names and RegExps/);
  refused({ config: { hosts: ['example.com', 5] } }, /config\.hosts must be a list/);
  refused({ config: { forgeryExemptTypes: 'application/json' } }, /config\.forgeryExemptTypes must be a list of MIME types/);
  refused({ config: { default_charset: 8 } }, /config\.default_charset must be a charset name or null/);
  refused({ config: { relative_url_root: null } }, /config\.relative_url_root must be a path/);
  refused({ config: { relative_url_root: 'blog' } }, /config\.relative_url_root must be a path starting with '\/', not "blog"/);
});

test('a limit that is not a whole number, 0 or more, is refused: one that is NaN or text would bound nothing', () => {
  refused({ config: { limits: { bodyBytes: Number.NaN } } }, /config\.limits\.bodyBytes must be a whole number, 0 or more, not NaN/);
  refused({ config: { limits: { keys: -1 } } }, /config\.limits\.keys must be a whole number, 0 or more, not -1/);
  refused({ config: { limits: { depth: '32' } } }, /config\.limits\.depth must be a whole number, 0 or more, not "32"/);
  refused({ config: { limits: { maxKeys: 10 } } }, /Unknown config\.limits key "maxKeys" \(limits are depth, keys, arrayLength, bodyBytes, multipart\)/);
  refused({ config: { limits: { multipart: { files: 1.5 } } } }, /config\.limits\.multipart\.files must be a whole number/);
  refused({ config: { limits: { multipart: { file_bytes: 1 } } } }, /Unknown config\.limits\.multipart key "file_bytes"/);
  refused({ config: { limits: 'none' } }, /config\.limits must be an object/);
});

test('every option and config key, given a value of its type, builds an app that answers', async () => {
  const app = createApp({
    ...base(),
    root: process.cwd(),
    publicDir: 'no-such-public-directory',
    views: memoryViews({}),
    logger: pino({ level: 'silent' }),
    engine: 'xstate',
    environment: 'test',
    mime: createMimeRegistry(),
    services: { clock: () => 0 },
    session: { key: '_s', secret: 's'.repeat(32) },
    cache_store: memoryStore(),
    page_cache_directory: false,
    config: {
      default_charset: null,
      consider_all_requests_local: false,
      defaultErrorPages: true,
      allow_forgery_protection: true,
      limits: { depth: 8, keys: 100, arrayLength: 100, bodyBytes: 1024, multipart: { parts: 10, files: 1, fileBytes: 1024, fieldBytes: 1024, memoryBytes: 0 } },
      relative_url_root: '',
      forgeryExemptTypes: ['application/json'],
      trustProxy: false,
      hosts: ['test.host', /\.example\.com$/],
      perform_caching: false,
      cacheHeader: true,
      cache_template_loading: true,
    },
  });
  assert.is((await app.handle({ method: 'GET', url: '/posts', headers: { host: 'test.host' } })).status, 200);
  assert.is(createApp({ ...base(), session_store: memorySessionStore() }).engine, 'compiled');
});

test.run();
