/**
 * `npm start` as a fresh checkout runs it: one node process serving the
 * blog from compiled JavaScript, with no tsx CLI or loader anywhere in the
 * process tree, and a first line that says which mode it runs in.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allowMoreTime } from '../harness/deadline.ts';
import { eventually, PATIENCE_MS } from '../support/patience.ts';
import { freePort } from '../support/redis.ts';
import { get } from '../transport/support-cluster.ts';

const test = suite('npm start runs the blog on node alone, from compiled JavaScript');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;

const started: ChildProcess[] = [];
test.after.each(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

test.before(() => {
  // Compiling takes a while on a busy machine: done here, so the start below is measured as a start. A whole
  // tsc build is long by design (over a minute on a host shared with other suites), so the hook asks for the time.
  allowMoreTime(2 * PATIENCE_MS);
  const built = spawnSync(process.execPath, ['scripts/start.js', '--build-only'], { cwd: ROOT, encoding: 'utf8', timeout: 3 * PATIENCE_MS - 5_000 });
  assert.is(built.status, 0, `${built.stdout}${built.stderr}`);
});

/** Every process below `pid`, with its command line. */
function descendants(pid: number): { pid: number; command: string }[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows = ps.stdout.trim().split('\n').map((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)!;
    return { pid: Number(m[1]), ppid: Number(m[2]), command: m[3]! };
  });
  const found: { pid: number; command: string }[] = [];
  const walk = (parent: number): void => {
    for (const row of rows) if (row.ppid === parent) { found.push({ pid: row.pid, command: row.command }); walk(row.pid); }
  };
  walk(pid);
  return found;
}

test('the start script runs node on a script of the repository, with no tsx between npm and the server', () => {
  assert.match(scripts.start!, /^node [\w/.-]+\.js$/);
  for (const hook of ['prestart', 'start', 'poststart']) assert.not.match(scripts[hook] ?? '', /tsx/, `${hook} runs no tsx`);
  assert.match(scripts.dev!, /tsx/, 'the development loop keeps running the sources');
});

test('npm start in production: one node process, no tsx in its tree, the mode on the first line, pages served', async () => {
  const port = await freePort();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), SIGNALBOX_SECRET: 'a production secret of thirty characters or more', SIGNALBOX_HOSTS: '127.0.0.1', WEB_CONCURRENCY: '', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  await eventually(() => out.includes('listening on') || child.exitCode !== null);
  assert.ok(out.includes('listening on'), out);

  const first = out.split('\n').find((line) => line.trim() !== '')!;
  assert.match(first, /^Signalbox blog starting in production mode, from compiled JavaScript/);

  const tree = descendants(child.pid!);
  assert.ok(tree.every((p) => !/tsx/.test(p.command)), JSON.stringify(tree));
  const nodes = tree.filter((p) => /(^|\/)node(\s|$)/.test(p.command.split(' ')[0]!) || /^node\s/.test(p.command));
  assert.is(nodes.length, 1, `one node process serves: ${JSON.stringify(tree)}`);
  assert.match(nodes[0]!.command, /scripts\/start\.js/);

  const page = await get(port, '/posts');
  assert.is(page.status, 200);
  assert.match(page.body, /Signalbox Blog/);

  // The server drains on SIGTERM and exits 0; npm then exits with it.
  const closed = new Promise<number | null>((r) => child.once('close', r));
  process.kill(nodes[0]!.pid, 'SIGTERM');
  assert.is(await closed, 0);
});

test("the start leaves V8's compiled code in build/.compile-cache, for the next start to read", () => {
  // Node 22.1 and later have the compile cache; the start above wrote it as its process exited.
  if (typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache !== 'function') return;
  const cache = `${ROOT}build/.compile-cache`;
  assert.ok(existsSync(cache), 'the cache directory exists');
  const files = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? files(`${dir}/${e.name}`) : 1), 0);
  assert.ok(files(cache) > 10, 'compiled code of the framework and the blog is kept');
});

test.run();
