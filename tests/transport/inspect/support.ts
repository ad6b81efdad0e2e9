/**
 * What the inspector suites share besides tests/support/harness.ts: an app
 * whose routes also claim the inspector's paths (so "the app answered" is
 * visible), and a WebSocket viewer of the trace channel that collects its
 * frames. Not a test file itself.
 */
import { WebSocket, type ClientOptions } from 'ws';
import { Controller } from '../../../core/index.ts';
import type { App, Engine } from '../../../machines/index.ts';
import type { RunningServer, WireTraceEvent } from '../../../transport/index.ts';
import { appWith, defaultRoutes, type AppOptions } from '../../support/harness.ts';

export class EchoController extends Controller {
  /** `wait` answers once this settles: a request held in flight. */
  static gate: Promise<void> = Promise.resolve();
  show(): void {
    this.render({ text: `the app: ${this.request.path}` });
  }
  async wait(): Promise<void> {
    await EchoController.gate;
    this.render({ text: 'waited' });
  }
}

/** An app that answers `/__inspect` and `/__inspect/<anything>` itself: what those paths reach when the inspector is off. */
export function inspectedApp(options: AppOptions & { engine?: Engine } = {}): App {
  return appWith({ echo: EchoController }, {
    draw: (map) => {
      map.connect('__inspect', { controller: 'echo', action: 'show' });
      map.connect('__inspect/*rest', { controller: 'echo', action: 'show' });
      map.connect('__inspection', { controller: 'echo', action: 'show' });
      defaultRoutes(map);
    },
    ...options,
  });
}

type Frame = { type: 'hello'; protocol: number; engine: string; machines: string[]; recent: WireTraceEvent[] }
  | { type: 'events'; events: WireTraceEvent[] }
  | { type: 'dropped'; events: number };

/** A page's connection to the trace channel, reduced to the frames it receives. */
export class Viewer {
  readonly frames: Frame[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<number>;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer) => this.frames.push(JSON.parse(data.toString('utf8')) as Frame));
    this.closed = new Promise((resolve) => ws.on('close', (code: number) => resolve(code)));
  }

  static open(server: RunningServer, path = '/__inspect/trace', options: ClientOptions = {}): Promise<Viewer> {
    const viewer = new Viewer(new WebSocket(`ws://127.0.0.1:${server.port}${path}`, options));
    return new Promise((resolve, reject) => {
      viewer.ws.once('error', reject);
      // Open, and greeted: the server subscribes to the app's traces before it says hello.
      viewer.until(() => viewer.frames.length > 0).then(() => resolve(viewer), reject);
    });
  }

  /** Every trace event received so far, hello's recent ones first. */
  get events(): WireTraceEvent[] {
    return this.frames.flatMap((f) => (f.type === 'hello' ? f.recent : f.type === 'events' ? f.events : []));
  }

  get hello(): Extract<Frame, { type: 'hello' }> {
    return this.frames[0] as Extract<Frame, { type: 'hello' }>;
  }

  /** The events of each request received, by request id, in arrival order. */
  requests(): Map<string, WireTraceEvent[]> {
    const out = new Map<string, WireTraceEvent[]>();
    for (const e of this.events) out.set(e.id, [...(out.get(e.id) ?? []), e]);
    return out;
  }

  async until(done: () => boolean, timeout = 3000): Promise<void> {
    const deadline = Date.now() + timeout;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`not done within ${timeout} ms; got ${JSON.stringify(this.frames).slice(0, 600)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Waits for `n` finished requests (a `done` event each). */
  async done(n: number): Promise<WireTraceEvent[][]> {
    await this.until(() => this.events.filter((e) => e.kind === 'done').length >= n);
    return [...this.requests().values()].filter((events) => events.some((e) => e.kind === 'done'));
  }

  close(): Promise<number> {
    this.ws.close(1000);
    return this.closed;
  }
}
