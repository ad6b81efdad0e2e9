/**
 * The development log on a terminal: an application in development whose standard output is a terminal
 * writes a line a person reads for each request (method, path, status, time, controller#action), a
 * refusal with its reason and code, and an error with its stack beneath; through a pipe, or with
 * SIGNALBOX_LOG_FORMAT=json, it writes pino's JSON lines as every other environment does. A terminal is
 * made with util-linux's `script`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { terminalDestination, terminalLine } from '../../machines/terminal-log.ts';

const test = suite('the development log on a terminal');
const FIXTURE = fileURLToPath(new URL('./fixtures/terminal-log-app.ts', import.meta.url));
const NODE = `${JSON.stringify(process.execPath)} --import ${JSON.stringify(import.meta.resolve('tsx'))} ${JSON.stringify(FIXTURE)}`;

/** What the fixture writes, run under `command` (a shell line), with `env` added. */
function output(command: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const { NO_COLOR: _, ...inherited } = process.env;
    const child = spawn('/bin/sh', ['-c', command], { env: { ...inherited, NODE_ENV: 'development', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exited ${code}: ${out}`))));
  });
}

const inTerminal = (env: Record<string, string> = {}) => output(`script -qec ${JSON.stringify(NODE)} /dev/null`, env);
const withoutColours = (text: string) => text.replace(/\u001b\[\d+m/g, '').replace(/\r/g, '');

test('on a terminal each request is a line a person reads, a refusal says why, and an error shows its stack', async () => {
  const out = withoutColours(await inTerminal());
  assert.match(out, /^\d\d:\d\d:\d\d\.\d{3} {2}GET \/notes → 200 in [\d.]+ ms {2}notes#index$/m);
  assert.match(out, /^\d\d:\d\d:\d\d\.\d{3} {2}refused 404: No route matches "\/no\/such\/page" with \{:method=>:get\} \(SBX_ERR_ROUTING\)$/m);
  assert.match(out, /^\d\d:\d\d:\d\d\.\d{3} {2}ERROR request errored {2}notes#show {2}status=500\n {4}TypeError: notes are not kept here\n {8}at NotesController\.show /m);
  assert.match(out, /GET \/notes\/1 → 500 in [\d.]+ ms {2}notes#show/);
  assert.not.match(out, '{"level"');
});

test('through a pipe, or with SIGNALBOX_LOG_FORMAT=json, the lines are pino\'s JSON', async () => {
  for (const out of [await output(NODE), withoutColours(await inTerminal({ SIGNALBOX_LOG_FORMAT: 'json' }))]) {
    const lines = out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(lines.map((l) => l.msg), ['request completed', 'request refused', 'request completed', 'request errored', 'request completed']);
    assert.is(lines[0].path, '/notes');
    assert.is(lines[3].level, 50);
  }
});

test('lines of other kinds keep their fields, and colours are only for a terminal that shows them, without NO_COLOR', () => {
  const record = { level: 40, time: Date.UTC(2026, 0, 2, 3, 4, 5, 6), pid: 1, hostname: 'h', msg: 'the cache store is away', store: 'redis', retry_in_ms: 500, note: 'two words' };
  assert.is(terminalLine(record), '03:04:05.006  WARN the cache store is away  store=redis retry_in_ms=500 note="two words"');
  assert.is(terminalLine({ level: 30, msg: 'server closed', ms: 3 }), '  server closed  ms=3');
  assert.is(terminalLine({ level: 30, msg: 'request completed', method: 'GET', path: '/', status: 200, ms: 1, controller: 'pages', action: 'home', transport: 'tunnel', cache: 'page' }), '  GET / → 200 in 1 ms  pages#home  (tunnel, cache page)');
  const noColour = process.env.NO_COLOR;
  try {
    delete process.env.NO_COLOR;
    const written: string[] = [];
    const line = '{"level":50,"msg":"boom","err":{"type":"Error","message":"x"}}\n';
    terminalDestination({ write: (text: string) => written.push(text), hasColors: () => true }).write(line);
    assert.is(written[0], '  \u001b[31mERROR\u001b[0m boom\n    Error: x\n');
    terminalDestination({ write: (text: string) => written.push(text), hasColors: () => false }).write(line);
    assert.is(written[1], '  ERROR boom\n    Error: x\n');
    process.env.NO_COLOR = '1';
    terminalDestination({ write: (text: string) => written.push(text), hasColors: () => true }).write(line);
    assert.is(written[2], '  ERROR boom\n    Error: x\n', 'NO_COLOR');
    terminalDestination({ write: (text: string) => written.push(text) }).write('not json\n');
    assert.is(written[3], 'not json\n', 'a line that is not JSON passes as it is');
  } finally {
    if (noColour === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = noColour;
  }
});

test.run();
