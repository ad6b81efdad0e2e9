/**
 * multipart/form-data through busboy: fields and files, Rails' typing of
 * parts, the 10240-byte boundary cases, limits (413) and malformed bodies (400).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BodyParseError, ParamsParseError, PayloadTooLarge } from '../../../core/errors.ts';
import { parseMultipart } from '../../../core/request/multipart.ts';
import { UploadedFile } from '../../../core/request/param-values.ts';

interface Part {
  name?: string;
  filename?: string;
  type?: string;
  body: string | Buffer;
  /** Extra header lines. */
  headers?: string[];
}

/** A multipart body with Rails' fixture boundary (or another). */
function form(parts: Part[], boundary = 'AaB03x'): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = ['form-data', p.name === undefined ? null : `name="${p.name}"`, p.filename === undefined ? null : `filename="${p.filename}"`]
      .filter((x) => x !== null)
      .join('; ');
    const head = [`--${boundary}`, `Content-Disposition: ${disposition}`, ...(p.type ? [`Content-Type: ${p.type}`] : []), ...(p.headers ?? []), '', ''].join('\r\n');
    chunks.push(Buffer.from(head, 'utf8'), Buffer.isBuffer(p.body) ? p.body : Buffer.from(p.body, 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const TYPE = 'multipart/form-data; boundary=AaB03x';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected a rejection');
}

const multipart = suite('parseMultipart');

multipart('fields become parameters and nest by their names', async () => {
  const body = form([{ name: 'foo', body: 'bar' }, { name: 'post[title]', body: 'Hello' }, { name: 'tags[]', body: 'a' }, { name: 'tags[]', body: 'b' }, { name: 'empty', body: '' }]);
  assert.equal(await parseMultipart(body, TYPE), { foo: 'bar', post: { title: 'Hello' }, tags: ['a', 'b'], empty: '' });
});

multipart('a part with a filename is an UploadedFile; its content type is null when the part declared none', async () => {
  const body = form([
    { name: 'file', filename: 'file.txt', type: 'text/plain', body: 'contents' },
    { name: 'csv', filename: 'file.csv', body: 'a,b' },
  ]);
  const params = await parseMultipart(body, TYPE);
  const file = params.file as UploadedFile;
  assert.instance(file, UploadedFile);
  assert.equal([file.original_filename, file.content_type, file.read(), file.size], ['file.txt', 'text/plain', 'contents', 8]);
  assert.is((params.csv as UploadedFile).content_type, null);
});

multipart('filenames are reduced to basenames, Windows and traversal paths included', async () => {
  const body = form([
    { name: 'a', filename: '../../../../../tmp/pwned.txt', type: 'text/plain', body: 'x' },
    { name: 'b', filename: '..\\..\\windows\\evil.bat', type: 'text/plain', body: 'x' },
    { name: 'c', filename: 'C:\\Users\\me\\photo.jpg', type: 'image/jpeg', body: 'x' },
  ]);
  const params = await parseMultipart(body, TYPE);
  assert.equal(['a', 'b', 'c'].map((k) => (params[k] as UploadedFile).original_filename), ['pwned.txt', 'evil.bat', 'photo.jpg']);
});

multipart('binary file content is kept byte for byte', async () => {
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const params = await parseMultipart(form([{ name: 'bin', filename: 'b.dat', type: 'application/octet-stream', body: bytes }]), TYPE);
  assert.equal((params.bin as UploadedFile).content, bytes);
});

multipart('a part without a filename is a string even with a Content-Type (a nested multipart stays raw)', async () => {
  const binary = Buffer.from([0x2d, 0xff, 0xfe, 0x00, 0x41]);
  const params = await parseMultipart(
    form([
      { name: 'files', type: 'multipart/mixed, boundary=BbC04y', body: binary },
      { name: 'raw', type: 'application/octet-stream', body: 'octets' },
      { name: 'blank', filename: '', type: 'text/plain', body: 'abc' },
    ]),
    TYPE,
  );
  assert.is(params.files, '-\u00ff\u00fe\u0000A');
  assert.is(Buffer.byteLength(params.files as string, 'latin1'), 5);
  assert.is(params.raw, 'octets');
  assert.is(params.blank, 'abc');
});

multipart('UTF-8 fields and filenames decode as UTF-8; a declared charset is honoured', async () => {
  const params = await parseMultipart(
    form([
      { name: 'name', body: 'Zoë — ☃' },
      { name: 'f', filename: 'résumé.pdf', type: 'application/pdf', body: 'x' },
      { name: 'latin', type: 'text/plain; charset=iso-8859-1', body: Buffer.from([0x63, 0x61, 0x66, 0xe9]) },
      { name: 'sjis', type: 'text/plain; charset=utf-8', body: '日本' },
    ]),
    TYPE,
  );
  assert.is(params.name, 'Zoë — ☃');
  assert.is((params.f as UploadedFile).original_filename, 'résumé.pdf');
  assert.is(params.latin, 'café');
  assert.is(params.sjis, '日本');
});

multipart('parts without a name, or with an empty one, are skipped', async () => {
  const params = await parseMultipart(form([{ body: 'anonymous' }, { name: '', body: 'Save' }, { name: 'kept', body: 'yes' }]), TYPE);
  assert.equal(params, { kept: 'yes' });
});

multipart('a delimiter ending exactly at byte 10240 (Rails boundary_problem_file) parses', async () => {
  const body = Buffer.concat([
    Buffer.from('--AaB03x\r\nContent-Disposition: form-data; name="file"; filename="file.txt"\r\nContent-Type: text/plain\r\n\r\n'),
    Buffer.alloc(10134, 'b'),
    Buffer.from('\r\n--AaB03x\r\nContent-Disposition: form-data; name="foo"\r\n\r\nbar\r\n--AaB03x--\r\n'),
  ]);
  assert.is(body.indexOf('\r\n--AaB03x\r\n', 10) + 12, 10250, 'the delimiter occupies bytes 10238..10249');
  const params = await parseMultipart(body, TYPE);
  assert.is(params.foo, 'bar');
  assert.is((params.file as UploadedFile).size, 10134);
});

multipart('a boundary 10240 bytes long parses', async () => {
  const boundary = 'x'.repeat(10240);
  const params = await parseMultipart(form([{ name: 'a', body: 'hello' }, { name: 'f', filename: 'f.txt', body: 'file' }], boundary), `multipart/form-data; boundary=${boundary}`);
  assert.is(params.a, 'hello');
  assert.is((params.f as UploadedFile).read(), 'file');
  assert.is((params.f as UploadedFile).content_type, null);
});

multipart('a preamble before the first delimiter is ignored, and upload types still read null when absent', async () => {
  const body = Buffer.concat([Buffer.from('This is a preamble.\r\n'), form([{ name: 'f', filename: 'f.txt', body: 'x' }, { name: 'g', filename: 'g.txt', type: 'text/csv', body: 'y' }])]);
  const params = await parseMultipart(body, TYPE);
  assert.equal([(params.f as UploadedFile).content_type, (params.g as UploadedFile).content_type], [null, 'text/csv']);
});

multipart('a quoted boundary parses', async () => {
  const params = await parseMultipart(form([{ name: 'f', filename: 'f.txt', body: 'x' }], 'a b'), 'multipart/form-data; boundary="a b"');
  assert.is((params.f as UploadedFile).content_type, null);
});

multipart('prototype field names are dropped', async () => {
  const params = await parseMultipart(
    form([{ name: '__proto__[polluted]', body: '1' }, { name: 'post[constructor][prototype][admin]', body: '1' }, { name: 'post[title]', body: 'x' }]),
    TYPE,
  );
  assert.equal(params, { post: { title: 'x' } });
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(({} as Record<string, unknown>).admin, undefined);
});

multipart('malformed bodies are a 400 BodyParseError, never a crash', async () => {
  const cases: [Buffer | string, string][] = [
    ['--X\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--X--\r\n', 'multipart/form-data'],
    ['--X\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated', 'multipart/form-data; boundary=X'],
    // A file part cut off before its delimiter errors the part's own stream.
    ['--X\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\n\r\nabc', 'multipart/form-data; boundary=X'],
    ['--X\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\n', 'multipart/form-data; boundary=X'],
    ['--X\r\n Content-Disposition: form-data; name="a"\r\n\r\n\r\n--X--', 'multipart/form-data; boundary=X'],
    ['a=1', 'application/x-www-form-urlencoded'],
  ];
  for (const [body, type] of cases) {
    const error = await rejection(parseMultipart(Buffer.from(body), type));
    assert.instance(error, BodyParseError, type);
    assert.is((error as BodyParseError).status, 400);
    assert.is((error as BodyParseError).code, 'SBX_ERR_MULTIPART_PARSE');
  }
});

multipart('too many parts, too many files, or a part over its byte limit is a 413', async () => {
  const parts = (error: unknown) => (error as PayloadTooLarge).limit;
  const many = form(Array.from({ length: 5 }, () => ({ name: 'a[]', body: '' })));
  assert.is(parts(await rejection(parseMultipart(many, TYPE, { multipart: { parts: 3 } }))), 'multipart.parts');
  const files = form(Array.from({ length: 3 }, (_, i) => ({ name: `f${i}`, filename: `${i}.txt`, body: 'x' })));
  assert.is(parts(await rejection(parseMultipart(files, TYPE, { multipart: { files: 2 } }))), 'multipart.files');
  const big = form([{ name: 'f', filename: 'big.bin', body: Buffer.alloc(2000) }]);
  assert.is(parts(await rejection(parseMultipart(big, TYPE, { multipart: { fileBytes: 1000 } }))), 'multipart.fileBytes');
  const field = form([{ name: 'text', body: 'y'.repeat(2000) }]);
  assert.is(parts(await rejection(parseMultipart(field, TYPE, { multipart: { fieldBytes: 1000 } }))), 'multipart.fieldBytes');
  const octets = form([{ name: 'raw', type: 'application/octet-stream', body: Buffer.alloc(2000) }]);
  const error = await rejection(parseMultipart(octets, TYPE, { multipart: { fieldBytes: 1000 } }));
  assert.instance(error, PayloadTooLarge);
  assert.is((error as PayloadTooLarge).status, 413);
});

multipart('the parameter limits apply after grouping (keys, depth)', async () => {
  const body = form([{ name: 'a[]', body: '1' }, { name: 'a[]', body: '2' }, { name: 'a[]', body: '3' }]);
  const error = await rejection(parseMultipart(body, TYPE, { keys: 2 }));
  assert.instance(error, ParamsParseError);
  assert.is((error as ParamsParseError).code, 'SBX_ERR_PARAMS_COUNT');
});

multipart('a Uint8Array view into a larger buffer is read from its own bytes', async () => {
  const body = form([{ name: 'foo', body: 'bar' }]);
  const padded = Buffer.concat([Buffer.from('garbage'), body, Buffer.from('trailing')]);
  const view = new Uint8Array(padded.buffer, padded.byteOffset + 7, body.length);
  assert.equal(await parseMultipart(view, TYPE), { foo: 'bar' });
});

multipart.run();
