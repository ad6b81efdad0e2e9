/**
 * XML bodies as Rails 2.1's Hash.from_xml reads them: root key, attributes,
 * dasherised names, repeated elements, typecasts, uploads, and the refusals.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BodyParseError, ParamsParseError, PayloadTooLarge } from '../../../core/errors.ts';
import { UploadedFile } from '../../../core/request/param-values.ts';
import { parseXmlParams } from '../../../core/request/xml-params.ts';

const xml = suite('parseXmlParams');

const is = (type: new (...args: never[]) => Error, code?: string) => (e: unknown) => e instanceof type && (code === undefined || (e as { code?: string }).code === code);

xml('the root element is the top key; attributes sit beside children as strings', () => {
  assert.equal(parseXmlParams('<entry attributed="true"><summary>content...</summary></entry>'), { entry: { attributed: 'true', summary: 'content...' } });
  assert.equal(parseXmlParams('<type attributed="true"><summary>content...</summary></type>'), { type: { attributed: 'true', summary: 'content...' } });
});

xml('dashes in element and attribute names become underscores', () => {
  assert.equal(parseXmlParams('<first-key data-id="1">\n<sub-key>...</sub-key>\n</first-key>'), { first_key: { data_id: '1', sub_key: '...' } });
});

xml('an empty body is {}; an XML declaration, comments and indentation are not content', () => {
  assert.equal(parseXmlParams(''), {});
  assert.equal(parseXmlParams('  \n'), {});
  assert.equal(parseXmlParams('<?xml version="1.0" encoding="UTF-8"?>\n<!-- c -->\n<a>\n  <b>1</b>\n</a>\n'), { a: { b: '1' } });
});

xml('repeated elements become arrays, each typed on its own', () => {
  const params = parseXmlParams(`
    <data>
      <a type="integer">15</a>
      <b type="boolean">false</b>
      <c type="boolean">true</c>
      <d type="date">2005-03-17</d>
      <e type="datetime">2005-03-17T21:41:07Z</e>
      <f>unparsed</f>
      <g type="integer">1</g>
      <g>hello</g>
      <g type="date">1974-07-25</g>
    </data>`);
  const data = params.data as Record<string, unknown>;
  assert.is(data.a, 15);
  assert.is(data.b, false);
  assert.is(data.c, true);
  assert.equal(data.d, new Date(Date.UTC(2005, 2, 17)));
  assert.equal(data.e, new Date('2005-03-17T21:41:07Z'));
  assert.is(data.f, 'unparsed');
  assert.equal(data.g, [1, 'hello', new Date(Date.UTC(1974, 6, 25))]);
});

xml('numbers read as Ruby reads them; yaml and symbol stay strings; base64Binary decodes', () => {
  const params = parseXmlParams(`<v>
    <i type="integer"> 1_000abc</i><j type="integer">none</j><k type="float">2.5e1</k><l type="decimal">x</l>
    <m type="double">-0.5</m><y type="yaml">--- !ruby/object:Foo {}</y><s type="symbol">admin</s>
    <b type="base64Binary">aGVsbG8=</b><t type="string">kept</t><u type="unknown">as is</u><z type="boolean"> 1 </z>
    <e type="datetime">2005-03-17T21:41:07</e><o type="datetime">2005-03-17T23:41:07+02:00</o>
  </v>`);
  assert.equal(params.v, {
    i: 1000, j: 0, k: 25, l: 0, m: -0.5, y: '--- !ruby/object:Foo {}', s: 'admin', b: 'hello', t: 'kept', u: 'as is', z: true,
    e: new Date('2005-03-17T21:41:07Z'), o: new Date('2005-03-17T21:41:07Z'),
  });
});

xml('empty elements are null, except typed strings, which are empty strings', () => {
  assert.equal(parseXmlParams('<r><a/><b></b><c>   </c><d type="integer"/><e type="string"/><f nil="true">x</f><g type="string" nil="true"/></r>'), {
    r: { a: null, b: null, c: null, d: null, e: '', f: 'x', g: null },
  });
  // A <type> element is data, not a type attribute.
  assert.equal(parseXmlParams('<r><q><type>x</type></q></r>'), { r: { q: { type: 'x' } } });
});

xml('type="array" collects the children, whatever their name', () => {
  assert.equal(parseXmlParams('<r><ids type="array"><id type="integer">1</id><id type="integer">2</id></ids></r>'), { r: { ids: [1, 2] } });
  assert.equal(parseXmlParams('<r><ids type="array"><id>1</id></ids></r>'), { r: { ids: ['1'] } });
  assert.equal(parseXmlParams('<r><ids type="array"/><more type="array">text</more></r>'), { r: { ids: [], more: [] } });
  assert.throws(() => parseXmlParams('<r><ids type="array" count="2"></ids></r>'), is(BodyParseError, 'SBX_ERR_XML_PARSE'));
});

xml('type="file" elements become uploads; a lone file child collapses into its parent', () => {
  const params = parseXmlParams(`<person><name>David</name><avatars>
    <avatar type='file' name='me.jpg' content_type='image/jpg'>QUJD\n</avatar>
    <avatar type='file' name='c:\\dir\\you.gif' content_type='image/gif'>REVG\n</avatar>
  </avatars><photo><file type="file">R0hJ</file></photo></person>`);
  const person = params.person as Record<string, unknown>;
  const avatars = (person.avatars as { avatar: UploadedFile[] }).avatar;
  assert.equal(avatars.map((f) => [f.original_filename, f.content_type, f.read()]), [['me.jpg', 'image/jpg', 'ABC'], ['you.gif', 'image/gif', 'DEF']]);
  const photo = person.photo as UploadedFile;
  assert.instance(photo, UploadedFile);
  assert.equal([photo.original_filename, photo.content_type, photo.read()], ['', null, 'GHI']);
});

xml('entities and character references decode; CDATA is text', () => {
  assert.equal(parseXmlParams('<a>x &amp; y &lt;z&gt; &#65;&#x42; <![CDATA[<c>]]></a>'), { a: 'x & y <z> AB <c>' });
});

xml('prototype names are refused or dropped; other Object members are data', () => {
  assert.throws(() => parseXmlParams('<a><__proto__>x</__proto__></a>'), is(BodyParseError, 'SBX_ERR_XML_PARSE'));
  assert.throws(() => parseXmlParams('<a constructor="x"/>'), is(BodyParseError, 'SBX_ERR_XML_PARSE'));
  assert.equal(parseXmlParams('<a><_-proto__>x</_-proto__><toString>y</toString></a>'), { a: { toString: 'y' } });
  assert.equal(parseXmlParams('<_-proto__>x</_-proto__>'), {});
  assert.is(({} as Record<string, unknown>).x, undefined);
});

xml('malformed XML, DOCTYPEs, bad dates and several roots are a 400', () => {
  const bodies = [
    '<a><b></a>',
    'not xml',
    '<a b="1" b="2"/>',
    '<!DOCTYPE a [<!ENTITY x "yyyy">]><a>&x;</a>',
    '<a>1</a><b>2</b>',
    '<a type="date">yesterday</a>',
    '<a type="date">2005-02-30</a>',
    '<a type="datetime">soon</a>',
  ];
  for (const body of bodies) assert.throws(() => parseXmlParams(body), is(BodyParseError, 'SBX_ERR_XML_PARSE'), body);
});

xml('limits: depth and counts are a 400, size a 413', () => {
  assert.equal(parseXmlParams('<a><b><c>1</c></b></a>', { depth: 2 }), { a: { b: { c: '1' } } });
  assert.throws(() => parseXmlParams('<a><b><c><d>1</d></c></b></a>', { depth: 2 }), is(ParamsParseError, 'SBX_ERR_PARAMS_DEPTH'));
  assert.throws(() => parseXmlParams(`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`), is(ParamsParseError, 'SBX_ERR_PARAMS_DEPTH'));
  assert.equal(parseXmlParams('<a><b>1</b><c>2</c></a>', { keys: 2 }), { a: { b: '1', c: '2' } });
  assert.throws(() => parseXmlParams('<a><b>1</b><c>2</c><d>3</d></a>', { keys: 2 }), is(ParamsParseError, 'SBX_ERR_PARAMS_COUNT'));
  assert.throws(() => parseXmlParams('<a x="1" y="2" z="3"/>', { keys: 2 }), is(ParamsParseError, 'SBX_ERR_PARAMS_COUNT'));
  assert.throws(() => parseXmlParams('<a><b>1</b><b>2</b><b>3</b></a>', { arrayLength: 2 }), is(ParamsParseError, 'SBX_ERR_PARAMS_COUNT'));
  assert.throws(() => parseXmlParams(`<a>${'x'.repeat(2000)}</a>`, { bodyBytes: 1000 }), is(PayloadTooLarge));
});

xml.run();
