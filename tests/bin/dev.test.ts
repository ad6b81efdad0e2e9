/**
 * `signalbox dev` refusing what it cannot run, before it starts anything: a usage error exits 2, a
 * directory that is no application's exits 1, each saying why. (Its restarts are run against a real
 * application made by `signalbox new`, in tests/package/new-app.test.ts.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scratchDir } from '../support/temp.ts';
import { signalboxIn } from './support.ts';

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

test.run();
