/**
 * What node:http's parser lets through in a request head but this server
 * refuses before anything reads it: more header lines than the server takes
 * (431), and more than one Host line (400). Node keeps the first Host and
 * drops the rest, so a proxy in front that keeps the last would route the
 * request to one site while the app answers it as another; RFC 9112 §3.2
 * makes a server refuse such a request. Shared by plain requests and
 * upgrade handshakes so both roads refuse the same heads.
 */

/** Why a head is refused, as a status and a reason, or null. `rawHeaders` is node's flat name/value list. */
export function headRefusal(rawHeaders: readonly string[], maxHeaders: number): readonly [number, string] | null {
  if (rawHeaders.length / 2 > maxHeaders) return TOO_MANY;
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    // Length first: most names are not four characters long, and this runs for every request off the fast lane.
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return MANY_HOSTS;
  }
  return null;
}

const TOO_MANY = [431, 'Too many request headers'] as const;
const MANY_HOSTS = [400, 'A request names its host once (more than one Host header)'] as const;
