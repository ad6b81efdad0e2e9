/**
 * `signalbox port-routes FILE...`: routes files written the way long-lived Rails 2.x applications write
 * them are ported to modules that draw, and the ported tables route requests and generate paths the
 * way those applications' own routing tests expect. The command is run as a user runs it where the
 * wiring matters (exit codes, streams); the rest goes through the same command function in-process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { portRoutesCommand } from '../../bin/port-routes/index.ts';
import type { RouteSet } from '../../core/index.ts';
import { assertGenerates, assertNotRouted, assertRecognizes, assertRouting } from '../core/routing/support.ts';
import { scratchDir } from '../support/temp.ts';
import { drawJson, importPorted, outcomeOf, portText } from './port-routes-support.ts';
import { ROOT, signalbox } from './support.ts';
import { helpersOf } from '../support/helpers-by-name.ts';

const FIXTURES = 'tests/bin/fixtures/port-routes';
const LONG_LIVED = `${FIXTURES}/long-lived-app.rb`;
const PARENS = `${FIXTURES}/parentheses-and-braces.rb`;
const PLUGIN = `${FIXTURES}/plugin-routes.rb`;
const HOOKS = `${FIXTURES}/plugin-hooks.rb`;
const BROKEN = `${FIXTURES}/syntax-error.rb`;

// The real command starts node and tsx; run the three that check its wiring side by side, once.
const cli = Promise.all([
  signalbox('port-routes', LONG_LIVED),
  signalbox('port-routes', BROKEN),
  signalbox('port-routes'),
]);

/** The command, in-process (`signalbox port-routes` calls exactly this), from the project root like the CLI. */
function command(...args: string[]): ReturnType<typeof portRoutesCommand> {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    return portRoutesCommand(args);
  } finally {
    process.chdir(cwd);
  }
}

let longLived: RouteSet | null = null;
async function longLivedTable(): Promise<RouteSet> {
  longLived ??= (await importPorted((await cli)[0].stdout)).routes;
  return longLived;
}

test('prints a TypeScript module (the one kept beside the fixture, which the typecheck compiles)', async () => {
  const [{ code, stdout }] = await cli;
  assert.is(code, 0);
  assert.is(stdout, readFileSync(join(ROOT, FIXTURES, 'long-lived-app.ported.ts'), 'utf8'));
  const mod = await importPorted(stdout);
  assert.is(mod.default, mod.routes, 'the table is the module\'s default export too');
  assert.ok(mod.routes.routes.length > 100);
});

test('reports what it left out on stderr as FILE:LINE: not ported: <statement>, with a reason under each', async () => {
  const [{ stderr }] = await cli;
  assert.is(stderr, [
    `${LONG_LIVED}:2: not ported: require File.join(File.dirname(__FILE__), '..', 'lib', 'route_helpers')`,
    '  it loads code (require) the port does not read',
    `${LONG_LIVED}:44: not ported: map.from_plugin :community_engine`,
    '  map.from_plugin is not a routing method (a plugin hook, or a method defined elsewhere)',
    '',
  ].join('\n'));
});

