/**
 * Multipart uploads streamed, not held: over real HTTP, an upload up to
 * `multipart.memoryBytes` (10 KB) stays in memory; a larger one reaches the
 * action as an `UploadedFile` backed by a temporary file (its `path`), with
 * the same API (`read()`, `size`, `original_filename`, `content_type`,
 * `stream()`), and every such file is removed once the request ends,
 * answered or failed. The limits are the same as for bodies read whole, and
 * the body may arrive in chunks split anywhere.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { text } from 'node:stream/consumers';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, UploadedFile } from '../../../core/index.ts';
import { parseMultipart } from '../../../core/request/multipart.ts';
import { scratchDir } from '../../support/temp.ts';
import { withApp, type Served } from '../../support/harness.ts';

const test = suite('multipart uploads stream to temporary files above a threshold, removed when the request ends');

// Temporary files go where os.tmpdir() says; here, a directory of this test's own, so none can be missed.
const TMP = scratchDir('uploads-tmp');
process.env.TMPDIR = TMP;
const uploadFiles = () => readdirSync(TMP).filter((n) => n.startsWith('signalbox-upload-'));

interface Seen { path: string | null; existed: boolean; size: number; name: string; type: string | null; same: boolean; streamed: number }

class UploadsController extends Controller {
  async create(): Promise<void> {
    const seen: Seen[] = [];
    for (const key of Object.keys(this.params).filter((k) => k.startsWith('file')).sort()) {
      const file = this.params[key] as UploadedFile;
      const expected = String(this.params[`expect_${key}`] ?? '');
      const streamed = (await text(file.stream())).length;
      seen.push({
        path: file.path, existed: file.path !== null && existsSync(file.path), size: file.size, name: file.original_filename,
        type: file.content_type, same: file.read() === expected.repeat(Number(this.params[`times_${key}`] ?? 1)), streamed,
      });
    }
    if (this.params.fail === 'yes') throw new Error('the action failed after reading its uploads');
    this.render({ json: seen });
  }
}

interface FilePart { readonly name: string; readonly filename: string; readonly type?: string; readonly content: string }

function multipartBody(fields: Record<string, string>, files: readonly FilePart[]): { body: Buffer; type: string } {
  const boundary = '----signalbox-test-boundary';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  for (const f of files) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\n${f.type ? `Content-Type: ${f.type}\r\n` : ''}\r\n${f.content}\r\n`);
  }
  parts.push(`--${boundary}--\r\n`);
  return { body: Buffer.from(parts.join('')), type: `multipart/form-data; boundary=${boundary}` };
}

/** Posts a body in chunks of `chunk` bytes with chunked transfer encoding (no Content-Length), or whole. */
function post(s: Served, path: string, body: Buffer, type: string, chunk?: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': type, ...(chunk === undefined ? { 'content-length': String(body.length) } : {}) };
    const req = httpRequest({ host: '127.0.0.1', port: s.server.port, method: 'POST', path, headers, agent: false }, (res) => {
      let out = '';
      res.on('data', (d: Buffer) => { out += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: out }));
    });
    req.on('error', reject);
    if (chunk === undefined) req.end(body);
    else {
      for (let i = 0; i < body.length; i += chunk) req.write(body.subarray(i, i + chunk));
      req.end();
    }
  });
}

