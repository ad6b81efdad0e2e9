/**
 * The `signalbox` command itself, before any subcommand: help on request, and an unknown command or
 * option named, with the usage, as a usage error.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { signalbox } from './support.ts';

const results = Promise.all([
  signalbox('rotues'),
  signalbox('--version'),
  ...['help', '--help', '-h'].map((flag) => signalbox(flag)),
  signalbox('routes', '--help'),
  signalbox('routes', '--json', '-h'),
  signalbox('machines', '--help'),
]);

test('an unknown command or option is named, with the commands there are and the usage, and exits 2', async () => {
  const [command, option] = await results;
  assert.is(command!.code, 2);
  assert.match(command!.stderr, /^signalbox: unknown command "rotues" \(routes, machines, port-routes, new or dev\)\nusage: signalbox routes/);
  assert.is(option!.code, 2);
  assert.match(option!.stderr, /^signalbox: unknown option "--version"/);
});

test('help, --help and -h, alone or after routes or machines, print the usage on stdout, so it can be paged, and exit 0', async () => {
  const [, , ...helps] = await results;
  assert.is(helps.length, 6);
  for (const help of helps) {
    assert.is(help!.code, 0);
    assert.match(help!.stdout, /^usage: signalbox routes/);
    assert.is(help!.stderr, '');
  }
});

test.run();
