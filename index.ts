/**
 * Signalbox for an application: everything `import … from 'signalbox'` needs to draw routes, write
 * controllers and views, build the app and serve it. The core (routing, the request layer,
 * controllers, errors and their types) as a whole, plus `createApp` from the machines and `serve`
 * from the transports, with the types of their options. The narrower entries stay available:
 * `signalbox/core`, `signalbox/machines`, `signalbox/transport`, `signalbox/tunnel-client`.
 */
export * from './core/index.ts';
// From the app's own module, not machines/index.ts: that one exports the XState machine itself, whose
// declarations would then load XState's (see machines/compiled-machine.ts).
export { createApp, type App, type CreateAppOptions, type Engine } from './machines/app.ts';
export { serve, webConcurrency, type AppSource, type ClusterOptions, type ServeOptions, type RunningServer, type RunningCluster, type TunnelOptions, type InspectOptions } from './transport/index.ts';
