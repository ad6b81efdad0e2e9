/**
 * The name both ends of the tunnel use for its batching protocol, in a
 * module of its own so that the client (which runs in browsers) and the
 * server (which uses Node's Buffer) can share it without sharing anything else.
 * `transport/README.md` documents the protocol.
 */

/**
 * The WebSocket subprotocol a client offers to batch: it may then send a
 * JSON array of request frames in one text frame, and it gets its answers as
 * binary frames of records, several to a frame. A client that does not offer
 * it gets JSON text frames, one request or answer each.
 */
export const TUNNEL_PROTOCOL = 'signalbox-tunnel.2';