test('the ported table recognizes and generates as the application\'s routes did', async () => {
  const routes = await longLivedTable();
  assertRouting(routes, 'GET /login', { controller: 'sessions', action: 'new' });
  assertRecognizes(routes, 'DELETE /logout', { controller: 'sessions', action: 'destroy' });
  assertGenerates(routes, '/logout', { controller: 'sessions', action: 'destroy' });
  // Generation takes the first route that fits, as Rails does: login was declared before the session resource.
  assertRecognizes(routes, 'GET /session/new', { controller: 'sessions', action: 'new' });
  assertRecognizes(routes, 'PUT /users/7/suspend', { controller: 'users', action: 'suspend', id: '7' });
  assertRouting(routes, 'GET /users/7/posts', { controller: 'posts', action: 'index', user_id: '7' });
  assertRouting(routes, 'GET /posts/search', { controller: 'posts', action: 'search' });
  assertRecognizes(routes, 'PUT /posts/1/comments/2/approve', { controller: 'comments', action: 'approve', post_id: '1', id: '2' });
  assertRouting(routes, 'GET /posts/1/author', { controller: 'users', action: 'show', post_id: '1' });
  assertRouting(routes, 'GET /tags/3', { controller: 'tags', action: 'show', id: '3' });
  assert.is(routes.named.new_tag, undefined, ':only => [:index, :show] leaves out new');
  assertRouting(routes, 'GET /archive/2008/12/25', { controller: 'posts', action: 'archive', year: '2008', month: '12', day: '25' });
  assertNotRouted(routes, 'GET /archive/08/12/25');
  assertRouting(routes, 'GET /admin/posts/3/comments', { controller: 'admin/comments', action: 'index', post_id: '3' });
  assertRouting(routes, 'GET /admin/accounts/Bob', { controller: 'admin/accounts', action: 'show', id: 'Bob' });
  assertRouting(routes, 'GET /admin', { controller: 'admin/dashboard', action: 'index' });
  for (const page of ['about', 'contact', 'privacy']) assertRouting(routes, `GET /${page}`, { controller: 'pages', action: page });
  assertRouting(routes, 'GET /feed.rss', { controller: 'feeds', action: 'rss', format: 'rss' });
  assertRecognizes(routes, 'GET /', { controller: 'posts', action: 'index' });
  assert.is(helpersOf(routes).root_path(), '/');
  assertRouting(routes, 'GET /reports/summary/3', { controller: 'reports', action: 'summary', id: '3' });
  const h = helpersOf(routes);
  assert.is(h.archive_path({ year: 2008, month: 12, day: 25 }), '/archive/2008/12/25');
  assert.is(h.login_path(), '/login');
  assert.is(h.admin_root_path(), '/admin');
  assert.is(h.post_comment_path(1, 2), '/posts/1/comments/2');
});

test('--js prints a JavaScript module that draws the same table', async () => {
  const { code, stdout } = command('--js', LONG_LIVED);
  assert.is(code, 0);
  assert.match(stdout, /^import \{ draw \} from 'signalbox';$/m);
  assert.not.match(stdout, /RouteSet|: \w+ =/, 'no type annotations');
  const { routes } = await importPorted(stdout, 'js');
  assert.is(routes.print(), (await longLivedTable()).print());
});

test('--json prints a draw that the corpus reader replays to the same table', async () => {
  const { code, stdout } = command('--json', LONG_LIVED);
  assert.is(code, 0);
  assert.is(drawJson(stdout).print(), (await longLivedTable()).print());
});

test('--json: the routing runner accepts the draw with the application\'s own assertions', () => {
  const { stdout } = command('--json', LONG_LIVED);
  const dir = scratchDir('port-routes-corpus');
  const c = {
    id: 'long-lived-app routes.rb',
    draw: JSON.parse(stdout),
    recognize: [
      { method: 'GET', path: '/login', params: { controller: 'sessions', action: 'new' } },
      { method: 'DELETE', path: '/logout', params: { controller: 'sessions', action: 'destroy' } },
      { method: 'PUT', path: '/posts/1/comments/2/approve', params: { controller: 'comments', action: 'approve', post_id: '1', id: '2' } },
      { method: 'GET', path: '/archive/2008/12/25', params: { controller: 'posts', action: 'archive', year: '2008', month: '12', day: '25' } },
      { method: 'GET', path: '/admin/accounts/Bob', params: { controller: 'admin/accounts', action: 'show', id: 'Bob' } },
      { method: 'GET', path: '/feed.rss', params: { controller: 'feeds', action: 'rss', format: 'rss' } },
      { method: 'GET', path: '/archive/08/12/25', error: 'routing' },
    ],
    generate: [
      { options: { controller: 'posts', action: 'show', id: '1' }, recall: {}, path: '/posts/1' },
      { options: { controller: 'pages', action: 'about' }, recall: {}, path: '/about' },
      { options: { controller: 'reports', action: 'summary', id: '3' }, recall: {}, path: '/reports/summary/3' },
    ],
    named_routes_present: ['login', 'logout', 'archive', 'archive_feed', 'about', 'rss', 'atom', 'root', 'admin_root'],
  };
  writeFileSync(join(dir, 'ported-routing.json'), JSON.stringify({ source: LONG_LIVED, cases: [c] }));
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', 'tests', 'acceptance/routing\\.test\\.ts$'], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, SIGNALBOX_ACCEPTANCE_DIR: dir },
  });
  // Both recognizers run every assertion: 2 x (1 draw + 7 recognize + 3 generate + 9 names).
  assert.match(run.stdout, /routing acceptance: 40 passed, 0 failed/, `${run.stdout}\n${run.stderr}`);
  assert.is(run.status, 0);
});

