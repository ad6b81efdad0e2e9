/**
 * A new application, the way a newcomer makes one: `npx signalbox new demo` from the packed
 * package, `npm install` (the package from its tarball, the rest from the registry), then
 * `npm test`, `npm start` and `npm run routes` as its README says, on whichever Node runs this
 * suite (CI runs it on each supported line). Without a reachable registry the suite is Unavailable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allowMoreTime } from '../harness/deadline.ts';
import { eventually, PATIENCE_MS } from '../support/patience.ts';
import { scratchDir } from '../support/temp.ts';
import { freshEnv, npm, packed, run } from './support.ts';

const test = suite('an application made by npx signalbox new, from the packed package');

let app = '';

test.before(async () => {
  // Packing (a build), `signalbox new` and `npm install` from the registry: three npm runs, each of which
  // may take most of a minute on a loaded machine.
  allowMoreTime(120_000);
  const { tarball } = await packed();
  const work = scratchDir('new-app');
  const made = await npm(['exec', '--yes', `--package=${tarball}`, '--', 'signalbox', 'new', 'demo'], work);
  assert.match(made.stdout, 'create  demo/package.json');
  app = join(work, 'demo');
  await npm(['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], app);
});

/** A server started with `npm start` in the app, and the URL it printed. */
interface Started { readonly url: string; readonly child: ChildProcess; stop(): Promise<void>; output(): string }

/** `npm start` (or another script) in its own process group, so that stopping it stops npm and the node under it. */
function start(env: Readonly<Record<string, string | undefined>>, script = 'start'): Promise<Started> {
  const child = spawn('npm', ['run', script], { cwd: app, env: freshEnv({ PORT: '0', HOST: '127.0.0.1', ...env }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  };
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => { void stop(); fail(new Error(`npm run ${script} printed no URL in ${PATIENCE_MS / 1000} s:\n${output}`)); }, PATIENCE_MS);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (url) {
        clearTimeout(timer);
        ready({ url: url[1]!, child, stop, output: () => output });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`npm start exited (${code}) before listening:\n${output}`)); });
  });
}

test('its own npm test passes', async () => {
  const ran = await run('npm', ['test'], app);
  assert.is(ran.code, 0, `${ran.stdout}${ran.stderr}`);
  assert.match(ran.stdout, /pass 5/);
  assert.match(ran.stdout, /fail 0/);
});

test('npm start serves it in development: / answers 200, an unknown path 404, and an edited template shows on the next request', async () => {
  const server = await start({});
  try {
    assert.match(server.output(), '(development)');
    const home = await fetch(`${server.url}/`);
    assert.is(home.status, 200);
    assert.match(await home.text(), '<h1>Notes</h1>');
    const missing = await fetch(`${server.url}/no/such/page`);
    assert.is(missing.status, 404);
    assert.match(await missing.text(), 'No route matches "/no/such/page" with {:method=&gt;:get}', 'explained, to a request from this machine');
    const template = join(app, 'app/views/notes/index.html.js');
    const before = readFileSync(template, 'utf8');
    writeFileSync(template, before.replace('<h1>Notes</h1>', '<h1>Notes, edited</h1>'));
    try {
      assert.match(await (await fetch(`${server.url}/`)).text(), '<h1>Notes, edited</h1>');
    } finally {
      writeFileSync(template, before);
    }
  } finally {
    await server.stop();
  }
});

test('in development a template with a syntax error answers a page naming its file, and the next request after the fix renders', async () => {
  const server = await start({});
  const template = join(app, 'app/views/notes/index.html.js');
  const before = readFileSync(template, 'utf8');
  try {
    writeFileSync(template, `${before}\nexport const unfinished = {\n`);
    const broken = await fetch(`${server.url}/`);
    assert.is(broken.status, 500);
    const page = await broken.text();
    assert.match(page, 'TemplateError in NotesController#index');
    assert.match(page, `node --check ${template}`, 'Node\'s own message names neither the file nor the line');
    writeFileSync(template, before);
    const fixed = await fetch(`${server.url}/`);
    assert.is(fixed.status, 200);
    assert.match(await fixed.text(), '<h1>Notes</h1>');
  } finally {
    writeFileSync(template, before);
    await server.stop();
  }
});

