/** Transports: HTTP now; every transport goes through `app.handle`. */
export { serve, type ServeOptions, type RunningServer } from './http.ts';
export { serveStatic, publicIndex, PublicIndex } from './static.ts';