test('several files are read in order as one draw (an application\'s file, then a plugin\'s bare map. calls)', async () => {
  const { code, stdout, stderr } = command(LONG_LIVED, PLUGIN);
  assert.is(code, 0);
  assert.match(stdout, new RegExp(`^// Ported from ${LONG_LIVED}, ${PLUGIN} by`));
  assert.match(stdout, new RegExp(`^  // ${PLUGIN}$`, 'm'), 'the module marks where the plugin\'s routes start');
  assert.is(stderr.split('\n').filter((l) => l.includes(': not ported: ')).length, 2);
  const { routes } = await importPorted(stdout);
  assertRouting(routes, 'GET /forums/1/topics/2/posts', { controller: 'posts', action: 'index', forum_id: '1', topic_id: '2' });
  assert.ok(routes.named.forum_search.index > routes.named.root.index, 'the plugin\'s routes come after the application\'s');
  assert.is(routes.named.forum_search.path, '/forums/search');
  const json = command('--json', LONG_LIVED, PLUGIN).stdout;
  assert.is(drawJson(json).print(), routes.print());
});

test('a Ruby syntax error is reported with file and line; with nothing read, nothing is printed and the exit code is 1', async () => {
  const [, { code, stdout, stderr }] = await cli;
  assert.is(code, 1);
  assert.is(stdout, '');
  assert.is(stderr, `${BROKEN}:5: syntax error: unexpected keyword 'end'\n`);
});

test('a file with a syntax error among others: the others are still ported, and the exit code is 0', async () => {
  const { code, stdout, stderr } = command(BROKEN, PLUGIN);
  assert.is(code, 0);
  assert.match(stderr, new RegExp(`^${BROKEN}:5: syntax error: `));
  const { routes } = await importPorted(stdout);
  assert.ok(routes.named.forum_search);
  assert.is(routes.named.posts, undefined, 'nothing of the file that is not Ruby');
});

test('a file that cannot be read is reported; when none can, the exit code is 1', () => {
  const missing = `${FIXTURES}/no-such-routes.rb`;
  const one = command(missing, PLUGIN);
  assert.is(one.code, 0);
  assert.match(one.stderr, new RegExp(`^${missing}: cannot read: no such file$`, 'm'));
  const none = command(missing);
  assert.is(none.code, 1);
  assert.is(none.stdout, '');
  assert.is(command(FIXTURES).stderr, `${FIXTURES}: cannot read: is a directory\n`);
});

test('- reads a routes file from standard input', () => {
  const run = spawnSync(process.execPath, ['bin/signalbox.js', 'port-routes', '--json', '-'], {
    cwd: ROOT, encoding: 'utf8', input: "map.connect ':controller/:action'\nmap.from_plugin :blog\n",
  });
  assert.is(run.status, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout), [['connect', ':controller/:action']]);
  assert.is(run.stderr.split('\n')[0], '-:2: not ported: map.from_plugin :blog');
});

test('usage errors exit 2 and say how the command is used', async () => {
  const [, , bare] = await cli;
  assert.is(bare.code, 2);
  assert.match(bare.stderr, /usage: signalbox port-routes \[--js \| --json\] \[--env NAME\] FILE\.\.\./);
  for (const args of [['--js', '--json', LONG_LIVED], ['--yaml', LONG_LIVED], ['--env', LONG_LIVED], ['--env=', LONG_LIVED], ['--env', 'test', '--env', 'production', LONG_LIVED]]) {
    const r = command(...args);
    assert.is(r.code, 2, args.join(' '));
    assert.is(r.stdout, '');
    assert.match(r.stderr, /usage: signalbox port-routes/);
  }
});

