// Options as an application fills them from its environment, where any of them may be missing: under
// exactOptionalPropertyTypes each must still compile, an option given as undefined meaning its default
// (tests/package/packed.test.ts type-checks this file and runs it with plain node).
import { Controller, createApp, draw, fileStore, memoryStore, redisCacheStore, redisSessionStore, serve, type CreateAppOptions } from 'signalbox';
import { RoutingError } from 'signalbox/core';
import { attachTunnel, type TunnelOptions } from 'signalbox/transport';
import { tunnel } from 'signalbox/tunnel-client';

const env = (name: string): string | undefined => process.env[name];
const number = (name: string): number | undefined => (env(name) === undefined ? undefined : Number(env(name)));

class PostsController extends Controller {
  index(): void {
    const ids: string[] = ['1'];
    const first: string | undefined = ids[0];
    this.render({ json: { first: first ?? null } });
  }
}

const routes = draw((map) => {
  map.resources('posts', { only: ['index'] });
});

const options: CreateAppOptions = {
  routes,
  controllers: { posts: PostsController },
  root: env('APP_ROOT'),
  views: env('APP_VIEWS'),
  publicDir: env('APP_PUBLIC'),
  logger: false,
  environment: undefined,
  session: { key: env('SESSION_KEY'), secret: env('SESSION_SECRET') ?? 'a development secret of thirty characters or more', secure: undefined },
  config: { hosts: undefined, perform_caching: undefined, forgeryExemptTypes: undefined, limits: undefined },
  cache_store: env('REDIS_URL') === undefined ? memoryStore({ maxEntries: number('CACHE_ENTRIES'), maxBytes: undefined }) : redisCacheStore({ url: env('REDIS_URL'), namespace: undefined }),
  session_store: env('REDIS_URL') === undefined ? undefined : redisSessionStore({ url: env('REDIS_URL'), ttl: number('SESSION_TTL') }),
};
void fileStore;
const tunnelOptions: TunnelOptions = { maxInFlight: number('TUNNEL_IN_FLIGHT'), origins: undefined };
const app = createApp(options);
const server = await serve(app, { port: number('PORT') ?? 0, host: env('HOST') ?? '127.0.0.1', maxBodyBytes: number('MAX_BODY'), tunnel: tunnelOptions, inspect: undefined });
const client = await tunnel(`${server.url.replace('http', 'ws')}/_tunnel`, { origin: env('ORIGIN'), reconnect: { retries: number('RETRIES') }, timeoutMs: undefined });
const viaTunnel = await client.request({ path: '/posts', headers: { accept: 'application/json' }, body: undefined });
const viaHttp = await fetch(`${server.url}/posts.json`);
client.close();
await server.close();
console.log(JSON.stringify({ tunnel: viaTunnel.status, http: viaHttp.status, body: await viaHttp.json(), routingError: new RoutingError('x').code, attachTunnel: typeof attachTunnel }));
