/**
 * The values the transports take from node:http, read with `require`. An
 * ES import of a built-in module reads every one of its exports to build the
 * module's namespace. On Node 22 and 24, node:http's exports include lazy
 * getters (`WebSocket`, `MessageEvent`, `CloseEvent`) that load Node's
 * bundled undici, which is 0.8 MB of source and several MB of a server's
 * memory at start, for classes a server never uses. Reading just these
 * values leaves those getters alone (`tests/transport/optional-loads.test.ts`).
 * Types still come from `import type`, which loads nothing.
 */
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const createServer = http.createServer;
export const ServerResponse = http.ServerResponse;
export const METHODS: readonly string[] = http.METHODS;
export const STATUS_CODES: Readonly<Record<number, string | undefined>> = http.STATUS_CODES;
