/**
 * Upgrade requests that no WebSocket endpoint takes and that do not ask
 * for a WebSocket (`curl --http2` asks for `h2c` on every request, say) are
 * still ordinary HTTP/1.1 requests, and a server may ignore Upgrade
 * (RFC 9110 §7.8). Once a server has an 'upgrade' listener, Node hands
 * every such request to it with the socket already taken off its HTTP
 * parser; this module answers them as plain requests, through the same
 * request listener as any other, on a connection that closes afterwards.
 * Internal to the HTTP transport.
 */
import type { IncomingMessage, ServerResponse as NodeResponse } from 'node:http';
import { ServerResponse } from './node-http.ts';
import type { Socket } from 'node:net';
import { Readable, type Duplex } from 'node:stream';
import { abortHandshake } from './upgrade.ts';

/**
 * Answers `req` with `listener` as if Upgrade were absent. Node has ended the request's own stream
 * and no longer parses the socket, so the body reaches the listener as a stream of its own: `head`
 * and then the socket's data, up to Content-Length. A chunked body would need the parser back, so
 * it is refused with 411 Length Required.
 */
export function answerWithoutUpgrade(
  req: IncomingMessage, socket: Duplex, head: Buffer,
  listener: (req: IncomingMessage, res: NodeResponse, body: Readable) => void, timeoutMs: number,
): void {
  if (req.headers['transfer-encoding'] !== undefined) {
    abortHandshake(socket, 411, 'A request that asks to upgrade must give its body a Content-Length');
    return;
  }
  // An HTTP server's connections are TCP (or TLS) sockets; the upgrade event types them as any duplex.
  const conn = socket as Socket;
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  try {
    res.assignSocket(conn);
  } catch {
    // Still owned by an earlier response on this connection (a pipelined request): nothing sane to write.
    socket.destroy();
    return;
  }
  // Off the parser, the server's request timeouts no longer apply; a client that goes quiet loses the connection.
  conn.setTimeout(timeoutMs, () => conn.destroy());
  const body = new Readable({ read: () => socket.resume() });
  let left = Number(req.headers['content-length'] ?? 0);
  const feed = (chunk: Buffer): void => {
    const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
    left -= part.length;
    // Past the highWaterMark, stop reading the socket until the body is read (`read` resumes it).
    if (part.length > 0 && !body.push(part)) socket.pause();
    if (left === 0) {
      socket.off('data', feed);
      body.push(null);
    }
  };
  res.on('finish', () => {
    socket.off('data', feed);
    res.detachSocket(conn);
    socket.end();
  });
  // The client went away before its body was complete: reported as Node reports it for a parsed
  // request, and the socket (half-open, as an HTTP server's sockets are) closed.
  const abandoned = (): void => {
    if (left === 0) return;
    left = 0;
    socket.off('data', feed);
    body.emit('aborted');
    conn.destroy();
  };
  socket.once('end', abandoned);
  socket.once('close', abandoned);
  if (left === 0) body.push(null);
  else {
    feed(head);
    if (left > 0) socket.on('data', feed);
  }
  listener(req, res, body);
}
