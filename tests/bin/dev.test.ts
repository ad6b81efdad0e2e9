/**
 * `signalbox dev` refusing what it cannot run, before it starts anything: a usage error exits 2, a
 * directory that is no application's exits 1, each saying why; and stopping a server once. (Its restarts
 * are run against a real application made by `signalbox new`, in tests/package/new-app.test.ts.)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../support/patience.ts';
import { scratchDir } from '../support/temp.ts';
import { ROOT, signalboxIn } from './support.ts';

test('an option it does not take is a usage error naming it, exit 2; --help prints the usage', async () => {
  const cwd = scratchDir('dev');
  const wrong = await signalboxIn(cwd, 'dev', '--wach', 'app');
  assert.is(wrong.code, 2);
  assert.match(wrong.stderr, /^signalbox dev: Unknown option '--wach'/);
  assert.match(wrong.stderr, 'usage: signalbox dev [--watch DIR]... [SCRIPT [ARGS...]]');
  const help = await signalboxIn(cwd, 'dev', '--help');
  assert.is(help.code, 0);
  assert.match(help.stdout, /^usage: signalbox dev/);
});

test('outside an application it exits 1, naming the directories it found none of, or the script it cannot find', async () => {
  const cwd = scratchDir('dev');
  const empty = await signalboxIn(cwd, 'dev');
  assert.is(empty.code, 1);
  assert.is(empty.stderr.trim(), "signalbox dev: nothing to watch: config, app/controllers, app/models, app/helpers are not directories here (run it in the application's directory, or name them with --watch)");
  mkdirSync(join(cwd, 'config'));
  const noScript = await signalboxIn(cwd, 'dev');
  assert.is(noScript.code, 1);
  assert.is(noScript.stderr.trim(), "signalbox dev: server.js: no such file (run it in the application's directory, or name the server's script)");
  writeFileSync(join(cwd, 'main.js'), '');
  const named = await signalboxIn(cwd, 'dev', '--watch', 'lib', 'main.js');
  assert.is(named.code, 1);
  assert.match(named.stderr, 'nothing to watch: lib is not a directory here');
});

// A server that drains for a while on its first signal and says so if a second one cuts the drain short.
const SLOW_DRAIN = `
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) { console.log('second signal ' + signal); process.exit(130); }
    stopping = true;
    console.log('draining on ' + signal);
    setTimeout(() => { console.log('drained'); process.exit(0); }, 700);
  });
}
console.log('started');
setInterval(() => {}, 1000);
`;

test('Ctrl-C while a restart stops the server waits for that stop: the server is signalled once and drains', async () => {
  const cwd = scratchDir('dev');
  mkdirSync(join(cwd, 'config'));
  writeFileSync(join(cwd, 'server.js'), SLOW_DRAIN);
  const dev = spawn(process.execPath, [resolve(ROOT, 'bin/signalbox.js'), 'dev'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  dev.stdout.on('data', (chunk: Buffer) => { output += chunk; });
  dev.stderr.on('data', (chunk: Buffer) => { output += chunk; });
  // 'close', not 'exit': the process may exit before its last lines are read from the pipe.
  const exited = new Promise<number | null>((done) => dev.on('close', (code) => done(code)));
  const seen = async (text: string): Promise<void> => {
    if (!(await eventually(() => output.includes(text), 25))) throw new Error(`no "${text}" in:\n${output}`);
  };
  try {
    await seen('started');
    writeFileSync(join(cwd, 'config/routes.js'), 'export {};\n');
    await seen('draining on SIGTERM');
    dev.kill('SIGINT');
    await exited;
    assert.match(output, 'config/routes.js changed: restarting server.js');
    assert.match(output, 'drained');
    assert.not.match(output, 'second signal', output);
    assert.is(output.split('started').length, 2, 'not started again once stopped');
  } finally {
    dev.kill('SIGKILL');
  }
});

test.run();
