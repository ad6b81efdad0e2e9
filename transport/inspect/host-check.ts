/**
 * Who may reach the inspector. Its page and its trace channel answer only
 * requests whose Host is an IP address, `localhost` (or a `*.localhost`
 * name), or a name in `config.hosts`: a page on another site that rebinds
 * its own domain name to this server's address (DNS rebinding) sends its
 * own name as Host, and is refused. (The trace channel also refuses
 * WebSocket handshakes from another origin: `originAllowed`, upgrade.ts.)
 * Internal to the inspector.
 */
import { isIP } from 'node:net';
import { host as hostOf, type RequestEnv } from '../../core/request/env.ts';
import { hostAllowed } from '../../core/request/env.ts';
import type { App } from '../../machines/app.ts';

/** Whether the request's Host may see the inspector. */
export function inspectorHostAllowed(env: RequestEnv, app: App): boolean {
  const name = hostOf(env).toLowerCase().replace(/\.$/, '');
  if (name === '') return false;
  const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  if (isIP(bare) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return app.config.hosts.length > 0 && hostAllowed(app.config.hosts, name);
}
