/**
 * `toXml`: Rails' `to_xml` shape for records, hashes and arrays: dasherized
 * names, typed values, `nil="true"`, `type="array"` collections, escaped text.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toXml } from '../../../core/index.ts';

const test = suite('toXml renders values as Rails to_xml does');

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

class Post {
  constructor(readonly id: number, readonly title: string) {}
  summary(): string {
    return 'methods are not attributes';
  }
}

test('a plain object is a <hash> of typed elements, names dasherized', () => {
  const xml = toXml({ id: 1, ratio: 1.5, published: true, created_at: new Date('2008-06-01T10:00:00Z'), body_text: 'a < b & "c"', gone: null, missing: undefined });
  assert.is(xml, `${HEAD}<hash>
  <id type="integer">1</id>
  <ratio type="float">1.5</ratio>
  <published type="boolean">true</published>
  <created-at type="datetime">2008-06-01T10:00:00.000Z</created-at>
  <body-text>a &lt; b &amp; &quot;c&quot;</body-text>
  <gone nil="true"></gone>
  <missing nil="true"></missing>
</hash>
`);
});

test('a record is rooted in its class name and lists its own data properties', () => {
  assert.is(toXml(new Post(3, 'Hi')), `${HEAD}<post>\n  <id type="integer">3</id>\n  <title>Hi</title>\n</post>\n`);
});

test('a record with attributes is rendered from them; a static model_name names the root', () => {
  class Record {
    static readonly model_name = 'Admin::UserAccount';
    readonly attributes = { login: 'ann' };
    readonly secret = 'never shown';
  }
  assert.is(toXml(new Record()), `${HEAD}<admin-user-account>\n  <login>ann</login>\n</admin-user-account>\n`);
});

test('arrays are type="array", named by the plural of their first element model, items by its singular', () => {
  assert.is(toXml([new Post(1, 'a'), new Post(2, 'b')]), `${HEAD}<posts type="array">
  <post>
    <id type="integer">1</id>
    <title>a</title>
  </post>
  <post>
    <id type="integer">2</id>
    <title>b</title>
  </post>
</posts>
`);
  assert.is(toXml([]), `${HEAD}<records type="array">\n</records>\n`);
  assert.is(toXml({ tags: ['x', 'y'] }), `${HEAD}<hash>\n  <tags type="array">\n    <tag>x</tag>\n    <tag>y</tag>\n  </tags>\n</hash>\n`);
});

test('nested objects nest; an explicit root replaces the derived one', () => {
  assert.is(toXml({ author: { name: 'Ann' } }, 'post'), `${HEAD}<post>\n  <author>\n    <name>Ann</name>\n  </author>\n</post>\n`);
});

test('a value with its own to_xml() renders itself', () => {
  assert.is(toXml({ to_xml: () => '<custom/>' }), '<custom/>');
});

test('a key that cannot be an XML name still makes a well-formed element, so no key can write markup', () => {
  assert.is(toXml({ 'a><admin>true</admin><b': 1, '1st place': 'x', 'b c': 'y', 'naïve': 'z', '': 'e' }), `${HEAD}<hash>
  <a__admin_true__admin__b type="integer">1</a__admin_true__admin__b>
  <_1st_place>x</_1st_place>
  <b_c>y</b_c>
  <naïve>z</naïve>
  <_>e</_>
</hash>
`);
});

test('a value that contains itself is a TypeError naming where, not a stack overflow', () => {
  const post: Record<string, unknown> = { title: 'Hi' };
  post.comments = [{ post }];
  assert.throws(() => toXml(post), (e: unknown) => e instanceof TypeError && e.message === 'toXml cannot write a value that contains itself: hash > comments > comment > post is hash again');
  const shared = { name: 'Ann' };
  assert.is(toXml({ author: shared, editor: shared }), `${HEAD}<hash>\n  <author>\n    <name>Ann</name>\n  </author>\n  <editor>\n    <name>Ann</name>\n  </editor>\n</hash>\n`, 'the same object twice side by side is no cycle');
});

test('characters XML cannot hold become *, as Rails Builder writes them; tabs, newlines and the rest stay', () => {
  assert.is(toXml({ body: 'a\u0000b\u0001c\u001fd\ufffee\ud800f\tg\nh\u00e9\ud83d\ude00' }), `${HEAD}<hash>\n  <body>a*b*c*d*e*f\tg\nh\u00e9\ud83d\ude00</body>\n</hash>\n`);
});

test('an invalid Date is nil, as JSON writes it null; a BigInt is an integer', () => {
  assert.is(toXml({ at: new Date('not a date'), big: 12345678901234567890n }), `${HEAD}<hash>
  <at type="datetime" nil="true"></at>
  <big type="integer">12345678901234567890</big>
</hash>
`);
});

test.run();