async function noUploadFilesLeft(): Promise<void> {
  const deadline = performance.now() + 2_000;
  while (uploadFiles().length > 0) {
    assert.ok(performance.now() < deadline, `left behind: ${uploadFiles().join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const served = (body: (s: Served) => Promise<void>, config = {}) => withApp({ uploads: UploadsController }, { config }, body);

test('an upload up to 10 KB stays in memory; a larger one comes as a temporary file, gone once the request is answered', async () => {
  await served(async (s) => {
    const small = 'a'.repeat(10 * 1024);
    const large = 'b'.repeat(10 * 1024 + 1);
    const { body, type } = multipartBody({ expect_file1: 'a', times_file1: String(small.length), expect_file2: 'b', times_file2: String(large.length) }, [
      { name: 'file1', filename: 'small.txt', type: 'text/plain', content: small },
      { name: 'file2', filename: 'C:\\Users\\me\\large.txt', content: large },
    ]);
    const answer = await post(s, '/uploads', body, type);
    assert.is(answer.status, 200, answer.body);
    const [inMemory, onDisk] = JSON.parse(answer.body) as Seen[];
    assert.equal({ ...inMemory }, { path: null, existed: false, size: small.length, name: 'small.txt', type: 'text/plain', same: true, streamed: small.length });
    assert.ok(onDisk.path !== null && onDisk.path.startsWith(TMP), String(onDisk.path));
    assert.equal({ ...onDisk, path: null }, { path: null, existed: true, size: large.length, name: 'large.txt', type: null, same: true, streamed: large.length });
    await noUploadFilesLeft();
  });
});

test('a 5 MB upload sent in small chunks is streamed to its file whole', async () => {
  await served(async (s) => {
    const large = 'x'.repeat(5 * 1024 * 1024);
    const { body, type } = multipartBody({ expect_file: 'x', times_file: String(large.length) }, [{ name: 'file', filename: 'big.bin', type: 'application/octet-stream', content: large }]);
    const answer = await post(s, '/uploads', body, type, 16 * 1024);
    assert.is(answer.status, 200, answer.body);
    const [file] = JSON.parse(answer.body) as Seen[];
    assert.equal([file.size, file.same, file.existed, file.streamed], [large.length, true, true, large.length]);
    await noUploadFilesLeft();
  });
});

test('the files are removed when the action fails, and when a later part breaks a limit', async () => {
  await served(async (s) => {
    const big = 'c'.repeat(50_000);
    const failing = multipartBody({ fail: 'yes' }, [{ name: 'file', filename: 'c.txt', content: big }]);
    assert.is((await post(s, '/uploads', failing.body, failing.type)).status, 500);
    await noUploadFilesLeft();
    const tooBig = multipartBody({}, [
      { name: 'file1', filename: 'ok.txt', content: big },
      { name: 'file2', filename: 'too-big.txt', content: 'd'.repeat(200_000) },
    ]);
    const refused = await post(s, '/uploads', tooBig.body, tooBig.type, 8 * 1024);
    assert.is(refused.status, 413);
    await noUploadFilesLeft();
  }, { limits: { multipart: { fileBytes: 100_000 } } });
});

test('the limits are those of a body read whole: files, parts, and the request size while it streams', async () => {
  await served(async (s) => {
    const many = multipartBody({}, Array.from({ length: 3 }, (_, i) => ({ name: `file${i}`, filename: `${i}.txt`, content: 'e'.repeat(20_000) })));
    assert.is((await post(s, '/uploads', many.body, many.type)).status, 413, 'more files than allowed');
    await noUploadFilesLeft();
    const huge = multipartBody({}, [{ name: 'file', filename: 'huge.txt', content: 'f'.repeat(11 * 1024 * 1024) }]);
    assert.is((await post(s, '/uploads', huge.body, huge.type, 256 * 1024)).status, 413, 'over maxBodyBytes (10 MB), with no Content-Length to refuse it early');
    await noUploadFilesLeft();
  }, { limits: { multipart: { files: 2, fileBytes: 100 * 1024 * 1024 } } });
});

test('memoryBytes moves the threshold', async () => {
  await served(async (s) => {
    const { body, type } = multipartBody({ expect_file: 'g', times_file: '100' }, [{ name: 'file', filename: 'g.txt', content: 'g'.repeat(100) }]);
    const [file] = JSON.parse((await post(s, '/uploads', body, type)).body) as Seen[];
    assert.ok(file.path !== null && file.existed);
  }, { limits: { multipart: { memoryBytes: 50 } } });
});

test('a body split into chunks anywhere parses as the whole body does, parts without a Content-Type included', async () => {
  const { body, type } = multipartBody({ title: 'Ünïcode ✓', note: '' }, [
    { name: 'doc', filename: 'untyped.txt', content: 'no type\r\n--not a boundary' },
    { name: 'pic', filename: 'pic.png', type: 'image/png', content: 'PNG...' },
  ]);
  const whole = describe(await parseMultipart(body, type));
  assert.equal(whole.doc, { name: 'untyped.txt', type: null, text: 'no type\r\n--not a boundary' });
  await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 6 }), async (cuts) => {
    const points = [...new Set(cuts)].sort((a, b) => a - b);
    const chunks = [0, ...points].map((start, i) => body.subarray(start, points[i] ?? body.length));
    async function* source() {
      for (const c of chunks) yield c;
    }
    assert.equal(describe(await parseMultipart(source(), type)), whole);
  }), { numRuns: 200 });
  for (let cut = 1; cut < body.length; cut++) {
    async function* two() {
      yield body.subarray(0, cut);
      yield body.subarray(cut);
    }
    assert.equal(describe(await parseMultipart(two(), type)), whole, `split at ${cut}`);
  }
});

function describe(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    out[k] = v instanceof UploadedFile ? { name: v.original_filename, type: v.content_type, text: v.read() } : v;
  }
  return out;
}

test('an UploadedFile backed by a file reads its bytes from the file, and shows only its metadata', async () => {
  const path = `${scratchDir('uploaded-file')}/kept`;
  writeFileSync(path, 'kept bytes');
  const file = new UploadedFile({ path, size: 10 }, 'kept.txt', 'text/plain');
  assert.is(file.read(), 'kept bytes');
  assert.is(file.content.toString(), 'kept bytes');
  assert.is(await text(file.stream()), 'kept bytes');
  assert.is(file.path, path);
  assert.equal(JSON.parse(JSON.stringify(file)), { original_filename: 'kept.txt', content_type: 'text/plain', size: 10 });
  const inMemory = new UploadedFile(Buffer.from('mem'), 'm.txt', null);
  assert.equal([inMemory.path, inMemory.size, await text(inMemory.stream())], [null, 3, 'mem']);
});

test.run();
