/** Transports: HTTP and the WebSocket request tunnel; every transport goes through `app.handle`. */
export { serve, type AppSource, type ClusterOptions, type ServeOptions, type RunningServer } from './http.ts';
export { webConcurrency, type RunningCluster } from './workers.ts';
export { attachTunnel, createTunnel, TUNNEL_DEFAULTS, type TunnelOptions, type TunnelServer } from './tunnel.ts';
export { TUNNEL_ERROR_STATUS, type FrameId, type RequestFrame, type ResponseFrame, type ErrorFrame, type TunnelErrorCode } from './tunnel-frames.ts';
export { tunnel, TunnelError, type Tunnel, type TunnelClientOptions, type TunnelRequestInit, type TunnelResponse } from './tunnel-client.ts';
export { createInspector, inspectSettings, sanitiseTraceEvent, sanitisePath, INSPECT_DEFAULT_PATH, TRACE_PROTOCOL, type Inspector, type InspectOptions, type WireTraceEvent } from './inspect/index.ts';
