// An application written against the installed package, type-checked by the consumer's own strict
// tsc (tests/package/packed.test.ts). It touches every entry, so each one's declarations are read.
import {
  Controller, createApp, draw, html, memoryViews, RecordNotFound, RoutingError, serve,
  type App, type CreateAppOptions, type RouteSet, type RunningServer, type ServeOptions,
} from 'signalbox';
import { memoryStore, MethodNotAllowed, type RequestMessage, type ResponseMessage } from 'signalbox/core';
import { compileMachine, requestMachine, type Engine } from 'signalbox/machines';
import { attachTunnel, type TunnelOptions } from 'signalbox/transport';
import { tunnel, TunnelError, type Tunnel, type TunnelResponse } from 'signalbox/tunnel-client';

export const routes: RouteSet = draw((map) => {
  map.resources('posts', { only: ['index', 'show'] });
  map.root({ controller: 'posts' });
});

class PostsController extends Controller {
  index(): void {
    this.render({ json: { posts: [{ id: 1, title: 'Hello' }] } });
  }
  show(): void {
    if (this.params.id === '0') throw new RecordNotFound('There is no post 0');
    this.render({ locals: { id: String(this.params.id) } });
  }
}

const views = memoryViews({ 'posts/show.html': (view: { id: string }) => html`<h1>Post ${view.id}</h1>` });
const engine: Engine = 'compiled';
const options: CreateAppOptions = { routes, controllers: { posts: PostsController }, views, engine, cache_store: memoryStore(), logger: false };
export const app: App = createApp(options);

export async function answer(message: RequestMessage): Promise<ResponseMessage> {
  return app.handle(message);
}

export async function start(port: number): Promise<{ server: RunningServer; client: Tunnel }> {
  const tunnelOptions: TunnelOptions = {};
  const serveOptions: ServeOptions = { port, host: '127.0.0.1', tunnel: tunnelOptions };
  const server = await serve(app, serveOptions);
  const client = await tunnel(`${server.url.replace('http', 'ws')}/_tunnel`);
  return { server, client };
}

export async function firstTitle(client: Tunnel): Promise<string> {
  try {
    const res: TunnelResponse = await client.request({ path: '/posts.json' });
    const body = (await res.json()) as { posts: { title: string }[] };
    return body.posts[0]?.title ?? '';
  } catch (error) {
    if (error instanceof TunnelError) return error.code;
    throw error;
  }
}

export const errors = [new RoutingError('No route matches "/x"'), new MethodNotAllowed(['GET'])];
export const machine = compileMachine(requestMachine);
export { attachTunnel };
