/**
 * The application the bad-input corpus attacks: resources with forgery
 * protection, an admin area behind HTTP Basic, a glob route for files,
 * Rails' default route, and the fixture actions the corpus names
 * (`/fixture/store_in_session`, `/fixture/redirect_relative`,
 * `/fixture/redirect?to=`). Every action answers with what it saw (its
 * name, parameters and session) as JSON, and records that it ran, so a
 * test can tell what reached which action.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { scratchDir } from '../../support/temp.ts';
import pino from 'pino';
import { Controller, UploadedFile, cookieSessionStore, draw, secureCompare, TOKEN_KEY, type CookieStore } from '../../../core/index.ts';
import { createApp, type App, type Engine } from '../../../machines/index.ts';

export const SESSION_KEY = '_security_session';
export const SECRET = 'a fixture secret that is long enough to sign cookies';
export const ADMIN = Object.freeze({ user: 'admin', password: 'secret' });
export const VALID_SESSION_DATA = Object.freeze({ user_id: 1, [TOKEN_KEY]: 'fixture-csrf-token-0123456789abcdef' });

/** What reached an action: its name and the path it was asked for. */
export interface ActionEvent {
  readonly action: string;
  readonly path: string;
  readonly method: string;
}

/** Parameters as JSON can carry them: uploads become their description. */
function describe(value: unknown): unknown {
  if (value instanceof UploadedFile) return { uploaded: true, original_filename: value.original_filename, content_type: value.content_type, size: value.size };
  if (Array.isArray(value)) return value.map(describe);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = describe((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

class ApplicationController extends Controller {
  static {
    this.protect_from_forgery();
    this.before_filter('record');
    this.hide_action('record', 'echo');
  }

  get events(): ActionEvent[] {
    return this.services.events as ActionEvent[];
  }

  record(): void {
    this.events.push({ action: `${this.controller_path}#${this.action_name}`, path: this.request.path, method: this.request.method });
  }

  /** Answers with what the action saw. */
  echo(status = 200): void {
    this.render({
      json: { action: `${this.controller_path}#${this.action_name}`, params: describe(this.params), session: describe({ ...this.session }) },
      status,
    });
  }
}

class PostsController extends ApplicationController {
  index(): void { this.echo(); }
  show(): void { this.echo(); }
  new(): void { this.echo(); }
  edit(): void { this.echo(); }
  create(): void { this.echo(201); }
  update(): void { this.echo(); }
  destroy(): void { this.echo(); }
}

class SessionsController extends ApplicationController {
  static {
    // A JSON sign-in API: bodies of type application/json are exempt from forgery protection, with
    // nothing to skip (Rails apps skip verify_authenticity_token here; Signalbox has no such filter).
  }
  create(): void { this.echo(); }
}

class AdminController extends ApplicationController {
  static {
    this.before_filter('authenticate');
    this.hide_action('authenticate');
  }

  authenticate(): boolean | Promise<boolean> {
    return this.authenticate_or_request_with_http_basic('Admin', (user, password) =>
      // Both compared in full, in constant time, whichever differs.
      Number(secureCompare(user, ADMIN.user)) + Number(secureCompare(password, ADMIN.password)) === 2);
  }

  index(): void { this.echo(); }
}

class FilesController extends ApplicationController {
  // Deliberately never reads the disk: the test checks what the glob hands the action.
  show(): void { this.echo(); }
}

class FixtureController extends ApplicationController {
  store_in_session(): void {
    this.session.value = String(this.params.value);
    this.echo();
  }

  redirect_relative(): void {
    this.redirect_to('/posts');
  }

  redirect(): void {
    this.redirect_to(this.params.to);
  }
}

export const CONTROLLERS = { posts: PostsController, sessions: SessionsController, admin: AdminController, files: FilesController, fixture: FixtureController };

export const routes = draw((map) => {
  map.resources('posts');
  map.resources('sessions', { only: ['create'] });
  map.named('admin', 'admin', { controller: 'admin', action: 'index' });
  map.connect('files/*path', { controller: 'files', action: 'show' });
  map.connect('fixture/:action', { controller: 'fixture' });
  map.root({ controller: 'posts' });
  map.connect(':controller/:action/:id');
}, { controllers: Object.keys(CONTROLLERS) });

/** A public directory with the static error pages, and one file that may be served. */
export function publicDir(): string {
  const dir = scratchDir('security');
  writeFileSync(join(dir, '500.html'), '<!DOCTYPE html><title>We are sorry</title><h1>We\'re sorry, but something went wrong.</h1>\n');
  writeFileSync(join(dir, '404.html'), '<!DOCTYPE html><title>Not found</title><h1>The page you were looking for doesn\'t exist.</h1>\n');
  writeFileSync(join(dir, '422.html'), '<!DOCTYPE html><title>Rejected</title><h1>The change you wanted was rejected.</h1>\n');
  mkdirSync(join(dir, 'stylesheets'));
  writeFileSync(join(dir, 'stylesheets', 'site.css'), 'body { margin: 0 }\n');
  return dir;
}

export interface SecurityApp {
  readonly app: App;
  readonly store: CookieStore;
  readonly events: ActionEvent[];
  /** Every structured log line, for checks on what was logged. */
  readonly logs: Record<string, unknown>[];
  readonly publicDir: string;
  /** A correctly signed cookie value holding `VALID_SESSION_DATA`. */
  readonly valid_session: string;
  readonly csrf_token: string;
}

/** The fixture app in production mode (forgery protection on, public error pages), quiet but logging to memory. */
export function securityApp(engine: Engine = 'compiled'): SecurityApp {
  const events: ActionEvent[] = [];
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      // Floods of requests log a line each; keep the recent ones only.
      if (logs.length > 2000) logs.splice(0, logs.length - 1000);
      done();
    },
  });
  const store = cookieSessionStore({ key: SESSION_KEY, secret: SECRET });
  const dir = publicDir();
  const app = createApp({
    routes,
    controllers: CONTROLLERS,
    environment: 'production',
    engine,
    logger: pino({ level: 'info' }, sink),
    publicDir: dir,
    services: { events },
    session_store: store,
    // As deployed apps should: answer only to the names the app is served under.
    config: { hosts: ['127.0.0.1', 'localhost'] },
  });
  return { app, store, events, logs, publicDir: dir, valid_session: store.encode({ ...VALID_SESSION_DATA }, SECRET), csrf_token: VALID_SESSION_DATA[TOKEN_KEY] };
}
