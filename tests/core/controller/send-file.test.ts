/**
 * `send_data` and `send_file`, as Rails 2.1's: bytes or a file as a download (or inline), with
 * Content-Type (given, or a registered format's by name; no charset added), Content-Disposition with the
 * file name (escaped, and in RFC 5987's form beside it when it is not ASCII), Content-Transfer-Encoding
 * binary and Cache-Control private. A file goes from disk over real HTTP and through the tunnel, whole
 * with `stream: false`, or as an X-Sendfile header; a path that is no readable file is a MissingFile.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, Controller, MissingFile } from '../../../core/index.ts';
import { dispositionHeader } from '../../../core/controller/send-file.ts';
import { tunnel } from '../../../transport/index.ts';
import { appWith, call, tempDir, withServer } from '../../support/harness.ts';

const test = suite('send_data and send_file');
const dir = tempDir('send-file');
const BIG = Buffer.alloc(3 * 1024 * 1024 + 17);
for (let i = 0; i < BIG.length; i++) BIG[i] = (i * 31 + (i >> 9)) & 0xff;
writeFileSync(join(dir.path, 'big.bin'), BIG);
writeFileSync(join(dir.path, 'report.pdf'), '%PDF-1.4 a report');
writeFileSync(join(dir.path, 'empty.txt'), '');
mkdirSync(join(dir.path, 'folder'));
test.after(() => dir.remove());

const CSV = 'id,title\n1,"Hello, world"\n';

class ExportsController extends Controller {
  csv(): void {
    this.send_data(CSV, { filename: 'posts.csv', type: 'text/csv' });
  }

  named_type(): void {
    this.send_data(CSV, { type: String(this.params.type) });
  }

  inline(): void {
    this.send_data(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { type: 'image/png', disposition: 'inline', status: 'accepted' });
  }

  file(): void {
    this.send_file(join(dir.path, String(this.params.name)), {
      ...(this.params.whole === '1' ? { stream: false } : {}),
      ...(this.params.type === undefined ? {} : { type: String(this.params.type) }),
    });
  }

  url_named(): void {
    this.send_file(join(dir.path, 'report.pdf'), { url_based_filename: true });
  }

  sendfile_header(): void {
    this.send_file(join(dir.path, 'report.pdf'), { x_sendfile: true, type: 'application/pdf' });
  }

  misspelt(): void {
    this.send_data(CSV, { file_name: 'x.csv' } as never);
  }
}

const app = () => appWith({ exports: ExportsController }, { config: { consider_all_requests_local: true } });

test('send_data answers the bytes as a download named by filename, with its type and no charset, binary, and private', async () => {
  const res = await call(app(), 'GET /exports/csv');
  assert.is(res.status, 200);
  assert.is(res.body, CSV);
  assert.is(res.headers['Content-Type'], 'text/csv');
  assert.is(res.headers['Content-Disposition'], 'attachment; filename="posts.csv"');
  assert.is(res.headers['Content-Transfer-Encoding'], 'binary');
  assert.is(res.headers['Cache-Control'], 'private');
  assert.is(res.headers['Content-Length'], String(Buffer.byteLength(CSV)));
  assert.ok(res.headers.ETag, 'a body in memory gets its ETag, as any render does');
});

test('a type given by a registered format\'s name is that format\'s; an unknown one is an ArgumentError; the default is octet-stream', async () => {
  assert.is((await call(app(), 'GET /exports/named_type?type=csv')).headers['Content-Type'], 'text/csv');
  assert.is((await call(app(), 'GET /exports/named_type?type=json')).headers['Content-Type'], 'application/json');
  const unknown = await call(app(), 'GET /exports/named_type?type=spreadsheet', { remoteAddress: '127.0.0.1' });
  assert.is(unknown.status, 500);
  assert.match(unknown.body, 'ArgumentError');
  assert.match(unknown.body, 'Unknown MIME type spreadsheet');
  const plain = await call(app(), 'GET /exports/file?name=report.pdf');
  assert.is(plain.headers['Content-Type'], 'application/octet-stream');
  assert.is(plain.headers['Content-Disposition'], 'attachment; filename="report.pdf"', 'the file\'s own name by default');
});

test('disposition inline and a status are kept; bytes go as they are', async () => {
  const res = await call(app(), 'GET /exports/inline');
  assert.is(res.status, 202);
  assert.is(res.headers['Content-Disposition'], 'inline');
  assert.equal([...Buffer.from(res.message.body as Uint8Array)], [0x89, 0x50, 0x4e, 0x47]);
});

test('a file name is escaped for its header, and one outside ASCII goes in RFC 5987\'s form beside an ASCII stand-in', () => {
  assert.is(dispositionHeader('attachment', 'plain.txt'), 'attachment; filename="plain.txt"');
  assert.is(dispositionHeader('attachment', 'say "hi"\\.txt'), 'attachment; filename="say \\"hi\\"\\\\.txt"');
  assert.is(dispositionHeader('attachment', 'evil\r\nSet-Cookie: x=1.txt'), 'attachment; filename="evilSet-Cookie: x=1.txt"');
  assert.is(dispositionHeader('inline', 'résumé (1).pdf'), 'inline; filename="r_sum_ (1).pdf"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9%20%281%29.pdf');
  assert.is(dispositionHeader('attachment', 'bad\uD800.txt'), 'attachment; filename="bad_.txt"; filename*=UTF-8\'\'bad%EF%BF%BD.txt');
});

test('send_file over HTTP sends a large file from disk, byte for byte, with its length and no ETag; HEAD gets the headers alone', async () => {
  await withServer(app(), {}, async (server) => {
    const res = await fetch(`${server.url}/exports/file?name=big.bin`);
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-length'), String(BIG.length));
    assert.is(res.headers.get('content-disposition'), 'attachment; filename="big.bin"');
    assert.is(res.headers.get('etag'), null);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(BIG), 'the same bytes');
    const head = await fetch(`${server.url}/exports/file?name=big.bin`, { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(head.headers.get('content-length'), String(BIG.length));
    assert.is((await head.arrayBuffer()).byteLength, 0);
    const empty = await fetch(`${server.url}/exports/file?name=empty.txt`);
    assert.is(empty.headers.get('content-length'), '0');
    assert.is(await empty.text(), '');
  });
});

test('send_file through the tunnel answers the same bytes and headers', async () => {
  await withServer(app(), {}, async (server) => {
    const client = await tunnel(`ws://127.0.0.1:${server.port}${server.tunnel!.path}`, { cookies: false, reconnect: false });
    try {
      const res = await client.request({ method: 'GET', path: '/exports/file?name=report.pdf&type=application%2Fpdf' });
      assert.is(res.status, 200);
      assert.is(res.headers.get('content-type'), 'application/pdf');
      assert.is(res.headers.get('content-disposition'), 'attachment; filename="report.pdf"');
      assert.is(await res.text(), '%PDF-1.4 a report');
    } finally {
      await client.close();
    }
  });
});

test('stream: false reads the file whole (with an ETag, as any body in memory); url_based_filename leaves the name out', async () => {
  const whole = await call(app(), 'GET /exports/file?name=report.pdf&whole=1');
  assert.is(whole.body, '%PDF-1.4 a report');
  assert.ok(whole.headers.ETag);
  assert.is((await call(app(), 'GET /exports/url_named')).headers['Content-Disposition'], 'attachment');
});

test('x_sendfile sends no body, only the path in X-Sendfile for the front server, with the file\'s headers', async () => {
  const res = await call(app(), 'GET /exports/sendfile_header');
  assert.is(res.status, 200);
  assert.is(res.headers['X-Sendfile'], join(dir.path, 'report.pdf'));
  assert.is(res.headers['Content-Type'], 'application/pdf');
  assert.is(res.body, '');
});

test('a path that is no readable file is a MissingFile (500) naming it; a misspelt option is an ArgumentError naming it', async () => {
  for (const name of ['no-such-file.txt', 'folder']) {
    const res = await call(app(), `GET /exports/file?name=${name}`, { remoteAddress: '127.0.0.1' });
    assert.is(res.status, 500, name);
    assert.match(res.body, 'MissingFile');
    assert.match(res.body, `Cannot read file ${join(dir.path, name)}`);
    assert.not.ok(res.headers['Content-Disposition'], 'no download headers on the error page');
  }
  assert.is(new MissingFile('/x').code, 'SBX_ERR_MISSING_FILE');
  const misspelt = await call(app(), 'GET /exports/misspelt', { remoteAddress: '127.0.0.1' });
  assert.is(misspelt.status, 500);
  assert.match(misspelt.body, 'Unknown send_data option "file_name" (did you mean filename?)');
  assert.instance(new ArgumentError('x'), ArgumentError);
});

test('an action cache keeps send_data\'s bytes, and leaves a file sent from disk alone', async () => {
  class CachedController extends Controller {
    static {
      this.caches_action('data', 'file');
    }

    data(): void {
      this.send_data(`made ${++made}`, { filename: 'made.txt', type: 'text/plain' });
    }

    file(): void {
      made++;
      this.send_file(join(dir.path, 'report.pdf'));
    }
  }
  let made = 0;
  const cached = appWith({ cached: CachedController }, { config: { perform_caching: true } });
  assert.is((await call(cached, 'GET /cached/data')).body, 'made 1');
  const again = await call(cached, 'GET /cached/data');
  assert.is(again.body, 'made 1', 'answered from the cache');
  assert.is(again.headers['Content-Disposition'], 'attachment; filename="made.txt"');
  await withServer(cached, {}, async (server) => {
    for (let i = 0; i < 2; i++) assert.is(await (await fetch(`${server.url}/cached/file`)).text(), '%PDF-1.4 a report');
  });
  assert.is(made, 3, 'the file action ran each time');
});

test.run();
