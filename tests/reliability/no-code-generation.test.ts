/**
 * A process that refuses code generation from strings (`node --disallow-code-generation-from-strings`,
 * as hardened deployments run) gets the same answers. Routing's readers and generators and the
 * compiled engine's walk are written as source where the process allows it; here each takes its
 * interpreted form (core/generated-code.ts). The routing and request corpus, the routing properties
 * (positional helpers against general generation, on random tables), the hash generator's properties
 * (against the reference Generator) and the engine suite run again in such a process, through the
 * same runner as `npm test`, and must all pass.
 */
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { functionFromSource, generatesCode } from '../../core/generated-code.ts';
import { allowMoreTime } from '../harness/deadline.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Ran { readonly code: number | null; readonly stdout: string; readonly stderr: string }

function node(args: readonly string[]): Promise<Ran> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

const test = suite('without code generation from strings');

test('this process generates code, and functionFromSource gives the function', () => {
  assert.ok(generatesCode());
  assert.is(functionFromSource<(a: number) => number>(['a'], 'return a + 1;')?.(1), 2);
});

test('a syntax error in generated source is thrown, not taken for a refusal', () => {
  assert.throws(() => functionFromSource(['a'], 'return a +;'), (e: unknown) => e instanceof SyntaxError);
});

test('under --disallow-code-generation-from-strings, functionFromSource answers null and nothing throws', async () => {
  const source = "import { functionFromSource, generatesCode } from './core/generated-code.ts';"
    + "console.log(JSON.stringify([generatesCode(), functionFromSource(['a'], 'return a;'), functionFromSource(['a'], 'return a;')]));";
  const ran = await node(['--disallow-code-generation-from-strings', '--import', 'tsx', '--input-type=module', '-e', source]);
  assert.is(ran.code, 0, ran.stderr);
  assert.equal(JSON.parse(ran.stdout), [false, null, null]);
});

test('the routing and request corpus, the routing and hash-generation properties and the engine suite pass in a process that refuses code generation', async () => {
  // A few thousand tests in a process of their own: long by design, over a minute on a host shared with other suites.
  allowMoreTime(180_000);
  const ran = await node(['--disallow-code-generation-from-strings', '--import', 'tsx', 'tests/harness/run.ts', 'tests', '^(acceptance/.*|machines/.*|core/routing/(properties|hash-generate))\\.test\\.ts$']);
  // The runner's closing line (each suite prints a count of its own before it).
  const summary = [...ran.stdout.matchAll(/^(\d+) passed, (\d+) failed, \d+ skipped$/gm)].at(-1);
  assert.ok(summary, `the run printed no summary:\n${ran.stdout.slice(-2000)}${ran.stderr.slice(-2000)}`);
  assert.is(Number(summary[2]), 0, ran.stdout.slice(-4000));
  assert.ok(Number(summary[1]) > 1000, `only ${summary[1]} tests ran`);
  assert.is(ran.code, 0, ran.stderr.slice(-2000));
});

test.run();
