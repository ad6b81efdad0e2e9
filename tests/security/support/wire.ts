/**
 * Requests written byte for byte to a fresh TCP connection, and the
 * response read back: an HTTP client would normalise exactly the things the
 * corpus attacks (header order, duplicates, control characters, targets).
 */
import net from 'node:net';

export interface WireResponse {
  /** 0 when the server closed without answering. */
  readonly status: number;
  readonly headers: Record<string, string[]>;
  readonly body: Buffer;
  /** Everything the server sent, for checks on the raw bytes. */
  readonly raw: Buffer;
  /** Whether the server closed the connection (rather than this client). */
  readonly closed_by_server: boolean;
}

export interface WireRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: readonly [string, string][];
  readonly body?: Buffer;
}

/** The bytes of a request: `Host` added when absent, `Content-Length` when there is a body and no framing header. */
export function requestBytes(req: WireRequest, host: string): Buffer {
  const names = new Set(req.headers.map(([n]) => n.toLowerCase()));
  const lines = [`${req.method} ${req.target} HTTP/1.1`];
  if (!names.has('host')) lines.push(`Host: ${host}`);
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  const body = req.body ?? Buffer.alloc(0);
  if (body.length > 0 && !names.has('content-length') && !names.has('transfer-encoding')) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

export interface Head {
  readonly status: number;
  readonly headers: Record<string, string[]>;
}

/** Where a complete response ends in `data`, or -1 while it is incomplete. A response to HEAD has no body, whatever it declares. */
export function responseEnd(data: Buffer, head: Head | null, headEnd: number, closed: boolean, toHead: boolean): number {
  if (head === null) return -1;
  if (toHead || head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) return headEnd;
  const length = head.headers['content-length']?.[0];
  if (length !== undefined) return data.length >= headEnd + Number(length) ? headEnd + Number(length) : -1;
  if (head.headers['transfer-encoding']?.[0]?.toLowerCase().includes('chunked')) {
    const end = data.indexOf('\r\n0\r\n\r\n', headEnd - 2);
    return end < 0 ? -1 : end + 7;
  }
  return closed ? data.length : -1;
}

/** The head of the response at the start of `data` and where it ends, or null while it is incomplete. */
export function readHead(data: Buffer): { readonly head: Head; readonly end: number } | null {
  const at = data.indexOf('\r\n\r\n');
  return at < 0 ? null : { head: parseHead(data.subarray(0, at).toString('latin1')), end: at + 4 };
}

function parseHead(text: string): Head {
  const [statusLine, ...lines] = text.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  return { status, headers };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  while (pos < body.length) {
    const lineEnd = body.indexOf('\r\n', pos);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(pos, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    pos = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export interface SendOptions {
  /** Give up waiting (and report what arrived) after this many ms. */
  readonly timeoutMs?: number;
  /**
   * Bytes written after the request, every `every_ms`, until the server closes (a slow client).
   * A slow client waits for the close, not for an answer: an answer to an earlier request on the connection does not end it.
   */
  readonly drip?: { readonly bytes: string; readonly every_ms: number };
  /** A second request written on the same connection once the first is answered; its answer is `next`. */
  readonly then?: Buffer;
}

/** Whether a request's bytes ask with HEAD (its answer then has no body). */
const asksHead = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === 'HEAD ';

/**
 * Writes `bytes` to a new connection and reads one response (and only one: later bytes stay unread).
 * Interim answers (`100 Continue`) are skipped and listed in `interim`; `options.then` is a second
 * request on the same connection, whose answer is `next` (absent when the server closed first).
 */
export function send(port: number, bytes: Buffer, options: SendOptions = {}): Promise<WireResponse & { interim: number[]; next?: WireResponse }> {
  return new Promise((resolveSend) => {
    const socket = net.connect(port, '127.0.0.1');
    let data: Buffer = Buffer.alloc(0);
    let head: Head | null = null;
    let headEnd = -1;
    let settled = false;
    let closedByServer = false;
    let drip: NodeJS.Timeout | null = null;
    const interim: number[] = [];
    let first: WireResponse | null = null;
    let toHead = asksHead(bytes);
    /** The response at the start of `data`, cut out of it. */
    const take = (closed: boolean): WireResponse | null => {
      if (head === null) return null;
      const end = Math.max(headEnd, responseEnd(data, head, headEnd, closed, toHead));
      let body = data.subarray(headEnd, end);
      if (!toHead && head.headers['transfer-encoding']?.[0]?.toLowerCase().includes('chunked')) body = dechunk(body);
      const response = { status: head.status, headers: head.headers, body, raw: data.subarray(0, end), closed_by_server: closedByServer };
      data = data.subarray(end);
      head = null;
      return response;
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      if (drip) clearInterval(drip);
      clearTimeout(timer);
      const last = take(true);
      socket.destroy();
      const empty = { status: 0, headers: {}, body: Buffer.alloc(0), raw: data, closed_by_server: closedByServer };
      const main = first ?? last ?? empty;
      const next = first !== null ? last ?? undefined : undefined;
      resolveSend({ ...main, closed_by_server: closedByServer, interim, ...(next ? { next } : {}) });
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 10_000);
    const nextHead = () => {
      if (head !== null) return;
      const read = readHead(data);
      if (read === null) return;
      head = read.head;
      headEnd = read.end;
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      for (;;) {
        nextHead();
        const current: Head | null = head;
        if (current === null || responseEnd(data, current, headEnd, false, toHead) < 0) return;
        // 1xx but 101 are interim: the real answer follows on the same connection.
        if (current.status >= 100 && current.status < 200 && current.status !== 101) {
          interim.push(current.status);
          take(false);
          continue;
        }
        if (options.drip) {
          // A slow client keeps dripping whatever it was answered: only the server's close ends it.
          take(false);
          continue;
        }
        if (options.then && first === null) {
          first = take(false);
          toHead = asksHead(options.then);
          socket.write(options.then);
          continue;
        }
        finish();
        return;
      }
    });
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('close', () => {
      closedByServer ||= !settled;
      finish();
    });
    // A server that answers early (413) may reset while the body is still being written.
    socket.on('error', () => finish());
    socket.write(bytes, () => {
      if (options.drip && !settled) {
        drip = setInterval(() => socket.write(options.drip!.bytes), options.drip.every_ms);
      }
    });
  });
}

/** A plain GET on a fresh connection: the "server still answers" probe. */
export async function probe(port: number, path = '/'): Promise<number> {
  return (await send(port, requestBytes({ method: 'GET', target: path, headers: [['Connection', 'close']] }, `127.0.0.1:${port}`), { timeoutMs: 5000 })).status;
}