test('plugin hooks, conditions, requires and methods defined elsewhere are each reported; the rest is ported', async () => {
  const { code, stdout, stderr } = command(HOOKS);
  assert.is(code, 0);
  const lines = stderr.split('\n').filter((l) => l.startsWith(`${HOOKS}:`)).map((l) => l.slice(HOOKS.length + 1));
  assert.equal(lines, [
    "1: not ported: require 'community_engine/routes'",
    '6: not ported: map.from_plugin :community_engine',
    '7: not ported: Rails.plugins.each do |plugin| … end',
    '10: not ported: map.load_extension_routes',
    "12: not ported: if RAILS_ENV == 'development' … end",
    "15: not ported: map.connect 'test/:action', :controller => 'test' unless RAILS_ENV == 'production'",
    '17: not ported: def map.static(name) … end',
    "20: not ported: map.static 'terms', :controller => 'static'",
    '22: not ported: map.admin_routes',
    "23: not ported: map.connect 'uploads/*path', :controller => UploadsController.controller_path",
  ]);
  const { routes } = await importPorted(stdout);
  assert.equal(routes.routes.map((r) => r.path).filter((p) => !p.startsWith('/pages')), ['/:controller/:action/:id']);
  assertRouting(routes, 'GET /pages/1', { controller: 'pages', action: 'show', id: '1' });
});

test('--env decides the conditions on the Rails environment; the rest of the report stands', async () => {
  for (const [env, debug, test] of [['development', true, true], ['production', false, false], ['test', false, true]] as const) {
    const { code, stdout, stderr } = command('--env', env, HOOKS);
    assert.is(code, 0);
    const reported = stderr.split('\n').filter((l) => l.startsWith(`${HOOKS}:`)).map((l) => Number(l.slice(HOOKS.length + 1).split(':')[0]));
    assert.equal(reported, [1, 6, 7, 10, 17, 20, 22, 23], env);
    assert.match(stdout, new RegExp(`for the ${env} environment`));
    const { routes } = await importPorted(stdout);
    const paths = routes.routes.map((r) => r.path);
    assert.is(paths.includes('/debug/:action'), debug, `${env}: debug routes`);
    assert.is(paths.includes('/test/:action'), test, `${env}: test routes`);
  }
});

/** What port-routes makes of `file` with `--env env`: the paths of the statements it drew, and the lines it reported. */
function portedUnder(file: string, env: string): { paths: string[]; reported: number[] } {
  const r = command('--json', '--env', env, file);
  assert.is(r.code, 0, env);
  return { paths: (JSON.parse(r.stdout) as [string, string][]).map((c) => c[1]), reported: reportedLines(r.stderr, file) };
}

/** The line numbers of `file` that port-routes reported on stderr. */
function reportedLines(stderr: string, file: string): number[] {
  return stderr.split('\n').filter((l) => l.startsWith(file)).map((l) => Number(l.slice(file.length + 1).split(':')[0]));
}

test('--env decides a case on the Rails environment; without it the case is reported whole, with how to decide it', () => {
  const dir = scratchDir('port-routes-env-case');
  const file = join(dir, 'routes.rb');
  writeFileSync(file, [
    'ActionController::Routing::Routes.draw do |map|',
    '  case Rails.env',
    "  when 'production', 'staging' then map.connect 'live', :controller => 'live'",
    "  when 'development'",
    "    map.connect 'debug', :controller => 'debug'",
    '  else',
    "    map.connect 'other', :controller => 'other'",
    '  end',
    "  map.connect 'always', :controller => 'always'",
    'end',
    '',
  ].join('\n'));
  const ported = (env: string) => {
    const { paths, reported } = portedUnder(file, env);
    assert.equal(reported, [], env);
    return paths;
  };
  assert.equal(ported('production'), ['live', 'always']);
  assert.equal(ported('staging'), ['live', 'always']);
  assert.equal(ported('development'), ['debug', 'always']);
  assert.equal(ported('test'), ['other', 'always']);
  const r = command('--json', file);
  const lines = r.stderr.split('\n');
  assert.equal(lines.filter((l) => l.startsWith(file)), [`${file}:2: not ported: case Rails.env … end`]);
  assert.ok(lines.some((l) => /depends on the Rails environment \(Rails\.env\); port with --env NAME/.test(l)));
  assert.equal((JSON.parse(r.stdout) as [string, string][]).map((c) => c[1]), ['always']);
});

