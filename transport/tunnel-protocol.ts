/**
 * What both ends of the tunnel must agree on (the batching protocol's name,
 * and what a frame's `cookies` may carry), in a module of its own so that the
 * client (which runs in browsers) and the server (which uses Node's Buffer)
 * can share it without sharing anything else. `transport/README.md` documents
 * the protocol.
 */

/**
 * The WebSocket subprotocol a client offers to batch: it may then send a
 * JSON array of request frames in one text frame, and it gets its answers as
 * binary frames of records, several to a frame. A client that does not offer
 * it gets JSON text frames, one request or answer each.
 */
export const TUNNEL_PROTOCOL = 'signalbox-tunnel.2';

/** A cookie name a frame's `cookies` may carry: an HTTP token. */
export const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A cookie value a frame's `cookies` may carry (RFC 6265's cookie-value): nothing that would split a Cookie header. */
export const COOKIE_VALUE = /^(?:[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*|"[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*")$/;

/**
 * The reason a draining server closes a socket with, once it has answered every request it read: a
 * request still unanswered when a socket closes with this reason never reached the app, so the client
 * may send it again on its next socket, whatever its method.
 */
export const DRAINED_REASON = 'server shutting down';

/** The reason a server closes a socket that had no request for its idle timeout with, on the same terms. */
export const IDLE_REASON = 'idle';

/** Whether a socket closed with `reason` was closed by a server that had answered every request it read. */
export function answeredAllItRead(reason: string): boolean {
  return reason === DRAINED_REASON || reason === IDLE_REASON;
}
