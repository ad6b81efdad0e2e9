/**
 * `npm start`: serves the application on PORT (default 3000) and HOST (default 127.0.0.1).
 *
 * NODE_ENV picks the environment: development (the default) explains errors and reloads templates;
 * production needs SIGNALBOX_SECRET (30+ characters, to sign session cookies) and SIGNALBOX_HOSTS
 * (the host names it answers to, comma-separated).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Node's compile cache keeps V8's compiled code of every module on disk (checked against each file's
// contents), so a restart reads it instead of compiling the framework and the app again. It applies to
// modules loaded after this line, hence the dynamic imports below (Node 22.0 has no such cache: then nothing is kept).
nodeModule.enableCompileCache?.();
const { Controller, createApp, draw, serve } = await import('signalbox');

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

// The first line says which mode this process runs in; createApp refuses a NODE_ENV that names none.
const mode = process.env.NODE_ENV || 'development';
console.log(`{{app_name}} starting in ${mode} mode (Node ${process.version}, pid ${process.pid})`);

/** @type {typeof import('./config/application.js').createApplication} */
let createApplication;
try {
  ({ createApplication } = await import('./config/application.js'));
} catch (error) {
  // The application's code does not load: a syntax error, an import of a name a module does not export,
  // a route draw() refuses. Production stops, as Node reports it; development says what is wrong in the
  // log and on every page, and `npm run dev` restarts once the file is saved again.
  if (mode !== 'development') throw error;
  const explained = explainLoadError(error);
  console.error(`{{app_name}} cannot load its code: ${explained.message}\nFix it and save: npm run dev restarts by itself (npm start needs starting again).`);
  createApplication = () => loadErrorApp(explained);
}

let app;
try {
  app = createApplication();
} catch (error) {
  // A configuration the app cannot start with (production without SIGNALBOX_SECRET, say): say why and stop.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const host = process.env.HOST || '127.0.0.1';
let server;
try {
  server = await serve(app, { port, host, handleSignals: true });
} catch (error) {
  // The port is taken (another server, or this app already running) or not ours to take: say so and stop.
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  const hint = code === 'EADDRINUSE' ? ': another server is listening there; stop it, or start this one with PORT=<another port>'
    : code === 'EACCES' ? ': this user may not listen on that port; start with PORT=<a port above 1023>' : '';
  console.error(`{{app_name}} cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}${hint}`);
  process.exit(1);
}
console.log(`{{app_name}} (${app.config.environment}) listening on ${server.url}/ - press Ctrl-C to stop`);

/**
 * The error, with the file and line of a syntax error: V8's message for one names neither. An import of a
 * name the module does not export has them at the head of its stack, where Node puts the line that
 * imports it (`file:///…/notes_controller.js:3`, the line, a `^^^` under the name), which an error page,
 * reading only the stack's frames, would not show. For any other, each of the application's own modules
 * is checked with `node --check` (only after a failed start, in development).
 * @param {unknown} error
 * @returns {Error}
 */
function explainLoadError(error) {
  if (!(error instanceof SyntaxError)) return error instanceof Error ? error : new Error(String(error));
  const root = import.meta.dirname;
  const importing = /^(file:\/\/\S+):(\d+)\n[^\n]*\n( *)\^/.exec(error.stack ?? '');
  if (importing) {
    const file = fileURLToPath(importing[1]);
    return located(error, file, relative(root, file), Number(importing[2]), importing[3].length + 1);
  }
  for (const file of ownModules(root, ['config', 'app/controllers', 'app/models', 'app/helpers'])) {
    try {
      execFileSync(process.execPath, ['--check', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (failed) {
      const report = String(/** @type {{ stderr?: unknown }} */ (failed).stderr ?? '');
      const line = /:(\d+)\n/.exec(report)?.[1];
      return located(error, file, relative(root, file), line === undefined ? undefined : Number(line), 1);
    }
  }
  return error;
}

/**
 * `error` said again with where it is: `(in app/…/file.js:LINE)` after its message, and that line as its trace.
 * @param {SyntaxError} error
 * @param {string} file the absolute path
 * @param {string} shown the path from the application's directory
 * @param {number | undefined} line
 * @param {number} column
 * @returns {SyntaxError}
 */
function located(error, file, shown, line, column) {
  const explained = new SyntaxError(`${error.message} (in ${shown}${line === undefined ? '' : `:${line}`})`, { cause: error });
  // The trace is the broken file's line, not the frames of Node's loader or of the function that found it.
  explained.stack = `SyntaxError: ${explained.message}\n    at ${file}:${line ?? 1}:${column}`;
  return explained;
}

/**
 * The JavaScript modules under `dirs` of `root` (templates are left out: they are loaded, and explained, by each render).
 * @param {string} root
 * @param {string[]} dirs
 * @returns {string[]}
 */
function ownModules(root, dirs) {
  return dirs.flatMap((dir) => {
    try {
      return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.m?js$/.test(name))
        .map((name) => join(root, dir, name));
    } catch {
      return [];
    }
  });
}

/**
 * An application whose every page is the development error page of `error`, from this machine only
 * (Signalbox's rescue page shows its class, message, frames and cause).
 * @param {Error} error
 */
function loadErrorApp(error) {
  class LoadErrorController extends Controller {
    show() {
      throw error;
    }
  }
  const routes = draw((map) => {
    map.root({ controller: 'load_error', action: 'show' });
    map.connect('*path', { controller: 'load_error', action: 'show' });
  });
  return createApp({ root: import.meta.dirname, routes, controllers: { load_error: LoadErrorController }, session: false });
}
