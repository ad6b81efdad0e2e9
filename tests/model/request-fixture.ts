/**
 * Internal to the model tests: the application every request-machine path
 * is driven through. Each controller action exists to make one ingredient
 * possible (see request-ingredients.ts), and each public page has a body
 * of its own, so a response shows which page it got.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, draw } from '../../core/index.ts';
import { createApp, type App, type Engine } from '../../machines/index.ts';
import { scratchDir } from '../support/temp.ts';

export const PAGES = {
  '404.html': '<h1>404 page of the model fixture</h1>\n',
  '422.html': '<h1>422 page of the model fixture</h1>\n',
  '500.html': '<h1>500 page of the model fixture</h1>\n',
} as const;

const publicDir = scratchDir('model-public');
for (const [name, body] of Object.entries(PAGES)) writeFileSync(join(publicDir, name), body);

class WidgetsController extends Controller {
  static {
    // `update` is reached by a `_method=put` form; the fixture keeps no sessions to take a token from.
    this.protect_from_forgery({ except: ['update'] });
    this.verify({ params: 'ticket', only: ['audit'] });
  }
  index(): void {
    this.respond_to({ html: () => this.render({ text: 'widgets' }), json: () => this.render({ json: ['cog'] }) });
  }
  show(): void {
    this.render({ text: `widget ${String(this.params.id)}` });
  }
  create(): void {
    this.head('created');
  }
  update(): void {
    this.render({ text: `updated widget ${String(this.params.id)}` });
  }
  explode(): void {
    throw new Error('the model fixture explodes on purpose');
  }
  audit(): void {
    this.render({ text: 'audited' });
  }
}

/** Routed by a catch-all route for any action name, but answering only `ping`. */
class GadgetsController extends Controller {
  ping(): void {
    this.render({ text: 'pong' });
  }
}

export const routes = draw((map) => {
  map.resources('widgets', { only: ['index', 'show', 'create', 'update'], collection: { explode: 'get', audit: 'get' } });
  map.connect('gadgets/:action', { controller: 'gadgets' });
}, { controllers: ['widgets', 'gadgets'] });

export function fixtureApp(engine: Engine): App {
  return createApp({
    routes,
    controllers: { widgets: WidgetsController, gadgets: GadgetsController },
    publicDir: publicDir,
    engine,
    environment: 'test',
    // The test environment turns forgery protection off; the forgery paths need it on.
    config: { allow_forgery_protection: true },
  });
}
