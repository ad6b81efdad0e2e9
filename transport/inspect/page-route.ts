/**
 * The inspector page and what it loads, all from this project: the HTML,
 * script and style files beside this module (`page/`), elkjs's browser
 * build from node_modules, and the machines as JSON (the same document
 * `signalbox machines --format json` prints). Nothing comes from elsewhere,
 * so the page works offline. A fixed table of names, never a file path
 * taken from the URL. Internal to the inspector.
 *
 * elkjs is an optional peer dependency (8 MB installed, needed by this
 * development page alone): without it the page lists and replays requests
 * and says, where the diagrams would be, how to install it.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { exportedGraphs } from '../../machines/registry.ts';
import { toJson } from '../../machines/export.ts';
import type { InspectSettings } from './options.ts';

interface Asset {
  readonly type: string;
  /** Reads the asset once, on first request. */
  readonly read: (settings: InspectSettings) => string | Buffer;
}

const JS = 'text/javascript; charset=utf-8';

// `npm run build` compiles TypeScript only; run from dist/, the page files are found in the source tree it mirrors.
const PAGE_DIRS = [new URL('./page/', import.meta.url), new URL('../../../transport/inspect/page/', import.meta.url)];

function pageFile(name: string): Buffer {
  for (const dir of PAGE_DIRS) {
    const file = fileURLToPath(new URL(name, dir));
    if (existsSync(file)) return readFileSync(file);
  }
  throw new Error(`The inspector page file ${name} is missing (looked in ${PAGE_DIRS.map((d) => fileURLToPath(d)).join(', ')})`);
}

/** Where elkjs's browser build is; throws when elkjs is not installed. */
const locateElk = (): string => createRequire(import.meta.url).resolve('elkjs/lib/elk.bundled.js');

export const ELK_MISSING = 'The machine diagrams are laid out by elkjs, an optional dependency of Signalbox that is not installed: run `npm install --save-dev elkjs` and restart.';

/** elkjs's browser build, or a script that leaves the page the reason it cannot draw. */
export function elkScript(locate: () => string = locateElk): Buffer {
  let file: string;
  try {
    file = locate();
  } catch {
    return Buffer.from(`// elkjs is not installed.\nwindow.SIGNALBOX_ELK_MISSING = ${JSON.stringify(ELK_MISSING)};\n`, 'utf8');
  }
  return readFileSync(file);
}

const ASSETS: Readonly<Record<string, Asset>> = {
  '/': {
    type: 'text/html; charset=utf-8',
    // Relative URLs in the page (scripts, the trace channel) resolve against the inspector's own path.
    read: (settings) => pageFile('index.html').toString('utf8').replace('%BASE%', `${settings.path}/`),
  },
  '/inspector.css': { type: 'text/css; charset=utf-8', read: () => pageFile('inspector.css') },
  '/main.js': { type: JS, read: () => pageFile('main.js') },
  '/diagram.js': { type: JS, read: () => pageFile('diagram.js') },
  '/traces.js': { type: JS, read: () => pageFile('traces.js') },
  '/channel.js': { type: JS, read: () => pageFile('channel.js') },
  '/elk.bundled.js': { type: JS, read: () => elkScript() },
  '/machines.json': { type: 'application/json; charset=utf-8', read: () => toJson(exportedGraphs()) },
};

const SECURITY_HEADERS = {
  // Scripts, styles and connections from this server only; the trace channel is a same-origin WebSocket.
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'self'; frame-ancestors 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export class PageRoute {
  readonly #settings: InspectSettings;
  readonly #cache = new Map<string, Buffer>();

  constructor(settings: InspectSettings) {
    this.#settings = settings;
  }

  /** Whether `path` (no query) is the inspector's: its own path or anything under it. */
  owns(path: string): boolean {
    return path === this.#settings.path || path.startsWith(`${this.#settings.path}/`);
  }

  /** Answers a request for one of the inspector's paths. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return this.#text(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
    }
    const name = path === this.#settings.path ? '/' : path.slice(this.#settings.path.length);
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (asset === undefined) return this.#text(res, 404, 'Not Found');
    let body = this.#cache.get(name);
    if (body === undefined) {
      const read = asset.read(this.#settings);
      body = typeof read === 'string' ? Buffer.from(read, 'utf8') : read;
      this.#cache.set(name, body);
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': asset.type, 'Content-Length': String(body.length) });
    // For HEAD, Node itself drops the body and keeps the Content-Length above.
    res.end(body);
  }

  #text(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
    res.end(text);
  }

  /** Answers 403: the request's Host may not see the inspector. */
  refuseHost(res: ServerResponse): void {
    this.#text(res, 403, 'Blocked host: the inspector answers to IP addresses, localhost and config.hosts only');
  }
}
