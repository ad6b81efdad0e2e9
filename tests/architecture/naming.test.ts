/**
 * One naming rule (README, "Naming"): Rails' vocabulary keeps Rails'
 * snake_case spelling, and everything Signalbox adds is camelCase. The test
 * walks every name the package shows (each export of the entry points, and
 * every property, method and option key reachable from them through their
 * types) and holds each snake_case name to the list of Rails' names below,
 * each entry saying where Rails has it. A camelCase spelling of a Rails
 * name, a framework internal (a leading `_`), or an entry of the list that
 * nothing uses any more fails the test too.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exportedNames, type ExportedName } from '../support/export-names.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Rails' names the package uses, by where Rails has them (Rails 2.1 unless a version is given). */
const RAILS_VOCABULARY: Readonly<Record<string, readonly string[]>> = {
  'ActionController::Base class declarations': [
    'before_filter', 'after_filter', 'around_filter', 'prepend_before_filter', 'skip_filter', 'skip_before_filter', 'skip_after_filter', 'rescue_from',
    'protect_from_forgery', 'hide_action', 'action_methods', 'caches_page', 'caches_action',
  ],
  'ActionController::Base instance methods': [
    'action_name', 'controller_name', 'controller_path', 'redirect_to', 'respond_to', 'url_for', 'reset_session', 'form_authenticity_token',
    'expire_page', 'expire_action', 'expire_fragment', 'default_url_options', 'authenticate_with_http_basic',
    'authenticate_or_request_with_http_basic', 'request_http_basic_authentication', 'read_fragment', 'write_fragment', 'fragment_exist',
    'expires_in', 'expires_now',
  ],
  'ActionController::Rescue': ['rescue_action_in_public', 'local_request'],
  'ActionController::Streaming, and its options': ['send_data', 'send_file', 'buffer_size', 'x_sendfile', 'url_based_filename'],
  'verify options': ['add_flash', 'add_headers'],
  'caches_action options and cache stores (ActiveSupport::Cache::Store)': ['cache_path', 'expires_in', 'delete_matched'],
  'RedisCacheStore options (Rails 5.2)': ['connect_timeout', 'read_timeout'],
  'ActionController::Base settings': [
    'allow_forgery_protection', 'consider_all_requests_local', 'default_charset', 'perform_caching', 'relative_url_root', 'page_cache_directory',
    'session_store', 'cache_store', 'resources_path_names', 'resource_action_separator',
  ],
  'routing: the DSL\'s options, Route and RouteSet': [
    'has_many', 'has_one', 'name_prefix', 'path_prefix', 'path_names', 'with_options', 'segment_keys', 'significant_keys', 'generate_extras',
    'extra_keys', 'generate_all', 'allowed_methods',
  ],
  'url_for options': ['only_path', 'trailing_slash', 'skip_relative_url_root', 'overwrite_params'],
  'polymorphic route helpers, and the record protocol': [
    'polymorphic_url', 'polymorphic_path', 'new_polymorphic_url', 'new_polymorphic_path', 'edit_polymorphic_url', 'edit_polymorphic_path',
    'formatted_polymorphic_url', 'formatted_polymorphic_path', 'to_param',
  ],
  'ActionView helpers': [
    'link_to', 'button_to', 'form_tag', 'token_tag', 'hidden_field_tag', 'text_field_tag', 'password_field_tag', 'text_area_tag', 'check_box_tag',
    'label_tag', 'submit_tag', 'content_for',
  ],
  'ActionView: render :partial options, and ActionView::Base settings': ['spacer_template', 'cache_template_loading'],
  'AbstractRequest, and its CGI environment (etag_matches: 2.2)': [
    'request_uri', 'request_method', 'raw_post', 'query_string', 'path_parameters', 'query_parameters', 'request_parameters', 'content_type', 'template_format', 'port_string',
    'host_with_port', 'remote_ip', 'user_agent', 'etag_matches', 'remote_addr', 'server_addr', 'server_name', 'server_port', 'server_software',
  ],
  'AbstractResponse (set_header and delete_header: Rails 5)': ['redirected_to', 'set_header', 'delete_header'],
  'Mime::Type': ['lookup_by_extension', 'register_alias', 'verify_request'],
  'CookieStore and cookie options (expire_after: 2.3, same_site: 6.1, max_age: Rack\'s)': [
    'session_id', 'generate_digest', 'ensure_secret_secure', 'expire_after', 'http_only', 'same_site', 'max_age',
  ],
  'uploaded files': ['original_filename'],
};

