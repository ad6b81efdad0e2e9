/**
 * `npm start`: serves the application on PORT (default 3000) and HOST (default 127.0.0.1).
 *
 * NODE_ENV picks the environment: development (the default) explains errors and reloads templates;
 * production needs SIGNALBOX_SECRET (30+ characters, to sign session cookies) and SIGNALBOX_HOSTS
 * (the host names it answers to, comma-separated).
 */
import * as nodeModule from 'node:module';

// Node's compile cache keeps V8's compiled code of every module on disk (checked against each file's
// contents), so a restart reads it instead of compiling the framework and the app again. It applies to
// modules loaded after this line, hence the dynamic imports below (Node 22.0 has no such cache: then nothing is kept).
nodeModule.enableCompileCache?.();
const { Controller, createApp, draw, explainLoadError, serve } = await import('signalbox');

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
  // The file and line where it can: Node's message for a syntax error names neither.
  const explained = explainLoadError(error, import.meta.dirname);
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