test('in development a template importing a name its module does not export answers a page naming the line that imports it', async () => {
  const server = await start({});
  const partial = join(app, 'app/views/notes/_form.html.js');
  const before = readFileSync(partial, 'utf8');
  const importing = "import { errorMessagesFor } from '../../helpers/application_helper.js';";
  const line = before.split('\n').indexOf(importing) + 1;
  assert.ok(line > 0);
  try {
    writeFileSync(partial, before.replace(importing, importing.replace('{ errorMessagesFor }', '{ errorMessagesFr as errorMessagesFor }')));
    const broken = await fetch(`${server.url}/notes/new`);
    assert.is(broken.status, 500);
    const page = await broken.text();
    assert.match(page, `does not provide an export named 'errorMessagesFr', at line ${line} (in template ${partial})`);
    assert.not.match(page, 'node --check', 'which finds nothing wrong with the file');
    assert.match(page, new RegExp(`<h2>Application Trace</h2>\\n<pre class="trace">at app/views/notes/_form\\.html\\.js:${line}:10</pre>`));
    writeFileSync(partial, before);
    assert.is((await fetch(`${server.url}/notes/new`)).status, 200);
  } finally {
    writeFileSync(partial, before);
    await server.stop();
  }
});

test('npm start on a port another server holds says so in a line and exits 1', async () => {
  const holder = createServer();
  await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', () => listening()));
  try {
    const { port } = holder.address() as AddressInfo;
    const ran = await run('npm', ['start'], app, { PORT: String(port), HOST: '127.0.0.1' });
    assert.is(ran.code, 1);
    assert.match(ran.stderr, `demo cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}: another server is listening there`);
    assert.not.match(ran.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    holder.close();
  }
});

test('the development session secret is written once to tmp/, so a session outlives a restart', async () => {
  const first = await start({});
  // npm prints its own `> demo@0.1.0 start` banner first; the server's first line says the mode.
  assert.match(first.output().split('\n').find((line) => line.trim() !== '' && !line.startsWith('>'))!, /^demo starting in development mode/);
  let cookie = '';
  let token = '';
  try {
    const form = await fetch(`${first.url}/notes/new`);
    cookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
    token = /name="authenticity_token" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    assert.ok(cookie !== '' && token !== '', 'the form came with a session and its token');
  } finally {
    await first.stop();
  }
  assert.ok(existsSync(join(app, 'tmp', 'development_secret')));
  const second = await start({});
  try {
    const created = await fetch(`${second.url}/notes`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ authenticity_token: token, 'note[title]': 'After a restart' }).toString(),
    });
    assert.is(created.status, 302, 'the token of the session signed before the restart is still good');
  } finally {
    await second.stop();
  }
});

test('npm run dev restarts the server when a controller changes', async () => {
  const server = await start({}, 'dev');
  const controller = join(app, 'app/controllers/notes_controller.js');
  const before = readFileSync(controller, 'utf8');
  try {
    writeFileSync(controller, before.replace("'Note was created.'", "'Noted.'").replace('  new() {}', "  new() {\n    this.response.set_header('X-Edited', 'yes');\n  }"));
    // PORT=0: the restarted server listens on a port of its own, and says which.
    let urls: string[] = [];
    await eventually(() => (urls = startUrls(server.output())).length > 1, 100);
    assert.ok(urls.length > 1, `restarted:\n${server.output()}`);
    const res = await fetch(`${urls.at(-1)}/notes/new`);
    assert.is(res.status, 200);
    assert.is(res.headers.get('x-edited'), 'yes');
  } finally {
    writeFileSync(controller, before);
    await server.stop();
  }
});

/** The URL of the `count`th server `npm run dev` has started (PORT=0: each start listens on a port of its own). */
async function nthStart(server: Started, count: number): Promise<string> {
  let urls: string[] = [];
  if (await eventually(() => (urls = startUrls(server.output())).length >= count, 100)) return urls[count - 1]!;
  throw new Error(`npm run dev did not start a server ${count} times:\n${server.output()}`);
}

