/**
 * Who may reach the inspector. Its page and its trace channel answer only
 * requests whose Host is an IP address, `localhost` (or a `*.localhost`
 * name), or a name in `config.hosts`: a page on another site that rebinds
 * its own domain name to this server's address (DNS rebinding) sends its
 * own name as Host, and is refused. The trace channel also refuses
 * WebSocket handshakes from another origin (a page elsewhere opening it in
 * the developer's browser). Internal to the inspector.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { normaliseHeaders } from '../../core/http/message.ts';
import { host as hostOf } from '../../core/request/env.ts';
import { hostAllowed } from '../../core/pipeline/parse.ts';
import type { App } from '../../machines/app.ts';
import { encryptedSocket, normalOrigin, ownOrigin } from '../upgrade.ts';

/** Whether the request's Host may see the inspector. */
export function inspectorHostAllowed(req: IncomingMessage, app: App): boolean {
  const env = { headers: normaliseHeaders(req.headers), ssl: encryptedSocket(req), trust_proxy: app.config.trust_proxy };
  const name = hostOf(env).toLowerCase().replace(/\.$/, '');
  if (name === '') return false;
  const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  if (isIP(bare) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return app.config.hosts.length > 0 && hostAllowed(app.config.hosts, name);
}

/** Whether a WebSocket handshake comes from the inspector's own origin (or from something that is not a browser). */
export function inspectorOriginAllowed(req: IncomingMessage, app: App): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const given = normalOrigin(origin);
  return given !== null && given === ownOrigin(req, app);
}