test('Rails.env, its predicates, ENV and lists of environments decide if, unless, elsif and else', () => {
  const dir = scratchDir('port-routes-env');
  const file = join(dir, 'routes.rb');
  writeFileSync(file, [
    'ActionController::Routing::Routes.draw do |map|',
    '  if Rails.env.production?',
    "    map.connect 'live', :controller => 'live'",
    "  elsif Rails.env == 'staging' || ENV['RAILS_ENV'] == 'demo'",
    "    map.connect 'preview', :controller => 'preview'",
    '  else',
    "    map.connect 'debug', :controller => 'debug'",
    '  end',
    "  map.connect 'tools', :controller => 'tools' if %w(development test).include?(RAILS_ENV)",
    "  map.connect 'always', :controller => 'always' unless defined?(Rails) && false",
    '  unless !Rails.env.production? then map.connect "stats", :controller => "stats" end',
    'end',
    '',
  ].join('\n'));
  const ported = (env: string) => {
    const { paths, reported } = portedUnder(file, env);
    // defined?(Rails) asks about code outside the file: undecided whatever the environment.
    assert.equal(reported, [10], env);
    return paths;
  };
  assert.equal(ported('production'), ['live', 'stats']);
  assert.equal(ported('staging'), ['preview']);
  assert.equal(ported('demo'), ['preview']);
  assert.equal(ported('test'), ['debug', 'tools']);
  // Without --env, each condition on the environment is reported with its line, and says how to decide it.
  const r = command('--json', file);
  const lines = r.stderr.split('\n');
  assert.equal(reportedLines(r.stderr, file), [2, 9, 10, 11]);
  assert.ok(lines.some((l) => /depends on the Rails environment \(Rails\.env\.production\?\); port with --env NAME/.test(l)));
});

