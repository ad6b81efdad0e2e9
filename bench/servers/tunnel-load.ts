/**
 * The load generator of `bench/tunnel.ts`: one tunnel socket kept at a fixed number of requests in
 * flight, in its own process (the bench pins it to the load core). Internal to the bench.
 *
 *   node dist/bench/servers/tunnel-load.js <client|raw|raw-text> <ws-url> <path> <seconds> [in-flight] [ramp-seconds]
 *
 * `client` drives the project's client (`tunnel()` from transport/tunnel-client.ts, cookies and
 * reconnecting off): `in-flight` loops, each awaiting its answer and reading its body before sending
 * the next, as an application would. `raw` drives `ws` directly with the frames serialised once:
 * one frame per slot, the slot number as its id, and each answer's arrival sends its slot's frame
 * again, so exactly `in-flight` frames are outstanding; answers are read only as far as id and status.
 * `raw` speaks the batching subprotocol (`signalbox-tunnel.2`, as the project's client does): the
 * frames due in one turn leave as one JSON array, and answers come as binary records, each read as
 * far as its head's id and status. `raw-text` offers no subprotocol: one JSON text frame each way.
 *
 * The load starts once the socket is open; after `ramp-seconds` (default 0.5: this process's own
 * JIT warm-up) it prints `START`, measures for `seconds`, prints `END` (the bench samples CPU use at
 * these two lines), lets the answers still outstanding arrive, closes, and prints one JSON line:
 * answers completed inside the window, their status counts, latency percentiles and this
 * process's own CPU over the window.
 * Exits when the window is over, on SIGTERM/SIGINT, when stdin closes, or after a hard deadline.
 */
import { WebSocket, type RawData } from 'ws';
import { tunnel, type Tunnel } from '../../transport/tunnel-client.ts';
import { TUNNEL_PROTOCOL } from '../../transport/tunnel-protocol.ts';

const MODES = ['client', 'raw', 'raw-text'] as const;
type Mode = (typeof MODES)[number];

const [modeArg, url, path, secondsArg, inFlightArg, rampArg] = process.argv.slice(2);
const mode = modeArg as Mode;
const seconds = Number(secondsArg);
const inFlight = Number(inFlightArg ?? 50);
const ramp = Number(rampArg ?? 0.5);
if (!MODES.includes(mode) || !url || !path || !(seconds > 0) || !(Number.isInteger(inFlight) && inFlight > 0) || !(ramp >= 0)) {
  console.error(`usage: tunnel-load.ts <${MODES.join('|')}> <ws-url> <path> <seconds> [in-flight] [ramp-seconds]`);
  process.exit(2);
}

// Whatever happens, this process does not outlive its run by much.
setTimeout(() => {
  console.error(`tunnel-load: still running ${ramp + seconds + 20} s after start; giving up`);
  process.exit(3);
}, (ramp + seconds + 20) * 1000).unref();
const quit = () => process.exit(130);
process.on('SIGTERM', quit);
process.on('SIGINT', quit);
process.stdin.on('end', quit);
process.stdin.on('error', quit);
process.stdin.resume();

// Latencies in 10 µs buckets up to 1 s, and one bucket beyond: recording costs an increment.
const BUCKET_US = 10;
const histogram = new Uint32Array(100_001);
const statuses = new Map<number, number>();
let completed = 0;
let measuring = false;

function record(startMs: number, status: number): void {
  if (!measuring) return;
  completed++;
  const bucket = Math.min(histogram.length - 1, Math.floor(((performance.now() - startMs) * 1000) / BUCKET_US));
  histogram[bucket]++;
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}

function percentile(p: number): number {
  const wanted = Math.ceil(completed * p);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i];
    if (seen >= wanted && seen > 0) return ((i + 0.5) * BUCKET_US) / 1000;
  }
  return 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the measured window; `stop()` ends the sending, and resolves once nothing is outstanding (or after a bound). */
interface Driver {
  start(): void;
  stop(): Promise<void>;
  close(): Promise<void>;
}

async function clientDriver(): Promise<Driver> {
  const t: Tunnel = await tunnel(url, { cookies: false, reconnect: false, timeoutMs: (seconds + 10) * 1000 });
  let running = false;
  const loops: Promise<void>[] = [];
  let failure: unknown = null;
  const loop = async () => {
    while (running) {
      const start = performance.now();
      const res = await t.request({ method: 'GET', path });
      await res.text();
      record(start, res.status);
    }
  };
  return {
    start() {
      running = true;
      for (let i = 0; i < inFlight; i++) loops.push(loop().catch((error: unknown) => { failure ??= error; }));
    },
    async stop() {
      running = false;
      await Promise.race([Promise.all(loops), sleep(5000)]);
      if (failure !== null) throw failure;
    },
    close: () => t.close(),
  };
}

