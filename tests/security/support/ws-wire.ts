/**
 * A WebSocket client that writes exactly what it is told: the upgrade
 * request's header lines in the given order, and frames byte for byte (or
 * raw bytes no library would produce). Server frames are read back and
 * decoded; pings are answered, as any live peer would.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export interface ServerFrame {
  readonly opcode: number;
  readonly payload: Buffer;
}

export interface WsSession {
  /** The handshake's status (101 when the upgrade was accepted; 0 when the server closed without answering). */
  readonly status: number;
  readonly frames: ServerFrame[];
  /** The close code the server sent, when it sent one. */
  closeCode: number | null;
  /** Whether the TCP connection has ended. */
  ended: boolean;
  send(opcode: 'text' | 'binary' | 'ping' | 'close' | 'raw', data: Buffer): void;
  /** Resolves true once `test` holds for the frames received, false after `ms`. */
  waitFor(test: () => boolean, ms: number): Promise<boolean>;
  destroy(): void;
}

const OPCODES = { text: 1, binary: 2, close: 8, ping: 9 } as const;

/** A masked client frame. */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  let head: Buffer;
  if (len < 126) {
    head = Buffer.from([0x80 | opcode, 0x80 | len]);
  } else if (len < 65_536) {
    head = Buffer.alloc(4);
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else {
    head = Buffer.alloc(10);
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  const masked = Buffer.allocUnsafe(len);
  for (let i = 0; i < len; i++) masked[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([head, mask, masked]);
}

/** Whole unmasked server frames at the start of `data`, and how many bytes they took. */
function decodeFrames(data: Buffer): { frames: ServerFrame[]; used: number } {
  const frames: ServerFrame[] = [];
  let pos = 0;
  for (;;) {
    if (data.length - pos < 2) break;
    const opcode = data[pos] & 0x0f;
    let len = data[pos + 1] & 0x7f;
    let at = pos + 2;
    if (len === 126) {
      if (data.length - at < 2) break;
      len = data.readUInt16BE(at);
      at += 2;
    } else if (len === 127) {
      if (data.length - at < 8) break;
      len = Number(data.readBigUInt64BE(at));
      at += 8;
    }
    if (data.length - at < len) break;
    frames.push({ opcode, payload: data.subarray(at, at + len) });
    pos = at + len;
  }
  return { frames, used: pos };
}

/** Opens `path` with `headers` (in order; the WebSocket ones are added after them when missing). */
export function openWs(port: number, host: string, path: string, headers: readonly [string, string][]): Promise<WsSession> {
  return new Promise((resolveOpen) => {
    const socket = net.connect(port, '127.0.0.1');
    const names = new Set(headers.map(([n]) => n.toLowerCase()));
    const lines = [`GET ${path} HTTP/1.1`];
    if (!names.has('host')) lines.push(`Host: ${host}`);
    for (const [n, v] of headers) lines.push(`${n}: ${v}`);
    const required: [string, string][] = [['Upgrade', 'websocket'], ['Connection', 'Upgrade'], ['Sec-WebSocket-Key', randomBytes(16).toString('base64')], ['Sec-WebSocket-Version', '13']];
    for (const [n, v] of required) if (!names.has(n.toLowerCase())) lines.push(`${n}: ${v}`);
    let buffer = Buffer.alloc(0);
    let opened = false;
    const waiters = new Set<() => void>();
    const notify = () => { for (const w of waiters) w(); };
    const session: WsSession = {
      status: 0,
      frames: [],
      closeCode: null,
      ended: false,
      send(kind, data) {
        if (session.ended) return;
        socket.write(kind === 'raw' ? data : encodeFrame(OPCODES[kind], data));
      },
      waitFor(test, ms) {
        if (test()) return Promise.resolve(true);
        return new Promise((resolveWait) => {
          const check = () => {
            if (!test()) return;
            cleanup();
            resolveWait(true);
          };
          const timer = setTimeout(() => {
            cleanup();
            resolveWait(false);
          }, ms);
          const cleanup = () => {
            clearTimeout(timer);
            waiters.delete(check);
          };
          waiters.add(check);
        });
      },
      destroy: () => socket.destroy(),
    };
    const finishOpen = (status: number) => {
      if (opened) return;
      opened = true;
      (session as { status: number }).status = status;
      resolveOpen(session);
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!opened) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(buffer.subarray(0, end).toString('latin1'))?.[1] ?? 0);
        buffer = buffer.subarray(end + 4);
        finishOpen(status);
        if (status !== 101) return;
      }
      const { frames, used } = decodeFrames(buffer);
      buffer = buffer.subarray(used);
      for (const f of frames) {
        if (f.opcode === 9) socket.write(encodeFrame(10, f.payload));
        if (f.opcode === 8) session.closeCode = f.payload.length >= 2 ? f.payload.readUInt16BE(0) : 1005;
        session.frames.push(f);
      }
      notify();
    });
    const ended = () => {
      session.ended = true;
      finishOpen(0);
      notify();
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', ended);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