test('calls with parentheses, brace blocks, key: hashes, %w[] lists, loops and x-flag regexps route as written', async () => {
  const { code, stdout, stderr } = command(PARENS);
  assert.is(code, 0);
  assert.is(stderr, '');
  const { routes } = await importPorted(stdout);
  assertRouting(routes, 'GET /products/12/reviews', { controller: 'reviews', action: 'index', product_id: '12' });
  assertNotRouted(routes, 'GET /products/abc');
  assertNotRouted(routes, 'PUT /products/12/reviews/3');
  assertRouting(routes, 'GET /shop/home-garden', { controller: 'products', action: 'index', category: 'home-garden' });
  assertNotRouted(routes, 'GET /shop/123');
  assertRecognizes(routes, 'GET /search/red/shoes', { controller: 'search', action: 'query', terms: ['red', 'shoes'] });
  assertRecognizes(routes, 'GET /fr/store/search/x', { controller: 'search', action: 'query', locale: 'fr', terms: ['x'] });
  assertRouting(routes, 'GET /api/orders/recent', { controller: 'api/orders', action: 'recent' });
  assertRouting(routes, 'GET /ping', { controller: 'health', action: 'ping' });
  assertRouting(routes, 'GET /sku/ABC-1234', { controller: 'products', action: 'show', sku: 'ABC-1234' });
  assertNotRouted(routes, 'GET /sku/abc-1234');
  assertRecognizes(routes, 'GET /', { controller: 'products', action: 'index' });
  // The x-flag pattern keeps its comments, for Signalbox to read as Ruby's x does.
  assert.match(stdout, /sku: \{ source: String\.raw`\n\s+\[A-Z\]\{3\}\s+# department\n/);
  assert.is(drawJson(command('--json', PARENS).stdout).print(), routes.print());
});

test('declarations today\'s draw may refuse are passed through as written (duplicate names, action lists, nil options)', async () => {
  // Rails 2.x accepts all three; the port writes them as the file does, so the module draws the
  // moment draw() accepts them, and the module and the --json draw always agree.
  const ruby = [
    "map.resources :posts, :collection => [:preview], :member => [:publish]",
    "map.legacy 'item.php', :controller => 'products', :action => 'legacy', :id => nil",
    "map.home '', :controller => 'welcome'",
    "map.home 'home', :controller => 'welcome', :action => 'home'",
  ].join('\n');
  const dir = scratchDir('port-routes-pass-through');
  const file = join(dir, 'routes.rb');
  writeFileSync(file, ruby);
  const ts = command(file).stdout;
  assert.match(ts, /map\.resources\('posts', \{ collection: \['preview'\], member: \['publish'\] \}\);/);
  assert.match(ts, /map\.named\('legacy', 'item\.php', \{ controller: 'products', action: 'legacy', id: null \}\);/);
  assert.is(ts.match(/map\.named\('home'/g)?.length, 2);
  const json = command('--json', file).stdout;
  assert.match(json, /\["resources", "posts", \{"collection":\["preview"\],"member":\["publish"\]\}\]/);
  assert.match(json, /"id":null/);
  let fromModule: string;
  try {
    fromModule = (await importPorted(ts)).routes.print();
  } catch (error) {
    fromModule = `${(error as Error).name}: ${(error as Error).message}`;
  }
  assert.is(fromModule, outcomeOf(() => drawJson(json)));
});

test('ActionController::Base.resources_path_names assigned before the resources becomes the draw()\'s path words; --json, which has no place for it, reports it', async () => {
  const ruby = [
    "ActionController::Base.resources_path_names = { :new => 'novo', :edit => :editar }",
    'ActionController::Routing::Routes.draw do |map|',
    '  map.resources :eventos',
    "  map.resource :perfil, :path_names => { :edit => 'mudar' }",
    'end',
  ].join('\n');
  const { output, reports } = portText(ruby, 'ts');
  assert.equal(reports, []);
  const { routes } = await importPorted(output);
  assertRecognizes(routes, 'GET /eventos/novo', { controller: 'eventos', action: 'new' });
  assertRecognizes(routes, 'GET /eventos/3/editar', { controller: 'eventos', action: 'edit', id: '3' });
  // A resource's own :path_names still wins over the application's words.
  assertRecognizes(routes, 'GET /perfil/mudar', { controller: 'perfils', action: 'edit' });
  assertRecognizes(routes, 'GET /eventos/new', { controller: 'eventos', action: 'show', id: 'new' });
  assert.is(helpersOf(routes).new_evento_path(), '/eventos/novo');

  const json = portText(ruby, 'json');
  assert.equal(json.reports, [
    "config/routes.rb:1: not ported: ActionController::Base.resources_path_names = { :new => 'novo', :edit => :editar }",
    '  the --json draw holds mapper calls only; the TypeScript and JavaScript modules pass it to draw() as resources_path_names',
  ]);
  // The draw itself still holds every route, with Rails' default words.
  assertRecognizes(drawJson(json.output), 'GET /eventos/new', { controller: 'eventos', action: 'new' });
});

test('path words or a separator given after resources were drawn, or path words without one for new, are left out and reported', () => {
  const late = portText("map.resources :posts\nActionController::Base.resources_path_names = { :new => 'neu' }\nmap.resources :tags\n", 'ts');
  assert.equal(late.reports, [
    "config/routes.rb:2: not ported: ActionController::Base.resources_path_names = { :new => 'neu' }",
    '  it changes ActionController::Base.resources_path_names after resources above it were drawn with the value before',
  ]);
  assert.match(late.output, /^\}\);$/m);
  const noNew = portText("ActionController::Base.resources_path_names = { :edit => 'bearbeiten' }\nmap.resources :posts\n", 'ts');
  assert.match(noNew.reports.join('\n'), /gives no word for new/);
  const separator = portText("ActionController::Base.resource_action_separator = ';'\nmap.resources :posts, :member => { :publish => :put }\n", 'ts');
  assert.equal(separator.reports, []);
  assert.match(separator.output, /^\}, \{ resource_action_separator: ';' \}\);$/m);
  const odd = portText("ActionController::Base.resource_action_separator = '!'\nmap.resources :posts\n", 'ts');
  assert.match(odd.reports.join('\n'), /takes '\/' or ';' as the resource action separator/);
});

test.run();
