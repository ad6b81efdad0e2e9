/**
 * What a server loads at start: the WebSocket library only with the
 * tunnel's first socket, Node's bundled undici never (a server uses neither fetch nor its WebSocket), the XML parser with the first XML body, the multipart parser with
 * the first multipart body. Each runs in a process of its own (this test
 * process has loaded everything already).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite('a server loads its optional packages only when they are used');

const FIXTURE = fileURLToPath(new URL('./fixtures/loads-server.ts', import.meta.url));
const children: ChildProcess[] = [];
test.after.each(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function start(options: object): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { env: { ...process.env, SIGNALBOX_TEST_SERVE: JSON.stringify(options) }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /\{"port":(\d+)\}/.exec(out);
      if (line) resolve(Number(line[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
  });
  return `http://127.0.0.1:${port}`;
}

const loaded = async (base: string): Promise<string[]> => (await (await fetch(`${base}/probes.json`)).json()) as string[];

test('ws is not loaded at start; XML and multipart parsers load with their first body', async () => {
  const base = await start({});
  assert.equal(await loaded(base), []);

  const xml = await fetch(`${base}/probes.json`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<probe><kind>xml</kind></probe>' });
  assert.equal(await xml.json(), { kind: 'xml' });
  assert.equal(await loaded(base), ['fast-xml-parser']);

  const form = new FormData();
  form.set('probe[kind]', 'multipart');
  const multipart = await fetch(`${base}/probes.json`, { method: 'POST', body: form });
  assert.equal(await multipart.json(), { kind: 'multipart' });
  assert.equal(await loaded(base), ['fast-xml-parser', 'busboy']);
});

test('the tunnel (on by default) loads ws with its first socket', async () => {
  const base = await start({});
  assert.equal(await loaded(base), []);
  const { tunnel } = await import('../../transport/index.ts');
  const client = await tunnel(`${base.replace('http', 'ws')}/_tunnel`, { reconnect: false });
  try {
    const answer = await client.request({ method: 'GET', path: '/probes.json' });
    assert.equal(JSON.parse(await answer.text()), ['ws']);
  } finally {
    await client.close();
  }
});

test.run();
