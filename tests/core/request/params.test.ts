/**
 * Choosing a body parser by MIME type, merging parameter sources, and the
 * value helpers every parser writes through.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BodyParseError, ParamsParseError, PayloadTooLarge } from '../../../core/errors.ts';
import { createMimeRegistry } from '../../../core/mime/types.ts';
import { bytesToText, isParamObject, ownParam, setParam } from '../../../core/request/param-values.ts';
import {
  DEFAULT_PARAM_LIMITS, UploadedFile, isUnsafeKey, mergeParameters, originalFilename, parseBodyParams, resolveParamLimits, type Params,
} from '../../../core/request/params.ts';

const mime = createMimeRegistry();
const type = (name: string) => mime.get(name)!;
const is = (kind: new (...args: never[]) => Error, code?: string) => (e: unknown) => e instanceof kind && (code === undefined || (e as { code?: string }).code === code);

const body = suite('parseBodyParams');

body('url-encoded bodies parse like query strings, from bytes or text', () => {
  assert.equal(parseBodyParams(type('url_encoded_form'), 'a=1&b[]=2'), { a: '1', b: ['2'] });
  assert.equal(parseBodyParams(type('url_encoded_form'), Buffer.from('a=%C3%A9')), { a: 'é' });
});

body('a trailing NUL or &_= (old ajax libraries) is trimmed from url-encoded bodies', () => {
  assert.equal(parseBodyParams(type('url_encoded_form'), 'a=1&_=\0'), { a: '1' });
  assert.equal(parseBodyParams(type('url_encoded_form'), 'a=1&_='), { a: '1' });
});

body('JSON and XML bodies (XML under any of its type strings) parse synchronously', () => {
  assert.equal(parseBodyParams(type('json'), '{"a": 1}'), { a: 1 });
  assert.equal(parseBodyParams(mime.lookup('text/x-json'), Buffer.from('[1]')), { _json: [1] });
  assert.equal(parseBodyParams(mime.lookup('text/xml'), '<a>1</a>'), { a: '1' });
});

body('multipart bodies parse asynchronously, given the Content-Type header with its boundary', async () => {
  const form = '--AaB03x\r\nContent-Disposition: form-data; name="foo"\r\n\r\nbar\r\n--AaB03x--\r\n';
  const result = parseBodyParams(type('multipart_form'), Buffer.from(form), {}, 'multipart/form-data; boundary=AaB03x');
  assert.instance(result, Promise);
  assert.equal(await result, { foo: 'bar' });
  assert.equal(await parseBodyParams(type('multipart_form'), form, undefined, 'multipart/form-data; boundary=AaB03x'), { foo: 'bar' });
  // Without the header there is no boundary to read.
  await (parseBodyParams(type('multipart_form'), form) as Promise<Params>).then(
    () => assert.unreachable('needs a boundary'),
    (e: unknown) => assert.ok(is(BodyParseError, 'SBX_ERR_MULTIPART_PARSE')(e)),
  );
});

body('other types, no type, and empty bodies give no parameters', () => {
  assert.equal(parseBodyParams(type('text'), '{"a": 1}'), {});
  assert.equal(parseBodyParams(type('yaml'), '--- {a: 1}'), {});
  assert.equal(parseBodyParams(mime.lookup('application/octet-stream'), 'a=1'), {});
  assert.equal(parseBodyParams(null, 'a=1'), {});
  assert.equal(parseBodyParams(type('json'), ''), {});
  assert.equal(parseBodyParams(type('multipart_form'), new Uint8Array()), {});
});

body('a body over bodyBytes is a 413 before it is decoded; invalid UTF-8 is a 400', () => {
  assert.throws(() => parseBodyParams(type('json'), Buffer.alloc(2000, 0x20), { bodyBytes: 1000 }), is(PayloadTooLarge));
  assert.throws(() => parseBodyParams(type('url_encoded_form'), Buffer.from([0x61, 0x3d, 0xe9])), is(ParamsParseError, 'SBX_ERR_PARAMS_ENCODING'));
});

const merge = suite('mergeParameters');

merge('body, then query, then path parameters: later sources win', () => {
  assert.equal(mergeParameters({ foo: 1, a: 'body' }, { bar: 2, a: 'query' }), { foo: 1, bar: 2, a: 'query' });
  assert.equal(mergeParameters({ id: 'body' }, { id: 'query' }, { id: '7', action: 'show' }), { id: '7', action: 'show' });
});

merge('the merge is shallow and writes plain data keys', () => {
  const nested = { x: '1' };
  const merged = mergeParameters({ a: nested }, { toString: 'q' });
  assert.is(merged.a, nested);
  assert.is(Object.getOwnPropertyDescriptor(merged, 'toString')?.value, 'q');
});

const values = suite('parameter values and limits');

values('setParam writes data properties and refuses prototype names', () => {
  const target: Params = {};
  setParam(target, '__proto__', 'x');
  setParam(target, 'constructor', 'x');
  setParam(target, 'prototype', 'x');
  setParam(target, 'toString', 'y');
  assert.equal(Object.keys(target), ['toString']);
  assert.is(Object.getPrototypeOf(target), Object.prototype);
  assert.is(ownParam(target, 'toString'), 'y');
  assert.is(ownParam(target, 'valueOf'), undefined);
  assert.ok(isUnsafeKey('__proto__') && isUnsafeKey('constructor') && isUnsafeKey('prototype'));
  assert.not.ok(isUnsafeKey('proto'));
});

values('isParamObject is true only for plain hashes', () => {
  assert.ok(isParamObject({}));
  for (const v of [[], null, 'x', new Date(), new UploadedFile(Buffer.alloc(0), 'a', null), Object.create(null)]) assert.not.ok(isParamObject(v));
});

values('originalFilename keeps what follows the last slash, backslash or colon', () => {
  assert.is(originalFilename('foo.jpg'), 'foo.jpg');
  assert.is(originalFilename('c:\\Documents and Settings\\foo\\Desktop\\bar.jpg'), 'bar.jpg');
  assert.is(originalFilename('/tmp/../etc/passwd'), 'passwd');
  assert.is(originalFilename('Macintosh HD:Users:me:pic.png'), 'pic.png');
  assert.is(originalFilename('..'), '');
  assert.is(originalFilename('dir/.'), '');
  assert.is(originalFilename('dir/'), '');
});

values('bytesToText reads UTF-8, and keeps other bytes one character each', () => {
  assert.is(bytesToText(Buffer.from('héllo')), 'héllo');
  assert.is(bytesToText(Buffer.from([0xe9, 0x41])), '\u00e9A');
  assert.is(bytesToText(new Uint8Array()), '');
});

values('UploadedFile reads its content and serialises without it', () => {
  const file = new UploadedFile(Buffer.from('abc'), 'a.txt', 'text/plain');
  assert.is(file.read(), 'abc');
  assert.is(file.size, 3);
  assert.is(JSON.stringify(file), '{"original_filename":"a.txt","content_type":"text/plain","size":3}');
});

values('limits default as documented, and partial limits keep the other defaults', () => {
  assert.equal(DEFAULT_PARAM_LIMITS, {
    depth: 32, keys: 1000, arrayLength: 1000, bodyBytes: 1048576,
    multipart: { parts: 100, files: 10, fileBytes: 10485760, fieldBytes: 1048576 },
  });
  assert.ok(Object.isFrozen(DEFAULT_PARAM_LIMITS) && Object.isFrozen(DEFAULT_PARAM_LIMITS.multipart));
  const resolved = resolveParamLimits({ keys: 5, multipart: { files: 1 } });
  assert.is(resolved.keys, 5);
  assert.is(resolved.depth, 32);
  assert.equal(resolved.multipart, { parts: 100, files: 1, fileBytes: 10485760, fieldBytes: 1048576 });
});

body.run();
merge.run();
values.run();