async function rawDriver(batching: boolean): Promise<Driver> {
  const ws = new WebSocket(url, batching ? [TUNNEL_PROTOCOL] : [], { perMessageDeflate: false });
  await new Promise<void>((open, fail) => {
    const timer = setTimeout(() => fail(new Error(`no open within 10 s: ${url}`)), 10_000);
    ws.once('open', () => { clearTimeout(timer); open(); });
    ws.once('error', (error) => { clearTimeout(timer); fail(error); });
  });
  if (batching && ws.protocol !== TUNNEL_PROTOCOL) throw new Error(`the server did not choose ${TUNNEL_PROTOCOL}`);
  const texts = Array.from({ length: inFlight }, (_, slot) => JSON.stringify({ id: slot, method: 'GET', path }));
  const frames = texts.map((text) => Buffer.from(text));
  let due: number[] = [];
  const flushDue = () => {
    const slots = due;
    due = [];
    ws.send(slots.length === 1 ? frames[slots[0]] : `[${slots.map((slot) => texts[slot]).join(',')}]`, textFrame);
  };
  const sentAt = new Float64Array(inFlight);
  const socket = (ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
  const textFrame = { binary: false };
  let running = false;
  let outstanding = 0;
  let corked = false;
  let drained: (() => void) | null = null;
  let failure: Error | null = null;
  const uncork = () => { corked = false; socket.uncork(); };
  const send = (slot: number) => {
    sentAt[slot] = performance.now();
    outstanding++;
    if (batching) {
      // The frames due in one turn leave as one array, as the project's client sends them.
      if (due.length === 0) process.nextTick(flushDue);
      due.push(slot);
      return;
    }
    // Answers read in one turn send their next frames in one write, as the project's client does.
    if (!corked) { corked = true; socket.cork(); process.nextTick(uncork); }
    ws.send(frames[slot], textFrame);
  };
  const answered = (answer: { id: number; status: number } | null, data: Buffer) => {
    if (answer === null || answer.id < 0 || answer.id >= inFlight) {
      failure ??= new Error(`unexpected answer: ${String(data).slice(0, 200)}`);
      return;
    }
    outstanding--;
    record(sentAt[answer.id], answer.status);
    if (running) send(answer.id);
    else if (outstanding === 0) drained?.();
  };
  ws.on('message', (data: RawData, isBinary: boolean) => {
    const bytes = data as Buffer;
    if (isBinary !== batching) {
      failure ??= new Error(`unexpected ${isBinary ? 'binary' : 'text'} frame: ${String(data).slice(0, 200)}`);
      return;
    }
    if (!batching) {
      answered(head(bytes), bytes);
      return;
    }
    // Records: the head's length and the body's (32-bit, big-endian), the head (JSON), the body.
    for (let at = 0; at + 8 <= bytes.length;) {
      const headEnd = at + 8 + bytes.readUInt32BE(at);
      const end = headEnd + bytes.readUInt32BE(at + 4);
      answered(head(bytes.subarray(at + 8, headEnd)), bytes);
      at = end;
    }
  });
  ws.on('close', (code: number) => { if (running) failure ??= new Error(`socket closed (${code}) during the run`); drained?.(); });
  return {
    start() {
      running = true;
      for (let slot = 0; slot < inFlight; slot++) send(slot);
    },
    async stop() {
      running = false;
      if (outstanding > 0) await Promise.race([new Promise<void>((r) => { drained = r; }), sleep(5000)]);
      if (failure !== null) throw failure;
    },
    close: () => new Promise<void>((done) => {
      if (ws.readyState === ws.CLOSED) return done();
      const timer = setTimeout(() => { ws.terminate(); done(); }, 2000);
      ws.once('close', () => { clearTimeout(timer); done(); });
      ws.close(1000);
    }),
  };
}

const ID_HEAD = Buffer.from('{"id":');
const STATUS_HEAD = Buffer.from(',"status":');

/**
 * Id and status from the start of a response frame, which the server writes as `{"id":N,"status":S,...`
 * (checked against a full parse by the bench before measuring); anything else is read with JSON.parse.
 */
function head(data: Buffer): { id: number; status: number } | null {
  if (data.length > 15 && data.compare(ID_HEAD, 0, ID_HEAD.length, 0, ID_HEAD.length) === 0) {
    let i = ID_HEAD.length;
    let id = 0;
    while (i < data.length && data[i] >= 0x30 && data[i] <= 0x39) id = id * 10 + data[i++] - 0x30;
    if (i > ID_HEAD.length && i + STATUS_HEAD.length + 3 <= data.length && data.compare(STATUS_HEAD, 0, STATUS_HEAD.length, i, i + STATUS_HEAD.length) === 0) {
      i += STATUS_HEAD.length;
      return { id, status: (data[i] - 0x30) * 100 + (data[i + 1] - 0x30) * 10 + (data[i + 2] - 0x30) };
    }
  }
  try {
    const frame = JSON.parse(data.toString('utf8')) as { id?: unknown; status?: unknown; error?: { status?: unknown } };
    const status = typeof frame.status === 'number' ? frame.status : typeof frame.error?.status === 'number' ? frame.error.status : -1;
    return typeof frame.id === 'number' ? { id: frame.id, status } : null;
  } catch {
    return null;
  }
}

const driver = mode === 'client' ? await clientDriver() : await rawDriver(mode === 'raw');
driver.start();
await sleep(ramp * 1000);
process.stdout.write('START\n');
const cpu0 = process.cpuUsage();
const t0 = performance.now();
measuring = true;
await sleep(seconds * 1000);
measuring = false;
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
process.stdout.write('END\n');
await driver.stop();
await driver.close();
process.stdout.write(`${JSON.stringify({
  mode, path, in_flight: inFlight, seconds: wall, requests: completed, rps: completed / wall,
  p50: percentile(0.5), p99: percentile(0.99), statuses: Object.fromEntries(statuses),
  cpu: (cpu.user + cpu.system) / 1e6 / wall,
})}\n`);
process.exit(0);
