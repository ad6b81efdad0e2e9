/**
 * One request's fault never takes the process with it: a promise an action left rejected with no one to
 * catch it is logged and the server goes on; an exception thrown where no code catches it drains the
 * server (requests already received are answered) and the process exits 1 for its supervisor to start
 * another. An application that handles either event itself keeps it. Real processes, real HTTP.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../support/patience.ts';
import { get } from './support-cluster.ts';
import { serverProcess, type ServerProcess } from './support-process.ts';

const test = suite('faults no code catches');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let running: ServerProcess[] = [];
test.after.each(() => {
  for (const s of running) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  running = [];
});

async function server(env: Record<string, string> = {}): Promise<ServerProcess> {
  const s = await serverProcess({ shutdownTimeoutMs: 20_000 }, env);
  running.push(s);
  return s;
}

test('a promise an action left rejected is logged with its error, and the process goes on serving', async () => {
  const s = await server();
  assert.is((await get(s.port, '/faults/reject')).status, 200);
  assert.ok(await eventually(() => s.logs.some((l) => l.level === 50 && String(l.msg).startsWith('unhandled promise rejection'))), JSON.stringify(s.logs));
  const line = s.logs.find((l) => String(l.msg).startsWith('unhandled promise rejection'))!;
  assert.is((line.err as { message?: string }).message, 'the mailer is down');
  assert.is((await get(s.port, '/faults/reject')).status, 200, 'and again');
  const after = await get(s.port, '/slow/show?ms=10');
  assert.is(after.status, 200);
  assert.is(after.body, 'slept 10');
  assert.is(s.child.exitCode, null, 'the process is still running');
});

test('an exception no code catches drains the server: requests in flight are answered, then the process exits 1', async () => {
  const s = await server();
  const slow = [get(s.port, '/slow/show?ms=800'), get(s.port, '/slow/show?ms=800')];
  await sleep(150);
  assert.is((await get(s.port, '/faults/throw_later?ms=50')).status, 200);
  const answers = await Promise.all(slow.map((p) => p.catch((error: Error) => error.message)));
  assert.ok(answers.every((a) => typeof a !== 'string' && a.status === 200 && a.body === 'slept 800'), JSON.stringify(answers));
  assert.ok(answers.every((a) => typeof a !== 'string' && a.headers.connection === 'close'), 'each was the last on its connection');
  const { code } = await s.exited();
  assert.is(code, 1);
  const fatal = s.logs.find((l) => l.msg === 'uncaught exception: draining, then exiting with code 1');
  assert.ok(fatal, JSON.stringify(s.logs));
  assert.is(fatal!.level, 60);
  assert.is((fatal!.err as { message?: string }).message, 'a timer went wrong');
});

test('with a silent logger (the test environment\'s) a fault is written to standard error with its stack, not lost', async () => {
  const s = await server({ SIGNALBOX_TEST_SILENT_LOG: '1' });
  assert.is((await get(s.port, '/faults/reject')).status, 200);
  assert.ok(await eventually(() => s.logs.some((l) => /^\s+at FaultsController\.reject /.test(String(l.msg)))), JSON.stringify(s.logs));
  const lines = s.logs.map((l) => String(l.msg));
  const at = lines.indexOf('unhandled promise rejection: a promise no code awaited or caught was rejected; the process goes on');
  assert.ok(at >= 0, JSON.stringify(lines));
  assert.is(lines[at + 1], 'Error: the mailer is down');
  assert.is((await get(s.port, '/slow/show?ms=10')).status, 200);
});

test('an application with its own handlers for both keeps them: nothing is logged for it, and nothing drains', async () => {
  const s = await server({ SIGNALBOX_TEST_OWN_FAULT_HANDLERS: '1' });
  assert.is((await get(s.port, '/faults/reject')).status, 200);
  assert.is((await get(s.port, '/faults/throw_later?ms=0')).status, 200);
  assert.ok(await eventually(() => s.logs.some((l) => l.msg === 'the app saw an exception')), JSON.stringify(s.logs));
  assert.ok(s.logs.some((l) => l.msg === 'the app saw a rejection'));
  assert.is((await get(s.port, '/slow/show?ms=10')).status, 200);
  assert.not.ok(s.logs.some((l) => /unhandled promise rejection|uncaught exception/.test(String(l.msg))), JSON.stringify(s.logs));
  assert.is(s.child.exitCode, null);
});

test.run();
