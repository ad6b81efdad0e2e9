/**
 * The application: its routes, controllers, views, public files and services, built by createApp.
 * server.js serves it; the tests call `app.handle` on it directly.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from 'signalbox';
import { NotesController } from '../app/controllers/notes_controller.js';
import { NoteStore } from '../app/models/note.js';
import { routes } from './routes.js';

/** The application's directory: development keeps its session secret under tmp/ there. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @typedef {object} ApplicationOptions
 * @property {import('signalbox').AppConfig['environment']} [environment] default: NODE_ENV, else development
 * @property {import('signalbox').CreateAppOptions['logger']} [logger] default: one line per request on stdout (JSON, or a readable line on a terminal in development; none in test)
 * @property {NoteStore} [notes] the notes; a fresh store with one note by default
 */

/** @param {ApplicationOptions} [options] */
export function createApplication(options = {}) {
  return createApp({
    root: ROOT,
    routes,
    controllers: { notes: NotesController },
    views: join(ROOT, 'app', 'views'),
    publicDir: join(ROOT, 'public'),
    // Signed cookie sessions (they carry the flash and the forms' authenticity token). The secret comes
    // from SIGNALBOX_SECRET; in development from tmp/development_secret, written on first start.
    session: { key: '{{session_key}}' },
    services: { notes: options.notes ?? new NoteStore() },
    environment: options.environment,
    logger: options.logger,
  });
}
