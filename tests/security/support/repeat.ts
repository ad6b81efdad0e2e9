/**
 * Many requests over a few keep-alive connections: what a flood of
 * distinct-but-similar requests (`per_request_unique`) looks like, without
 * exhausting the machine's ephemeral ports the way fresh connections would.
 * Each request is written byte for byte, as `send` writes one, and its answer
 * read as far as its end: an HTTP client library costs several times what the
 * server spends on a refusal, and a flood of 100,000 then took minutes on a
 * loaded machine, over any test's deadline.
 */
import net from 'node:net';
import { requestBytes, responseEnd, readHead, type WireRequest } from './wire.ts';

/** Sends `times` requests made by `make`, `concurrency` at a time; `each` sees every status and duration (status 0: closed unanswered). */
export async function keepAliveRepeat(
  port: number,
  host: string,
  times: number,
  make: () => WireRequest,
  each: (status: number, ms: number) => void,
  concurrency = 8,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    let connection: Connection | null = null;
    try {
      while (next < times) {
        next++;
        const bytes = requestBytes(make(), host);
        connection ??= await Connection.open(port);
        const started = performance.now();
        const answer = await connection.ask(bytes);
        each(answer.status, performance.now() - started);
        // A refusal may close the connection: the next request opens another, as a client's pool would.
        if (answer.closing) {
          connection.close();
          connection = null;
        }
      }
    } finally {
      connection?.close();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** One keep-alive connection asking one request at a time. */
class Connection {
  readonly #socket: net.Socket;
  #data: Buffer = Buffer.alloc(0);
  #closed = false;
  #waiting: (() => void) | null = null;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#data = this.#data.length === 0 ? chunk : Buffer.concat([this.#data, chunk]);
      this.#wake();
    });
    const ended = () => {
      this.#closed = true;
      this.#wake();
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', ended);
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      socket.once('connect', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes `bytes` and reads the final answer to them (interim 1xx answers skipped). */
  async ask(bytes: Buffer): Promise<{ status: number; closing: boolean }> {
    if (this.#closed) return { status: 0, closing: true };
    this.#data = Buffer.alloc(0);
    this.#socket.write(bytes);
    const toHead = bytes.subarray(0, 5).toString('latin1') === 'HEAD ';
    for (;;) {
      const head = readHead(this.#data);
      if (head !== null) {
        const end = responseEnd(this.#data, head.head, head.end, this.#closed, toHead);
        if (end >= 0) {
          const { status, headers } = head.head;
          this.#data = this.#data.subarray(end);
          if (status >= 100 && status < 200 && status !== 101) continue;
          const closing = this.#closed || (headers['connection'] ?? []).some((v) => v.toLowerCase().includes('close'));
          return { status, closing };
        }
      }
      if (this.#closed) return { status: 0, closing: true };
      await new Promise<void>((resolve) => (this.#waiting = resolve));
    }
  }

  close(): void {
    this.#closed = true;
    this.#socket.destroy();
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.();
  }
}
