/**
 * Safe-by-default markup: the `html` tag escapes every interpolation unless
 * it is a `SafeString`; `escape` and `raw` are the two ways across.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { SafeString, escape, html, raw } from '../../../core/index.ts';

const test = suite('html escapes interpolations unless they are already safe');

const CASES: readonly [value: unknown, escaped: string][] = [
  ['<script>alert("x")</script>', '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'],
  ["Tom & Jerry's", 'Tom &amp; Jerry&#39;s'],
  [null, ''],
  [undefined, ''],
  [false, ''],
  [0, '0'],
  [true, 'true'],
  [['<a>', new SafeString('<b>'), null, 1], '&lt;a&gt;<b>1'],
  [new SafeString('<i>trusted</i>'), '<i>trusted</i>'],
  [{ toString: () => '<obj>' }, '&lt;obj&gt;'],
];

test('escape: the five HTML specials; nothing for null, undefined and false; arrays joined; safe strings kept', () => {
  for (const [value, escaped] of CASES) assert.is(escape(value), escaped, String(value));
});

test('escape refuses a function or a promise, which as text would be source code or "[object Promise]"', () => {
  function posts_path(): string {
    return '/posts';
  }
  assert.throws(() => escape(posts_path), /a function \(posts_path\) was interpolated into markup: call it, as posts_path\(…\)/);
  assert.throws(() => html`<a href="${posts_path.bind(null)}">`, /call it, as posts_path\(…\)/);
  assert.throws(() => escape([1, Promise.resolve('x')]), /a promise was interpolated into markup: await it/);
  assert.throws(() => escape({ then: () => undefined }), /a promise was interpolated/);
  assert.is(escape({ then: 'not a function' }), '[object Object]', 'an object with a then that is not a method is an object');
});

test('escape replaces exactly the five specials, wherever they are in any text, and leaves the rest as it is', () => {
  const entity: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  const text = fc.string({ unit: fc.oneof(fc.constantFrom('&', '<', '>', '"', "'", 'a', ' ', 'é'), fc.string({ maxLength: 1, unit: 'binary' })) });
  fc.assert(fc.property(text, (s) => {
    assert.is(escape(s), [...s].map((c) => entity[c] ?? c).join(''));
  }), { numRuns: 500 });
});

test('the html tag keeps its literal parts and escapes each value', () => {
  const name = '<Ann>';
  const out = html`<p class="x">${name} & ${raw('<b>bold</b>')} ${[1, '<2>']}</p>`;
  assert.instance(out, SafeString);
  assert.is(out.value, '<p class="x">&lt;Ann&gt; & <b>bold</b> 1&lt;2&gt;</p>');
  assert.is(html`plain`.value, 'plain');
});

test('nested html is not escaped twice', () => {
  const inner = html`<li>${'<x>'}</li>`;
  assert.is(html`<ul>${inner}</ul>`.value, '<ul><li>&lt;x&gt;</li></ul>');
});

test('raw marks markup safe, and gives a safe string back unchanged', () => {
  const safe = raw('<hr>');
  assert.is(safe.value, '<hr>');
  assert.is(raw(safe), safe);
});

test('a safe string reads as its markup in strings and in JSON', () => {
  const safe = new SafeString('<b>');
  assert.is(`${safe}`, '<b>');
  assert.is(String(safe), '<b>');
  assert.is(JSON.stringify({ s: safe }), '{"s":"<b>"}');
});

test.run();
