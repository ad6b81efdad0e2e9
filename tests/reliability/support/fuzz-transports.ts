/**
 * Whole requests for fuzzing the transports: random raw HTTP requests
 * (method, target, headers, framing and body drawn from what HTTP parsers
 * and the app's parsers care about) written to a fresh TCP connection, and
 * random tunnel frames sent over one WebSocket. Each is judged by what the
 * client sees: an answer below 500 (or a clean close) within the hang limit.
 * Shared by the property tests and `npm run fuzz`. Not a test file itself.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import WebSocket from 'ws';

/** An answer (or a parser's verdict) slower than this is counted as slow. */
export const SLOW_MS = 2_000;

/**
 * The timeouts the fuzzed server runs with. A request that gets neither an answer nor a close
 * within `HANG_MS` (the request timeout, plus the second Node may take to notice it, plus a
 * margin) is a real hang: the server broke its own promise. One that is merely slow (a 2 s stall
 * of a shared machine, during which 32 connections in flight all wait) is not: an earlier run of
 * `npm run fuzz` counted such stalls as hangs, and every one of them was answered at once when
 * sent again alone.
 */
export const FUZZ_SERVER_TIMEOUTS = { headersTimeoutMs: 3_000, requestTimeoutMs: 5_000 } as const;
export const HANG_MS = FUZZ_SERVER_TIMEOUTS.requestTimeoutMs + 2_000;

const token = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'FROB', 'get', 'G\tET');
const target = fc.oneof(
  fc.constantFrom('/', '/posts', '/posts/1', '/posts/1.json', '/posts/1/comments', '/admin', '/posts?x[]=1&x[a]=2', '*', '/%zz', '/..%2f..%2fetc/passwd', '//x', 'http://evil/', '/posts/new?__proto__[x]=1'),
  fc.stringMatching(/^\/[!-~]{0,40}$/),
);
const headerLine = fc.oneof(
  fc.constantFrom(
    'Content-Type: application/json', 'Content-Type: application/xml', 'Content-Type: application/x-www-form-urlencoded',
    'Content-Type: multipart/form-data; boundary=AaB03x', 'Accept: application/json', 'Accept: */*;q=0', 'Cookie: _blog_session=x; a=%zz',
    'Authorization: Basic YWRtaW46YWRtaW4=', 'Authorization: Basic !!!', 'X-HTTP-Method-Override: DELETE', 'Transfer-Encoding: chunked',
    'Content-Length: 5', 'Content-Length: -1', 'Expect: 100-continue', 'Connection: close', 'Upgrade: websocket', 'Host: evil.example',
  ),
  fc.tuple(fc.stringMatching(/^[A-Za-z-]{1,12}$/), fc.string({ maxLength: 40 })).map(([n, v]) => `${n}: ${v}`),
);
const body = fc.oneof(
  fc.constant(''),
  fc.constantFrom('{"post":{"title":"x"}}', '<post><title>x</title></post>', 'post[title]=x&a[]=1&a[b]=2', '--AaB03x\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\nabc', '5;ext\r\nhello\r\n0\r\n\r\n', '[[[[[[[[[['),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** A raw HTTP/1.1 request, sometimes well framed, sometimes not. */
export const rawRequest: fc.Arbitrary<string> = fc.tuple(token, target, fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', ''), fc.array(headerLine, { maxLength: 6 }), body, fc.boolean())
  .map(([method, path, version, headers, text, frame]) => {
    const lines = [`${method} ${path}${version === '' ? '' : ` ${version}`}`, 'Host: 127.0.0.1', ...headers];
    if (frame && text !== '' && !headers.some((h) => /^(content-length|transfer-encoding):/i.test(h))) lines.push(`Content-Length: ${Buffer.byteLength(text, 'latin1')}`);
    return `${lines.join('\r\n')}\r\n\r\n${text}`;
  });

export interface WireOutcome {
  /** The first status, or 0 when the server closed without one. */
  readonly status: number;
  readonly ms: number;
  /** Neither an answer nor a close within `HANG_MS`. */
  readonly hang: boolean;
}

/**
 * Writes `bytes` on a new connection and reads the first status line. A request that is still incomplete
 * (a body shorter than it said) is ended after a moment, as a client that has sent all it will; ending at
 * once would make the server drop requests it has not answered yet. The clock starts once the connection is
 * established, so a slow connect on a busy machine is not charged to the request.
 */
export function sendRaw(port: number, bytes: string, limitMs = HANG_MS): Promise<WireOutcome> {
  return new Promise((resolve) => {
    let started = performance.now();
    let ending: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      started = performance.now();
      ending = setTimeout(() => socket.end(), 200);
      timer = setTimeout(() => finish(true), limitMs);
      socket.write(Buffer.from(bytes, 'latin1'));
    });
    let data = '';
    let done = false;
    const finish = (hang: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(connecting);
      clearTimeout(timer);
      clearTimeout(ending);
      // A reset rather than a FIN: no TIME_WAIT left behind per request, so a long run does not run out of ports.
      socket.resetAndDestroy();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, ms: performance.now() - started, hang });
    };
    // A connection never accepted at all is a hang too.
    const connecting = setTimeout(() => finish(true), limitMs);
    socket.once('connect', () => clearTimeout(connecting));
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      if (/\r\n/.test(data)) finish(false);
    });
    socket.on('close', () => finish(false));
    socket.on('error', () => finish(false));
  });
}

/** A tunnel frame as text: mostly well-formed requests with odd fields, sometimes not JSON at all. */
export const tunnelFrame: fc.Arbitrary<(id: number) => string> = fc.oneof(
  { weight: 4, arbitrary: fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'get', 'G ET'),
    path: target,
    headers: fc.dictionary(fc.constantFrom('content-type', 'accept', 'cookie', 'authorization', 'host', '__proto__', 'x-a'), fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }))),
    body: fc.oneof(fc.constant(undefined), body),
  }).map((frame) => (id: number) => JSON.stringify({ id, ...frame })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }).map((text) => (id: number) => `{"id":${id},${text}`) },
);

/** One WebSocket to the tunnel that sends frames and waits for the answer to each id. */
export class TunnelProbe {
  readonly #ws: WebSocket;
  readonly #waiting = new Map<number, (answer: { status: number }) => void>();
  #next = 0;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data) => {
      const answer = JSON.parse(String(data)) as { id?: unknown; status?: number; error?: { status: number } };
      const settle = typeof answer.id === 'number' ? this.#waiting.get(answer.id) : undefined;
      if (settle !== undefined) {
        this.#waiting.delete(answer.id as number);
        settle({ status: answer.status ?? answer.error?.status ?? 0 });
      }
    });
  }

  static open(url: string): Promise<TunnelProbe> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new TunnelProbe(ws)));
      ws.once('error', reject);
    });
  }

  get open(): boolean {
    return this.#ws.readyState === WebSocket.OPEN;
  }

  /** Sends one frame; resolves with the answer's status (0 for a frame whose id could not be read back). */
  send(frame: (id: number) => string): Promise<WireOutcome> {
    const id = ++this.#next;
    const started = performance.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        resolve({ status: 0, ms: performance.now() - started, hang: true });
      }, HANG_MS);
      this.#waiting.set(id, ({ status }) => {
        clearTimeout(timer);
        resolve({ status, ms: performance.now() - started, hang: false });
      });
      this.#ws.send(frame(id));
    });
  }

  close(): void {
    this.#ws.close();
  }
}
