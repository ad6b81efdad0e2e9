/** What the transport suites share: a server for the length of a test, and a controller behind HTTP Basic. */
import { request as httpRequest } from 'node:http';
import { Controller, secureCompare } from '../../core/index.ts';
import type { App } from '../../machines/index.ts';
import { serve, type RunningServer, type ServeOptions } from '../../transport/index.ts';

/** Serves `app` on a free port of 127.0.0.1 while `body` runs, then closes it. */
export async function withServer(app: App, options: ServeOptions, body: (server: RunningServer) => Promise<void>): Promise<void> {
  const server = await serve(app, { port: 0, host: '127.0.0.1', ...options });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** `admin` / `secret` over HTTP Basic, else 401. */
export class AdminController extends Controller {
  static {
    this.before_filter('sign_in');
  }
  sign_in() {
    return this.authenticate_or_request_with_http_basic('Admin', (user, password) => secureCompare(user, 'admin') && secureCompare(password, 'secret'));
  }
  index(): void {
    this.render({ text: 'admin area' });
  }
}

/** An upgrade handshake with exactly these headers: the status it gets (101 when accepted), and the body of a refusal. */
export function upgradeRequest(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1', port: server.port, path, agent: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', ...headers },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