/** The URLs `npm run dev`'s servers said they listen on, in order. */
function startUrls(output: string): string[] {
  return [...output.matchAll(/listening on (http:\/\/127\.0\.0\.1:\d+)\//g)].map((m) => m[1]!);
}

/** The newest server's URL once `npm run dev` has printed nothing new for a while (no restart under way). */
async function settledStart(server: Started): Promise<string> {
  const deadline = Date.now() + PATIENCE_MS;
  let before = server.output();
  while (Date.now() < deadline) {
    await new Promise((wait) => setTimeout(wait, 800));
    const now = server.output();
    const urls = startUrls(now);
    if (now === before && urls.length > 0 && now.lastIndexOf('listening on') > now.lastIndexOf('restarting')) return urls[urls.length - 1]!;
    before = now;
  }
  throw new Error(`npm run dev did not settle:\n${server.output()}`);
}

/** Saves `file` as many editors' "safe write" and `sed -i` do: the new text to a file beside it, renamed over it. */
function saveByRename(file: string, text: string): void {
  const temporary = `${file}.tmp-save`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

test('npm run dev restarts for every save of a controller or the routes, files saved by rename included, says why, and stops on Ctrl-C', async () => {
  const server = await start({}, 'dev');
  const controller = join(app, 'app/controllers/notes_controller.js');
  const routesFile = join(app, 'config/routes.js');
  const [controllerBefore, routesBefore] = [readFileSync(controller, 'utf8'), readFileSync(routesFile, 'utf8')];
  const edited = (n: number): string => controllerBefore.replace('  new() {}', `  new() {\n    this.response.set_header('X-Edited', '${n}');\n  }`);
  let starts = 1;
  try {
    // A watcher that follows the file it first saw loses it after a rename or a few: save by rename again and again.
    for (let n = 1; n <= 5; n += 1) {
      saveByRename(controller, edited(n));
      const res = await fetch(`${await nthStart(server, ++starts)}/notes/new`);
      assert.is(res.status, 200);
      assert.is(res.headers.get('x-edited'), String(n), `rename-save ${n} served`);
    }
    // A plain save after them is seen too.
    writeFileSync(controller, edited(6));
    assert.is((await fetch(`${await nthStart(server, ++starts)}/notes/new`)).headers.get('x-edited'), '6');
    saveByRename(routesFile, routesBefore.replace("map.resources('notes');", "map.resources('notes', { path_prefix: '/journal' });"));
    assert.is((await fetch(`${await nthStart(server, ++starts)}/journal/notes/new`)).status, 200, 'the routes saved by rename are the routes served');
    assert.match(server.output(), 'signalbox dev: app/controllers/notes_controller.js changed: restarting server.js');
    assert.match(server.output(), 'signalbox dev: config/routes.js changed: restarting server.js');
    assert.not.match(server.output(), '.tmp-save', 'the temporary file is no module: it restarts nothing by itself');
    // An editor's files beside the code (emacs' lock, a backup) are not the app's: no restart for them.
    const restarts = server.output().split('restarting server.js').length;
    writeFileSync(join(app, 'app/controllers/.#notes_controller.js'), 'user@host.1234');
    writeFileSync(`${controller}~`, controllerBefore);
    await new Promise((wait) => setTimeout(wait, 1_000));
    rmSync(join(app, 'app/controllers/.#notes_controller.js'));
    rmSync(`${controller}~`);
    assert.is(server.output().split('restarting server.js').length, restarts, server.output());
    // A directory made, removed and made again under the same name is watched each time.
    const admin = join(app, 'app/controllers/admin');
    for (const round of [1, 2, 3]) {
      mkdirSync(admin);
      saveByRename(join(admin, 'roles.js'), `export const round = ${round};\n`);
      await nthStart(server, ++starts);
      rmSync(admin, { recursive: true });
      await nthStart(server, ++starts);
    }
    // Ctrl-C reaches the whole foreground group: the server drains once and nothing is left listening. A
    // removal's events may come in two bursts on a busy machine, so the last restart is waited out first.
    const last = await settledStart(server);
    const exited = new Promise<void>((done) => server.child.on('exit', () => done()));
    process.kill(-server.child.pid!, 'SIGINT');
    await exited;
    // Drained, once: a second signal would have cut the drain short (exiting 130, with no "server closed").
    // Other lines may come between (a request's, the dev loop's own): what matters is the order and that there is one drain.
    assert.match(server.output(), /"signal":"SIGINT","msg":"shutting down"\}\n(?:.*\n)*?.*"msg":"server closed"\}\n/, server.output().slice(-3_000));
    assert.is(server.output().split('"signal":"SIGINT","msg":"shutting down"').length, 2, server.output());
    assert.not.match(server.output(), 'second signal');
    await fetch(`${last}/`).then(() => assert.unreachable('still listening'), (error: unknown) => assert.instance(error, TypeError));
  } finally {
    writeFileSync(controller, controllerBefore);
    writeFileSync(routesFile, routesBefore);
    await server.stop();
  }
});

test('in development, code that does not load answers every page with its error, naming the file and line of a syntax error or of an import of a name not exported, and npm run dev restarts once the fix is saved', async () => {
  const server = await start({}, 'dev');
  const controller = join(app, 'app/controllers/notes_controller.js');
  const routesFile = join(app, 'config/routes.js');
  const [controllerBefore, routesBefore] = [readFileSync(controller, 'utf8'), readFileSync(routesFile, 'utf8')];
  try {
    // A brace left open: V8's message names neither the file nor the line.
    writeFileSync(controller, controllerBefore.replace('  new() {}', '  new() {'));
    const broken = await fetch(`${await nthStart(server, 2)}/notes/new`);
    assert.is(broken.status, 500);
    const page = await broken.text();
    assert.match(page, /SyntaxError in \w+#show/);
    assert.match(page, /\(in app\/controllers\/notes_controller\.js:\d+\)/, 'the file and line');
    assert.match(server.output(), /demo cannot load its code: .*\(in app\/controllers\/notes_controller\.js:\d+\)/, 'and the log says the same');
    writeFileSync(controller, controllerBefore);
    assert.is((await fetch(`${await nthStart(server, 3)}/notes/new`)).status, 200);
    // A route draw() refuses: its error, and the routes file in the trace.
    writeFileSync(routesFile, routesBefore.replace("map.resources('notes');", "map.resources('notes', { has_many: ':comments' });"));
    const refused = await (await fetch(`${await nthStart(server, 4)}/`)).text();
    assert.match(refused, 'ArgumentError in ');
    assert.match(refused, 'association names must be words, got ":comments"');
    assert.match(refused, 'config/routes.js:');
    writeFileSync(routesFile, routesBefore);
    assert.is((await fetch(`${await nthStart(server, 5)}/`)).status, 200);
    // An import of a name the module does not export: Node's message names the module imported, not the file importing it.
    const importLine = controllerBefore.split('\n').findIndex((line) => line.includes("import { Note } from '../models/note.js';")) + 1;
    assert.ok(importLine > 0);
    writeFileSync(controller, controllerBefore.replace("import { Note } from '../models/note.js';", "import { Nte as Note } from '../models/note.js';"));
    const unexported = await (await fetch(`${await nthStart(server, 6)}/`)).text();
    assert.match(unexported, "does not provide an export named 'Nte' (in app/controllers/notes_controller.js:" + importLine + ')');
    assert.match(unexported, `app/controllers/notes_controller.js:${importLine}:`, 'the importing line is the trace');
    assert.match(server.output(), `demo cannot load its code: The requested module '../models/note.js' does not provide an export named 'Nte' (in app/controllers/notes_controller.js:${importLine})`);
    writeFileSync(controller, controllerBefore);
    assert.is((await fetch(`${await nthStart(server, 7)}/`)).status, 200);
  } finally {
    writeFileSync(controller, controllerBefore);
    writeFileSync(routesFile, routesBefore);
    await server.stop();
  }
});

test('in production, code that does not load stops the start, with Node\'s report of where', async () => {
  const controller = join(app, 'app/controllers/notes_controller.js');
  const before = readFileSync(controller, 'utf8');
  writeFileSync(controller, before.replace('  new() {}', '  new() {'));
  try {
    const ran = await run('npm', ['start'], app, { NODE_ENV: 'production', SIGNALBOX_SECRET: 'x'.repeat(40), PORT: '0' });
    assert.is.not(ran.code, 0);
    assert.match(ran.stderr, `${controller}:`);
    assert.not.match(ran.stdout, 'listening on');
  } finally {
    writeFileSync(controller, before);
  }
});

test('in production it will not start without SIGNALBOX_SECRET, and says so', async () => {
  const ran = await run('npm', ['start'], app, { NODE_ENV: 'production', PORT: '0' });
  assert.is.not(ran.code, 0);
  assert.match(ran.stderr, 'SIGNALBOX_SECRET');
});

test('with a NODE_ENV that names no environment it will not start as development, and says which were meant', async () => {
  const ran = await run('npm', ['start'], app, { NODE_ENV: 'Production', PORT: '0' });
  assert.is(ran.code, 1);
  assert.match(ran.stderr, 'NODE_ENV is "Production", which names no environment (did you mean production?)');
  assert.not.match(ran.stdout, 'listening on');
});

test('in production an unknown path answers public/404.html', async () => {
  const server = await start({ NODE_ENV: 'production', SIGNALBOX_SECRET: 'x'.repeat(40), SIGNALBOX_HOSTS: '127.0.0.1' });
  try {
    const missing = await fetch(`${server.url}/no/such/page`);
    assert.is(missing.status, 404);
    assert.is(await missing.text(), readFileSync(join(app, 'public/404.html'), 'utf8'));
  } finally {
    await server.stop();
  }
});

test('npm run routes prints its routes, from any directory of it; a file that is no module is named as such', async () => {
  const ran = await run('npm', ['run', '--silent', 'routes'], join(app, 'app', 'views'));
  assert.is(ran.code, 0, ran.stderr);
  assert.match(ran.stdout, /^\s+notes GET\s+\/notes\s+\{controller: "notes", action: "index"\}$/m);
  assert.match(ran.stdout, /^\s+root\s+\/\s+\{controller: "notes", action: "index"\}$/m);
  const notModule = await run('npx', ['signalbox', 'routes', 'README.md'], app);
  assert.is(notModule.code, 1);
  assert.is(notModule.stderr.trim(), 'README.md is not a routes module: that is JavaScript (.js, .mjs) or TypeScript (.ts, .mts) exporting a RouteSet', 'not taken for TypeScript that needs tsx');
  const types = await run('npm', ['run', '--silent', 'routes:types'], app);
  assert.is(types.code, 0, types.stderr);
  assert.is(types.stdout.trim(), 'config/routes.helpers.d.ts: already up to date', 'the declarations it came with are its routes\'');
});

test('its JSDoc types check with a strict tsc against the installed declarations, route helpers included', async () => {
  allowMoreTime(60_000); // an install from the registry and three runs of tsc
  await npm(['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', '@types/node@22'], app);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const ran = await run(process.execPath, [tsc, '-p', 'jsconfig.json'], app);
  assert.is(`${ran.stdout}${ran.stderr}`, '');
  assert.is(ran.code, 0);
  const template = join(app, 'app/views/notes/index.html.js');
  const before = readFileSync(template, 'utf8');
  writeFileSync(template, before.replace('v.new_note_path()', 'v.new_nte_path()'));
  try {
    const misspelt = await run(process.execPath, [tsc, '-p', 'jsconfig.json'], app);
    assert.is(misspelt.code, 2);
    assert.match(misspelt.stdout, "Property 'new_nte_path' does not exist");
  } finally {
    writeFileSync(template, before);
  }
});

test('its types check as its README says, with TypeScript 7 and the current @types/node installed in it', async () => {
  allowMoreTime(60_000); // an install from the registry, then tsc
  // What `npm install --save-dev typescript @types/node && npx tsc -p jsconfig.json` installs now: TypeScript 7
  // reads a JSDoc type more strictly than 5 (a module used as a type is an error there).
  await npm(['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', 'typescript@7', '@types/node'], app);
  const ran = await run('npx', ['tsc', '-p', 'jsconfig.json'], app);
  assert.is(`${ran.stdout}${ran.stderr}`, '');
  assert.is(ran.code, 0);
});

test.run();
