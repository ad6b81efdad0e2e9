/**
 * The inspector: a page that draws every exported machine and follows
 * requests through them live, served by `serve()` at `/__inspect` when
 * `serve(app, { inspect: true })`, and by default in the development
 * environment only. When it is off its path is an ordinary request to the
 * app. The page is `page-route.ts`, the live traces `trace-channel.ts`,
 * what traces may carry `sanitise.ts`, who may see it `host-check.ts`.
 *
 * @example
 *   const server = await serve(app, { inspect: true });
 *   // open `${server.url}/__inspect`
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../../machines/app.ts';
import { EXPORTED_MACHINES } from '../../machines/registry.ts';
import { pathOf, requestEnv, type UpgradeHandler } from '../upgrade.ts';
import { inspectorHostAllowed } from './host-check.ts';
import type { InspectSettings } from './options.ts';
import { PageRoute } from './page-route.ts';
import { TraceChannel } from './trace-channel.ts';

export { inspectSettings, INSPECT_DEFAULT_PATH, type InspectOptions, type InspectSettings } from './options.ts';
export { sanitiseTraceEvent, sanitisePath, FILTERED, type WireTraceEvent } from './sanitise.ts';
export { TRACE_PROTOCOL } from './trace-channel.ts';

export interface Inspector {
  /** The page's path (`/__inspect`). */
  readonly path: string;
  /** The trace channel's WebSocket path (`/__inspect/trace`). */
  readonly tracePath: string;
  /** Pages connected to the trace channel now. */
  readonly viewers: number;
  /** Whether the app is being traced (exactly while a page is connected). */
  readonly tracing: boolean;
  /** Whether a request path (no query) is the inspector page's. */
  owns(path: string): boolean;
  /** Answers `req` when its path is the inspector's and returns true; else returns false and leaves it alone. */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** Takes an upgrade request for the trace channel. */
  readonly handleUpgrade: UpgradeHandler;
  /** Closes the pages' trace sockets (1001 by default). */
  close(code?: number): Promise<void>;
}

export function createInspector(app: App, settings: InspectSettings): Inspector {
  const page = new PageRoute(settings);
  const channel = new TraceChannel(app, { path: settings.tracePath, machines: EXPORTED_MACHINES.map((m) => m.id) });
  return {
    path: settings.path,
    tracePath: settings.tracePath,
    get viewers() {
      return channel.viewers;
    },
    get tracing() {
      return channel.listening;
    },
    owns: (path) => page.owns(path),
    handleRequest(req, res) {
      const path = pathOf(req.url);
      if (!page.owns(path)) return false;
      try {
        if (!inspectorHostAllowed(requestEnv(req, app), app)) page.refuseHost(res);
        else page.serve(req, res, path);
      } catch (error) {
        // A missing page file must cost this answer, not the server.
        app.log.error({ err: error, transport: 'inspect' }, 'inspector page failed');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal Server Error');
      }
      return true;
    },
    handleUpgrade: channel.handleUpgrade,
    close: (code) => channel.close(code),
  };
}
