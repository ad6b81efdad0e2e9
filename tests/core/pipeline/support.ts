/**
 * Test support for specifications that drive whole requests through
 * `app.handle`: an app builder over Rails' default routes, a one-line
 * request shorthand (`'GET /posts/1?x=1'`), case-insensitive header reads,
 * and temporary directories under the OS temp dir. Not a test file itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { draw, type Controller, type Mapper, type RequestMessage, type ResponseMessage, type RouteSet } from '../../../core/index.ts';
import { createApp, type App, type CreateAppOptions } from '../../../machines/index.ts';

export type ControllerClass = typeof Controller;

export interface AppOptions extends Partial<Omit<CreateAppOptions, 'routes' | 'controllers'>> {
  /** Routes to draw; Rails' default `:controller/:action/:id(.:format)` routes when absent. */
  readonly draw?: (map: Mapper) => void;
  readonly routes?: RouteSet;
}

/** Rails' default routes, as `config/routes.rb` ended in 2.1. */
export function defaultRoutes(map: Mapper): void {
  map.connect(':controller/:action/:id.:format');
  map.connect(':controller/:action/:id');
  map.connect(':controller/:action');
}

/** An app in the test environment (quiet, forgery protection off unless configured) over `controllers`. */
export function appWith(controllers: Record<string, ControllerClass>, options: AppOptions = {}): App {
  const { draw: block, routes, ...rest } = options;
  // Longest names first, so `admin/posts` is tried before `admin`.
  const names = Object.keys(controllers).sort((a, b) => b.length - a.length);
  return createApp({
    routes: routes ?? draw(block ?? defaultRoutes, { controllers: names }),
    controllers,
    environment: 'test',
    logger: false,
    ...rest,
  });
}

export interface Reply {
  readonly status: number;
  readonly reason: string | undefined;
  readonly headers: Record<string, string | string[]>;
  /** The body as UTF-8 text. */
  readonly body: string;
  readonly message: ResponseMessage;
  /** A header by any case; repeated values joined with `, `. */
  header(name: string): string | undefined;
}

export interface CallOptions {
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Uint8Array;
  readonly remoteAddress?: string;
  readonly encrypted?: boolean;
}

/** Reads a header of a response message by any case. */
export function headerOf(message: Pick<ResponseMessage, 'headers'>, name: string): string | undefined {
  const key = Object.keys(message.headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : message.headers[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function reply(message: ResponseMessage): Reply {
  return {
    status: message.status,
    reason: message.reason,
    headers: message.headers,
    body: typeof message.body === 'string' ? message.body : Buffer.from(message.body).toString('utf8'),
    message,
    header: (name) => headerOf(message, name),
  };
}

/** The message for `'<METHOD> <target>'`, with Host `test.host` unless the headers name one. */
export function messageFor(line: string, options: CallOptions = {}): RequestMessage {
  const space = line.indexOf(' ');
  const headers: Record<string, string | string[]> = { ...(options.headers ?? {}) };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'host')) headers.host = 'test.host';
  return {
    method: line.slice(0, space),
    url: line.slice(space + 1),
    headers,
    body: options.body ?? null,
    remoteAddress: options.remoteAddress ?? '10.0.0.1',
    ...(options.encrypted !== undefined ? { encrypted: options.encrypted } : {}),
  };
}

/** Sends `'<METHOD> <target>'` through `app.handle`. Remote (10.0.0.1) unless told otherwise. */
export async function call(app: App, line: string, options: CallOptions = {}): Promise<Reply> {
  return reply(await app.handle(messageFor(line, options)));
}

/** A url-encoded form body with its Content-Type. */
export function form(fields: Record<string, string>): CallOptions {
  return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}

/** A fresh directory under the OS temp dir, and a function that removes it. */
export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `signalbox-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