const RAILS = new Set(Object.values(RAILS_VOCABULARY).flat());
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** `segmentKeys` -> `segment_keys`. */
function snakeSpelling(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function describe(found: readonly ExportedName[]): string {
  return found.map((n) => `${n.path} (${n.file})`).join('\n  ');
}

const names = exportedNames();
const test = suite('one naming rule: Rails\' vocabulary is snake_case, what Signalbox adds is camelCase');

test('the walk reaches exports, their members and the options of their functions', () => {
  const paths = new Set(names.map((n) => n.path));
  for (const path of ['serve', 'Controller', 'serve(options).maxBodyBytes', 'serve(options).tunnel.maxFrameBytes', 'createApp(options).config.perform_caching', 'tunnel(options).reconnect.minMs']) {
    assert.ok(paths.has(path), `${path} is among the ${paths.size} names read`);
  }
  const read = new Set(names.map((n) => n.name));
  for (const name of ['before_filter', 'has_many', 'link_to', 'segment_keys', 'post_path' /* none: RouteHelpers is the application's */]) {
    assert.is(read.has(name), name !== 'post_path', name);
  }
});

test('every snake_case name is Rails\' vocabulary', () => {
  const strays = names.filter((n) => SNAKE.test(n.name) && !RAILS.has(n.name));
  assert.is(strays.length, 0, `snake_case names that are not Rails': camelCase them, or add them to RAILS_VOCABULARY with where Rails has them:\n  ${describe(strays)}`);
});

test('no Rails name is spelt in camelCase', () => {
  // Members only: an exported function or type Signalbox adds (toParam, CacheStore) is named as Signalbox names its own.
  const strays = names.filter((n) => n.kind === 'member' && /^[a-z]+[A-Z]/.test(n.name) && RAILS.has(snakeSpelling(n.name)));
  assert.is(strays.length, 0, `Rails' names keep Rails' spelling:\n  ${describe(strays)}`);
});

test('no framework internal is public: nothing reachable starts with _', () => {
  const strays = names.filter((n) => n.name.startsWith('_'));
  assert.is(strays.length, 0, describe(strays));
});

test('exports are PascalCase (classes and types), camelCase (functions and values) or UPPER_SNAKE (constants)', () => {
  const strays = names.filter((n) => n.kind === 'export' && !/^(?:[A-Z][A-Za-z0-9]*|[a-z][A-Za-z0-9]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)$/.test(n.name) && !RAILS.has(n.name));
  assert.is(strays.length, 0, describe(strays));
});

test('every Rails name listed is still used, so the list says what the package speaks', () => {
  const used = new Set(names.map((n) => n.name));
  assert.equal([...RAILS].filter((name) => !used.has(name)), []);
});

test('the README\'s naming section judges every createApp option and config key', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Naming\n');
  assert.ok(start >= 0, 'README.md has a "## Naming" section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  // As the section writes them: `publicDir`, `config.trustProxy`.
  const keys = new Set(names.filter((n) => /^createApp\(options\)\.(?:config\.)?[^.(]+$/.test(n.path)).map((n) => n.path.slice('createApp(options).'.length)));
  assert.ok(keys.has('publicDir') && keys.has('config.perform_caching'), 'the keys are read');
  const missing = [...keys].filter((key) => !section.includes(`\`${key}\``));
  assert.equal(missing, [], 'keys the naming section does not name');
});

test.run();
