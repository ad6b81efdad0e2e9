/**
 * The CGI `name => [values]` conversion multipart bodies go through:
 * round-by-round binding, typed values and uploads.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, ParamsParseError } from '../../../core/errors.ts';
import { UploadPart, UploadedFile } from '../../../core/request/param-values.ts';
import { parseRequestParameters } from '../../../core/request/request-parameters.ts';

const params = suite('parseRequestParameters');

params('plain names take their first value; bracketed names nest', () => {
  assert.equal(parseRequestParameters([['a', ['1', '2']], ['b[c]', ['3']], ['d[]', ['4', '5']]]), { a: '1', b: { c: '3' }, d: ['4', '5'] });
});

params('bracketed names bind one value per round, so parallel arrays pair up into hashes', () => {
  const result = parseRequestParameters([
    ['note[viewers][viewer][][type]', ['User', 'Group']],
    ['note[viewers][viewer][][id]', ['1', '2']],
  ]);
  assert.equal(result, { note: { viewers: { viewer: [{ type: 'User', id: '1' }, { type: 'Group', id: '2' }] } } });
});

params('blank and null names are dropped; a null value is the empty string', () => {
  assert.equal(parseRequestParameters([[null, null], ['', ['Save']], ['  ', ['x']], ['nil', [null]], ['none', null], ['empty[]', []]]), {
    nil: '',
    none: '',
    empty: [''],
  });
});

params('a name given twice extends one list of values', () => {
  assert.equal(parseRequestParameters([['a[]', ['1']], ['a[]', ['2']]]), { a: ['1', '2'] });
});

params('a later bracket-free name replaces what a bracketed one built (Rails assigns it outright)', () => {
  assert.equal(parseRequestParameters([['a[b]', ['1']], ['a', ['2']]]), { a: '2' });
});

params('malformed names keep the containers scanned so far', () => {
  assert.equal(parseRequestParameters([['a/b[c]d', ['e']], ['a/b@[c]d[e][]', ['f']]]), { 'a/b': {}, 'a/b@': {} });
});

params('an upload with a filename becomes an UploadedFile named by its basename', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff]);
  const result = parseRequestParameters([
    ['photo', [new UploadPart(jpeg, 'image/jpeg', 'c:\\Documents and Settings\\foo\\Desktop\\bar.jpg')]],
    ['doc', [new UploadPart(Buffer.from('x'), null, '/home/me/notes.txt')]],
  ]);
  const photo = result.photo as UploadedFile;
  assert.instance(photo, UploadedFile);
  assert.is(photo.original_filename, 'bar.jpg');
  assert.is(photo.content_type, 'image/jpeg');
  assert.is(photo.size, 3);
  assert.equal(photo.content, jpeg);
  assert.is((result.doc as UploadedFile).original_filename, 'notes.txt');
  assert.is((result.doc as UploadedFile).content_type, null);
});

params('an upload without a non-blank filename is read as a string, whatever its type', () => {
  const result = parseRequestParameters([
    ['a', [new UploadPart(Buffer.from('abc'), 'text/plain', '')]],
    ['b', [new UploadPart(Buffer.from('def'), null, null)]],
    ['c', [new UploadPart(Buffer.from('ghi'), null, '   ')]],
    ['bin', [new UploadPart(Buffer.from([0xff, 0x00, 0x41]))]],
  ]);
  assert.equal(result, { a: 'abc', b: 'def', c: 'ghi', bin: '\u00ff\u0000A' });
});

params('arrays of values map element by element; existing UploadedFiles pass through', () => {
  const file = new UploadedFile(Buffer.from(''), 'x.png', 'image/png');
  const result = parseRequestParameters([['mixed', [[new UploadPart(Buffer.from('One')), 'Two', null, file]]]]);
  assert.equal(result.mixed, ['One', 'Two', '', file]);
});

params('prototype names are dropped, in plain and bracketed names alike', () => {
  const result = parseRequestParameters([['__proto__', ['x']], ['__proto__[polluted]', ['1']], ['post[constructor][prototype][admin]', ['1']], ['post[title]', ['x']]]);
  assert.equal(result, { post: { title: 'x' } });
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

params('limits: values count against keys, arrays against arrayLength', () => {
  assert.throws(() => parseRequestParameters([['a[]', ['1', '2', '3']]], { keys: 2 }), (e: unknown) => e instanceof ParamsParseError && e.code === 'SBX_ERR_PARAMS_COUNT');
  assert.throws(() => parseRequestParameters([['a', [['1', '2', '3']]]], { arrayLength: 2 }), (e: unknown) => e instanceof ParamsParseError && e.code === 'SBX_ERR_PARAMS_COUNT');
  assert.throws(() => parseRequestParameters([['a[b][c]', ['1']]], { depth: 1 }), (e: unknown) => e instanceof ParamsParseError && e.code === 'SBX_ERR_PARAMS_DEPTH');
});

params('a value that is none of string, null, array or upload is a programming error', () => {
  assert.throws(() => parseRequestParameters([['a', [42]]]), (e: unknown) => e instanceof ArgumentError && e.status === 500);
});

params.run();
