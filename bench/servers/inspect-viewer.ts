/**
 * The viewer of `bench/inspect.ts`: what an inspector page does with the trace channel, without
 * the page. In its own process:
 *
 *   node dist/bench/servers/inspect-viewer.js <ws-url>
 *
 * Connects, parses every frame and counts trace events, finished requests (`done` events) and
 * the events the server reports dropped (`dropped` frames: this viewer fell behind). Prints `OPEN`
 * once greeted. Each `report` line on stdin prints `REPORT {json}`: the counts since the last
 * report and this process's CPU seconds. Exits when the socket closes or stdin does.
 */
import { WebSocket } from 'ws';

const url = process.argv[2];
if (!url) {
  console.error('usage: inspect-viewer.ts <ws-url>');
  process.exit(2);
}

let events = 0;
let requests = 0;
let dropped = 0;
let frames = 0;
let bytes = 0;

const ws = new WebSocket(url);
ws.on('message', (data: Buffer) => {
  frames++;
  bytes += data.length;
  const frame = JSON.parse(data.toString('utf8')) as { type: string; events?: { kind: string }[] | number; recent?: { kind: string }[] };
  if (frame.type === 'hello') {
    process.stdout.write('OPEN\n');
    return;
  }
  if (frame.type === 'dropped') {
    dropped += frame.events as number;
    return;
  }
  for (const e of frame.events as { kind: string }[]) {
    events++;
    if (e.kind === 'done') requests++;
  }
});
ws.on('close', () => process.exit(0));
ws.on('error', (error) => {
  console.error(`inspect-viewer: ${error.message}`);
  process.exit(1);
});

let input = '';
process.stdin.on('data', (d: Buffer) => {
  input += d.toString('utf8');
  let nl: number;
  while ((nl = input.indexOf('\n')) >= 0) {
    const line = input.slice(0, nl).trim();
    input = input.slice(nl + 1);
    if (line !== 'report') continue;
    const usage = process.cpuUsage();
    process.stdout.write(`REPORT ${JSON.stringify({ events, requests, dropped, frames, bytes, cpu: (usage.user + usage.system) / 1e6 })}\n`);
    events = requests = dropped = frames = bytes = 0;
  }
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
